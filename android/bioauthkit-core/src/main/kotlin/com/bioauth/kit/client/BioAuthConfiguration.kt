package com.bioauth.kit.client

/** What an app tells the SDK once. */
public data class BioAuthConfiguration(
    /** The BioAuth server, e.g. `https://auth.bank.example`. */
    val serverUrl: String,
    /** The relying-party id the server was started with (`--relying-party`); signed into every message. */
    val relyingPartyId: String,
    /** Prefix of this SDK's Keystore aliases and storage keys, so that two apps' or accounts' never meet. */
    val namespace: String = "bioauth",
    /** What unlocks the sign-in key and the kept secrets: biometrics only unless the app opts in. */
    val policy: BiometricPolicy = BiometricPolicy.BIOMETRICS_ONLY,
    /** Session lifetime to ask for, in minutes (5…43200); the server's default when `null`. */
    val sessionDurationMinutes: Int? = null,
)
