package com.bioauth.kit.device

/**
 * Everything the SDK decides about a Keystore key, per API level; the Android layer turns it into
 * a `KeyGenParameterSpec` call for call.
 */
data class KeySpec(
    val alias: String,
    val kind: Kind,
    /** `setUserAuthenticationRequired`. */
    val userAuthenticationRequired: Boolean,
    /** `setInvalidatedByBiometricEnrollment` (only meaningful with authentication required). */
    val invalidatedByBiometricEnrollment: Boolean,
    /** How each use is authenticated, when authentication is required. */
    val authentication: AuthenticationRule?,
    /** `setIsStrongBoxBacked`. */
    val strongBox: Boolean,
) {
    /** What the key is. */
    enum class Kind {
        /** EC P-256 (`secp256r1`), `PURPOSE_SIGN`, `DIGEST_SHA256`. */
        SIGNING_P256,

        /** AES-256, `PURPOSE_ENCRYPT | PURPOSE_DECRYPT`, `BLOCK_MODE_GCM`, `ENCRYPTION_PADDING_NONE`. */
        AES_GCM_256,
    }

    /** How a use of an authentication-bound key is authorised. */
    sealed class AuthenticationRule {
        /** API 30+: `setUserAuthenticationParameters(0, AUTH_BIOMETRIC_STRONG)`: every use needs its own strong-biometric match. */
        object EveryUseStrongBiometric : AuthenticationRule()

        /** API 28-29: `setUserAuthenticationValidityDurationSeconds(-1)`: every use needs a biometric match (through a CryptoObject). */
        object EveryUseLegacy : AuthenticationRule()
    }

    companion object {
        /** `Build.VERSION_CODES.R`, where `setUserAuthenticationParameters` arrived. */
        const val API_WITH_AUTHENTICATION_PARAMETERS = 30

        /** A key behind biometrics: each use needs a match, a biometric enrollment change invalidates it. */
        fun biometric(alias: String, kind: Kind, apiLevel: Int, strongBox: Boolean) = KeySpec(
            alias, kind, userAuthenticationRequired = true, invalidatedByBiometricEnrollment = true,
            authentication = if (apiLevel >= API_WITH_AUTHENTICATION_PARAMETERS) AuthenticationRule.EveryUseStrongBiometric else AuthenticationRule.EveryUseLegacy,
            strongBox = strongBox,
        )

        /** The PIN's key: hardware-bound, usable without a match (the PIN, checked by the server, is the user check). */
        fun pin(alias: String, strongBox: Boolean) = KeySpec(
            alias, Kind.SIGNING_P256, userAuthenticationRequired = false, invalidatedByBiometricEnrollment = false,
            authentication = null, strongBox = strongBox,
        )
    }
}
