package com.bioauth.kit.platform.android

import android.os.Build
import android.security.keystore.KeyPermanentlyInvalidatedException
import android.security.keystore.StrongBoxUnavailableException
import android.security.keystore.UserNotAuthenticatedException
import com.bioauth.kit.device.KeystoreFailure
import com.bioauth.kit.device.KeystoreFailure.Kind
import java.security.InvalidAlgorithmParameterException
import java.security.InvalidKeyException
import java.security.ProviderException
import java.security.SignatureException
import java.security.UnrecoverableKeyException
import javax.crypto.BadPaddingException
import javax.crypto.IllegalBlockSizeException

/**
 * Runs a Keystore call; every exception (checked or not: keystore2 throws `ProviderException`, a
 * RuntimeException) leaves as a [KeystoreFailure] naming it and its causes. Nothing is decided here.
 */
internal inline fun <T> translate(work: () -> T): T = try {
    work()
} catch (failure: KeystoreFailure) {
    throw failure
} catch (error: Exception) {
    throw KeystoreFailure(generateSequence<Throwable>(error) { it.cause }.take(8).map(::kindOf).toList(), error, isTransient(error))
}

/**
 * Whether an `android.security.KeyStoreException` in [error]'s chain says `isTransientFailure()`
 * (API 33+). That class is public from API 33 only and is not in the type-check's API excerpts, so
 * its method is called by name, behind the `SDK_INT` check.
 */
internal fun isTransient(error: Throwable): Boolean {
    if (Build.VERSION.SDK_INT < Build.VERSION_CODES.TIRAMISU) return false
    return generateSequence(error) { it.cause }.take(8).any { cause ->
        cause.javaClass.name == "android.security.KeyStoreException" &&
            try {
                cause.javaClass.getMethod("isTransientFailure").invoke(cause) == true
            } catch (_: ReflectiveOperationException) {
                false
            }
    }
}

/** The platform's name for [error]; subclasses before their superclasses. */
internal fun kindOf(error: Throwable): Kind = when {
    error is KeystoreFailure -> error.kind
    error is KeyPermanentlyInvalidatedException -> Kind.KEY_PERMANENTLY_INVALIDATED
    error is UserNotAuthenticatedException -> Kind.USER_NOT_AUTHENTICATED
    Build.VERSION.SDK_INT >= Build.VERSION_CODES.P && error is StrongBoxUnavailableException -> Kind.STRONGBOX_UNAVAILABLE
    error is UnrecoverableKeyException -> Kind.UNRECOVERABLE_KEY
    error is InvalidAlgorithmParameterException -> Kind.INVALID_ALGORITHM_PARAMETER
    error is InvalidKeyException -> Kind.INVALID_KEY
    error is ProviderException -> Kind.PROVIDER_EXCEPTION
    error is SignatureException -> Kind.SIGNATURE_EXCEPTION
    error is IllegalBlockSizeException -> Kind.ILLEGAL_BLOCK_SIZE
    error is BadPaddingException -> Kind.BAD_CIPHERTEXT
    // android.security.KeyStoreException is public from API 33 only: named, not referenced.
    error is java.security.KeyStoreException || error.javaClass.name == "android.security.KeyStoreException" -> Kind.KEYSTORE_EXCEPTION
    error is IllegalStateException -> Kind.ILLEGAL_STATE
    else -> Kind.OTHER
}
