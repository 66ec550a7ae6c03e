package com.bioauth.kit.platform.android

import android.content.Context
import android.hardware.biometrics.BiometricManager
import android.hardware.biometrics.BiometricPrompt
import android.os.CancellationSignal
import com.bioauth.kit.device.AvailabilityQuery
import com.bioauth.kit.device.BiometricPromptBackend
import com.bioauth.kit.device.KeyOperation
import com.bioauth.kit.device.PromptOutcome
import com.bioauth.kit.device.PromptText
import com.bioauth.kit.errors.PlatformErrors
import java.util.concurrent.Executor
import kotlin.coroutines.resume
import kotlin.coroutines.suspendCoroutine

/**
 * The platform's `BiometricPrompt` (API 28+; no androidx needed). An app on androidx.biometric can
 * implement [BiometricPromptBackend] over it the same way.
 */
class AndroidBiometricPrompt(private val context: Context) : BiometricPromptBackend {
    private val mainThread: Executor = context.mainExecutor

    override fun canAuthenticate(query: AvailabilityQuery): Int {
        val manager = context.getSystemService(BiometricManager::class.java)
        @Suppress("DEPRECATION")
        return when (query) {
            AvailabilityQuery.STRONG -> manager.canAuthenticate(BiometricManager.Authenticators.BIOMETRIC_STRONG)
            AvailabilityQuery.ANY -> manager.canAuthenticate()
            AvailabilityQuery.NONE -> PlatformErrors.BIOMETRIC_SUCCESS
        }
    }

    override suspend fun authenticate(operation: KeyOperation, text: PromptText): PromptOutcome = suspendCoroutine { continuation ->
        val crypto = when (operation) {
            is AndroidSigning -> BiometricPrompt.CryptoObject(operation.signature)
            is AndroidCipher -> BiometricPrompt.CryptoObject(operation.cipher)
            else -> {
                continuation.resume(PromptOutcome.Failed(PlatformErrors.ERROR_VENDOR, "not a Keystore operation"))
                return@suspendCoroutine
            }
        }
        var ended = false
        fun end(outcome: PromptOutcome) {
            if (ended) return
            ended = true
            continuation.resume(outcome)
        }
        val builder = BiometricPrompt.Builder(context)
            .setTitle(text.title)
            .setNegativeButton(text.negativeButton, mainThread) { _, _ -> end(PromptOutcome.Failed(PlatformErrors.ERROR_NEGATIVE_BUTTON, text.negativeButton)) }
        text.subtitle?.let { builder.setSubtitle(it) }
        val callback = object : BiometricPrompt.AuthenticationCallback() {
            override fun onAuthenticationSucceeded(result: BiometricPrompt.AuthenticationResult) {
                // Hand back the operation only if the result carries this very Signature or Cipher.
                val returned = result.cryptoObject
                val same = returned != null && when (operation) {
                    is AndroidSigning -> returned.signature === operation.signature
                    is AndroidCipher -> returned.cipher === operation.cipher
                    else -> false
                }
                end(PromptOutcome.Succeeded(if (same) operation else null))
            }

            override fun onAuthenticationError(errorCode: Int, errString: CharSequence) {
                end(PromptOutcome.Failed(errorCode, errString.toString()))
            }
        }
        mainThread.execute { builder.build().authenticate(crypto, CancellationSignal(), mainThread, callback) }
    }
}
