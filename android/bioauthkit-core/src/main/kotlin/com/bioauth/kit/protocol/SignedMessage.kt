package com.bioauth.kit.protocol

import java.io.ByteArrayOutputStream

/** Which ceremony a device key signs for: the byte after the domain tag. */
enum class Ceremony(val byte: Int) {
    /** Proving possession of a new key (`POST /v1/biometric/registrations/{id}/verify`). */
    REGISTRATION(0x01),

    /** Answering an authentication challenge (sign-in, PIN sign-in, re-authentication). */
    AUTHENTICATION(0x02),
}

/**
 * The exact bytes a device key signs (protocol v1, docs/PROTOCOL.md):
 * `"BIOAUTH-V1" 0x00 | ceremony (1 byte) | u16 len | rp_id | u16 len | registration_id | u16 len | challenge`,
 * lengths big-endian. Every variable field is length-prefixed, so two field tuples never give the same bytes.
 */
class SignedMessage(
    val ceremony: Ceremony,
    val relyingPartyId: String,
    val registrationId: String,
    val challenge: ByteArray,
) {
    /** The bytes to sign; throws [IllegalArgumentException] when a field exceeds 65,535 bytes. */
    fun encoded(): ByteArray {
        val out = ByteArrayOutputStream()
        out.write(TAG)
        out.write(ceremony.byte)
        field(out, relyingPartyId.toByteArray(Charsets.UTF_8), "rp_id")
        field(out, registrationId.toByteArray(Charsets.UTF_8), "registration_id")
        field(out, challenge, "challenge")
        return out.toByteArray()
    }

    private fun field(out: ByteArrayOutputStream, bytes: ByteArray, name: String) {
        require(bytes.size <= 0xFFFF) { "$name is longer than 65,535 bytes" }
        out.write(bytes.size shr 8)
        out.write(bytes.size and 0xFF)
        out.write(bytes)
    }

    companion object {
        /** ASCII `BIOAUTH-V1` and a NUL: the domain tag that opens every message. */
        val TAG: ByteArray = "BIOAUTH-V1".toByteArray(Charsets.US_ASCII) + byteArrayOf(0)
    }
}
