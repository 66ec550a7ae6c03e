package com.bioauth.kit.errors

import com.bioauth.kit.device.KeystoreFailure
import com.bioauth.kit.device.KeystoreFailure.Kind
import com.bioauth.kit.errors.BioAuthException.Code

/**
 * The one place a Keystore failure becomes a [BioAuthException], by what the SDK was doing when
 * it happened (the same exception type means different things at generation and at use).
 */
internal object KeystoreErrors {
    /** What the SDK was doing. */
    enum class Stage {
        /** `KeyPairGenerator` / `KeyGenerator`. */
        GENERATE,

        /** `KeyStore.getKey` and `initSign` / `Cipher.init`. */
        BEGIN,

        /** `sign` / `doFinal` after the prompt (or without one, for the PIN key). */
        FINISH,
    }

    /**
     * The exception for [failure] at [stage]. [deviceSecure] is `KeyguardManager.isDeviceSecure()`
     * and [deviceLocked] `isDeviceLocked()`, asked when the failure happened.
     */
    fun of(failure: KeystoreFailure, stage: Stage, deviceSecure: Boolean, deviceLocked: Boolean): BioAuthException {
        val code = when {
            Kind.KEY_PERMANENTLY_INVALIDATED in failure.chain -> Code.KEY_INVALIDATED
            // keystore2 (API 31+) rethrows KeyPermanentlyInvalidatedException from getKey as an
            // UnrecoverableKeyException with the message and no cause (AndroidKeyStoreSpi.engineGetKey);
            // its other UnrecoverableKeyExceptions carry the KeyStoreException that caused them.
            stage == Stage.BEGIN && failure.chain == listOf(Kind.UNRECOVERABLE_KEY) -> Code.KEY_INVALIDATED
            failure.kind == Kind.KEY_NOT_FOUND -> Code.KEY_MISSING
            failure.kind == Kind.BAD_CIPHERTEXT -> Code.KEY_MISSING
            // keystore refuses a key that needs an unlocked device while locked (LOCKED becomes
            // UserNotAuthenticatedException, keystore2's DEVICE_LOCKED an InvalidKeyException).
            deviceLocked && stage != Stage.GENERATE && (failure.kind == Kind.USER_NOT_AUTHENTICATED || failure.kind == Kind.INVALID_KEY) ->
                Code.DEVICE_LOCKED
            // keystore2 on Android 12-14 answers LOCKED for an unlocked-device key while the screen is
            // unlocked, after an unlock by a weak biometric or a trust agent (AOSP system/security
            // 6946daa); KeyStoreCryptoOperationUtils.getInvalidKeyException makes it a
            // UserNotAuthenticatedException at initSign. No key the SDK makes needs a match there.
            stage == Stage.BEGIN && failure.kind == Kind.USER_NOT_AUTHENTICATED -> Code.KEYSTORE_LOCKED
            failure.kind == Kind.USER_NOT_AUTHENTICATED -> Code.AUTHENTICATION_FAILED
            stage == Stage.FINISH && (failure.kind == Kind.SIGNATURE_EXCEPTION || failure.kind == Kind.ILLEGAL_BLOCK_SIZE) ->
                Code.AUTHENTICATION_FAILED
            // "Secure lock screen must be enabled…" or "At least one biometric must be enrolled…",
            // both an IllegalStateException inside InvalidAlgorithmParameterException (KeyStore2ParameterUtils).
            stage == Stage.GENERATE && failure.kind == Kind.INVALID_ALGORITHM_PARAMETER ->
                if (deviceSecure) Code.BIOMETRY_NOT_ENROLLED else Code.NO_SECURE_LOCK_SCREEN
            else -> Code.SYSTEM_FAILURE
        }
        return BioAuthException(code, "Keystore at ${stage.name.lowercase()}: ${failure.message}", cause = failure, isTransient = failure.transient)
    }

    /** Any other exception out of a Keystore backend: a failure all the same, with a code. */
    fun unexpected(error: Exception, stage: Stage): BioAuthException =
        BioAuthException(Code.SYSTEM_FAILURE, "Keystore at ${stage.name.lowercase()}: $error", cause = error)
}
