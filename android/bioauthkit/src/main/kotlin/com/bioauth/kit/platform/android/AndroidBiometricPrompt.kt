package com.bioauth.kit.platform.android

import android.content.Context
import androidx.biometric.BiometricManager
import androidx.biometric.BiometricPrompt
import androidx.core.content.ContextCompat
import androidx.fragment.app.FragmentActivity
import com.bioauth.kit.device.BiometricPromptBackend
import com.bioauth.kit.device.KeyOperation
import com.bioauth.kit.device.PromptHandle
import com.bioauth.kit.device.PromptOutcome
import com.bioauth.kit.device.PromptRequest
import com.bioauth.kit.errors.PlatformCodes
import java.lang.ref.WeakReference
import java.util.concurrent.Executor

/**
 * androidx.biometric's `BiometricPrompt` (with its device workarounds: Samsung API 28 crypto
 * prompts, API 28 without fingerprint hardware, the API 23-27 fingerprint dialog) and
 * `BiometricManager`, call for call. Prompts show over the activity last given to [attach]: call
 * it from that activity's `onCreate`, so that a prompt on screen during a configuration change
 * reports to the new activity (androidx keeps the prompt; it needs the callback again). A prompt
 * asked for after that activity saved its state (the user left the app) ends at once as
 * [PromptOutcome.NotShown] instead of being dropped by androidx without a callback.
 */
public class AndroidBiometricPrompt(context: Context) : BiometricPromptBackend {
    private val appContext = context.applicationContext
    private val mainThread: Executor = ContextCompat.getMainExecutor(appContext)
    @Volatile private var host: WeakReference<FragmentActivity>? = null
    private var current: Showing? = null  // main thread only

    private class Showing(val operation: KeyOperation, val onEnd: (PromptOutcome) -> Unit, var prompt: BiometricPrompt?)

    private val callback = object : BiometricPrompt.AuthenticationCallback() {
        override fun onAuthenticationSucceeded(result: BiometricPrompt.AuthenticationResult) {
            val showing = current ?: return
            // Hand back the operation only if the result carries this very Signature or Cipher.
            val crypto = result.cryptoObject
            val same = crypto != null && when (val operation = showing.operation) {
                is AndroidSigning -> crypto.signature === operation.signature
                is AndroidCipher -> crypto.cipher === operation.cipher
                else -> false
            }
            end(showing, PromptOutcome.Succeeded(if (same) showing.operation else null))
        }

        override fun onAuthenticationError(errorCode: Int, errString: CharSequence) {
            current?.let { end(it, PromptOutcome.Failed(errorCode, errString.toString())) }
        }
    }

    /** Shows prompts over [activity] from now on; call it from the activity's `onCreate`. */
    public fun attach(activity: FragmentActivity) {
        host = WeakReference(activity)
        // Re-registers the callback of a prompt still on screen after a configuration change.
        current?.let { it.prompt = BiometricPrompt(activity, mainThread, callback) }
    }

    override fun canAuthenticate(authenticators: Int): Int = BiometricManager.from(appContext).canAuthenticate(authenticators)

    override fun show(operation: KeyOperation, request: PromptRequest, onEnd: (PromptOutcome) -> Unit): PromptHandle {
        val showing = Showing(operation, onEnd, null)
        mainThread.execute { start(showing, request) }
        return PromptHandle { mainThread.execute { cancel(showing) } }
    }

    private fun start(showing: Showing, request: PromptRequest) {
        val activity = host?.get()
        val crypto = when (val operation = showing.operation) {
            is AndroidSigning -> BiometricPrompt.CryptoObject(operation.signature)
            is AndroidCipher -> BiometricPrompt.CryptoObject(operation.cipher)
            else -> null
        }
        if (activity == null || activity.isFinishing || activity.isDestroyed || crypto == null) {
            showing.onEnd(PromptOutcome.NotShown("no FragmentActivity attached to show the prompt"))
            return
        }
        // androidx's authenticateInternal returns without a callback when the fragment manager's
        // state is saved (after onSaveInstanceState: the user left the app): the prompt would
        // never show nor end. Before that (created, started, paused) androidx shows it.
        if (activity.supportFragmentManager.isStateSaved) {
            showing.onEnd(PromptOutcome.NotShown("the activity has saved its state (${activity.lifecycle.currentState}): the user left the app"))
            return
        }
        val info = BiometricPrompt.PromptInfo.Builder()
            .setTitle(request.title)
            .setSubtitle(request.subtitle)
            .setDescription(request.description)
            .setAllowedAuthenticators(request.allowedAuthenticators)
            .setConfirmationRequired(request.confirmationRequired)
        request.negativeButton?.let { info.setNegativeButtonText(it) }
        current?.let { previous -> end(previous, PromptOutcome.Failed(PlatformCodes.ERROR_CANCELED, "replaced by another prompt")) }
        current = showing
        val prompt = BiometricPrompt(activity, mainThread, callback)
        showing.prompt = prompt
        try {
            prompt.authenticate(info.build(), crypto)
        } catch (error: IllegalArgumentException) {
            end(showing, PromptOutcome.Failed(PlatformCodes.ERROR_VENDOR, "androidx refused the prompt: ${error.message}"))
        }
    }

    private fun cancel(showing: Showing) {
        if (current !== showing) return
        current = null
        showing.prompt?.cancelAuthentication()
    }

    private fun end(showing: Showing, outcome: PromptOutcome) {
        if (current === showing) current = null
        showing.onEnd(outcome)
    }
}
