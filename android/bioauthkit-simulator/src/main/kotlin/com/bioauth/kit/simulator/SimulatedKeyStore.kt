package com.bioauth.kit.simulator

import com.bioauth.kit.device.CipherOperation
import com.bioauth.kit.device.KeySpec
import com.bioauth.kit.device.KeySpec.Authentication
import com.bioauth.kit.device.KeySpecs
import com.bioauth.kit.device.KeyStoreBackend
import com.bioauth.kit.device.KeystoreFailure
import com.bioauth.kit.device.KeystoreFailure.Kind
import com.bioauth.kit.device.SigningOperation
import java.math.BigInteger
import java.security.KeyPair
import java.security.KeyPairGenerator
import java.security.Signature
import java.security.spec.ECGenParameterSpec
import java.util.Date
import javax.crypto.AEADBadTagException
import javax.crypto.Cipher
import javax.crypto.KeyGenerator
import javax.crypto.SecretKey
import javax.crypto.spec.GCMParameterSpec

/**
 * The Android Keystore in software, as AOSP implements it, with the Android layer's renaming of
 * each exception (`KeystoreFailure`). Each rule cites its source:
 *
 * - Generation with user authentication fails without a secure lock screen ("Secure lock screen
 *   must be enabled to create keys requiring user authentication"), and a biometric-only per-use
 *   key fails with nothing enrolled ("At least one biometric must be enrolled to create keys
 *   requiring user authentication for every use"): both an `IllegalStateException` that
 *   `KeyPairGenerator.initialize` wraps in `InvalidAlgorithmParameterException`
 *   (frameworks/base keystore/java/android/security/keystore2/KeyStore2ParameterUtils.java,
 *   `getRootSid`, `addSids`).
 * - StrongBox: `StrongBoxUnavailableException` on a device without one
 *   (KeyGenParameterSpec.Builder#setIsStrongBoxBacked); any other StrongBox failure is a
 *   `ProviderException("Failed to generate key pair.", KeyStoreException)`
 *   (keystore2/AndroidKeyStoreKeyPairGeneratorSpi.generateKeyPairHelper: every KeyStoreException
 *   but HARDWARE_TYPE_UNAVAILABLE).
 * - Invalidation: a new enrollment invalidates biometric-only keys unless
 *   `setInvalidatedByBiometricEnrollment(false)` (API 24+); `AUTH_BIOMETRIC_STRONG |
 *   AUTH_DEVICE_CREDENTIAL` keys are bound to the lock screen's root SID and survive it
 *   (KeyStore2ParameterUtils.addSids); removing the lock screen invalidates every key that needs
 *   authentication (KeyGenParameterSpec.Builder#setUserAuthenticationRequired).
 * - Where an invalidated key is reported: from API 31 (keystore2) `KeyStore.getKey` throws
 *   `UnrecoverableKeyException` with the message only, no cause (keystore2/AndroidKeyStoreSpi.engineGetKey
 *   rethrowing AndroidKeyStoreProvider.loadAndroidKeyStoreKeyFromKeystore's
 *   KeyPermanentlyInvalidatedException); before, `getKey` succeeds and `initSign` / `Cipher.init`
 *   throw `KeyPermanentlyInvalidatedException` (keystore/AndroidKeyStoreSignatureSpiBase via
 *   KeyStoreCryptoOperationUtils.getInvalidKeyException). A missing key: `getKey` answers `null`.
 * - `setUnlockedDeviceRequired(true)` keys refuse to sign while the device is locked
 *   (KeyGenParameterSpec.Builder#setUnlockedDeviceRequired): from API 31 keystore2's DEVICE_LOCKED
 *   reaches `initSign` through getInvalidKeyException's default branch, an `InvalidKeyException`
 *   caused by a `KeyStoreException`; before, `UserNotAuthenticatedException` (its LOCKED case).
 * - Those keys on Android 12-14 (API 31-34), the bugs `KeyGenParameterSpec.Builder#setUnlockedDeviceRequired`
 *   warns of: keystore2 encrypts them under a per-user super key it holds only while the lock
 *   screen credential or a strong biometric unlocked the device (system/security keystore2
 *   super_key.rs). Without a secure lock screen there is none: generation fails with `LOCKED`
 *   (`ProviderException("Failed to generate key pair.", KeyStoreException)`,
 *   AndroidKeyStoreKeyPairGeneratorSpi's default branch) and so does use; removing the lock
 *   screen deletes them (`getKey` answers `null`); after an unlock by a class 1 or 2 biometric or
 *   a trust agent the super key is missing while the screen is unlocked, and `initSign` fails with
 *   `LOCKED`, which KeyStoreCryptoOperationUtils.getInvalidKeyException makes a
 *   `UserNotAuthenticatedException` (AOSP system/security 6946daa, "Fix UnlockedDeviceRequired
 *   with weak unlock methods", fixes this in Android 15). From API 35 and up to API 30 none of it.
 * - A per-use key begins without a match; `sign` / `doFinal` refuse an operation no match
 *   authorised: `SignatureException` / `IllegalBlockSizeException` caused by a `KeyStoreException`
 *   "Key user not authenticated" (BiometricPrompt.CryptoObject,
 *   KeyGenParameterSpec.Builder#setUserAuthenticationParameters).
 * - Key attestation: a signing key generated with `setAttestationChallenge` (API 24+) has a
 *   certificate chain leaf first, from the leaf certifying its public key, whose key description
 *   (extension 1.3.6.1.4.1.11129.2.1.17) carries the challenge and what the key is, to the
 *   attestation root (https://developer.android.com/privacy-and-security/security-key-attestation;
 *   https://source.android.com/docs/security/features/keystore/attestation): see
 *   [SimulatedKeyDescription] and [SimulatedAttestationAuthority]. The description says what the
 *   key really is, whatever the app believes it asked for (an [Attacker]'s hooked spec included),
 *   and where it lives (StrongBox or the TEE). A signing key made without a challenge has a
 *   single self-signed certificate (KeyMint's `IKeyMintDevice.generateKey`: an asymmetric signing
 *   key without ATTESTATION_CHALLENGE is self-signed); an AES key has none
 *   (`KeyStore.getCertificateChain` answers `null`).
 */
public class SimulatedKeyStore internal constructor(private val device: SimulatedDevice) : KeyStoreBackend {
    private class Entry(
        val spec: KeySpec,
        val pair: KeyPair?,
        val secret: SecretKey?,
        val chain: List<ByteArray>? = null,
        var invalidated: Boolean = false,
    )

    private val entries = mutableMapOf<String, Entry>()
    private val generationFaults = ArrayDeque<Exception>()
    private val useFaults = ArrayDeque<KeystoreFailure>()

    /** The specs of the keys in the Keystore, by alias (what a test reads to check the SDK's choices). */
    public val specs: Map<String, KeySpec> @Synchronized get() = entries.mapValues { it.value.spec }

    /** Every spec a key was generated with, in order, StrongBox attempts that failed included. */
    public val generated: List<KeySpec> @Synchronized get() = attempts.toList()
    private val attempts = mutableListOf<KeySpec>()

    /**
     * A StrongBox that fails with something other than "unavailable" (out of key slots, a
     * parameter it does not support): set to the renamed failure, e.g. `ProviderException` <-
     * `KeyStoreException`. `null`: StrongBox works (when the device has one).
     */
    @Volatile public var strongBoxFault: KeystoreFailure? = null

    /**
     * A phone that cannot attest: every generation with an attestation challenge fails with this
     * renamed failure, e.g. `ProviderException` <- `KeyStoreException` (keystore2's
     * AndroidKeyStoreKeyPairGeneratorSpi for `ATTESTATION_KEYS_NOT_PROVISIONED`, or Remote Key
     * Provisioning out of keys, `transient` when `KeyStoreException.isTransientFailure()` says so;
     * keystore1's "Failed to generate attestation certificate chain" on some Android 7 phones).
     * `null`: attestation works.
     */
    @Volatile public var attestationFault: KeystoreFailure? = null

    /** The next generation that reaches the hardware (StrongBox or TEE) throws [error] as it is. */
    @Synchronized public fun failNextGeneration(error: Exception) {
        generationFaults.addLast(error)
    }

    /**
     * The next `getKey` fails with [failure] whatever the key's state: keystore2's other
     * `UnrecoverableKeyException`s carry the `KeyStoreException` behind them ("Failed to obtain
     * information about key", AndroidKeyStoreProvider.loadAndroidKeyStoreKeyFromKeystore's default branch).
     */
    @Synchronized public fun failNextUse(failure: KeystoreFailure) {
        useFaults.addLast(failure)
    }

    /** Whether a key exists under [alias] (for tests; the SDK never asks: existence is not usability). */
    @Synchronized public fun contains(alias: String): Boolean = entries.containsKey(alias)

    @Synchronized override fun delete(alias: String) {
        entries.remove(alias)
    }

    @Synchronized override fun generateSigningKey(spec: KeySpec): ByteArray {
        val made = device.attacker.hookedKeySpec(spec)
        checkGeneration(made)
        val generator = KeyPairGenerator.getInstance("EC")
        generator.initialize(ECGenParameterSpec("secp256r1"))
        val pair = generator.generateKeyPair()
        entries[made.alias] = Entry(made, pair, null, certify(made, pair))
        return pair.public.encoded
    }

    @Synchronized override fun certificateChain(alias: String): List<ByteArray>? = entries[alias]?.chain?.map { it.copyOf() }

    /** The chain `getCertificateChain` will return for a key made to [spec]: attested with its challenge, else self-signed. */
    private fun certify(spec: KeySpec, pair: KeyPair): List<ByteArray> {
        val challenge = spec.attestationChallenge
        if (challenge == null || device.apiLevel < KeySpecs.API_KEY_ATTESTATION) {
            val name = Certificates.name(Certificates.COMMON_NAME to "Android Keystore Key")
            val notAfter = Date(KEYSTORE_DEFAULT_NOT_AFTER)
            return listOf(Certificates.issue(BigInteger.ONE, name, name, Date(0), notAfter, pair.public.encoded, emptyList(), pair.private))
        }
        // Generation succeeded, so a StrongBox key is in StrongBox (the device has one).
        val level = if (spec.strongBox) SimulatedKeyDescription.STRONGBOX else SimulatedKeyDescription.TRUSTED_ENVIRONMENT
        val description = SimulatedKeyDescription.encode(spec, challenge, level, device, System.currentTimeMillis())
        return device.attestationAuthority.chain(pair.public, description)
    }

    @Synchronized override fun generateSecretKey(spec: KeySpec) {
        checkGeneration(spec)
        val generator = KeyGenerator.getInstance("AES")
        generator.init(256)
        entries[spec.alias] = Entry(spec, null, generator.generateKey())
    }

    @Synchronized override fun beginSigning(alias: String): SigningOperation {
        val entry = load(alias)
        val pair = entry.pair ?: throw KeystoreFailure(Kind.KEY_NOT_FOUND)
        val signature = Signature.getInstance("SHA256withECDSA").apply { initSign(pair.private) }
        return Operation(this, entry.spec, Kind.SIGNATURE_EXCEPTION) { data ->
            signature.update(data)
            signature.sign()
        }
    }

    @Synchronized override fun beginEncryption(alias: String): CipherOperation = cipher(alias, null)

    @Synchronized override fun beginDecryption(alias: String, iv: ByteArray): CipherOperation = cipher(alias, iv)

    private companion object {
        const val KEYSTORE_DEFAULT_NOT_AFTER = 2_461_449_600_000L // 2048-01-01T00:00:00Z, KeyGenParameterSpec's default

        /** Android 12 to 14: the platform's own range, not the SDK's (KeySpecs decides what the SDK asks for). */
        val UNSOUND_UNLOCKED_DEVICE_KEYS = 31..34
    }

    /** A biometric enrollment changed: keys bound to the enrolled biometrics are invalidated. */
    @Synchronized internal fun biometricEnrollmentChanged() {
        entries.values.filter { it.spec.boundToEnrollment() }.forEach { it.invalidated = true }
    }

    /**
     * The secure lock screen was removed: every key that needs user authentication is invalidated;
     * on Android 12-14 every unlocked-device key is deleted.
     */
    @Synchronized internal fun lockScreenRemoved() {
        entries.values.filter { it.spec.authentication != null }.forEach { it.invalidated = true }
        if (unsoundUnlockedDeviceKeys()) entries.values.removeAll { it.spec.unlockedDeviceRequired }
    }

    /** Android 12-14's keystore2, whose unlocked-device keys behave as the class KDoc says. */
    private fun unsoundUnlockedDeviceKeys(): Boolean = device.apiLevel in UNSOUND_UNLOCKED_DEVICE_KEYS

    private fun KeySpec.boundToEnrollment(): Boolean = when (authentication) {
        Authentication.STRONG_BIOMETRIC_PER_USE, Authentication.BIOMETRIC_PER_USE_LEGACY -> invalidatedByBiometricEnrollment != false
        Authentication.BIOMETRIC_OR_CREDENTIAL_PER_USE, null -> false
    }

    private fun cipher(alias: String, iv: ByteArray?): CipherOperation {
        val entry = load(alias)
        val key = entry.secret ?: throw KeystoreFailure(Kind.KEY_NOT_FOUND)
        val cipher = Cipher.getInstance("AES/GCM/NoPadding")
        if (iv == null) cipher.init(Cipher.ENCRYPT_MODE, key) else cipher.init(Cipher.DECRYPT_MODE, key, GCMParameterSpec(128, iv))
        val operation = Operation(this, entry.spec, Kind.ILLEGAL_BLOCK_SIZE) { data ->
            try {
                cipher.doFinal(data)
            } catch (error: AEADBadTagException) {
                throw KeystoreFailure(Kind.BAD_CIPHERTEXT, error)
            }
        }
        return CipherUse(operation, cipher.iv)
    }

    /** `KeyStore.getKey` and the operation's `init`, as the API level reports what is wrong. */
    private fun load(alias: String): Entry {
        val entry = entries[alias] ?: throw KeystoreFailure(Kind.KEY_NOT_FOUND)
        useFaults.removeFirstOrNull()?.let { throw it }
        val keystore2 = device.apiLevel >= 31
        if (entry.invalidated) {
            throw KeystoreFailure(if (keystore2) listOf(Kind.UNRECOVERABLE_KEY) else listOf(Kind.KEY_PERMANENTLY_INVALIDATED))
        }
        if (entry.spec.unlockedDeviceRequired && device.isLocked) {
            throw KeystoreFailure(if (keystore2) listOf(Kind.INVALID_KEY, Kind.KEYSTORE_EXCEPTION) else listOf(Kind.USER_NOT_AUTHENTICATED))
        }
        if (entry.spec.unlockedDeviceRequired && unsoundUnlockedDeviceKeys() && !(device.isDeviceSecure() && device.isKeystoreUnlocked)) {
            throw KeystoreFailure(Kind.USER_NOT_AUTHENTICATED) // keystore2's LOCKED while the screen is unlocked
        }
        return entry
    }

    private fun checkGeneration(spec: KeySpec) {
        attempts += spec
        if (spec.strongBox) {
            if (!device.hasStrongBox) throw KeystoreFailure(Kind.STRONGBOX_UNAVAILABLE)
            strongBoxFault?.let { throw it }
        }
        generationFaults.removeFirstOrNull()?.let { throw it }
        if (spec.attestationChallenge != null && device.apiLevel >= KeySpecs.API_KEY_ATTESTATION) attestationFault?.let { throw it }
        if (spec.unlockedDeviceRequired && unsoundUnlockedDeviceKeys() && !device.isDeviceSecure()) {
            throw KeystoreFailure(listOf(Kind.PROVIDER_EXCEPTION, Kind.KEYSTORE_EXCEPTION)) // LOCKED: no super key without a lock screen
        }
        if (spec.authentication != null && !device.isDeviceSecure()) {
            throw KeystoreFailure(listOf(Kind.INVALID_ALGORITHM_PARAMETER, Kind.ILLEGAL_STATE))
        }
        val biometricOnly = spec.authentication == Authentication.STRONG_BIOMETRIC_PER_USE ||
            spec.authentication == Authentication.BIOMETRIC_PER_USE_LEGACY
        if (biometricOnly && device.enrolledCount == 0) throw KeystoreFailure(listOf(Kind.INVALID_ALGORITHM_PARAMETER, Kind.ILLEGAL_STATE))
    }

    /**
     * One begun key use: usable once, and for a key that needs authentication only after the
     * simulated prompt reported a match this key accepts for this very operation.
     */
    internal class Operation(
        private val store: SimulatedKeyStore,
        private val spec: KeySpec,
        private val refusal: Kind,
        private val work: (ByteArray) -> ByteArray,
    ) : SigningOperation {
        @Volatile private var authorised = false
        @Volatile private var used = false

        /** The prompt of [device] matched: a biometric, or the device credential ([byCredential]). */
        internal fun authorise(device: SimulatedDevice, byCredential: Boolean) {
            if (store !== device.keyStore) return  // another phone's sensor authorises nothing here
            // A credential's auth token authorises only keys whose auth type includes it (addSids).
            if (byCredential && spec.authentication != Authentication.BIOMETRIC_OR_CREDENTIAL_PER_USE) return
            authorised = true
        }

        override fun sign(data: ByteArray): ByteArray = run(data)

        fun run(data: ByteArray): ByteArray {
            if (spec.authentication != null && !authorised) throw KeystoreFailure(listOf(refusal, Kind.KEYSTORE_EXCEPTION))
            if (used) throw KeystoreFailure(Kind.ILLEGAL_STATE)
            used = true
            return work(data)
        }
    }

    /** A begun cipher use. */
    internal class CipherUse(internal val operation: Operation, override val iv: ByteArray) : CipherOperation {
        override fun finish(data: ByteArray): ByteArray = operation.run(data)
    }
}
