// The platform-neutral SDK: protocol, flows, key-spec policy, error mapping. Plain Kotlin on the
// JVM, so that every decision is tested without a phone.
plugins {
    id("org.jetbrains.kotlin.jvm")
}

kotlin {
    jvmToolchain(17)
}

dependencies {
    // org.json is part of the Android platform; the JVM build compiles against a copy and leaves it out.
    compileOnly("org.json:json:20240303")

    testImplementation(project(":bioauthkit-simulator"))
    testImplementation("org.json:json:20240303")
    testImplementation("org.junit.jupiter:junit-jupiter:5.10.2")
    testRuntimeOnly("org.junit.platform:junit-platform-launcher")
}

tasks.test {
    useJUnitPlatform()
    // The suite talks to a real `bioauth serve` (see scripts/test-android, which sets both).
    environment("BIOAUTH_TEST_VECTORS", rootProject.file("../docs/test-vectors.json").path)
    System.getenv("BIOAUTH_BINARY")?.let { environment("BIOAUTH_BINARY", it) }
}
