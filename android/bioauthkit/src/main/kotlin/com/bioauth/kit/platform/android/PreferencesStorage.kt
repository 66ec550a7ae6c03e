package com.bioauth.kit.platform.android

import android.content.SharedPreferences
import com.bioauth.kit.device.AppStorage

/** SharedPreferences as [AppStorage]; each write is committed (`commit()`) before it returns, on the SDK's IO thread. */
public class PreferencesStorage(private val preferences: SharedPreferences) : AppStorage {
    override fun read(key: String): String? = preferences.getString(key, null)

    override fun write(key: String, value: String?) {
        val editor = preferences.edit()
        if (value == null) editor.remove(key) else editor.putString(key, value)
        editor.commit()
    }
}
