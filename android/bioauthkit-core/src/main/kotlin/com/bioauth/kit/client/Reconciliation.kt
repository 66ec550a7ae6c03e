package com.bioauth.kit.client

import com.bioauth.kit.errors.BioAuthException
import com.bioauth.kit.protocol.Endpoint
import com.bioauth.kit.protocol.Registration
import com.bioauth.kit.protocol.RegistrationListResponse
import com.bioauth.kit.protocol.ServerErrorCode

/** Keeping this device and the server in agreement: no orphan registration on either side. */
internal class Reconciliation(private val core: ClientCore, private val enrolled: EnrolledKey) {
    /** See `BioAuthClient.reconcile`. */
    suspend fun reconcile(): List<ReconciliationAction> {
        val token = core.requireToken()
        val userId = core.requireUser().id
        val actions = mutableListOf<ReconciliationAction>()
        val record = core.records.enrollment?.takeIf { it.userId == userId }
        if (record != null && record.lost == null) enrolled.probe(record)
        revokeLostRegistration()?.let { actions += it }
        val pin = core.records.pin?.takeIf { it.userId == userId }
        val stillEnrolled = core.records.enrollment?.takeIf { it.userId == userId && it.lost == null }
        if (stillEnrolled != null || pin != null) {
            val listed = core.api.call(Endpoint.LIST_REGISTRATIONS, token = token, read = RegistrationListResponse::from).registrations
            val active = listed.filter { it.status == Registration.Status.ACTIVE }.map { it.id }.toSet()
            if (stillEnrolled != null && stillEnrolled.registrationId !in active) {
                enrolled.removeLocal()
                actions += ReconciliationAction.LocalRegistrationRemoved(stillEnrolled.registrationId)
            }
            if (pin != null && (pin.registrationId !in active || core.keys.probeSigning(pin.keyAlias) in LOST)) {
                removeLocalPIN()
                actions += ReconciliationAction.LocalPINRemoved(pin.registrationId)
            }
        }
        if (core.vault.repair()) actions += ReconciliationAction.KeptSecretsDropped
        return actions
    }

    /** After a sign-in: revokes on the server a registration whose key this device lost, when the signed-in user owns it. */
    suspend fun revokeLostRegistration(): ReconciliationAction? {
        val token = core.current?.token ?: return null
        val record = core.records.enrollment ?: return null
        val loss = record.lost ?: return null
        if (record.userId != core.current?.user?.id) return null
        try {
            core.api.send(Endpoint.DELETE_REGISTRATION, record.registrationId, token = token)
        } catch (error: BioAuthException) {
            // Already gone on the server is agreement all the same; anything else is tried again next time.
            if (error.serverCode != ServerErrorCode.REGISTRATION_NOT_FOUND) return null
        }
        core.records.saveEnrollment(null)
        return ReconciliationAction.ServerRegistrationRevoked(record.registrationId, loss)
    }

    private companion object {
        /** A key kept but refused while locked ([DeviceKeys.Probe.LOCKED]) is not lost. */
        val LOST = setOf(DeviceKeys.Probe.INVALIDATED, DeviceKeys.Probe.MISSING)
    }

    /** Forgets the PIN here: its key, its record, the copy behind biometrics. */
    suspend fun removeLocalPIN() {
        core.records.pin?.let { core.keys.delete(it.keyAlias) }
        core.records.savePin(null)
        core.vault.remove(SecretVault.Name.PIN)
    }
}
