package com.bioauth.kit.device

/**
 * What a phone provides, as seams: the Android layer (`platform/android`) passes each call to the
 * platform, the simulator models it on the JVM. Every decision (key specs, error mapping, flows)
 * is made in the SDK's neutral code, above these.
 */
class DeviceBackends(
    /** The Android Keystore. */
    val keyStore: KeyStoreBackend,
    /** `BiometricPrompt` and `BiometricManager`. */
    val prompt: BiometricPromptBackend,
    /** App-private storage (SharedPreferences): it holds only ciphertext and public values. */
    val storage: AppStorage,
    /** The API level and the lock screen. */
    val info: DeviceInfo,
)

/** A key's use, begun (`Signature.initSign`, `Cipher.init`) and not yet authorised: what a `CryptoObject` wraps. */
interface KeyOperation

/** A begun `Signature` (SHA256withECDSA): signs once the user is authenticated for it. */
interface SigningOperation : KeyOperation {
    /** `update` + `sign`: a DER ECDSA signature. */
    fun sign(data: ByteArray): ByteArray
}

/** A begun `Cipher` (AES/GCM/NoPadding): encrypts or decrypts once the user is authenticated for it. */
interface CipherOperation : KeyOperation {
    /** The GCM IV (chosen by the Keystore when encrypting). */
    val iv: ByteArray

    /** `doFinal`. */
    fun finish(data: ByteArray): ByteArray
}

/** The Android Keystore (`AndroidKeyStore` provider), as the SDK uses it. */
interface KeyStoreBackend {
    /** Whether an entry exists under [alias]. */
    fun contains(alias: String): Boolean

    /** Deletes the entry (no error when there is none). */
    fun delete(alias: String)

    /** Generates an EC key pair as [spec] says; returns its public key (X.509 SubjectPublicKeyInfo). */
    fun generateSigningKey(spec: KeySpec): ByteArray

    /** Generates an AES key as [spec] says. */
    fun generateSecretKey(spec: KeySpec)

    /** `Signature.initSign` with the private key under [alias]. */
    fun beginSigning(alias: String): SigningOperation

    /** `Cipher.init(ENCRYPT_MODE)` with the secret key under [alias]. */
    fun beginEncryption(alias: String): CipherOperation

    /** `Cipher.init(DECRYPT_MODE, GCMParameterSpec(128, iv))` with the secret key under [alias]. */
    fun beginDecryption(alias: String, iv: ByteArray): CipherOperation
}

/**
 * A Keystore exception, named as the platform names it. The Android layer translates each
 * exception type to its kind and nothing more; what it means for the app is decided in
 * `KeystoreErrors`.
 */
class KeystoreFailure(val kind: Kind, cause: Throwable? = null) : Exception(kind.name, cause) {
    /** The platform's exception types the SDK tells apart. */
    enum class Kind {
        /** `KeyPermanentlyInvalidatedException`. */
        KEY_PERMANENTLY_INVALIDATED,

        /** `UserNotAuthenticatedException` at `initSign` / `init`: a time-bound key with no recent authentication. */
        USER_NOT_AUTHENTICATED,

        /**
         * `SignatureException` from `sign`, `IllegalBlockSizeException` from `doFinal`: the Keystore
         * refused to finish a use (a per-use key whose operation no match authorised: "Key user not authenticated").
         */
        OPERATION_REFUSED,

        /** `StrongBoxUnavailableException`. */
        STRONGBOX_UNAVAILABLE,

        /** `InvalidAlgorithmParameterException` at key generation: no secure lock screen (or no enrolled biometric). */
        NO_SECURE_LOCK_SCREEN,

        /** `UnrecoverableKeyException` or no entry: the key is gone. */
        KEY_MISSING,

        /** Anything else. */
        OTHER,
    }
}

/** `BiometricPrompt` and `BiometricManager`. */
interface BiometricPromptBackend {
    /** `BiometricManager`'s answer to [query]: `BIOMETRIC_SUCCESS` or an error code. */
    fun canAuthenticate(query: AvailabilityQuery): Int

    /**
     * Shows the prompt for [operation] wrapped in a `CryptoObject`, and reports how it ended: the
     * success result's `getCryptoObject()` (mapped back to the operation it wraps, or `null`), or
     * the error code the callback got.
     */
    suspend fun authenticate(operation: KeyOperation, text: PromptText): PromptOutcome
}

/** Which `BiometricManager` call can tell whether biometrics are usable, by API level. */
enum class AvailabilityQuery {
    /** API 30+: `canAuthenticate(Authenticators.BIOMETRIC_STRONG)`. */
    STRONG,

    /** API 29: `canAuthenticate()` (no authenticator classes yet). */
    ANY,

    /** API 28: there is no `BiometricManager`; the prompt itself reports what is missing. */
    NONE;

    companion object {
        /** The call for [apiLevel]. */
        fun forApi(apiLevel: Int) = when {
            apiLevel >= 30 -> STRONG
            apiLevel == 29 -> ANY
            else -> NONE
        }
    }
}

/** What the prompt says. */
data class PromptText(val title: String, val negativeButton: String = "Use password", val subtitle: String? = null)

/** How a prompt ended. */
sealed class PromptOutcome {
    /** `onAuthenticationSucceeded`, with the result's crypto object as the operation it wraps. */
    class Succeeded(val operation: KeyOperation?) : PromptOutcome()

    /** `onAuthenticationError(code, message)`. */
    class Failed(val errorCode: Int, val message: String) : PromptOutcome()
}

/** App-private key-value storage (SharedPreferences). Whatever is here, an attacker may read. */
interface AppStorage {
    /** The value under [key]. */
    fun read(key: String): String?

    /** Stores [value] under [key], or removes it when `null`. */
    fun write(key: String, value: String?)
}

/** What the SDK asks about the device. */
interface DeviceInfo {
    /** `Build.VERSION.SDK_INT`. */
    val apiLevel: Int

    /** `KeyguardManager.isDeviceSecure()`. */
    fun isDeviceSecure(): Boolean
}
