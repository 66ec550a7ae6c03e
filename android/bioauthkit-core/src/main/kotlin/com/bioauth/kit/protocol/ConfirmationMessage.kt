package com.bioauth.kit.protocol

import java.io.ByteArrayOutputStream

/**
 * The exact bytes a device key signs to approve a confirmation (protocol v1, docs/protocol/CONFIRMATIONS.md):
 * `"BIOAUTH-V1" 0x00 | 0x04 | u16 len | rp_id | u16 len | registration_id | u16 len | challenge | u16 len | details_hash`.
 * [SignedMessage]'s layout with [Ceremony.CONFIRMATION] and one more field: the SHA-256 of the
 * confirmation's canonical details ([ConfirmationDetails.hash]), 32 bytes. The SDK computes that
 * hash itself from the fields it shows the user, so a signature covers what was displayed, never a
 * hash the server handed it.
 */
public class ConfirmationMessage(
    /** The relying party the server was started with. */
    public val relyingPartyId: String,
    /** The registration whose key signs. */
    public val registrationId: String,
    /** The server's fresh authentication challenge. */
    public val challenge: ByteArray,
    /** SHA-256 of the canonical details ([ConfirmationDetails.hash]). */
    public val detailsHash: ByteArray,
) {
    /** The bytes to sign; throws [IllegalArgumentException] when a field exceeds 65,535 bytes. */
    public fun encoded(): ByteArray {
        val out = ByteArrayOutputStream()
        out.write(SignedMessage(Ceremony.CONFIRMATION, relyingPartyId, registrationId, challenge).encoded())
        SignedMessage.field(out, detailsHash, "details_hash")
        return out.toByteArray()
    }
}
