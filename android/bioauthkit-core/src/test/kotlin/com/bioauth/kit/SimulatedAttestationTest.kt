package com.bioauth.kit

import com.bioauth.kit.client.BiometricPolicy
import com.bioauth.kit.device.KeySpec
import com.bioauth.kit.device.KeySpecs
import com.bioauth.kit.simulator.SimulatedAttestationAuthority
import com.bioauth.kit.simulator.SimulatedDevice
import com.bioauth.kit.support.DerElement
import org.junit.jupiter.api.Assertions.assertArrayEquals
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import java.security.cert.CertificateFactory
import java.security.cert.X509Certificate

/**
 * The simulated Keystore's attestation chain, read back outside the simulator: X.509 through the
 * JDK's own parser, each certificate signed by the next, and the key description's DER walked
 * with a reader of the tests' own against the schema (source.android.com/docs/security/features/keystore/attestation).
 */
class SimulatedAttestationTest {
    private val challenge = ByteArray(32) { it.toByte() }

    private class Description(val root: DerElement) {
        val fields get() = root.children
        val software: Map<Int, DerElement> get() = tags(fields[6])
        val hardware: Map<Int, DerElement> get() = tags(fields[7])

        private fun tags(list: DerElement): Map<Int, DerElement> {
            val numbers = list.children.map { it.tag }
            assertEquals(numbers.sorted().distinct(), numbers, "tags in ascending order, once each")
            return list.children.associate { entry ->
                assertEquals(DerElement.CONTEXT, entry.tagClass, "[tag] EXPLICIT")
                assertTrue(entry.constructed)
                entry.tag to entry.children.single()
            }
        }
    }

    private fun attest(device: SimulatedDevice, spec: KeySpec): Pair<List<X509Certificate>, Description> {
        val publicKey = device.keyStore.generateSigningKey(spec)
        val der = requireNotNull(device.keyStore.certificateChain(spec.alias))
        val factory = CertificateFactory.getInstance("X.509")
        val chain = der.map { factory.generateCertificate(it.inputStream()) as X509Certificate }
        assertEquals(3, chain.size, "leaf, intermediate, root")
        for (index in chain.indices) {
            assertArrayEquals(der[index], chain[index].encoded, "certificate $index re-encodes to the same bytes")
            chain[index].verify(chain[minOf(index + 1, chain.lastIndex)].publicKey)
            assertEquals(chain[minOf(index + 1, chain.lastIndex)].subjectX500Principal, chain[index].issuerX500Principal)
        }
        assertArrayEquals(device.attestationAuthority.rootCertificate, der.last())
        assertArrayEquals(publicKey, chain[0].publicKey.encoded, "the leaf certifies the generated key")
        assertEquals(-1, chain[0].basicConstraints, "the leaf is no CA")
        assertEquals(0, chain[1].basicConstraints)
        // getExtensionValue answers the extnValue OCTET STRING; inside it, the KeyDescription.
        val extension = DerElement.parse(chain[0].getExtensionValue(SimulatedAttestationAuthority.KEY_DESCRIPTION_OID))
        assertEquals(4, extension.tag)
        assertFalse(chain[0].criticalExtensionOIDs.contains(SimulatedAttestationAuthority.KEY_DESCRIPTION_OID))
        assertTrue(chain.drop(1).all { it.getExtensionValue(SimulatedAttestationAuthority.KEY_DESCRIPTION_OID) == null }, "only the leaf is attested")
        return chain to Description(DerElement.parse(extension.content))
    }

    @Test
    fun `the simulated chain parses - JDK X509, signed leaf to root, and a key description of the schema for a biometric key`() {
        val device = SimulatedDevice(apiLevel = 34)
        val spec = KeySpecs.biometric("k", KeySpec.Kind.SIGNING_P256, 34, BiometricPolicy.BIOMETRICS_ONLY, strongBox = false, challenge)
        val (_, description) = attest(device, spec)
        val fields = description.fields
        assertEquals(8, fields.size)
        assertEquals(300, fields[0].integer.toInt(), "attestationVersion")
        assertEquals(10, fields[1].tag, "ENUMERATED")
        assertEquals(1, fields[1].integer.toInt(), "attestationSecurityLevel: TEE")
        assertEquals(1, fields[3].integer.toInt(), "keyMintSecurityLevel: TEE")
        assertArrayEquals(challenge, fields[4].content)
        val hardware = description.hardware
        assertEquals(listOf(2), hardware.getValue(1).children.map { it.integer.toInt() }, "purpose SIGN")
        assertEquals(3, hardware.getValue(2).integer.toInt(), "algorithm EC")
        assertEquals(256, hardware.getValue(3).integer.toInt())
        assertEquals(1, hardware.getValue(10).integer.toInt(), "curve P-256")
        assertEquals(2, hardware.getValue(504).integer.toInt(), "userAuthType: a strong biometric")
        assertFalse(hardware.containsKey(503), "no noAuthRequired")
        assertFalse(hardware.containsKey(505), "no authTimeout: per use")
        assertEquals(0, hardware.getValue(702).integer.toInt(), "origin GENERATED")
        val rootOfTrust = hardware.getValue(704).children
        assertEquals(listOf(32, 1, 1, 32), rootOfTrust.map { it.content.size })
        assertEquals(0xFF, rootOfTrust[1].content[0].toInt() and 0xFF, "bootloader locked")
        assertEquals(0, rootOfTrust[2].integer.toInt(), "verified boot")
        assertEquals(140000, hardware.getValue(705).integer.toInt(), "osVersion: Android 14 is API 34")
    }

    @Test
    fun `the attestation application id names the device's package and signing digest, and a PIN key's description says no auth and unlocked only`() {
        val digest = ByteArray(32) { 7 }
        val device = SimulatedDevice(apiLevel = 35, hasStrongBox = true, packageName = "com.example.bank", signingCertificateDigest = digest)
        val (_, description) = attest(device, KeySpecs.pin("p", 35, strongBox = true, attestationChallenge = challenge))
        assertEquals(2, description.fields[1].integer.toInt(), "StrongBox")
        assertEquals(2, description.fields[3].integer.toInt(), "StrongBox")
        assertTrue(description.hardware.containsKey(503), "noAuthRequired")
        assertFalse(description.hardware.containsKey(504), "no userAuthType")
        val software = description.software
        assertEquals(listOf(509, 701, 709), software.keys.toList())
        val application = DerElement.parse(software.getValue(709).content).children
        val packageInfo = application[0].children.single().children
        assertEquals("com.example.bank", String(packageInfo[0].content))
        assertEquals(1, packageInfo[1].integer.toInt())
        assertArrayEquals(digest, application[1].children.single().content)
    }

    @Test
    fun `a key made without a challenge has one self-signed certificate and no description, an AES key none`() {
        val device = SimulatedDevice(apiLevel = 34)
        device.keyStore.generateSigningKey(KeySpecs.pin("p", 34, strongBox = false))
        val der = requireNotNull(device.keyStore.certificateChain("p"))
        val certificate = CertificateFactory.getInstance("X.509").generateCertificate(der.single().inputStream()) as X509Certificate
        certificate.verify(certificate.publicKey)
        assertNull(certificate.getExtensionValue(SimulatedAttestationAuthority.KEY_DESCRIPTION_OID))
        device.keyStore.generateSecretKey(KeySpecs.biometric("v", KeySpec.Kind.AES_GCM_256, 34, BiometricPolicy.BIOMETRICS_ONLY, false, challenge))
        assertNull(device.keyStore.certificateChain("v"))
        assertNull(device.keyStore.specs.getValue("v").attestationChallenge, "an AES key is never attested")
    }
}
