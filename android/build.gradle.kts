// BioAuthKit for Android: versions in gradle/libs.versions.toml; each library module publishes
// com.bioauth:<module>:<version> with maven-publish (./gradlew publishToMavenLocal).
import org.jetbrains.kotlin.gradle.tasks.KotlinCompile

plugins {
    alias(libs.plugins.android.application) apply false
    alias(libs.plugins.android.library) apply false
    alias(libs.plugins.kotlin.android) apply false
    alias(libs.plugins.kotlin.jvm) apply false
}

val sdkVersion = libs.versions.bioauthkit.get()

subprojects {
    group = "com.bioauth"
    version = sdkVersion

    // Warnings are errors everywhere, as in scripts/test-android (-Werror).
    tasks.withType<KotlinCompile>().configureEach {
        kotlinOptions.allWarningsAsErrors = true
    }
}
