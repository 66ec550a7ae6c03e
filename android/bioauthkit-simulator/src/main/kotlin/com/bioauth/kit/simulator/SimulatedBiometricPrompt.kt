package com.bioauth.kit.simulator

import com.bioauth.kit.device.AvailabilityQuery
import com.bioauth.kit.device.BiometricPromptBackend
import com.bioauth.kit.device.KeyOperation
import com.bioauth.kit.device.PromptOutcome
import com.bioauth.kit.device.PromptText
import com.bioauth.kit.errors.PlatformErrors

/**
 * `BiometricPrompt` and `BiometricManager` in software, as developer.android.com documents them:
 *
 * - A match reported through `onAuthenticationSucceeded` authorises exactly the operation passed
 *   as the `CryptoObject`, and the result hands that same object back
 *   ("BiometricPrompt.AuthenticationResult#getCryptoObject").
 * - A presented biometric that does not match calls `onAuthenticationFailed` and the prompt stays
 *   up; after 5 failed attempts the prompt ends with `BIOMETRIC_ERROR_LOCKOUT` for 30 seconds, and
 *   after 20 failed attempts without a success with `BIOMETRIC_ERROR_LOCKOUT_PERMANENT` until the
 *   device credential is entered ("BiometricPrompt#BIOMETRIC_ERROR_LOCKOUT", "…LOCKOUT_PERMANENT";
 *   the counts are AOSP's `LockoutFrameworkImpl`: MAX_FAILED_ATTEMPTS_LOCKOUT_TIMED = 5,
 *   MAX_FAILED_ATTEMPTS_LOCKOUT_PERMANENT = 20).
 * - Dismissing the prompt ends it with `BIOMETRIC_ERROR_USER_CANCELED`; the negative button calls
 *   the listener given to `setNegativeButton` (androidx reports it as `ERROR_NEGATIVE_BUTTON`).
 * - `BiometricManager.canAuthenticate(BIOMETRIC_STRONG)`: `BIOMETRIC_ERROR_NO_HARDWARE` without a
 *   sensor, `BIOMETRIC_ERROR_NONE_ENROLLED` with nothing enrolled, else `BIOMETRIC_SUCCESS`.
 */
class SimulatedBiometricPrompt internal constructor(private val device: SimulatedDevice) : BiometricPromptBackend {
    /** What the person in front of the phone does at a prompt. */
    sealed class Answer {
        /** Presents [finger]: a match if it is enrolled, a failed attempt otherwise. */
        data class Present(val finger: String) : Answer()

        /** Dismisses the prompt. */
        object Cancel : Answer()

        /** Presses the negative button ("Use password"). */
        object NegativeButton : Answer()
    }

    private val answers = ArrayDeque<Answer>()
    private var failures = 0
    private var timedLockouts = 0
    private var lockedUntilCredential = false
    private var lockedUntilMillis = 0L
    private var clockMillis = 0L

    /** How many prompts were shown. */
    @Volatile var shown = 0
        private set

    /** The last prompt's text. */
    @Volatile var lastText: PromptText? = null
        private set

    /** Queues answers to the next prompts. */
    @Synchronized fun queue(vararg next: Answer) {
        answers.addAll(next)
    }

    /** Lets [seconds] pass (a timed lockout ends after 30). */
    @Synchronized fun advance(seconds: Long) {
        clockMillis += seconds * 1000
    }

    /** The user enters the device credential (PIN, pattern, password): every lockout ends. */
    @Synchronized fun enterDeviceCredential() {
        lockedUntilCredential = false
        lockedUntilMillis = 0
        failures = 0
    }

    override fun canAuthenticate(query: AvailabilityQuery): Int = when {
        !device.hasBiometricHardware -> PlatformErrors.ERROR_HW_NOT_PRESENT
        device.enrolledCount == 0 -> PlatformErrors.ERROR_NO_BIOMETRICS
        else -> PlatformErrors.BIOMETRIC_SUCCESS
    }

    override suspend fun authenticate(operation: KeyOperation, text: PromptText): PromptOutcome {
        device.attacker.hookedOutcome(operation)?.let { return it }
        return run(operation, text)
    }

    @Synchronized private fun run(operation: KeyOperation, text: PromptText): PromptOutcome {
        shown += 1
        lastText = text
        if (!device.hasBiometricHardware) return PromptOutcome.Failed(PlatformErrors.ERROR_HW_NOT_PRESENT, "no biometric hardware")
        if (device.enrolledCount == 0) return PromptOutcome.Failed(PlatformErrors.ERROR_NO_BIOMETRICS, "no biometric enrolled")
        while (true) {
            if (lockedUntilCredential) return PromptOutcome.Failed(PlatformErrors.ERROR_LOCKOUT_PERMANENT, "Too many attempts. Use screen lock instead.")
            if (clockMillis < lockedUntilMillis) return PromptOutcome.Failed(PlatformErrors.ERROR_LOCKOUT, "Too many attempts. Try again later.")
            when (val answer = answers.removeFirstOrNull() ?: Answer.Cancel) {
                Answer.Cancel -> return PromptOutcome.Failed(PlatformErrors.ERROR_USER_CANCELED, "Authentication canceled by user")
                Answer.NegativeButton -> return PromptOutcome.Failed(PlatformErrors.ERROR_NEGATIVE_BUTTON, text.negativeButton)
                is Answer.Present -> {
                    if (device.isEnrolled(answer.finger)) {
                        failures = 0
                        authorise(operation)
                        return PromptOutcome.Succeeded(operation)
                    }
                    failures += 1  // onAuthenticationFailed: the prompt stays up
                    if (failures >= 20) lockedUntilCredential = true
                    else if (failures % 5 == 0) lockedUntilMillis = clockMillis + 30_000
                }
            }
        }
    }

    private fun authorise(operation: KeyOperation) {
        val use = when (operation) {
            is SimulatedKeyStore.CipherUse -> operation.operation
            is SimulatedKeyStore.Operation -> operation
            else -> null
        }
        // Only an operation of this device's Keystore can be authorised by its sensor.
        if (use != null && use.belongsTo(device.keyStore)) use.authorised = true
    }
}
