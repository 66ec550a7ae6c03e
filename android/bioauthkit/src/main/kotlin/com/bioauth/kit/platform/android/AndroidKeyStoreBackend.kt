package com.bioauth.kit.platform.android

import android.security.keystore.KeyGenParameterSpec
import android.security.keystore.KeyPermanentlyInvalidatedException
import android.security.keystore.KeyProperties
import android.security.keystore.StrongBoxUnavailableException
import android.security.keystore.UserNotAuthenticatedException
import com.bioauth.kit.device.CipherOperation
import com.bioauth.kit.device.KeySpec
import com.bioauth.kit.device.KeyStoreBackend
import com.bioauth.kit.device.KeystoreFailure
import com.bioauth.kit.device.KeystoreFailure.Kind
import com.bioauth.kit.device.SigningOperation
import java.security.GeneralSecurityException
import java.security.InvalidAlgorithmParameterException
import java.security.KeyPairGenerator
import java.security.KeyStore
import java.security.PrivateKey
import java.security.Signature
import java.security.SignatureException
import java.security.UnrecoverableKeyException
import java.security.spec.ECGenParameterSpec
import javax.crypto.Cipher
import javax.crypto.IllegalBlockSizeException
import javax.crypto.KeyGenerator
import javax.crypto.SecretKey
import javax.crypto.spec.GCMParameterSpec

/** The `AndroidKeyStore` provider, call for call: [KeySpec] says what to build, exceptions are only renamed. */
class AndroidKeyStoreBackend : KeyStoreBackend {
    private val keyStore: KeyStore = KeyStore.getInstance(PROVIDER).apply { load(null) }

    override fun contains(alias: String): Boolean = translate { keyStore.containsAlias(alias) }

    override fun delete(alias: String) = translate { keyStore.deleteEntry(alias) }

    override fun generateSigningKey(spec: KeySpec): ByteArray = translate {
        val generator = KeyPairGenerator.getInstance(KeyProperties.KEY_ALGORITHM_EC, PROVIDER)
        generator.initialize(
            builder(spec, KeyProperties.PURPOSE_SIGN)
                .setAlgorithmParameterSpec(ECGenParameterSpec("secp256r1"))
                .setDigests(KeyProperties.DIGEST_SHA256)
                .build(),
        )
        generator.generateKeyPair().public.encoded
    }

    override fun generateSecretKey(spec: KeySpec) = translate {
        val generator = KeyGenerator.getInstance(KeyProperties.KEY_ALGORITHM_AES, PROVIDER)
        generator.init(
            builder(spec, KeyProperties.PURPOSE_ENCRYPT or KeyProperties.PURPOSE_DECRYPT)
                .setKeySize(256)
                .setBlockModes(KeyProperties.BLOCK_MODE_GCM)
                .setEncryptionPaddings(KeyProperties.ENCRYPTION_PADDING_NONE)
                .build(),
        )
        generator.generateKey()
        Unit
    }

    override fun beginSigning(alias: String): SigningOperation = translate {
        val key = keyStore.getKey(alias, null) as? PrivateKey ?: throw KeystoreFailure(Kind.KEY_MISSING)
        AndroidSigning(Signature.getInstance("SHA256withECDSA").apply { initSign(key) })
    }

    override fun beginEncryption(alias: String): CipherOperation = translate {
        AndroidCipher(Cipher.getInstance(TRANSFORMATION).apply { init(Cipher.ENCRYPT_MODE, secretKey(alias)) })
    }

    override fun beginDecryption(alias: String, iv: ByteArray): CipherOperation = translate {
        AndroidCipher(Cipher.getInstance(TRANSFORMATION).apply { init(Cipher.DECRYPT_MODE, secretKey(alias), GCMParameterSpec(128, iv)) })
    }

    private fun secretKey(alias: String): SecretKey = keyStore.getKey(alias, null) as? SecretKey ?: throw KeystoreFailure(Kind.KEY_MISSING)

    @Suppress("DEPRECATION")  // setUserAuthenticationValidityDurationSeconds: the only way below API 30
    private fun builder(spec: KeySpec, purposes: Int): KeyGenParameterSpec.Builder {
        val builder = KeyGenParameterSpec.Builder(spec.alias, purposes)
            .setUserAuthenticationRequired(spec.userAuthenticationRequired)
            .setIsStrongBoxBacked(spec.strongBox)
        if (spec.userAuthenticationRequired) builder.setInvalidatedByBiometricEnrollment(spec.invalidatedByBiometricEnrollment)
        when (spec.authentication) {
            KeySpec.AuthenticationRule.EveryUseStrongBiometric -> builder.setUserAuthenticationParameters(0, KeyProperties.AUTH_BIOMETRIC_STRONG)
            KeySpec.AuthenticationRule.EveryUseLegacy -> builder.setUserAuthenticationValidityDurationSeconds(-1)
            null -> Unit
        }
        return builder
    }

    private companion object {
        const val PROVIDER = "AndroidKeyStore"
        const val TRANSFORMATION = "AES/GCM/NoPadding"
    }
}

/** A `Signature` begun with a Keystore key: what a `CryptoObject(Signature)` wraps. */
class AndroidSigning internal constructor(val signature: Signature) : SigningOperation {
    override fun sign(data: ByteArray): ByteArray = translate {
        signature.update(data)
        signature.sign()
    }
}

/** A `Cipher` begun with a Keystore key: what a `CryptoObject(Cipher)` wraps. */
class AndroidCipher internal constructor(val cipher: Cipher) : CipherOperation {
    override val iv: ByteArray get() = cipher.iv

    override fun finish(data: ByteArray): ByteArray = translate { cipher.doFinal(data) }
}

/** Renames the Keystore's exceptions to [KeystoreFailure.Kind]; what each means is decided in `PlatformErrors`. */
internal inline fun <T> translate(work: () -> T): T = try {
    work()
} catch (failure: KeystoreFailure) {
    throw failure
} catch (error: KeyPermanentlyInvalidatedException) {
    throw KeystoreFailure(Kind.KEY_PERMANENTLY_INVALIDATED, error)
} catch (error: UserNotAuthenticatedException) {
    throw KeystoreFailure(Kind.USER_NOT_AUTHENTICATED, error)
} catch (error: StrongBoxUnavailableException) {
    throw KeystoreFailure(Kind.STRONGBOX_UNAVAILABLE, error)
} catch (error: InvalidAlgorithmParameterException) {
    throw KeystoreFailure(Kind.NO_SECURE_LOCK_SCREEN, error)
} catch (error: UnrecoverableKeyException) {
    throw KeystoreFailure(Kind.KEY_MISSING, error)
} catch (error: SignatureException) {
    throw KeystoreFailure(Kind.OPERATION_REFUSED, error)
} catch (error: IllegalBlockSizeException) {
    throw KeystoreFailure(Kind.OPERATION_REFUSED, error)
} catch (error: GeneralSecurityException) {
    throw KeystoreFailure(Kind.OTHER, error)
}
