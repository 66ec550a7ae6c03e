// The platform-neutral SDK: protocol, flows, key specs per API level, prompt settings, error
// mapping. Plain Kotlin on the JVM, so that every decision is tested without a phone.
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
    api(libs.kotlinx.coroutines.core)
    // org.json is part of the Android platform; the JVM build compiles against a copy and leaves it out.
    compileOnly(libs.orgjson)

    testImplementation(project(":bioauthkit-simulator"))
    testImplementation(libs.orgjson)
    testImplementation(libs.junit.jupiter)
    testRuntimeOnly(libs.junit.platform.launcher)
}

tasks.test {
    useJUnitPlatform()
    // The suite talks to a real `bioauth serve` (scripts/test-android sets BIOAUTH_BINARY).
    environment("BIOAUTH_TEST_VECTORS", rootProject.file("../docs/test-vectors.json").path)
    environment("BIOAUTH_ANDROID_RES", rootProject.file("bioauthkit/src/main/res").path)
    System.getenv("BIOAUTH_BINARY")?.let { environment("BIOAUTH_BINARY", it) }
}

publishing {
    publications {
        create<MavenPublication>("release") {
            artifactId = "bioauthkit-core"
            from(components["java"])
        }
    }
}
