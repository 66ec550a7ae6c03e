// The Android library an app adds: the thin platform layer (platform/android: AndroidKeyStore,
// KeyGenParameterSpec, androidx.biometric, SharedPreferences) over bioauthkit-core, and the backup
// rules an app includes (res/xml). Depends on the Android platform, androidx.biometric and
// kotlinx-coroutines only.
plugins {
    alias(libs.plugins.android.library)
    alias(libs.plugins.kotlin.android)
    `maven-publish`
}

android {
    namespace = "com.bioauth.kit"
    compileSdk = 35

    defaultConfig {
        minSdk = 23
        consumerProguardFiles("consumer-rules.pro")
    }

    compileOptions {
        sourceCompatibility = JavaVersion.VERSION_17
        targetCompatibility = JavaVersion.VERSION_17
    }

    kotlinOptions {
        jvmTarget = "17"
    }

    sourceSets["main"].java.srcDirs("src/main/kotlin")

    publishing {
        singleVariant("release") {
            withSourcesJar()
        }
    }
}

kotlin {
    explicitApi()
}

dependencies {
    api(project(":bioauthkit-core"))
    api(libs.androidx.biometric)
    implementation(libs.kotlinx.coroutines.android)
}

publishing {
    publications {
        create<MavenPublication>("release") {
            artifactId = "bioauthkit"
            afterEvaluate { from(components["release"]) }
        }
    }
}
