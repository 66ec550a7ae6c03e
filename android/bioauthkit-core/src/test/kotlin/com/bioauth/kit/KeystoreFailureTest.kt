package com.bioauth.kit

import com.bioauth.kit.device.KeystoreFailure
import com.bioauth.kit.device.KeystoreFailure.Kind
import com.bioauth.kit.errors.BioAuthException.Code
import com.bioauth.kit.simulator.SimulatedBiometricPrompt.Answer
import com.bioauth.kit.simulator.SimulatedDevice
import com.bioauth.kit.support.Account
import com.bioauth.kit.support.Account.Companion.PROMPT
import com.bioauth.kit.support.failure
import com.bioauth.kit.support.runSuspend
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import java.security.ProviderException

/** Every Keystore failure reaches the app as a code; StrongBox failures fall back to the TEE. */
class KeystoreFailureTest {
    @Test
    fun `a ProviderException at key generation is SYSTEM_FAILURE with its cause, and nothing is registered`() = runSuspend {
        val account = Account.signedIn()
        account.device.keyStore.failNextGeneration(KeystoreFailure(listOf(Kind.PROVIDER_EXCEPTION, Kind.KEYSTORE_EXCEPTION)))
        val error = failure { account.client.enableBiometricSignIn(prompt = PROMPT) }
        assertEquals(Code.SYSTEM_FAILURE, error.code)
        assertTrue(error.cause is KeystoreFailure)
        assertFalse(account.client.isBiometricSignInEnabled())
    }

    @Test
    fun `a raw platform exception out of the Keystore (a RuntimeException nothing renamed) is SYSTEM_FAILURE, never the exception itself`() = runSuspend {
        val account = Account.signedIn()
        account.device.keyStore.failNextGeneration(ProviderException("Failed to generate key pair."))
        val error = failure { account.client.enableBiometricSignIn(prompt = PROMPT) }
        assertEquals(Code.SYSTEM_FAILURE, error.code)
        assertTrue(error.cause is ProviderException)
        account.device.keyStore.failNextGeneration(IllegalStateException("keystore daemon gone"))
        assertEquals(Code.SYSTEM_FAILURE, failure { account.client.setPIN(Account.PIN, PROMPT, keepBehindBiometrics = false) }.code)
    }

    @Test
    fun `a StrongBox that fails with a ProviderException falls back to the TEE`() = runSuspend {
        val account = Account.signedIn(SimulatedDevice(hasStrongBox = true))
        account.device.keyStore.strongBoxFault = KeystoreFailure(listOf(Kind.PROVIDER_EXCEPTION, Kind.KEYSTORE_EXCEPTION))
        account.enableBiometrics()
        val attempts = account.device.keyStore.generated.filter { it.alias == account.deviceKeyAlias }.map { it.strongBox }
        assertEquals(listOf(true, false), attempts, "StrongBox first, then the TEE")
        account.device.willAnswer(Answer.Present("owner"))
        account.client.signInWithBiometrics(PROMPT)
    }

    @Test
    fun `StrongBox is not asked for below API 28, where setIsStrongBoxBacked does not exist`() = runSuspend {
        val account = Account.signedIn(SimulatedDevice(apiLevel = 27, hasStrongBox = true))
        account.enableBiometrics()
        assertEquals(listOf(false), account.device.keyStore.generated.map { it.strongBox })
    }

    @Test
    fun `an UnrecoverableKeyException that carries a Keystore error is a SYSTEM_FAILURE - the key is not thrown away`() = runSuspend {
        val account = Account.signedIn()
        account.enableBiometrics()
        val alias = account.deviceKeyAlias
        account.device.keyStore.failNextUse(KeystoreFailure(listOf(Kind.UNRECOVERABLE_KEY, Kind.KEYSTORE_EXCEPTION)))
        assertEquals(Code.SYSTEM_FAILURE, failure { account.client.signInWithBiometrics(PROMPT) }.code)
        assertTrue(account.device.keyStore.contains(alias))
        account.device.willAnswer(Answer.Present("owner"))
        account.client.signInWithBiometrics(PROMPT)
    }
}
