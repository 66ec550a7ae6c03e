package com.bioauth.kit.client

import com.bioauth.kit.errors.BioAuthException
import com.bioauth.kit.errors.BioAuthException.Code

/** This device's biometric registration and its key: finding it usable, signing with it, recording its loss. */
internal class EnrolledKey(private val core: ClientCore) {
    /** The record, if its key is not known to be lost; throws the loss otherwise. */
    fun usable(): EnrollmentRecord {
        val record = core.records.enrollment ?: throw BioAuthException(Code.KEY_MISSING, "biometric sign-in is not enabled on this device")
        return when (record.lost) {
            null -> record
            LocalKeyLoss.KEY_INVALIDATED -> throw BioAuthException(Code.KEY_INVALIDATED, "biometrics changed: sign in with the password")
            LocalKeyLoss.KEY_MISSING -> throw BioAuthException(Code.KEY_MISSING, "the device key is gone: sign in with the password")
        }
    }

    /** Signs [message] with [record]'s key (one prompt); a key found invalidated or gone is recorded as lost first. */
    suspend fun sign(record: EnrollmentRecord, message: ByteArray, prompt: PromptText, confirmationRequired: Boolean = false): ByteArray = try {
        core.keys.signWithBiometrics(record.keyAlias, message, prompt, confirmationRequired)
    } catch (error: BioAuthException) {
        when (error.code) {
            Code.KEY_INVALIDATED -> markLost(record, LocalKeyLoss.KEY_INVALIDATED)
            Code.KEY_MISSING -> markLost(record, LocalKeyLoss.KEY_MISSING)
            else -> Unit
        }
        throw error
    }

    /** Without a prompt: whether [record]'s key can still sign; a lost key is recorded as such. */
    suspend fun probe(record: EnrollmentRecord): Boolean = when (core.keys.probeSigning(record.keyAlias)) {
        DeviceKeys.Probe.USABLE, DeviceKeys.Probe.LOCKED -> true
        DeviceKeys.Probe.INVALIDATED -> false.also { markLost(record, LocalKeyLoss.KEY_INVALIDATED) }
        DeviceKeys.Probe.MISSING -> false.also { markLost(record, LocalKeyLoss.KEY_MISSING) }
    }

    /**
     * Records the loss and deletes the key (an invalidated entry stays until deleted) and the
     * session kept behind biometrics; the registration id stays until the server revokes it.
     */
    suspend fun markLost(record: EnrollmentRecord, loss: LocalKeyLoss) {
        core.records.saveEnrollment(record.copy(lost = loss))
        core.keys.delete(record.keyAlias)
        core.vault.remove(SecretVault.Name.SESSION)
    }

    /** Forgets the registration here: its key, its record, the session kept for it. */
    suspend fun removeLocal() {
        core.records.enrollment?.let { core.keys.delete(it.keyAlias) }
        core.records.saveEnrollment(null)
        core.vault.remove(SecretVault.Name.SESSION)
    }
}
