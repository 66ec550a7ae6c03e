package com.bioauth.kit.simulator

import java.math.BigInteger
import java.security.PrivateKey
import java.security.Signature
import java.util.Date

/**
 * X.509 v3 certificates (RFC 5280 §4.1) in DER, signed SHA256withECDSA through java.security: what
 * the simulated Keystore and its attestation authority issue.
 */
internal object Certificates {
    private const val ECDSA_WITH_SHA256 = "1.2.840.10045.4.3.2"
    const val COMMON_NAME = "2.5.4.3"
    const val ORGANIZATION = "2.5.4.10"
    private const val BASIC_CONSTRAINTS = "2.5.29.19"
    private const val KEY_USAGE = "2.5.29.15"

    /** A distinguished name, one attribute (OID, UTF8String) per relative name. */
    fun name(vararg attributes: Pair<String, String>): ByteArray =
        Der.sequence(attributes.map { (type, value) -> Der.setOf(listOf(Der.sequence(Der.oid(type), Der.utf8String(value)))) })

    /** An extension; `critical` is left out when false (DER leaves out a DEFAULT value). */
    fun extension(oid: String, critical: Boolean, value: ByteArray): ByteArray =
        if (critical) Der.sequence(Der.oid(oid), Der.boolean(true), Der.octetString(value)) else Der.sequence(Der.oid(oid), Der.octetString(value))

    /** `basicConstraints` (critical): a CA, with a path length when [pathLength] is given. */
    fun certificateAuthority(pathLength: Int?): ByteArray {
        val fields = listOfNotNull(Der.boolean(true), pathLength?.let { Der.integer(it.toLong()) })
        return extension(BASIC_CONSTRAINTS, true, Der.sequence(fields))
    }

    /** `keyUsage` (critical) keyCertSign: bit 5, so six bits and two unused. */
    fun keyCertSign(): ByteArray = extension(KEY_USAGE, true, Der.bitString(byteArrayOf(0x04), unusedBits = 2))

    /** `keyUsage` (critical) digitalSignature: bit 0, seven unused; what an Android attestation leaf carries for a signing key. */
    fun digitalSignature(): ByteArray = extension(KEY_USAGE, true, Der.bitString(byteArrayOf(0x80.toByte()), unusedBits = 7))

    /** A certificate for [subjectPublicKeyInfo] (DER), signed by [signer] under [issuer]'s name. */
    fun issue(
        serial: BigInteger,
        issuer: ByteArray,
        subject: ByteArray,
        notBefore: Date,
        notAfter: Date,
        subjectPublicKeyInfo: ByteArray,
        extensions: List<ByteArray>,
        signer: PrivateKey,
    ): ByteArray {
        val algorithm = Der.sequence(Der.oid(ECDSA_WITH_SHA256))
        val tbs = Der.sequence(
            Der.explicit(0, Der.integer(2)), // v3
            Der.integer(serial),
            algorithm,
            issuer,
            Der.sequence(Der.time(notBefore), Der.time(notAfter)),
            subject,
            subjectPublicKeyInfo,
            Der.explicit(3, Der.sequence(extensions)),
        )
        val signature = Signature.getInstance("SHA256withECDSA").run {
            initSign(signer)
            update(tbs)
            sign()
        }
        return Der.sequence(tbs, algorithm, Der.bitString(signature))
    }
}
