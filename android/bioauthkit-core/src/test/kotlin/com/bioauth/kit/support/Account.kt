package com.bioauth.kit.support

import com.bioauth.kit.client.BioAuthClient
import com.bioauth.kit.client.BioAuthConfiguration
import com.bioauth.kit.client.BiometricPolicy
import com.bioauth.kit.client.HttpTransport
import com.bioauth.kit.client.PromptText
import com.bioauth.kit.client.UrlConnectionTransport
import com.bioauth.kit.simulator.SimulatedBiometricPrompt.Answer
import com.bioauth.kit.simulator.SimulatedDevice
import java.util.UUID

/** A user with a password, signed up and signed in on a simulated phone, against [LoopbackServer]. */
class Account private constructor(
    val device: SimulatedDevice,
    val client: BioAuthClient,
    val username: String,
    private val policy: BiometricPolicy,
    /** The server the account is on. */
    val server: String,
) {
    /** A new client on the same phone: the app relaunched. */
    fun relaunched(): BioAuthClient = client(device, policy, server)

    /** Enables biometric sign-in; the owner answers the one prompt. */
    suspend fun enableBiometrics() = run {
        device.willAnswer(Answer.Present("owner"))
        client.enableBiometricSignIn(label = "test phone", prompt = PROMPT)
    }

    /** The alias of this phone's biometric sign-in key. */
    val deviceKeyAlias: String get() = device.keyStore.specs.keys.single { it.contains("device-key") }

    companion object {
        const val PASSWORD = "correct horse battery"
        const val PIN = "482913"
        val PROMPT = PromptText("Sign in to Bank")

        /** A client for [device] configured for [server] (the loopback server unless given). */
        fun client(
            device: SimulatedDevice,
            policy: BiometricPolicy = BiometricPolicy.BIOMETRICS_ONLY,
            server: String = LoopbackServer.url,
            transport: HttpTransport = UrlConnectionTransport(),
        ) = BioAuthClient(BioAuthConfiguration(server, LoopbackServer.RELYING_PARTY, policy = policy), device.backends, transport)

        /** Signs up a fresh user on [device] at [server] and signs in with the password. */
        suspend fun signedIn(
            device: SimulatedDevice = SimulatedDevice(),
            policy: BiometricPolicy = BiometricPolicy.BIOMETRICS_ONLY,
            server: String = LoopbackServer.url,
            transport: HttpTransport = UrlConnectionTransport(),
        ): Account {
            val client = client(device, policy, server, transport)
            val username = "user-" + UUID.randomUUID().toString().take(8)
            client.signUp(username, PASSWORD)
            client.signIn(username, PASSWORD)
            return Account(device, client, username, policy, server)
        }
    }
}
