package com.bioauth.kit.simulator

import com.bioauth.kit.device.BiometricPromptBackend
import com.bioauth.kit.device.KeyOperation
import com.bioauth.kit.device.PromptHandle
import com.bioauth.kit.device.PromptOutcome
import com.bioauth.kit.device.PromptRequest
import com.bioauth.kit.errors.PlatformCodes

/**
 * androidx.biometric's `BiometricPrompt` and `BiometricManager` in software:
 *
 * - `canAuthenticate` per API level as androidx answers it (androidx/biometric
 *   BiometricManager.canAuthenticate / canAuthenticateCompat): API 30+ asks the framework with the
 *   authenticators; below, no secure lock screen is `BIOMETRIC_ERROR_NONE_ENROLLED`, a device
 *   credential allowed is `BIOMETRIC_SUCCESS`; API 29 asks the framework's `canAuthenticate()`;
 *   API 28 needs fingerprint hardware and answers `BIOMETRIC_STATUS_UNKNOWN` when no fingerprint is
 *   enrolled; API 23-27 ask `FingerprintManagerCompat` (no hardware: `NO_HARDWARE`, none enrolled:
 *   `NONE_ENROLLED`).
 * - A match reported through `onAuthenticationSucceeded` authorises exactly the operation passed
 *   as the `CryptoObject`, and the result hands that same object back
 *   (BiometricPrompt.AuthenticationResult#getCryptoObject).
 * - A presented biometric that does not match calls `onAuthenticationFailed` and the prompt stays
 *   up; after 5 failed attempts the prompt ends with `ERROR_LOCKOUT` for 30 seconds, after 20
 *   without a success with `ERROR_LOCKOUT_PERMANENT` until the device credential is entered
 *   (AOSP LockoutFrameworkImpl: MAX_FAILED_ATTEMPTS_LOCKOUT_TIMED = 5,
 *   MAX_FAILED_ATTEMPTS_LOCKOUT_PERMANENT = 20).
 * - Dismissing the prompt is `ERROR_USER_CANCELED`, the negative button `ERROR_NEGATIVE_BUTTON`;
 *   the device credential is offered only when `DEVICE_CREDENTIAL` is allowed
 *   (PromptInfo.Builder#setAllowedAuthenticators), and its auth token authorises only keys that
 *   accept it.
 * - `cancelAuthentication()` dismisses a prompt on screen (BiometricPrompt#cancelAuthentication).
 * - A prompt asked for after the user left the app ([SimulatedDevice.leaveApp]) is never shown:
 *   androidx's `BiometricPrompt.authenticateInternal` returns without a callback when the
 *   fragment manager's state is saved ("Unable to start authentication. Called after
 *   onSaveInstanceState()"). The Android layer checks for that before calling `authenticate`
 *   (`FragmentManager.isStateSaved`) and reports `PromptOutcome.NotShown`, as this does.
 */
public class SimulatedBiometricPrompt internal constructor(private val device: SimulatedDevice) : BiometricPromptBackend {
    /** What the person in front of the phone does at a prompt. */
    public sealed class Answer {
        /** Presents [finger]: a match if it is enrolled, a failed attempt otherwise. */
        public data class Present(
            /** Whose finger. */
            val finger: String,
        ) : Answer()

        /** Enters the device credential, when the prompt offers it. */
        public object DeviceCredential : Answer()

        /** Dismisses the prompt. */
        public object Cancel : Answer()

        /** Presses the negative button ("Use password"). */
        public object NegativeButton : Answer()

        /** Looks at the prompt and does nothing: it stays on screen until the app cancels it. */
        public object Wait : Answer()
    }

    private val answers = ArrayDeque<Answer>()
    private var failures = 0
    private var lockedUntilCredential = false
    private var lockedUntilMillis = 0L
    private var clockMillis = 0L
    private var onScreen: Any? = null

    /** How many prompts were shown. */
    @Volatile public var shown: Int = 0
        private set

    /** How many prompts were asked for while the app was left, and not shown. */
    @Volatile public var notShown: Int = 0
        private set

    /** How many prompts the app dismissed with `cancelAuthentication()`. */
    @Volatile public var cancelledByApp: Int = 0
        private set

    /** The last prompt's settings. */
    @Volatile public var lastRequest: PromptRequest? = null
        private set

    /** Whether a prompt is on screen now. */
    public val isShowing: Boolean @Synchronized get() = onScreen != null

    /** Queues answers to the next prompts. */
    @Synchronized public fun queue(vararg next: Answer) {
        answers.addAll(next)
    }

    /** Lets [seconds] pass (a timed lockout ends after 30). */
    @Synchronized public fun advance(seconds: Long) {
        clockMillis += seconds * 1000
    }

    /** The user enters the device credential in Settings or on the lock screen: every lockout ends. */
    @Synchronized public fun enterDeviceCredential() {
        lockedUntilCredential = false
        lockedUntilMillis = 0
        failures = 0
    }

    @Synchronized override fun canAuthenticate(authenticators: Int): Int {
        val credentialAllowed = authenticators and PlatformCodes.AUTHENTICATOR_DEVICE_CREDENTIAL != 0
        if (device.apiLevel < 30) {
            if (!device.isDeviceSecure()) return PlatformCodes.ERROR_NO_BIOMETRICS
            if (credentialAllowed) return PlatformCodes.BIOMETRIC_SUCCESS
        } else if (credentialAllowed && device.isDeviceSecure()) {
            return PlatformCodes.BIOMETRIC_SUCCESS
        }
        return when {
            !device.hasBiometricHardware -> PlatformCodes.ERROR_HW_NOT_PRESENT
            device.enrolledCount == 0 && device.apiLevel == 28 -> PlatformCodes.BIOMETRIC_STATUS_UNKNOWN
            device.enrolledCount == 0 -> PlatformCodes.ERROR_NO_BIOMETRICS
            else -> PlatformCodes.BIOMETRIC_SUCCESS
        }
    }

    override fun show(operation: KeyOperation, request: PromptRequest, onEnd: (PromptOutcome) -> Unit): PromptHandle {
        if (!device.isAppInForeground) {
            notShown += 1
            onEnd(PromptOutcome.NotShown("the activity has saved its state (CREATED): the user left the app"))
            return PromptHandle { }
        }
        device.attacker.hookedOutcome(operation)?.let { outcome ->
            onEnd(outcome)
            return PromptHandle { }
        }
        val outcome = run(operation, request)
        if (outcome != null) {
            onEnd(outcome)
            return PromptHandle { }
        }
        val token = Any()
        synchronized(this) { onScreen = token }
        return PromptHandle {
            synchronized(this) {
                if (onScreen === token) {
                    onScreen = null
                    cancelledByApp += 1
                }
            }
        }
    }

    /** How the prompt ends, or `null` while the user just looks at it. */
    @Synchronized private fun run(operation: KeyOperation, request: PromptRequest): PromptOutcome? {
        shown += 1
        lastRequest = request
        val credentialAllowed = request.allowedAuthenticators and PlatformCodes.AUTHENTICATOR_DEVICE_CREDENTIAL != 0
        if (!device.hasBiometricHardware && !credentialAllowed) {
            return PromptOutcome.Failed(PlatformCodes.ERROR_HW_NOT_PRESENT, "no biometric hardware")
        }
        if (device.enrolledCount == 0 && !credentialAllowed) {
            return PromptOutcome.Failed(PlatformCodes.ERROR_NO_BIOMETRICS, "no biometric enrolled")
        }
        while (true) {
            if (lockedUntilCredential && !credentialAllowed) {
                return PromptOutcome.Failed(PlatformCodes.ERROR_LOCKOUT_PERMANENT, "Too many attempts. Use screen lock instead.")
            }
            if (clockMillis < lockedUntilMillis && !credentialAllowed) {
                return PromptOutcome.Failed(PlatformCodes.ERROR_LOCKOUT, "Too many attempts. Try again later.")
            }
            when (val answer = answers.removeFirstOrNull() ?: Answer.Cancel) {
                Answer.Wait -> return null
                Answer.Cancel -> return PromptOutcome.Failed(PlatformCodes.ERROR_USER_CANCELED, "Authentication canceled by user")
                Answer.NegativeButton -> return PromptOutcome.Failed(PlatformCodes.ERROR_NEGATIVE_BUTTON, request.negativeButton ?: "")
                Answer.DeviceCredential -> {
                    // Without DEVICE_CREDENTIAL the prompt has no "Use PIN": the user can only dismiss it.
                    if (!credentialAllowed) return PromptOutcome.Failed(PlatformCodes.ERROR_USER_CANCELED, "Authentication canceled by user")
                    enterDeviceCredential()
                    authorise(operation, byCredential = true)
                    return PromptOutcome.Succeeded(operation)
                }
                is Answer.Present -> {
                    if (lockedUntilCredential || clockMillis < lockedUntilMillis) continue  // the sensor is locked; only the credential helps
                    if (device.isEnrolled(answer.finger)) {
                        failures = 0
                        authorise(operation, byCredential = false)
                        return PromptOutcome.Succeeded(operation)
                    }
                    failures += 1  // onAuthenticationFailed: the prompt stays up
                    if (failures >= 20) lockedUntilCredential = true else if (failures % 5 == 0) lockedUntilMillis = clockMillis + 30_000
                }
            }
        }
    }

    private fun authorise(operation: KeyOperation, byCredential: Boolean) {
        val use = when (operation) {
            is SimulatedKeyStore.CipherUse -> operation.operation
            is SimulatedKeyStore.Operation -> operation
            else -> null
        }
        use?.authorise(device, byCredential)
    }
}
