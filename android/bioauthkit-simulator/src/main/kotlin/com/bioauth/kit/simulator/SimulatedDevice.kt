package com.bioauth.kit.simulator

import com.bioauth.kit.device.AppStorage
import com.bioauth.kit.device.DeviceBackends
import com.bioauth.kit.device.DeviceInfo

/**
 * A phone in software: its Keystore, its biometric sensor and the person in front of it, its app
 * storage, and an attacker who owns the app process (Frida) and can read the app's files.
 */
class SimulatedDevice(
    /** `Build.VERSION.SDK_INT`. */
    val apiLevel: Int = 34,
    /** Whether the device has a StrongBox secure element. */
    val hasStrongBox: Boolean = false,
    /** Whether the device has biometric hardware. */
    val hasBiometricHardware: Boolean = true,
    enrolled: Set<String> = setOf("owner"),
) {
    private var secure = true
    private val fingers = enrolled.toMutableSet()

    /** The Keystore. */
    val keyStore = SimulatedKeyStore(this)

    /** The sensor, the prompt and the person answering it. */
    val prompt = SimulatedBiometricPrompt(this)

    /** The app's SharedPreferences. */
    val storage = SimulatedStorage()

    /** Someone who hooks the app and reads its files. */
    val attacker = Attacker(this)

    /** What the SDK is given. */
    val backends = DeviceBackends(keyStore, prompt, storage, object : DeviceInfo {
        override val apiLevel = this@SimulatedDevice.apiLevel
        override fun isDeviceSecure() = this@SimulatedDevice.isDeviceSecure()
    })

    /** `KeyguardManager.isDeviceSecure()`. */
    @Synchronized fun isDeviceSecure() = secure

    /** How many biometrics are enrolled. */
    val enrolledCount: Int @Synchronized get() = fingers.size

    /** Whether [finger] is enrolled. */
    @Synchronized fun isEnrolled(finger: String) = finger in fingers

    /** The user queues what happens at the next prompts. */
    fun willAnswer(vararg answers: SimulatedBiometricPrompt.Answer) = prompt.queue(*answers)

    /** Someone enrolls another biometric in Settings: keys bound to the enrollment are invalidated. */
    @Synchronized fun enrollBiometric(finger: String) {
        fingers.add(finger)
        keyStore.biometricEnrollmentChanged()
    }

    /** The user removes the screen lock: every key that needs authentication is invalidated. */
    @Synchronized fun removeLockScreen() {
        secure = false
        keyStore.lockScreenRemoved()
    }
}

/** SharedPreferences in memory; an attacker reads it whole. */
class SimulatedStorage : AppStorage {
    private val values = mutableMapOf<String, String>()

    @Synchronized override fun read(key: String): String? = values[key]

    @Synchronized override fun write(key: String, value: String?) {
        if (value == null) values.remove(key) else values[key] = value
    }

    /** Everything stored, as a thief of the app's data directory sees it. */
    @Synchronized fun dump(): Map<String, String> = values.toMap()
}
