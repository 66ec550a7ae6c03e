// A faithful Android Keystore, BiometricPrompt, sensor, user and attacker on the JVM, for the
// SDK's tests and an app's own.
plugins {
    id("org.jetbrains.kotlin.jvm")
}

kotlin {
    jvmToolchain(17)
}

dependencies {
    api(project(":bioauthkit-core"))
}
