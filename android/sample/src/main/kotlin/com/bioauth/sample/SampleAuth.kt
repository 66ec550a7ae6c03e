package com.bioauth.sample

import android.content.Context
import com.bioauth.kit.client.BioAuthClient
import com.bioauth.kit.client.BioAuthConfiguration
import com.bioauth.kit.client.ConfirmationPrompt
import com.bioauth.kit.client.PendingConfirmation
import com.bioauth.kit.client.PromptText
import com.bioauth.kit.errors.BioAuthException
import com.bioauth.kit.errors.BioAuthException.Code
import com.bioauth.kit.platform.android.AndroidBiometricPrompt
import com.bioauth.kit.platform.android.AndroidDevice
import com.bioauth.kit.protocol.ConfirmationStatus
import com.bioauth.kit.protocol.ServerErrorCode
import com.bioauth.kit.protocol.User
import java.io.IOException

/**
 * What the iOS guide's `Auth` model does (docs/BIOAUTHKIT.md, "The whole flow"), on Android: one
 * client per process, each action a suspend call, every failure turned into a line for the user.
 */
class SampleAuth private constructor(context: Context) {
    /** Shows prompts over the activity attached to it. */
    val prompts = AndroidBiometricPrompt(context)

    private val client = BioAuthClient(
        BioAuthConfiguration(serverUrl = "http://10.0.2.2:8080", relyingPartyId = "bank.example"),
        AndroidDevice.backends(context, prompts),
    )
    /** The bank's own API, called with BioAuth's access tokens. */
    private val bank = BankApi(client)
    private val enablePrompt = PromptText(title = "Use your fingerprint to sign in to Bank")
    private val signInPrompt = PromptText(title = "Sign in to Bank")

    /** The signed-in user, if any. */
    var user: User? = null
        private set

    /** The balance from the bank's API, once loaded. */
    var balance: String? = null
        private set

    /** The last message for the user (`null` after a success). */
    var message: String? = null
        private set

    suspend fun signUp(name: String, password: String) = run { client.signUp(name, password) }
    suspend fun signIn(name: String, password: String) = run { user = client.signIn(name, password).user }
    suspend fun enableBiometrics() = run { client.enableBiometricSignIn(prompt = enablePrompt) }
    suspend fun signInWithBiometrics() = run { user = client.signInWithBiometrics(signInPrompt).user }
    suspend fun setPIN(pin: String) = run { client.setPIN(pin, enablePrompt) }
    suspend fun signInWithPIN(pin: String) = run { user = client.signInWithPIN(pin).user }
    suspend fun signOut() = run { client.signOut(); user = null }
    suspend fun disableBiometrics() = run { client.disableBiometricSignIn() }

    /** Loads the balance from the bank's API with an access token (no prompt). */
    suspend fun loadBalance() = run { balance = bank.balance() }

    /**
     * Sends a transfer; when the bank asks for a recent strong authentication, one biometric
     * re-authentication renews it (the client then fetches a token that says so) and it is sent again.
     */
    suspend fun transfer() = run {
        try {
            bank.transfer()
        } catch (refusal: BankApi.Refusal) {
            if (!refusal.stepUpNeeded) throw refusal
            client.reauthenticateWithBiometrics(signInPrompt)
            bank.transfer()
        }
    }

    /**
     * The account's pending confirmations, each with the text this phone derived from its details
     * (the text shown in the list, in the prompt and signed); one this phone refuses to show has no
     * text and cannot be approved here.
     */
    var confirmations: List<PendingConfirmation> = emptyList()
        private set

    /** Loads the pending confirmations (no prompt). */
    suspend fun loadConfirmations() = run { confirmations = client.pendingConfirmations() }

    /**
     * Approves [confirmation] with biometrics: one prompt, titled with its text; the prompt's
     * negative button declines it. Returns whether it was approved.
     */
    suspend fun approveOrDecline(confirmation: PendingConfirmation): Boolean {
        var approved = false
        run {
            try {
                val answer = client.approveConfirmationWithBiometrics(confirmation, ConfirmationPrompt(negativeButton = "Decline"))
                approved = answer.status == ConfirmationStatus.APPROVED
            } catch (error: BioAuthException) {
                if (error.code != Code.USER_CANCELED) throw error
                client.declineConfirmation(confirmation)
            }
        }
        return approved
    }

    /** Whether biometric sign-in is enabled and usable here (no prompt). */
    suspend fun biometricsEnabled(): Boolean = client.isBiometricSignInEnabled()

    private suspend fun run(action: suspend () -> Unit) {
        message = try {
            action()
            null
        } catch (error: BioAuthException) {
            when (error.code) {
                Code.USER_CANCELED -> null
                Code.KEY_INVALIDATED -> "Your fingerprints changed. Sign in with your password to turn it on again."
                Code.BIOMETRY_LOCKOUT, Code.BIOMETRY_LOCKOUT_PERMANENT -> "Fingerprint is locked. Use your PIN or password."
                Code.CONFIRMATION_REFUSED -> "This request cannot be shown safely on this phone."
                else -> when (error.serverCode) {
                    ServerErrorCode.INVALID_CREDENTIALS -> "Wrong username or password."
                    ServerErrorCode.CONFIRMATION_CLOSED -> "This request was already decided, or it expired."
                    else -> "Sign-in failed (${error.code})."
                }
            }
        } catch (error: IOException) {
            "The bank's API did not answer as expected (${error.message})."
        }
    }

    companion object {
        @Volatile private var shared: SampleAuth? = null

        /** The process's one instance: it outlives activities, as a ViewModel would. */
        fun get(context: Context): SampleAuth = shared ?: synchronized(this) {
            shared ?: SampleAuth(context.applicationContext).also { shared = it }
        }
    }
}
