package com.bioauth.kit.simulator

import java.math.BigInteger
import java.security.KeyPair
import java.security.KeyPairGenerator
import java.security.PublicKey
import java.security.SecureRandom
import java.security.spec.ECGenParameterSpec
import java.util.Base64
import java.util.Date

/**
 * A stand-in for Google's key attestation hierarchy, made fresh per instance (EC P-256,
 * SHA256withECDSA): a self-signed root a test configures the server with
 * (`--android-attestation-roots`), an intermediate standing for the device's attestation (batch)
 * key, and per attested key a leaf carrying the key description. `KeyStore.getCertificateChain`
 * returns such a chain leaf first, root last
 * (https://developer.android.com/privacy-and-security/security-key-attestation, "Retrieve and
 * verify a hardware-backed key pair"; https://source.android.com/docs/security/features/keystore/attestation,
 * "Attestation certificate"). Real chains have one or two intermediates more; this one has the
 * shortest shape Google's verifier accepts.
 */
public class SimulatedAttestationAuthority {
    private val root: KeyPair = newKey()
    private val intermediate: KeyPair = newKey()
    private val rootName = Certificates.name(Certificates.COMMON_NAME to "BioAuthKit Simulator Attestation Root")
    private val intermediateName = Certificates.name(Certificates.ORGANIZATION to "TEE", Certificates.COMMON_NAME to "BioAuthKit Simulator Batch")
    private val notBefore = Date(System.currentTimeMillis() - DAY)
    private val notAfter = Date(System.currentTimeMillis() + 10 * 365 * DAY)

    /** The root certificate (DER): what a server trusts besides Google's roots. */
    public val rootCertificate: ByteArray = Certificates.issue(
        serial(), rootName, rootName, notBefore, notAfter, root.public.encoded,
        listOf(Certificates.certificateAuthority(pathLength = null), Certificates.keyCertSign()), root.private,
    )

    private val intermediateCertificate: ByteArray = Certificates.issue(
        serial(), rootName, intermediateName, notBefore, notAfter, intermediate.public.encoded,
        listOf(Certificates.certificateAuthority(pathLength = 0), Certificates.keyCertSign()), root.private,
    )

    /** [rootCertificate] as PEM, the form `bioauth serve --android-attestation-roots` reads. */
    public fun rootPem(): String {
        val base64 = Base64.getMimeEncoder(64, "\n".toByteArray()).encodeToString(rootCertificate)
        return "-----BEGIN CERTIFICATE-----\n$base64\n-----END CERTIFICATE-----\n"
    }

    /**
     * The chain for [publicKey] whose leaf carries [keyDescription] (extension
     * 1.3.6.1.4.1.11129.2.1.17, not critical): leaf, intermediate, root. The leaf's validity is the
     * Keystore's default certificate validity (`KeyGenParameterSpec`: 1970-01-01 to 2048-01-01),
     * subject "Android Keystore Key", serial 1 (`setCertificateSerialNumber`'s default).
     */
    internal fun chain(publicKey: PublicKey, keyDescription: ByteArray): List<ByteArray> {
        val leaf = Certificates.issue(
            BigInteger.ONE, intermediateName, Certificates.name(Certificates.COMMON_NAME to "Android Keystore Key"),
            Date(0), Date(KEYSTORE_DEFAULT_NOT_AFTER), publicKey.encoded,
            listOf(Certificates.digitalSignature(), Certificates.extension(KEY_DESCRIPTION_OID, false, keyDescription)),
            intermediate.private,
        )
        return listOf(leaf, intermediateCertificate.copyOf(), rootCertificate.copyOf())
    }

    /** The authority every [SimulatedDevice] uses unless given another, and its root. */
    public companion object {
        /** The key description's extension: 1.3.6.1.4.1.11129.2.1.17. */
        public const val KEY_DESCRIPTION_OID: String = "1.3.6.1.4.1.11129.2.1.17"

        private const val DAY = 86_400_000L
        private const val KEYSTORE_DEFAULT_NOT_AFTER = 2_461_449_600_000L // 2048-01-01T00:00:00Z

        /** One per process: a server started with its root accepts every default simulated phone. */
        public val shared: SimulatedAttestationAuthority by lazy { SimulatedAttestationAuthority() }

        private fun newKey(): KeyPair = KeyPairGenerator.getInstance("EC").apply { initialize(ECGenParameterSpec("secp256r1")) }.generateKeyPair()

        private fun serial(): BigInteger = BigInteger(127, SecureRandom()).add(BigInteger.ONE)
    }
}
