package com.bioauth.kit.device

/** App-private key-value storage (SharedPreferences). Whatever is here, an attacker may read. */
public interface AppStorage {
    /** The value under [key]. */
    public fun read(key: String): String?

    /** Stores [value] under [key], or removes it when `null`; durably before it returns. The SDK calls it on `Dispatchers.IO`. */
    public fun write(key: String, value: String?)
}
