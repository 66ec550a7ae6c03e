package com.bioauth.kit.simulator

import com.bioauth.kit.device.KeySpec

/**
 * The key description a Keystore writes into an attested key's leaf certificate (extension
 * 1.3.6.1.4.1.11129.2.1.17), as KeyMint 3 (attestation version 300) writes it for the key the
 * spec describes. Schema: https://source.android.com/docs/security/features/keystore/attestation
 * ("Attestation extension", `KeyDescription` and `AuthorizationList`: each tag `[tag] EXPLICIT`,
 * in ascending order); which list holds which tag follows what a device writes
 * (https://developer.android.com/privacy-and-security/security-key-attestation, "Verify
 * hardware-backed key pairs"): the secure hardware enforces the key's algorithm, purposes and user
 * authentication and reports the root of trust; Android's keystore daemon adds the creation time,
 * the calling app's id (`attestationApplicationId`, from the package manager) and the
 * unlocked-device rule, which it enforces itself.
 *
 * The simulated phone boots verified software under a locked bootloader; the description is the
 * same shape on every API level (a simplification: older Keymaster versions write fewer tags).
 */
internal object SimulatedKeyDescription {
    private const val ATTESTATION_VERSION = 300L
    private const val KEYMINT_VERSION = 300L

    /** `SecurityLevel ::= ENUMERATED`. */
    const val TRUSTED_ENVIRONMENT = 1
    const val STRONGBOX = 2

    // KeyMint's Tag.aidl numbers (the low 28 bits).
    private const val PURPOSE = 1
    private const val ALGORITHM = 2
    private const val KEY_SIZE = 3
    private const val DIGEST = 5
    private const val EC_CURVE = 10
    private const val NO_AUTH_REQUIRED = 503
    private const val USER_AUTH_TYPE = 504
    private const val UNLOCKED_DEVICE_REQUIRED = 509
    private const val CREATION_DATETIME = 701
    private const val ORIGIN = 702
    private const val ROOT_OF_TRUST = 704
    private const val OS_VERSION = 705
    private const val OS_PATCHLEVEL = 706
    private const val ATTESTATION_APPLICATION_ID = 709

    // KeyMint's enum values.
    private const val PURPOSE_SIGN = 2L
    private const val ALGORITHM_EC = 3L
    private const val DIGEST_SHA_2_256 = 4L
    private const val CURVE_P_256 = 1L
    private const val ORIGIN_GENERATED = 0L
    private const val AUTHENTICATOR_PASSWORD = 1L
    private const val AUTHENTICATOR_FINGERPRINT = 2L // HardwareAuthenticatorType: any strong biometric
    private const val VERIFIED_BOOT_VERIFIED = 0
    private const val OS_PATCH_LEVEL = 202_610L

    /** The description of a P-256 signing key made to [spec] with [challenge], in [securityLevel], by [device]'s app. */
    fun encode(spec: KeySpec, challenge: ByteArray, securityLevel: Int, device: SimulatedDevice, createdAtMillis: Long): ByteArray = Der.sequence(
        Der.integer(ATTESTATION_VERSION),
        Der.enumerated(securityLevel),
        Der.integer(KEYMINT_VERSION),
        Der.enumerated(securityLevel),
        Der.octetString(challenge),
        Der.octetString(ByteArray(0)), // uniqueId: only for apps that ask for one (system apps)
        software(spec, device, createdAtMillis),
        hardware(spec, device.apiLevel),
    )

    /** What Android's keystore daemon enforces and records. */
    private fun software(spec: KeySpec, device: SimulatedDevice, createdAtMillis: Long): ByteArray {
        val tags = sortedMapOf<Int, ByteArray>()
        if (spec.unlockedDeviceRequired) tags[UNLOCKED_DEVICE_REQUIRED] = Der.nul()
        tags[CREATION_DATETIME] = Der.integer(createdAtMillis)
        tags[ATTESTATION_APPLICATION_ID] = Der.octetString(applicationId(device))
        return list(tags)
    }

    /** What the TEE (or StrongBox) enforces: the key, its user authentication, the boot state. */
    private fun hardware(spec: KeySpec, apiLevel: Int): ByteArray {
        val tags = sortedMapOf<Int, ByteArray>()
        tags[PURPOSE] = Der.setOf(listOf(Der.integer(PURPOSE_SIGN)))
        tags[ALGORITHM] = Der.integer(ALGORITHM_EC)
        tags[KEY_SIZE] = Der.integer(256)
        tags[DIGEST] = Der.setOf(listOf(Der.integer(DIGEST_SHA_2_256)))
        tags[EC_CURVE] = Der.integer(CURVE_P_256)
        when (spec.authentication) {
            null -> tags[NO_AUTH_REQUIRED] = Der.nul()
            // Per use (timeout 0 or validity -1): no AUTH_TIMEOUT tag at all.
            KeySpec.Authentication.STRONG_BIOMETRIC_PER_USE, KeySpec.Authentication.BIOMETRIC_PER_USE_LEGACY ->
                tags[USER_AUTH_TYPE] = Der.integer(AUTHENTICATOR_FINGERPRINT)
            KeySpec.Authentication.BIOMETRIC_OR_CREDENTIAL_PER_USE ->
                tags[USER_AUTH_TYPE] = Der.integer(AUTHENTICATOR_FINGERPRINT or AUTHENTICATOR_PASSWORD)
        }
        tags[ORIGIN] = Der.integer(ORIGIN_GENERATED)
        tags[ROOT_OF_TRUST] = Der.sequence(
            Der.octetString(ByteArray(32) { 0xA5.toByte() }), // verifiedBootKey
            Der.boolean(true), // deviceLocked: the bootloader is locked
            Der.enumerated(VERIFIED_BOOT_VERIFIED),
            Der.octetString(ByteArray(32) { 0x5A }), // verifiedBootHash
        )
        tags[OS_VERSION] = Der.integer(osVersion(apiLevel))
        tags[OS_PATCHLEVEL] = Der.integer(OS_PATCH_LEVEL)
        return list(tags)
    }

    /**
     * `AttestationApplicationId ::= SEQUENCE { package_infos SET OF AttestationPackageInfo,
     * signature_digests SET OF OCTET STRING }`, `AttestationPackageInfo ::= SEQUENCE { package_name
     * OCTET STRING, version INTEGER }`; the digests are SHA-256 of the app's signing certificates.
     */
    private fun applicationId(device: SimulatedDevice): ByteArray = Der.sequence(
        Der.setOf(listOf(Der.sequence(Der.octetString(device.packageName.toByteArray(Charsets.UTF_8)), Der.integer(device.appVersionCode)))),
        Der.setOf(listOf(Der.octetString(device.signingCertificateDigest))),
    )

    private fun list(tags: Map<Int, ByteArray>): ByteArray = Der.sequence(tags.map { (tag, value) -> Der.explicit(tag, value) })

    /** `OS_VERSION` as `MMmmpp` for the Android release of [apiLevel]. */
    private fun osVersion(apiLevel: Int): Long = when {
        apiLevel <= 24 -> 70_000L
        apiLevel == 25 -> 71_000L
        apiLevel == 26 -> 80_000L
        apiLevel == 27 -> 81_000L
        apiLevel <= 31 -> (apiLevel - 19) * 10_000L // 9 to 12
        apiLevel == 32 -> 120_100L // 12L
        else -> (apiLevel - 20) * 10_000L // 13 and on
    }
}
