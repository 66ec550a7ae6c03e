// The Android library an app adds: the platform layer (platform/android: AndroidKeyStore,
// KeyGenParameterSpec, BiometricPrompt, SharedPreferences) over bioauthkit-core. No dependency
// beyond the Android platform: the SDK's suspend functions use the Kotlin standard library's
// coroutines only, and androidx.biometric is optional (implement BiometricPromptBackend over it).
plugins {
    id("com.android.library")
    id("org.jetbrains.kotlin.android")
}

android {
    namespace = "com.bioauth.kit"
    compileSdk = 35

    defaultConfig {
        minSdk = 28
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
}

dependencies {
    api(project(":bioauthkit-core"))
}
