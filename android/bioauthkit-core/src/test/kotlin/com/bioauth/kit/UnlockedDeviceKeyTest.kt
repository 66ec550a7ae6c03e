package com.bioauth.kit

import com.bioauth.kit.client.ReconciliationAction
import com.bioauth.kit.device.KeySpec
import com.bioauth.kit.device.KeystoreFailure
import com.bioauth.kit.errors.BioAuthException.Code
import com.bioauth.kit.protocol.AuthenticationMethod
import com.bioauth.kit.simulator.SimulatedDevice
import com.bioauth.kit.simulator.SimulatedDevice.Unlock
import com.bioauth.kit.support.Account
import com.bioauth.kit.support.Account.Companion.PROMPT
import com.bioauth.kit.support.failure
import com.bioauth.kit.support.runSuspend
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertThrows
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test

/**
 * The PIN key and `setUnlockedDeviceRequired` on Android 12-14 (API 31-34), whose keystore2 makes
 * such keys need a secure lock screen, deletes them when it is removed and refuses them after a
 * face or Smart Lock unlock (the `KeyGenParameterSpec.Builder` reference's warning; AOSP
 * system/security 6946daa). The SDK makes the PIN key without the flag there, so none of it
 * touches a PIN set there; a PIN key made with the flag on Android 9-11 meets all three after an
 * update, and each ends in a clear state.
 */
class UnlockedDeviceKeyTest {
    private suspend fun signsInWithPin(account: Account) =
        assertEquals(AuthenticationMethod.PIN, account.relaunched().signInWithPIN(Account.PIN).session.authentication.method)

    @Test
    fun `the simulated Android 12-14 keystore - an unlocked-device key needs a lock screen and a strong unlock, and goes with the lock screen`() {
        val spec = KeySpec("k", KeySpec.Kind.SIGNING_P256, null, null, unlockedDeviceRequired = true, strongBox = false)
        for (api in listOf(30, 31, 34, 35)) {
            val unsound = api in 31..34
            val bare = SimulatedDevice(apiLevel = api).apply { removeLockScreen() }
            if (unsound) {
                assertThrows(KeystoreFailure::class.java) { bare.keyStore.generateSigningKey(spec) }
            } else {
                bare.keyStore.generateSigningKey(spec)
            }
            val device = SimulatedDevice(apiLevel = api)
            device.keyStore.generateSigningKey(spec)
            device.lock()
            device.unlock(Unlock.WEAK_BIOMETRIC)
            val weak = runCatching { device.keyStore.beginSigning("k") }.exceptionOrNull() as? KeystoreFailure
            assertEquals(if (unsound) KeystoreFailure.Kind.USER_NOT_AUTHENTICATED else null, weak?.kind, "API $api: LOCKED after a weak unlock")
            device.lock()
            device.unlock(Unlock.TRUST_AGENT)
            assertEquals(unsound, runCatching { device.keyStore.beginSigning("k") }.isFailure, "API $api: a trust agent")
            device.lock()
            device.unlock()
            device.keyStore.beginSigning("k").sign(byteArrayOf(1))
            device.removeLockScreen()
            assertEquals(!unsound, device.keyStore.contains("k"), "API $api: deleted with the lock screen")
        }
    }

    @Test
    fun `on Android 12-14 the PIN is set without a secure lock screen and signs in - the key is made without setUnlockedDeviceRequired`() =
        runSuspend {
            for (api in 31..34) {
                val device = SimulatedDevice(apiLevel = api)
                val account = Account.signedIn(device)
                device.removeLockScreen()
                assertFalse(account.client.setPIN(Account.PIN, PROMPT), "API $api: not kept behind biometrics, there are none")
                signsInWithPin(account)
            }
        }

    @Test
    fun `on Android 12-14 removing the lock screen keeps the PIN key, as the guide says - the PIN signs in after it`() = runSuspend {
        val device = SimulatedDevice(apiLevel = 34)
        val account = Account.signedIn(device)
        account.client.setPIN(Account.PIN, PROMPT, keepBehindBiometrics = false)
        device.removeLockScreen()
        signsInWithPin(account)
        assertTrue(account.client.reconcile().isEmpty())
        assertTrue(account.client.isPINSet)
    }

    @Test
    fun `on Android 12-14 a face or Smart Lock unlock leaves the PIN usable - no LOCKED, reconcile keeps it`() = runSuspend {
        val device = SimulatedDevice(apiLevel = 33)
        val account = Account.signedIn(device)
        account.client.setPIN(Account.PIN, PROMPT, keepBehindBiometrics = false)
        for (how in listOf(Unlock.WEAK_BIOMETRIC, Unlock.TRUST_AGENT)) {
            device.lock()
            device.unlock(how)
            signsInWithPin(account)
            assertTrue(account.client.reconcile().isEmpty(), "$how")
        }
    }

    @Test
    fun `a PIN key made with the flag on Android 11, after an update to 14 - LOCKED after a weak unlock is KEYSTORE_LOCKED and loses nothing, the lock screen removed loses it cleanly`() =
        runSuspend {
            val device = SimulatedDevice(apiLevel = 30)
            val account = Account.signedIn(device)
            account.client.setPIN(Account.PIN, PROMPT, keepBehindBiometrics = false)
            device.updateOS(34)

            device.lock()
            device.unlock(Unlock.WEAK_BIOMETRIC)
            assertEquals(Code.KEYSTORE_LOCKED, failure { account.relaunched().signInWithPIN(Account.PIN) }.code)
            assertTrue(account.client.reconcile().isEmpty(), "reconcile() does not throw and keeps the PIN")
            assertTrue(account.client.isPINSet)
            device.lock()
            device.unlock(Unlock.CREDENTIAL)
            signsInWithPin(account)

            device.removeLockScreen()
            val client = account.relaunched()
            assertEquals(Code.KEY_MISSING, failure { client.signInWithPIN(Account.PIN) }.code)
            assertFalse(client.isPINSet, "the lost PIN key is forgotten here")
            client.signIn(account.username, Account.PASSWORD)
            assertEquals(emptyList<ReconciliationAction>(), client.reconcile())
            client.setPIN(Account.PIN, PROMPT)
            signsInWithPin(account)
        }
}
