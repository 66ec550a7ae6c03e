package com.bioauth.kit.device

/**
 * Everything the SDK decides about a Keystore key; the Android layer turns it into a
 * `KeyGenParameterSpec` call for call, and the simulator enforces it. Made only by [KeySpecs].
 */
public data class KeySpec(
    /** The Keystore alias. */
    val alias: String,
    /** What the key is. */
    val kind: Kind,
    /** How each use is authorised; `null`: no user authentication (`setUserAuthenticationRequired(false)`). */
    val authentication: Authentication?,
    /** `setInvalidatedByBiometricEnrollment` (API 24+); `null`: not called (API 23, or no authentication). */
    val invalidatedByBiometricEnrollment: Boolean?,
    /** `setUnlockedDeviceRequired(true)` (API 28+). */
    val unlockedDeviceRequired: Boolean,
    /** `setIsStrongBoxBacked(true)` (API 28+). */
    val strongBox: Boolean,
    /**
     * `setAttestationChallenge(challenge)` (API 24+, signing keys only): the Keystore then certifies
     * the key with a chain to the device maker's attestation root, whose leaf describes the key and
     * carries this challenge. `null`: not called (no evidence; always so on API 23 and for AES keys).
     */
    val attestationChallenge: ByteArray? = null,
) {
    /** What a key is. */
    public enum class Kind {
        /** EC P-256 (`secp256r1`), `PURPOSE_SIGN`, `DIGEST_SHA256`. */
        SIGNING_P256,

        /** AES-256, `PURPOSE_ENCRYPT | PURPOSE_DECRYPT`, `BLOCK_MODE_GCM`, `ENCRYPTION_PADDING_NONE`. */
        AES_GCM_256,
    }

    /** How each use of a key that needs user authentication is authorised: always per use, through a `CryptoObject`. */
    public enum class Authentication {
        /** API 30+: `setUserAuthenticationParameters(0, AUTH_BIOMETRIC_STRONG)`. */
        STRONG_BIOMETRIC_PER_USE,

        /** API 30+: `setUserAuthenticationParameters(0, AUTH_BIOMETRIC_STRONG or AUTH_DEVICE_CREDENTIAL)`. */
        BIOMETRIC_OR_CREDENTIAL_PER_USE,

        /** API 23-29: `setUserAuthenticationValidityDurationSeconds(-1)`: a biometric match per use. */
        BIOMETRIC_PER_USE_LEGACY,
    }
}

/** The key specs per API level: the one place they are decided. */
public object KeySpecs {
    /** `Build.VERSION_CODES.N`: `setInvalidatedByBiometricEnrollment`. */
    public const val API_INVALIDATED_BY_ENROLLMENT: Int = 24

    /** `Build.VERSION_CODES.N`: `setAttestationChallenge` (Key Attestation); API 23 has none. */
    public const val API_KEY_ATTESTATION: Int = 24

    /** `Build.VERSION_CODES.P`: StrongBox and `setUnlockedDeviceRequired`. */
    public const val API_STRONGBOX_AND_UNLOCKED_DEVICE: Int = 28

    /** `Build.VERSION_CODES.R`: `setUserAuthenticationParameters`, and the device credential per use. */
    public const val API_AUTHENTICATION_PARAMETERS: Int = 30

    /**
     * Android 12 to 14 (API 31-34), where `setUnlockedDeviceRequired(true)` keys cannot be made or
     * used without a secure lock screen, are deleted when the lock screen is removed, and refuse
     * (keystore2 `LOCKED`) after an unlock by a class 1 or 2 biometric or a trust agent
     * (`KeyGenParameterSpec.Builder#setUnlockedDeviceRequired`'s warning; AOSP system/security
     * 6946daa "Fix UnlockedDeviceRequired with weak unlock methods", in Android 15).
     */
    public val API_UNLOCKED_DEVICE_UNSOUND: IntRange = 31..34

    /**
     * A key behind biometrics (the sign-in key, the vault key). API 30+: per use with
     * `AUTH_BIOMETRIC_STRONG` (or with the device credential too under
     * [BiometricPolicy.BIOMETRICS_OR_DEVICE_CREDENTIAL]); 24-29: validity -1 and invalidated by
     * enrollment; 23: validity -1 (the platform invalidates it on enrollment changes anyway).
     * [attestationChallenge] is kept for a signing key from API 24 ([attestable]), dropped otherwise.
     */
    public fun biometric(
        alias: String,
        kind: KeySpec.Kind,
        apiLevel: Int,
        policy: BiometricPolicy,
        strongBox: Boolean,
        attestationChallenge: ByteArray? = null,
    ): KeySpec {
        val credential = policy.allowsDeviceCredential(apiLevel)
        return KeySpec(
            alias = alias,
            kind = kind,
            authentication = when {
                apiLevel < API_AUTHENTICATION_PARAMETERS -> KeySpec.Authentication.BIOMETRIC_PER_USE_LEGACY
                credential -> KeySpec.Authentication.BIOMETRIC_OR_CREDENTIAL_PER_USE
                else -> KeySpec.Authentication.STRONG_BIOMETRIC_PER_USE
            },
            // With the device credential the key is bound to the lock screen's root SID, which an
            // enrollment change does not move (KeyStore2ParameterUtils.addSids): say so.
            invalidatedByBiometricEnrollment = if (apiLevel >= API_INVALIDATED_BY_ENROLLMENT) !credential else null,
            unlockedDeviceRequired = false,
            strongBox = strongBox && apiLevel >= API_STRONGBOX_AND_UNLOCKED_DEVICE,
            attestationChallenge = attestationChallenge.takeIf { kind == KeySpec.Kind.SIGNING_P256 && attestable(apiLevel) },
        )
    }

    /**
     * The PIN's key: no user authentication (the PIN, checked by the server, is the user check),
     * usable only while the phone is unlocked where the platform makes that sound
     * ([pinKeyUnlockedDeviceOnly]). [attestationChallenge] is kept from API 24.
     */
    public fun pin(alias: String, apiLevel: Int, strongBox: Boolean, attestationChallenge: ByteArray? = null): KeySpec = KeySpec(
        alias = alias,
        kind = KeySpec.Kind.SIGNING_P256,
        authentication = null,
        invalidatedByBiometricEnrollment = null,
        unlockedDeviceRequired = pinKeyUnlockedDeviceOnly(apiLevel),
        strongBox = strongBox && apiLevel >= API_STRONGBOX_AND_UNLOCKED_DEVICE,
        attestationChallenge = attestationChallenge.takeIf { attestable(apiLevel) },
    )

    /**
     * Whether the PIN key is made with `setUnlockedDeviceRequired(true)`: on API 28-30 and from API
     * 35. Not below 28 (no such call), and not on Android 12-14 ([API_UNLOCKED_DEVICE_UNSOUND]),
     * where the flag would make the PIN need a secure lock screen, lose it when the lock screen is
     * removed and refuse it after a face or Smart Lock unlock. The server's attestation rule for
     * PIN keys (`usable_while_locked`) reads the attested OS version the same way.
     */
    public fun pinKeyUnlockedDeviceOnly(apiLevel: Int): Boolean =
        apiLevel >= API_STRONGBOX_AND_UNLOCKED_DEVICE && apiLevel !in API_UNLOCKED_DEVICE_UNSOUND

    /**
     * Whether a key made on [apiLevel] can carry hardware evidence: `setAttestationChallenge` is
     * API 24 (developer.android.com/privacy-and-security/security-key-attestation). Below, the SDK
     * asks for no attestation challenge and sends no evidence.
     */
    public fun attestable(apiLevel: Int): Boolean = apiLevel >= API_KEY_ATTESTATION
}
