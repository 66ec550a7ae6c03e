package com.bioauth.kit.client

/** Why this device can no longer use the key of a registration. */
public enum class LocalKeyLoss {
    /** An enrollment change (or the removed lock screen) invalidated the key. */
    KEY_INVALIDATED,

    /** The key is not in the Keystore (deleted, or the records came back from a backup without it). */
    KEY_MISSING,
}
