// A faithful Android Keystore, androidx.biometric prompt, sensor, user and attacker on the JVM, for
// the SDK's tests and an app's own (testImplementation("com.bioauth:bioauthkit-simulator:…")).
plugins {
    alias(libs.plugins.kotlin.jvm)
    `maven-publish`
}

kotlin {
    explicitApi()
    jvmToolchain(17)
}

java {
    withSourcesJar()
}

dependencies {
    api(project(":bioauthkit-core"))
}

publishing {
    publications {
        create<MavenPublication>("release") {
            artifactId = "bioauthkit-simulator"
            from(components["java"])
        }
    }
}
