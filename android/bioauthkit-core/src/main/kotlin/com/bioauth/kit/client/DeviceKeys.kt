package com.bioauth.kit.client

import com.bioauth.kit.device.AppStorage
import com.bioauth.kit.device.AvailabilityQuery
import com.bioauth.kit.device.DeviceBackends
import com.bioauth.kit.device.KeyOperation
import com.bioauth.kit.device.KeySpec
import com.bioauth.kit.device.KeystoreFailure
import com.bioauth.kit.device.PromptOutcome
import com.bioauth.kit.device.PromptText
import com.bioauth.kit.errors.BioAuthException
import com.bioauth.kit.errors.BioAuthException.Code
import com.bioauth.kit.errors.PlatformErrors
import com.bioauth.kit.internal.Io
import com.bioauth.kit.protocol.Base64Url

/**
 * The Keystore as the flows use it: keys made to [KeySpec]'s rules (StrongBox first, then the TEE),
 * and every use of a key behind biometrics authorised through the prompt's crypto object.
 *
 * The rule that makes the answer cryptographic: a signature or a plaintext comes only from the
 * operation the prompt's *success result* hands back, and only if it is the very operation this
 * call began. A success callback with no crypto object, or with another one (a hooked
 * `onAuthenticationSucceeded`), yields nothing; the same operation without a real match is refused
 * by the Keystore itself.
 */
internal class DeviceKeys(private val device: DeviceBackends, private val io: Io) {
    /** Makes a P-256 key behind biometrics; returns its public key (SubjectPublicKeyInfo). */
    suspend fun createBiometricKey(alias: String): ByteArray {
        checkBiometricsUsable()
        return generate { strongBox -> device.keyStore.generateSigningKey(KeySpec.biometric(alias, KeySpec.Kind.SIGNING_P256, device.info.apiLevel, strongBox)) }
    }

    /** Makes the AES-GCM key that keeps secrets behind biometrics, unless it exists. */
    suspend fun ensureVaultKey(alias: String) {
        if (keystore { device.keyStore.contains(alias) }) return
        checkBiometricsUsable()
        generate { strongBox -> device.keyStore.generateSecretKey(KeySpec.biometric(alias, KeySpec.Kind.AES_GCM_256, device.info.apiLevel, strongBox)) }
    }

    /** Makes a PIN key: hardware-bound, no match needed. */
    suspend fun createPINKey(alias: String): ByteArray = generate { strongBox -> device.keyStore.generateSigningKey(KeySpec.pin(alias, strongBox)) }

    /** Signs with a key behind biometrics: one prompt. */
    suspend fun signWithBiometrics(alias: String, data: ByteArray, text: PromptText): ByteArray {
        val operation = keystore { device.keyStore.beginSigning(alias) }
        val authorised = authorise(operation, text)
        return keystore { authorised.sign(data) }
    }

    /** Signs with the PIN key: no prompt. */
    suspend fun signWithPINKey(alias: String, data: ByteArray): ByteArray {
        val operation = keystore { device.keyStore.beginSigning(alias) }
        return keystore { operation.sign(data) }
    }

    /** Encrypts under the vault key: one prompt. Returns IV and ciphertext. */
    suspend fun encrypt(alias: String, plaintext: ByteArray, text: PromptText): Pair<ByteArray, ByteArray> {
        val operation = keystore { device.keyStore.beginEncryption(alias) }
        val authorised = authorise(operation, text)
        return keystore { authorised.iv to authorised.finish(plaintext) }
    }

    /** Decrypts under the vault key: one prompt. */
    suspend fun decrypt(alias: String, iv: ByteArray, ciphertext: ByteArray, text: PromptText): ByteArray {
        val operation = keystore { device.keyStore.beginDecryption(alias, iv) }
        val authorised = authorise(operation, text)
        return keystore { authorised.finish(ciphertext) }
    }

    /** Whether a key exists. */
    suspend fun contains(alias: String): Boolean = keystore { device.keyStore.contains(alias) }

    /** Deletes a key; a missing one is not an error. */
    suspend fun delete(alias: String) {
        runCatching { io.run { device.keyStore.delete(alias) } }
    }

    private fun checkBiometricsUsable() {
        if (!device.info.isDeviceSecure()) throw BioAuthException(Code.NO_SECURE_LOCK_SCREEN, "set a screen lock first")
        val query = AvailabilityQuery.forApi(device.info.apiLevel)
        if (query != AvailabilityQuery.NONE) PlatformErrors.availability(device.prompt.canAuthenticate(query))?.let { throw it }
    }

    /** StrongBox when the device has one, the TEE otherwise (`StrongBoxUnavailableException`). */
    private suspend fun <T> generate(make: (strongBox: Boolean) -> T): T = try {
        keystore { make(true) }
    } catch (error: BioAuthException) {
        val kind = (error.cause as? KeystoreFailure)?.kind
        if (kind != KeystoreFailure.Kind.STRONGBOX_UNAVAILABLE) throw error
        keystore { make(false) }
    }

    private suspend fun <T : KeyOperation> authorise(operation: T, text: PromptText): T {
        when (val outcome = device.prompt.authenticate(operation, text)) {
            is PromptOutcome.Failed -> throw PlatformErrors.prompt(outcome.errorCode, outcome.message)
            is PromptOutcome.Succeeded -> {
                // Only the operation this call began, handed back by a real success, may be used.
                if (outcome.operation !== operation) {
                    throw BioAuthException(Code.AUTHENTICATION_FAILED, "the prompt's result carried no crypto object of this call")
                }
                return operation
            }
        }
    }

    private suspend fun <T> keystore(work: () -> T): T = try {
        io.run(work)
    } catch (failure: KeystoreFailure) {
        throw PlatformErrors.keystore(failure)
    }
}

/** Keeps small secrets (the session token, the PIN) in app storage, encrypted under a key behind biometrics. */
internal class SecretVault(private val keys: DeviceKeys, private val storage: AppStorage, private val keyAlias: String) {
    /** Encrypts [secret] (one prompt) and stores it under [name]. */
    suspend fun store(name: String, secret: ByteArray, text: PromptText) {
        keys.ensureVaultKey(keyAlias)
        val (iv, ciphertext) = keys.encrypt(keyAlias, secret, text)
        storage.write(name, Base64Url.encode(iv) + "." + Base64Url.encode(ciphertext))
    }

    /** Decrypts the secret under [name] (one prompt). */
    suspend fun read(name: String, text: PromptText): ByteArray {
        val stored = storage.read(name) ?: throw BioAuthException(Code.KEY_MISSING, "nothing stored as $name")
        val parts = stored.split('.')
        val iv = parts.getOrNull(0)?.let(Base64Url::decode)
        val ciphertext = parts.getOrNull(1)?.let(Base64Url::decode)
        if (parts.size != 2 || iv == null || ciphertext == null) throw BioAuthException(Code.KEY_MISSING, "$name is not a stored secret")
        return keys.decrypt(keyAlias, iv, ciphertext, text)
    }

    /** Whether a secret is stored under [name]. */
    fun contains(name: String): Boolean = storage.read(name) != null

    /** Forgets the secret under [name]. */
    fun remove(name: String) = storage.write(name, null)
}
