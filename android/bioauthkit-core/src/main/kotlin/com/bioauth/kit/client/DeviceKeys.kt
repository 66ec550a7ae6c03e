package com.bioauth.kit.client

import com.bioauth.kit.device.DeviceBackends
import com.bioauth.kit.device.KeyOperation
import com.bioauth.kit.device.KeySpec
import com.bioauth.kit.device.KeySpecs
import com.bioauth.kit.device.KeystoreFailure
import com.bioauth.kit.device.PromptOutcome
import com.bioauth.kit.device.PromptRequest
import com.bioauth.kit.errors.BioAuthException
import com.bioauth.kit.errors.BioAuthException.Code
import com.bioauth.kit.errors.KeystoreErrors
import com.bioauth.kit.errors.KeystoreErrors.Stage
import com.bioauth.kit.errors.PlatformCodes
import com.bioauth.kit.errors.PromptErrors
import kotlinx.coroutines.suspendCancellableCoroutine
import kotlin.coroutines.cancellation.CancellationException
import kotlin.coroutines.resume

/**
 * The Keystore as the flows use it: keys made to [KeySpecs]' rules (StrongBox first, then the
 * TEE), every use of a key behind biometrics authorised through the prompt's crypto object, and
 * every failure turned into a [BioAuthException].
 *
 * The rule that makes the answer cryptographic: a signature or a plaintext comes only from the
 * operation the prompt's *success result* hands back, and only if it is the very operation this
 * call began. A success with no crypto object, or with another one (a hooked
 * `onAuthenticationSucceeded`), yields nothing; the same operation without a real match is refused
 * by the Keystore itself.
 */
internal class DeviceKeys(private val device: DeviceBackends, private val policy: BiometricPolicy) {
    /** What a no-prompt probe of a key found: [LOCKED] is a key kept but refused until the phone is unlocked. */
    enum class Probe { USABLE, INVALIDATED, MISSING, LOCKED }

    private val apiLevel get() = device.info.apiLevel

    /** The authenticators a prompt (and `canAuthenticate`) allows under the policy on this API level. */
    val authenticators: Int
        get() = PlatformCodes.AUTHENTICATOR_BIOMETRIC_STRONG or
            (if (policy.allowsDeviceCredential(apiLevel)) PlatformCodes.AUTHENTICATOR_DEVICE_CREDENTIAL else 0)

    /**
     * Makes a P-256 key behind biometrics, attested with [attestationChallenge] when given (API
     * 24+); returns its public key (SubjectPublicKeyInfo).
     */
    suspend fun createBiometricKey(alias: String, attestationChallenge: ByteArray?): ByteArray {
        Availability.requireUsable(device, authenticators)
        return generate { strongBox ->
            device.keyStore.generateSigningKey(
                KeySpecs.biometric(alias, KeySpec.Kind.SIGNING_P256, apiLevel, policy, strongBox, attestationChallenge),
            )
        }
    }

    /** Makes the AES-GCM key that keeps secrets behind biometrics. */
    suspend fun createVaultKey(alias: String) {
        Availability.requireUsable(device, authenticators)
        generate { strongBox -> device.keyStore.generateSecretKey(KeySpecs.biometric(alias, KeySpec.Kind.AES_GCM_256, apiLevel, policy, strongBox)) }
    }

    /** Makes a PIN key: hardware-bound, no match needed, only while unlocked where [KeySpecs.pin] says; attested as [createBiometricKey]. */
    suspend fun createPinKey(alias: String, attestationChallenge: ByteArray?): ByteArray =
        generate { strongBox -> device.keyStore.generateSigningKey(KeySpecs.pin(alias, apiLevel, strongBox, attestationChallenge)) }

    /**
     * The key's certificate chain (DER, leaf first), or `null` when the Keystore has none or fails
     * to give it: the key is then registered without evidence, and the server decides.
     */
    suspend fun certificateChain(alias: String): List<ByteArray>? = try {
        blocking { device.keyStore.certificateChain(alias) }?.takeIf { it.isNotEmpty() }
    } catch (error: CancellationException) {
        throw error
    } catch (_: Exception) {
        null
    }

    /** Signs with a key behind biometrics: one prompt ([confirmationRequired]: a tap after a passive match, [PromptRequest]). */
    suspend fun signWithBiometrics(alias: String, data: ByteArray, text: PromptText, confirmationRequired: Boolean = false): ByteArray {
        val operation = keystore(Stage.BEGIN) { device.keyStore.beginSigning(alias) }
        val authorised = authorise(operation, text, confirmationRequired)
        return keystore(Stage.FINISH) { authorised.sign(data) }
    }

    /** Signs with the PIN key: no prompt. */
    suspend fun signWithPinKey(alias: String, data: ByteArray): ByteArray {
        val operation = keystore(Stage.BEGIN) { device.keyStore.beginSigning(alias) }
        return keystore(Stage.FINISH) { operation.sign(data) }
    }

    /** Encrypts under a vault key: one prompt. Returns IV and ciphertext. */
    suspend fun encrypt(alias: String, plaintext: ByteArray, text: PromptText): Pair<ByteArray, ByteArray> {
        val operation = keystore(Stage.BEGIN) { device.keyStore.beginEncryption(alias) }
        val authorised = authorise(operation, text)
        return keystore(Stage.FINISH) { authorised.iv to authorised.finish(plaintext) }
    }

    /** Decrypts under a vault key: one prompt. */
    suspend fun decrypt(alias: String, iv: ByteArray, ciphertext: ByteArray, text: PromptText): ByteArray {
        val operation = keystore(Stage.BEGIN) { device.keyStore.beginDecryption(alias, iv) }
        val authorised = authorise(operation, text)
        return keystore(Stage.FINISH) { authorised.finish(ciphertext) }
    }

    /**
     * Whether a signing key can still be used, without a prompt: `getKey` and `initSign`, which
     * is where the platform reports an invalidated key (an alias that exists says nothing).
     */
    suspend fun probeSigning(alias: String): Probe = probe { device.keyStore.beginSigning(alias) }

    /** Whether a vault key can still be used, without a prompt: `getKey` and `Cipher.init`. */
    suspend fun probeCipher(alias: String): Probe = probe { device.keyStore.beginEncryption(alias) }

    /** Deletes a key; a missing one, or a Keystore that fails to delete, is not an error here. */
    suspend fun delete(alias: String) {
        try {
            blocking { device.keyStore.delete(alias) }
        } catch (error: CancellationException) {
            throw error
        } catch (_: Exception) {
            // Nothing to do: a key that could not be deleted is never used again (every key has its own alias).
        }
    }

    private suspend fun probe(begin: () -> KeyOperation): Probe = try {
        keystore(Stage.BEGIN, begin)
        Probe.USABLE
    } catch (error: BioAuthException) {
        when (error.code) {
            Code.KEY_INVALIDATED -> Probe.INVALIDATED
            Code.KEY_MISSING -> Probe.MISSING
            Code.DEVICE_LOCKED, Code.KEYSTORE_LOCKED -> Probe.LOCKED
            else -> throw error
        }
    }

    /**
     * StrongBox when the device has one, the TEE otherwise: after `StrongBoxUnavailableException`,
     * and after any other StrongBox failure (keystore2 reports those as `ProviderException`).
     */
    private suspend fun <T> generate(make: (strongBox: Boolean) -> T): T {
        if (apiLevel < KeySpecs.API_STRONGBOX_AND_UNLOCKED_DEVICE) return keystore(Stage.GENERATE) { make(false) }
        return try {
            keystore(Stage.GENERATE) { make(true) }
        } catch (error: BioAuthException) {
            val kind = (error.cause as? KeystoreFailure)?.kind
            if (kind != KeystoreFailure.Kind.STRONGBOX_UNAVAILABLE && kind != KeystoreFailure.Kind.PROVIDER_EXCEPTION) throw error
            keystore(Stage.GENERATE) { make(false) }
        }
    }

    private suspend fun <T : KeyOperation> authorise(operation: T, text: PromptText, confirmationRequired: Boolean = false): T {
        val request = PromptRequest(
            title = text.title,
            subtitle = text.subtitle,
            description = text.description,
            negativeButton = if (policy.allowsDeviceCredential(apiLevel)) null else text.negativeButton,
            allowedAuthenticators = authenticators,
            confirmationRequired = confirmationRequired,
        )
        val outcome = suspendCancellableCoroutine { continuation ->
            val handle = device.prompt.show(operation, request) { outcome -> if (continuation.isActive) continuation.resume(outcome) }
            // Cancelling the caller's coroutine dismisses the prompt (cancelAuthentication()).
            continuation.invokeOnCancellation { handle.cancel() }
        }
        when (outcome) {
            is PromptOutcome.NotShown -> throw BioAuthException(Code.PROMPT_NOT_SHOWN, outcome.reason)
            is PromptOutcome.Failed -> throw PromptErrors.prompt(outcome.errorCode, outcome.message)
            is PromptOutcome.Succeeded -> {
                // Only the operation this call began, handed back by a real success, may be used.
                if (outcome.operation !== operation) {
                    throw BioAuthException(Code.AUTHENTICATION_FAILED, "the prompt's result carried no crypto object of this call")
                }
                return operation
            }
        }
    }

    private suspend fun <T> keystore(stage: Stage, work: () -> T): T = try {
        blocking(work)
    } catch (error: CancellationException) {
        throw error
    } catch (failure: KeystoreFailure) {
        throw KeystoreErrors.of(failure, stage, device.info.isDeviceSecure(), device.info.isDeviceLocked())
    } catch (error: Exception) {
        throw KeystoreErrors.unexpected(error, stage)
    }
}
