package com.bioauth.kit.support

import java.security.KeyFactory
import java.security.PublicKey
import java.security.Signature
import java.security.spec.X509EncodedKeySpec

/** The test vectors' public keys through the JCA, as a server (or a Keystore signature's verifier) reads them. */
object TestKeys {
    /** [encoded] as a JCA key: `spki`, `x963` (an uncompressed P-256 point) or a raw Ed25519 key. */
    fun publicKey(es256: Boolean, encoded: ByteArray, encoding: String): PublicKey {
        val spki = when (encoding) {
            "spki" -> encoded
            "x963" -> P256_SPKI_PREFIX + encoded
            else -> ED25519_SPKI_PREFIX + encoded
        }
        return KeyFactory.getInstance(if (es256) "EC" else "Ed25519").generatePublic(X509EncodedKeySpec(spki))
    }

    /** Whether [signature] by [key] verifies over [message]. */
    fun verifies(es256: Boolean, key: PublicKey, message: ByteArray, signature: ByteArray): Boolean {
        val verifier = Signature.getInstance(if (es256) "SHA256withECDSA" else "Ed25519")
        verifier.initVerify(key)
        verifier.update(message)
        return verifier.verify(signature)
    }

    /** SubjectPublicKeyInfo header of an uncompressed P-256 point (RFC 5480). */
    private val P256_SPKI_PREFIX = byteArrayOf(
        0x30, 0x59, 0x30, 0x13, 0x06, 0x07, 0x2a, 0x86.toByte(), 0x48, 0xce.toByte(), 0x3d, 0x02, 0x01, 0x06, 0x08, 0x2a,
        0x86.toByte(), 0x48, 0xce.toByte(), 0x3d, 0x03, 0x01, 0x07, 0x03, 0x42, 0x00,
    )

    /** SubjectPublicKeyInfo header of an Ed25519 key (RFC 8410). */
    private val ED25519_SPKI_PREFIX = byteArrayOf(0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00)
}
