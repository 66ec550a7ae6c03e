package com.bioauth.kit.simulator

import com.bioauth.kit.device.AppStorage

/** SharedPreferences in memory; an attacker reads it whole, and Auto Backup copies it. */
public class SimulatedStorage : AppStorage {
    private val values = mutableMapOf<String, String>()

    @Synchronized override fun read(key: String): String? = values[key]

    @Synchronized override fun write(key: String, value: String?) {
        if (value == null) values.remove(key) else values[key] = value
    }

    /** Everything stored, as a thief of the app's data directory, or a backup, sees it. */
    @Synchronized public fun dump(): Map<String, String> = values.toMap()

    /**
     * Auto Backup restores [backup] onto this (new) phone: the SharedPreferences come back, the
     * Keystore keys never do (they cannot leave the secure hardware).
     */
    @Synchronized public fun restore(backup: Map<String, String>) {
        values.putAll(backup)
    }
}
