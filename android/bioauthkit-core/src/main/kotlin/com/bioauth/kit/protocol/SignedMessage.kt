package com.bioauth.kit.protocol

import java.io.ByteArrayOutputStream

/** Which ceremony a device key signs for: the byte after the domain tag. */
public enum class Ceremony(
    /** The byte after the domain tag. */
    public val byte: Int,
) {
    /** Proving possession of a new key (`POST /v1/biometric/registrations/{id}/verify`). */
    REGISTRATION(0x01),

    /** Answering an authentication challenge (sign-in, PIN sign-in, re-authentication). */
    AUTHENTICATION(0x02),

    /**
     * Approving a confirmation ([ConfirmationMessage]): a payment or an action, bound to its
     * details' hash. (`0x03` is App Attest's key-attestation message, never a device key's.)
     */
    CONFIRMATION(0x04),
}

/**
 * The exact bytes a device key signs (protocol v1, docs/PROTOCOL.md):
 * `"BIOAUTH-V1" 0x00 | ceremony (1 byte) | u16 len | rp_id | u16 len | registration_id | u16 len | challenge`,
 * lengths big-endian. Every variable field is length-prefixed, so two field tuples never give the same bytes.
 */
public class SignedMessage(
    /** Which ceremony the signature is for. */
    public val ceremony: Ceremony,
    /** The relying party the server was started with. */
    public val relyingPartyId: String,
    /** The registration whose key signs. */
    public val registrationId: String,
    /** The server's fresh challenge. */
    public val challenge: ByteArray,
) {
    /** The bytes to sign; throws [IllegalArgumentException] when a field exceeds 65,535 bytes. */
    public fun encoded(): ByteArray {
        val out = ByteArrayOutputStream()
        out.write(TAG)
        out.write(ceremony.byte)
        field(out, relyingPartyId.toByteArray(Charsets.UTF_8), "rp_id")
        field(out, registrationId.toByteArray(Charsets.UTF_8), "registration_id")
        field(out, challenge, "challenge")
        return out.toByteArray()
    }

    public companion object {
        /** ASCII `BIOAUTH-V1` and a NUL: the domain tag that opens every message. */
        public val TAG: ByteArray = "BIOAUTH-V1".toByteArray(Charsets.US_ASCII) + byteArrayOf(0)

        /** Writes [bytes] as a field: its length (u16, big-endian), then the bytes; [name] for the error when it is too long. */
        internal fun field(out: ByteArrayOutputStream, bytes: ByteArray, name: String) {
            require(bytes.size <= 0xFFFF) { "$name is longer than 65,535 bytes" }
            out.write(bytes.size shr 8)
            out.write(bytes.size and 0xFF)
            out.write(bytes)
        }
    }
}
