package com.bioauth.kit.device

/**
 * A Keystore exception as the platform threw it, renamed: [chain] is the exception's type and its
 * causes' types, outermost first. The Android layer only renames; what a failure means for the
 * app is decided in `KeystoreErrors`.
 */
public class KeystoreFailure(
    /** The exception's kind, then its causes' kinds. Never empty. */
    public val chain: List<Kind>,
    cause: Throwable? = null,
    /** Whether an `android.security.KeyStoreException` in the chain says `isTransientFailure()` (API 33+). */
    public val transient: Boolean = false,
) : Exception(chain.joinToString(" <- "), cause) {
    /** One kind. */
    public constructor(kind: Kind, cause: Throwable? = null) : this(listOf(kind), cause)

    init {
        require(chain.isNotEmpty()) { "a Keystore failure has a kind" }
    }

    /** The outermost exception's kind. */
    public val kind: Kind get() = chain.first()

    /** The platform's exception types the SDK tells apart. */
    public enum class Kind {
        /** `KeyStore.getKey` answered `null`: no such entry (or not a key of the expected type). */
        KEY_NOT_FOUND,

        /** `android.security.keystore.KeyPermanentlyInvalidatedException`. */
        KEY_PERMANENTLY_INVALIDATED,

        /** `android.security.keystore.UserNotAuthenticatedException`. */
        USER_NOT_AUTHENTICATED,

        /** `java.security.UnrecoverableKeyException`. */
        UNRECOVERABLE_KEY,

        /** `android.security.keystore.StrongBoxUnavailableException` (API 28+). */
        STRONGBOX_UNAVAILABLE,

        /** `java.security.InvalidAlgorithmParameterException`. */
        INVALID_ALGORITHM_PARAMETER,

        /** `java.security.InvalidKeyException` (any other subtype). */
        INVALID_KEY,

        /** `java.security.ProviderException` (any other subtype): keystore2's generation and operation failures. */
        PROVIDER_EXCEPTION,

        /** `java.security.SignatureException`. */
        SIGNATURE_EXCEPTION,

        /** `javax.crypto.IllegalBlockSizeException`. */
        ILLEGAL_BLOCK_SIZE,

        /** `javax.crypto.AEADBadTagException` / `BadPaddingException`: the ciphertext does not authenticate. */
        BAD_CIPHERTEXT,

        /** `java.security.KeyStoreException` or `android.security.KeyStoreException`. */
        KEYSTORE_EXCEPTION,

        /** `java.lang.IllegalStateException`. */
        ILLEGAL_STATE,

        /** Anything else. */
        OTHER,
    }
}
