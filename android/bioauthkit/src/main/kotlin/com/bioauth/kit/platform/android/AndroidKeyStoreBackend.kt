package com.bioauth.kit.platform.android

import android.security.keystore.KeyProperties
import com.bioauth.kit.device.CipherOperation
import com.bioauth.kit.device.KeySpec
import com.bioauth.kit.device.KeyStoreBackend
import com.bioauth.kit.device.KeystoreFailure
import com.bioauth.kit.device.SigningOperation
import java.security.KeyPairGenerator
import java.security.KeyStore
import java.security.PrivateKey
import java.security.Signature
import java.security.spec.ECGenParameterSpec
import javax.crypto.Cipher
import javax.crypto.KeyGenerator
import javax.crypto.SecretKey
import javax.crypto.spec.GCMParameterSpec

/** The `AndroidKeyStore` provider, call for call: [KeySpec] says what to build, exceptions are only renamed ([translate]). */
public class AndroidKeyStoreBackend : KeyStoreBackend {
    // Loaded on first use, inside translate: a failing KeyStore.load is a KeystoreFailure like any other.
    private val keyStore: KeyStore by lazy { KeyStore.getInstance(PROVIDER).apply { load(null) } }

    override fun delete(alias: String): Unit = translate { keyStore.deleteEntry(alias) }

    override fun certificateChain(alias: String): List<ByteArray>? = translate {
        keyStore.getCertificateChain(alias)?.map { it.encoded }
    }

    override fun generateSigningKey(spec: KeySpec): ByteArray = translate {
        val generator = KeyPairGenerator.getInstance(KeyProperties.KEY_ALGORITHM_EC, PROVIDER)
        generator.initialize(
            AndroidKeySpecs.builder(spec, KeyProperties.PURPOSE_SIGN)
                .setAlgorithmParameterSpec(ECGenParameterSpec("secp256r1"))
                .setDigests(KeyProperties.DIGEST_SHA256)
                .build(),
        )
        generator.generateKeyPair().public.encoded
    }

    override fun generateSecretKey(spec: KeySpec): Unit = translate {
        val generator = KeyGenerator.getInstance(KeyProperties.KEY_ALGORITHM_AES, PROVIDER)
        generator.init(
            AndroidKeySpecs.builder(spec, KeyProperties.PURPOSE_ENCRYPT or KeyProperties.PURPOSE_DECRYPT)
                .setKeySize(256)
                .setBlockModes(KeyProperties.BLOCK_MODE_GCM)
                .setEncryptionPaddings(KeyProperties.ENCRYPTION_PADDING_NONE)
                .build(),
        )
        generator.generateKey()
        Unit
    }

    override fun beginSigning(alias: String): SigningOperation = translate {
        val key = keyStore.getKey(alias, null) as? PrivateKey ?: throw KeystoreFailure(KeystoreFailure.Kind.KEY_NOT_FOUND)
        AndroidSigning(Signature.getInstance("SHA256withECDSA").apply { initSign(key) })
    }

    override fun beginEncryption(alias: String): CipherOperation = translate {
        AndroidCipher(Cipher.getInstance(TRANSFORMATION).apply { init(Cipher.ENCRYPT_MODE, secretKey(alias)) })
    }

    override fun beginDecryption(alias: String, iv: ByteArray): CipherOperation = translate {
        AndroidCipher(Cipher.getInstance(TRANSFORMATION).apply { init(Cipher.DECRYPT_MODE, secretKey(alias), GCMParameterSpec(128, iv)) })
    }

    private fun secretKey(alias: String): SecretKey =
        keyStore.getKey(alias, null) as? SecretKey ?: throw KeystoreFailure(KeystoreFailure.Kind.KEY_NOT_FOUND)

    private companion object {
        const val PROVIDER = "AndroidKeyStore"
        const val TRANSFORMATION = "AES/GCM/NoPadding"
    }
}

/** A `Signature` begun with a Keystore key: what a `CryptoObject(Signature)` wraps. */
public class AndroidSigning internal constructor(
    /** The begun signature. */
    public val signature: Signature,
) : SigningOperation {
    override fun sign(data: ByteArray): ByteArray = translate {
        signature.update(data)
        signature.sign()
    }
}

/** A `Cipher` begun with a Keystore key: what a `CryptoObject(Cipher)` wraps. */
public class AndroidCipher internal constructor(
    /** The begun cipher. */
    public val cipher: Cipher,
) : CipherOperation {
    override val iv: ByteArray get() = translate { cipher.iv }

    override fun finish(data: ByteArray): ByteArray = translate { cipher.doFinal(data) }
}
