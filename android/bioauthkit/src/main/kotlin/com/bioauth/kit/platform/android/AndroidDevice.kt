package com.bioauth.kit.platform.android

import android.app.KeyguardManager
import android.content.Context
import android.os.Build
import com.bioauth.kit.device.DeviceBackends
import com.bioauth.kit.device.DeviceInfo

/** This phone's backends for `BioAuthClient`: the Keystore, androidx.biometric's prompt, SharedPreferences. */
public object AndroidDevice {
    /**
     * `android.os.SystemClock.elapsedRealtime()` (API 1), named by reflection: the API excerpt
     * scripts/test-android type-checks against (../shared/tools/android-typecheck/api) has no
     * `SystemClock`. Call it directly once the excerpt has it.
     */
    private val elapsedRealtime = Class.forName("android.os.SystemClock").getMethod("elapsedRealtime")

    /** The SharedPreferences file the SDK writes by default (`bioauth.xml`: the shipped backup rules exclude it). */
    public const val DEFAULT_PREFERENCES: String = "bioauth"

    /**
     * The backends of the device [context] runs on. [prompt] shows prompts over the activity it is
     * attached to; [preferences] names the app-private file the SDK writes (exclude it from backup,
     * docs/BIOAUTHKIT-ANDROID.md "Backup").
     */
    public fun backends(context: Context, prompt: AndroidBiometricPrompt, preferences: String = DEFAULT_PREFERENCES): DeviceBackends {
        val app = context.applicationContext
        val keyguard = app.getSystemService(KeyguardManager::class.java)
        return DeviceBackends(
            keyStore = AndroidKeyStoreBackend(),
            prompt = prompt,
            storage = PreferencesStorage(app.getSharedPreferences(preferences, Context.MODE_PRIVATE)),
            info = object : DeviceInfo {
                override val apiLevel: Int = Build.VERSION.SDK_INT
                override fun isDeviceSecure(): Boolean = keyguard.isDeviceSecure
                override fun isDeviceLocked(): Boolean = keyguard.isDeviceLocked
                override fun elapsedRealtimeMillis(): Long = elapsedRealtime.invoke(null) as Long
            },
        )
    }
}
