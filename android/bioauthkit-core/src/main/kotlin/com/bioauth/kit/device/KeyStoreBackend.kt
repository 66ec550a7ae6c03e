package com.bioauth.kit.device

/**
 * The Android Keystore (`AndroidKeyStore` provider) as the SDK uses it. Every method throws only
 * [KeystoreFailure] (the platform's exceptions, renamed); any other exception is a bug of the
 * backend, and the SDK reports it as `SYSTEM_FAILURE` all the same.
 */
public interface KeyStoreBackend {
    /** Generates an EC P-256 key pair as [spec] says; returns its public key (X.509 SubjectPublicKeyInfo). */
    public fun generateSigningKey(spec: KeySpec): ByteArray

    /** Generates an AES-256 key as [spec] says. */
    public fun generateSecretKey(spec: KeySpec)

    /**
     * `KeyStore.getKey` then `Signature.initSign` (SHA256withECDSA). No prompt: for a key that needs
     * a match per use, the match is checked when the operation finishes. A key that does not exist
     * fails with [KeystoreFailure.Kind.KEY_NOT_FOUND] (`getKey` answers `null`).
     */
    public fun beginSigning(alias: String): SigningOperation

    /** `KeyStore.getKey` then `Cipher.init(ENCRYPT_MODE)` (AES/GCM/NoPadding); no prompt. */
    public fun beginEncryption(alias: String): CipherOperation

    /** `KeyStore.getKey` then `Cipher.init(DECRYPT_MODE, GCMParameterSpec(128, iv))`; no prompt. */
    public fun beginDecryption(alias: String, iv: ByteArray): CipherOperation

    /**
     * `KeyStore.getCertificateChain(alias)`, each certificate's `getEncoded()` (DER), leaf first:
     * for a key generated with [KeySpec.attestationChallenge], the attestation chain. `null` when
     * the Keystore has no chain for [alias].
     */
    public fun certificateChain(alias: String): List<ByteArray>?

    /** `KeyStore.deleteEntry` (no error when there is none). */
    public fun delete(alias: String)
}

/** A key's use, begun (`Signature.initSign`, `Cipher.init`) and not yet finished: what a `CryptoObject` wraps. */
public interface KeyOperation

/** A begun `Signature` (SHA256withECDSA). */
public interface SigningOperation : KeyOperation {
    /** `update` + `sign`: a DER ECDSA signature, if the Keystore allows this use. */
    public fun sign(data: ByteArray): ByteArray
}

/** A begun `Cipher` (AES/GCM/NoPadding). */
public interface CipherOperation : KeyOperation {
    /** The GCM IV (chosen by the Keystore when encrypting). */
    public val iv: ByteArray

    /** `doFinal`, if the Keystore allows this use. */
    public fun finish(data: ByteArray): ByteArray
}
