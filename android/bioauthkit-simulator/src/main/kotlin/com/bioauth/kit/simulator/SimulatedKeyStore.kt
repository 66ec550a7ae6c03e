package com.bioauth.kit.simulator

import com.bioauth.kit.device.CipherOperation
import com.bioauth.kit.device.KeySpec
import com.bioauth.kit.device.KeyStoreBackend
import com.bioauth.kit.device.KeystoreFailure
import com.bioauth.kit.device.KeystoreFailure.Kind
import com.bioauth.kit.device.SigningOperation
import java.security.KeyPair
import java.security.KeyPairGenerator
import java.security.Signature
import java.security.spec.ECGenParameterSpec
import javax.crypto.Cipher
import javax.crypto.KeyGenerator
import javax.crypto.SecretKey
import javax.crypto.spec.GCMParameterSpec

/**
 * The Android Keystore in software, with the rules the platform documents for keys that need
 * user authentication. Each rule cites its page on developer.android.com:
 *
 * - Generation of a key with `setUserAuthenticationRequired(true)` fails unless a secure lock
 *   screen is set up, and with `setInvalidatedByBiometricEnrollment(true)` unless a biometric is
 *   enrolled ("KeyGenParameterSpec.Builder#setUserAuthenticationRequired": `InvalidAlgorithmParameterException`).
 * - `setIsStrongBoxBacked(true)` on a device without StrongBox throws `StrongBoxUnavailableException`
 *   ("KeyGenParameterSpec.Builder#setIsStrongBoxBacked").
 * - Such a key is permanently invalidated when a new biometric is enrolled or all are removed
 *   (with `setInvalidatedByBiometricEnrollment(true)`), and when the secure lock screen is disabled;
 *   `Signature.initSign` / `Cipher.init` then throw `KeyPermanentlyInvalidatedException`
 *   ("KeyGenParameterSpec.Builder#setUserAuthenticationRequired", "KeyPermanentlyInvalidatedException").
 * - With `setUserAuthenticationParameters(0, …)` (or validity −1 before API 30) every use must be
 *   authorised by a biometric prompt for that very operation, passed as its `CryptoObject`; a use
 *   without it fails: for per-use keys `sign` / `doFinal` throw (a `SignatureException` or
 *   `IllegalBlockSizeException` whose cause is "Key user not authenticated")
 *   ("BiometricPrompt.CryptoObject", "KeyGenParameterSpec.Builder#setUserAuthenticationParameters").
 */
class SimulatedKeyStore internal constructor(private val device: SimulatedDevice) : KeyStoreBackend {
    private class Entry(val spec: KeySpec, val pair: KeyPair?, val secret: SecretKey?, var invalidated: Boolean = false)

    private val entries = mutableMapOf<String, Entry>()

    /** The specs keys were made with, by alias (what a test reads to check the SDK's choices). */
    val specs: Map<String, KeySpec> @Synchronized get() = entries.mapValues { it.value.spec }

    @Synchronized override fun contains(alias: String) = entries.containsKey(alias)

    @Synchronized override fun delete(alias: String) {
        entries.remove(alias)
    }

    @Synchronized override fun generateSigningKey(spec: KeySpec): ByteArray {
        checkGeneration(spec)
        val generator = KeyPairGenerator.getInstance("EC")
        generator.initialize(ECGenParameterSpec("secp256r1"))
        val pair = generator.generateKeyPair()
        entries[spec.alias] = Entry(spec, pair, null)
        return pair.public.encoded
    }

    @Synchronized override fun generateSecretKey(spec: KeySpec) {
        checkGeneration(spec)
        val generator = KeyGenerator.getInstance("AES")
        generator.init(256)
        entries[spec.alias] = Entry(spec, null, generator.generateKey())
    }

    @Synchronized override fun beginSigning(alias: String): SigningOperation {
        val entry = usable(alias)
        val pair = entry.pair ?: throw KeystoreFailure(Kind.OTHER, IllegalStateException("$alias is not a signing key"))
        val signature = Signature.getInstance("SHA256withECDSA").apply { initSign(pair.private) }
        return Operation(this, entry.spec.userAuthenticationRequired) { data ->
            signature.update(data)
            signature.sign()
        }
    }

    @Synchronized override fun beginEncryption(alias: String): CipherOperation = cipher(alias, null)

    @Synchronized override fun beginDecryption(alias: String, iv: ByteArray): CipherOperation = cipher(alias, iv)

    /** A biometric enrollment changed: keys made with `setInvalidatedByBiometricEnrollment(true)` are invalidated. */
    @Synchronized internal fun biometricEnrollmentChanged() {
        entries.values.filter { it.spec.userAuthenticationRequired && it.spec.invalidatedByBiometricEnrollment }.forEach { it.invalidated = true }
    }

    /** The secure lock screen was removed: every key that needs user authentication is invalidated. */
    @Synchronized internal fun lockScreenRemoved() {
        entries.values.filter { it.spec.userAuthenticationRequired }.forEach { it.invalidated = true }
    }

    private fun cipher(alias: String, iv: ByteArray?): CipherOperation {
        val entry = usable(alias)
        val key = entry.secret ?: throw KeystoreFailure(Kind.OTHER, IllegalStateException("$alias is not a secret key"))
        val cipher = Cipher.getInstance("AES/GCM/NoPadding")
        if (iv == null) cipher.init(Cipher.ENCRYPT_MODE, key) else cipher.init(Cipher.DECRYPT_MODE, key, GCMParameterSpec(128, iv))
        return CipherUse(Operation(this, entry.spec.userAuthenticationRequired) { data -> cipher.doFinal(data) }, cipher.iv)
    }

    private fun usable(alias: String): Entry {
        val entry = entries[alias] ?: throw KeystoreFailure(Kind.KEY_MISSING)
        if (entry.invalidated) throw KeystoreFailure(Kind.KEY_PERMANENTLY_INVALIDATED)
        return entry
    }

    private fun checkGeneration(spec: KeySpec) {
        if (spec.strongBox && !device.hasStrongBox) throw KeystoreFailure(Kind.STRONGBOX_UNAVAILABLE)
        if (spec.userAuthenticationRequired && !device.isDeviceSecure()) throw KeystoreFailure(Kind.NO_SECURE_LOCK_SCREEN)
        if (spec.invalidatedByBiometricEnrollment && device.enrolledCount == 0) throw KeystoreFailure(Kind.NO_SECURE_LOCK_SCREEN)
    }

    /**
     * One begun key use: usable once, and for a key that needs authentication only after the
     * simulated prompt reported a real match for this very operation.
     */
    internal class Operation(private val store: SimulatedKeyStore, private val needsAuthentication: Boolean, private val work: (ByteArray) -> ByteArray) :
        SigningOperation {
        @Volatile internal var authorised = false
        @Volatile private var used = false

        /** Whether [store] is the key store this operation belongs to. */
        internal fun belongsTo(store: SimulatedKeyStore) = this.store === store

        override fun sign(data: ByteArray): ByteArray = run(data)

        fun run(data: ByteArray): ByteArray {
            // On a device: SignatureException / IllegalBlockSizeException caused by KeyStoreException
            // "Key user not authenticated".
            if (needsAuthentication && !authorised) throw KeystoreFailure(Kind.OPERATION_REFUSED)
            if (used) throw KeystoreFailure(Kind.OTHER, IllegalStateException("operation already finished"))
            used = true
            return work(data)
        }
    }

    /** A begun cipher use. */
    internal class CipherUse(internal val operation: Operation, override val iv: ByteArray) : CipherOperation {
        override fun finish(data: ByteArray): ByteArray = operation.run(data)
    }
}
