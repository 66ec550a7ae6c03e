// BioAuthKit for Android. An app adds `bioauthkit` (it brings `bioauthkit-core`); an app's own JVM
// tests add `bioauthkit-simulator` to test its sign-in flows without a phone. `sample` is an app.
pluginManagement {
    repositories {
        google()
        mavenCentral()
        gradlePluginPortal()
    }
}

dependencyResolutionManagement {
    repositoriesMode.set(RepositoriesMode.FAIL_ON_PROJECT_REPOS)
    repositories {
        google()
        mavenCentral()
    }
}

rootProject.name = "bioauth-android"
include(":bioauthkit-core", ":bioauthkit", ":bioauthkit-simulator", ":sample")
