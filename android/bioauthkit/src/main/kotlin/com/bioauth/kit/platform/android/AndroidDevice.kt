package com.bioauth.kit.platform.android

import android.app.KeyguardManager
import android.content.Context
import android.content.SharedPreferences
import android.os.Build
import com.bioauth.kit.device.AppStorage
import com.bioauth.kit.device.DeviceBackends
import com.bioauth.kit.device.DeviceInfo

/** This phone's backends for `BioAuthClient`: the Keystore, the platform prompt, SharedPreferences. */
object AndroidDevice {
    /** The backends of the device [context] runs on; [preferences] names the app-private file the SDK writes. */
    fun backends(context: Context, preferences: String = "bioauth"): DeviceBackends {
        val app = context.applicationContext
        return DeviceBackends(
            keyStore = AndroidKeyStoreBackend(),
            prompt = AndroidBiometricPrompt(context),
            storage = PreferencesStorage(app.getSharedPreferences(preferences, Context.MODE_PRIVATE)),
            info = object : DeviceInfo {
                override val apiLevel: Int = Build.VERSION.SDK_INT
                override fun isDeviceSecure(): Boolean = app.getSystemService(KeyguardManager::class.java).isDeviceSecure
            },
        )
    }
}

/** SharedPreferences as [AppStorage]. */
class PreferencesStorage(private val preferences: SharedPreferences) : AppStorage {
    override fun read(key: String): String? = preferences.getString(key, null)

    override fun write(key: String, value: String?) {
        val editor = preferences.edit()
        if (value == null) editor.remove(key) else editor.putString(key, value)
        editor.commit()
    }
}
