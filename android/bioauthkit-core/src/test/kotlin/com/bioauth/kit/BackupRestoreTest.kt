package com.bioauth.kit

import com.bioauth.kit.client.LocalKeyLoss
import com.bioauth.kit.client.ReconciliationAction
import com.bioauth.kit.errors.BioAuthException.Code
import com.bioauth.kit.simulator.SimulatedBiometricPrompt.Answer
import com.bioauth.kit.simulator.SimulatedDevice
import com.bioauth.kit.support.Account
import com.bioauth.kit.support.Account.Companion.PROMPT
import com.bioauth.kit.support.RawHttp
import com.bioauth.kit.support.failure
import com.bioauth.kit.support.runSuspend
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import java.io.File
import javax.xml.parsers.DocumentBuilderFactory

/** Auto Backup copies SharedPreferences and never Keystore keys: records must not outlive their keys. */
class BackupRestoreTest {
    @Test
    fun `the backup rules the SDK ships exclude its preferences file from cloud backup and device transfer`() {
        val xml = File(System.getenv("BIOAUTH_ANDROID_RES") ?: "android/bioauthkit/src/main/res", "xml")
        val fullBackup = excludes(File(xml, "bioauthkit_backup_rules.xml"))
        assertTrue(EXCLUDE in fullBackup, "full-backup-content (API 23-30): $fullBackup")
        val extraction = File(xml, "bioauthkit_data_extraction_rules.xml")
        for (section in listOf("cloud-backup", "device-transfer")) {
            assertTrue(EXCLUDE in excludes(extraction, section), "data-extraction-rules $section (API 31+)")
        }
    }

    @Test
    fun `records restored onto a new phone without their keys - reconcile revokes the registration, forgets the PIN and the kept secrets`() = runSuspend {
        val old = Account.signedIn()
        val registration = old.enableBiometrics()
        old.device.willAnswer(Answer.Present("owner"), Answer.Present("owner"))
        old.client.setPIN(Account.PIN, PROMPT)
        old.client.keepSessionBehindBiometrics(PROMPT)
        val pinRegistration = RawHttp.call("GET", "/v1/biometric/registrations", token = old.client.sessionToken).body
            .getJSONArray("registrations").let { list -> (0 until list.length()).map { list.getJSONObject(it) } }
            .single { it.getString("kind") == "pin" }.getString("id")

        val phone = SimulatedDevice()
        phone.storage.restore(old.device.storage.dump())
        val app = Account.client(phone)
        assertTrue(app.isPINSet, "the records came back, the keys did not")
        app.signIn(old.username, Account.PASSWORD)
        assertEquals(
            listOf(
                ReconciliationAction.ServerRegistrationRevoked(registration.id, LocalKeyLoss.KEY_MISSING),
                ReconciliationAction.LocalPINRemoved(pinRegistration),
            ),
            app.reconcile(),
        )
        assertFalse(app.isPINSet)
        assertEquals(Code.KEY_MISSING, failure { app.restoreSession(PROMPT) }.code)
        assertEquals(emptyList<ReconciliationAction>(), app.reconcile(), "in agreement now")
        phone.willAnswer(Answer.Present("owner"), Answer.Present("owner"))
        app.enableBiometricSignIn(prompt = PROMPT)
        app.keepSessionBehindBiometrics(PROMPT)
    }

    @Test
    fun `kept secrets restored without their key are dropped by reconcile, without a prompt`() = runSuspend {
        val old = Account.signedIn()
        old.enableBiometrics()
        old.device.willAnswer(Answer.Present("owner"))
        old.client.keepSessionBehindBiometrics(PROMPT)
        old.client.disableBiometricSignIn()
        old.device.willAnswer(Answer.Present("owner"))
        old.client.keepSessionBehindBiometrics(PROMPT)

        val phone = SimulatedDevice()
        phone.storage.restore(old.device.storage.dump())
        val app = Account.client(phone)
        app.signIn(old.username, Account.PASSWORD)
        assertEquals(listOf(ReconciliationAction.KeptSecretsDropped), app.reconcile())
        assertEquals(0, phone.prompt.shown)
    }

    private fun excludes(file: File, section: String? = null): Set<String> {
        val document = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(file)
        val nodes = document.getElementsByTagName("exclude")
        return (0 until nodes.length).map { nodes.item(it) }
            .filter { section == null || it.parentNode.nodeName == section }
            .map { "${it.attributes.getNamedItem("domain").nodeValue}:${it.attributes.getNamedItem("path").nodeValue}" }.toSet()
    }

    private companion object {
        /** `AndroidDevice.backends`' default preferences file. */
        const val EXCLUDE = "sharedpref:bioauth.xml"
    }
}
