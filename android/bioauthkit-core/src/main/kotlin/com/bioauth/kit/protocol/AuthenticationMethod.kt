package com.bioauth.kit.protocol

/** How a session was signed in or re-authenticated (`authentication.method`, `factors`). */
public enum class AuthenticationMethod(
    /** The method as the server writes it. */
    public val wire: String,
) {
    /** The password. */
    PASSWORD("password"),

    /** A device key behind biometrics. */
    BIOMETRIC("biometric"),

    /** The PIN with this device's PIN key. */
    PIN("pin"),

    /** A passkey (the account page). */
    PASSKEY("passkey"),

    /** A method this SDK does not know. */
    UNKNOWN(""),
    ;

    internal companion object {
        fun of(wire: String): AuthenticationMethod = entries.firstOrNull { it.wire == wire && it != UNKNOWN } ?: UNKNOWN
    }
}
