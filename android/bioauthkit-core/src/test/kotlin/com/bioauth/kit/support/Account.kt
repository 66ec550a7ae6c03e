package com.bioauth.kit.support

import com.bioauth.kit.client.BioAuthClient
import com.bioauth.kit.client.BioAuthConfiguration
import com.bioauth.kit.device.PromptText
import com.bioauth.kit.simulator.SimulatedBiometricPrompt.Answer
import com.bioauth.kit.simulator.SimulatedDevice
import java.util.UUID

/** A user with a password, signed up and signed in on a simulated phone, against [LoopbackServer]. */
class Account private constructor(val device: SimulatedDevice, val client: BioAuthClient, val username: String) {
    /** A new client on the same phone: the app relaunched. */
    fun relaunched(): BioAuthClient = client(device)

    /** Enables biometric sign-in; the owner answers the one prompt. */
    suspend fun enableBiometrics() = run {
        device.willAnswer(Answer.Present("owner"))
        client.enableBiometricSignIn(label = "test phone", prompt = PROMPT)
    }

    companion object {
        const val PASSWORD = "correct horse battery"
        val PROMPT = PromptText("Sign in to Bank")

        /** A client for [device] configured for the loopback server. */
        fun client(device: SimulatedDevice) = BioAuthClient(BioAuthConfiguration(LoopbackServer.url, LoopbackServer.RELYING_PARTY), device.backends)

        /** Signs up a fresh user on [device] and signs in with the password. */
        suspend fun signedIn(device: SimulatedDevice = SimulatedDevice()): Account {
            val client = client(device)
            val username = "user-" + UUID.randomUUID().toString().take(8)
            client.signUp(username, PASSWORD)
            client.signIn(username, PASSWORD)
            return Account(device, client, username)
        }
    }
}
