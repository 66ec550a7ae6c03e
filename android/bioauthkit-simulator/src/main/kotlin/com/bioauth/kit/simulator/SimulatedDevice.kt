package com.bioauth.kit.simulator

import com.bioauth.kit.device.DeviceBackends
import com.bioauth.kit.device.DeviceInfo
import java.security.MessageDigest

/**
 * A phone in software: its Keystore, its biometric sensor and the person in front of it, its app
 * storage, and an attacker who owns the app process (Frida) and can read the app's files.
 */
public class SimulatedDevice(
    /** `Build.VERSION.SDK_INT` (23 and up). */
    public val apiLevel: Int = 34,
    /** Whether the device has a StrongBox secure element. */
    public val hasStrongBox: Boolean = false,
    /** Whether the device has (strong, fingerprint-class) biometric hardware. */
    public val hasBiometricHardware: Boolean = true,
    enrolled: Set<String> = setOf("owner"),
    /** The app's package name, as Android's package manager reports it into an attested key's description. */
    public val packageName: String = SAMPLE_PACKAGE,
    /** SHA-256 of the certificate the app is signed with (its attestation application id's digest). */
    public val signingCertificateDigest: ByteArray = SAMPLE_SIGNING_CERTIFICATE_DIGEST,
    /** The authority whose chain the Keystore's attestations lead to (Google's, on a real phone). */
    public val attestationAuthority: SimulatedAttestationAuthority = SimulatedAttestationAuthority.shared,
) {
    /** The app's `versionCode`, as its attestation application id lists it. */
    public val appVersionCode: Long = 1

    private var secure = true
    private var locked = false
    private val fingers = enrolled.toMutableSet()

    /** The Keystore. */
    public val keyStore: SimulatedKeyStore = SimulatedKeyStore(this)

    /** The sensor, the prompt, `BiometricManager` and the person answering. */
    public val prompt: SimulatedBiometricPrompt = SimulatedBiometricPrompt(this)

    /** The app's SharedPreferences. */
    public val storage: SimulatedStorage = SimulatedStorage()

    /** Someone who hooks the app and reads its files. */
    public val attacker: Attacker = Attacker(this)

    /** What the SDK is given. */
    public val backends: DeviceBackends = DeviceBackends(keyStore, prompt, storage, object : DeviceInfo {
        override val apiLevel = this@SimulatedDevice.apiLevel
        override fun isDeviceSecure() = this@SimulatedDevice.isDeviceSecure()
        override fun isDeviceLocked() = this@SimulatedDevice.isLocked
    })

    init {
        require(apiLevel >= 23) { "the SDK's minSdk is 23" }
    }

    /** `KeyguardManager.isDeviceSecure()`. */
    @Synchronized public fun isDeviceSecure(): Boolean = secure

    /** `KeyguardManager.isDeviceLocked()`. */
    public val isLocked: Boolean @Synchronized get() = locked

    /** How many biometrics are enrolled. */
    public val enrolledCount: Int @Synchronized get() = fingers.size

    /** Whether [finger] is enrolled. */
    @Synchronized public fun isEnrolled(finger: String): Boolean = finger in fingers

    /** The user queues what happens at the next prompts. */
    public fun willAnswer(vararg answers: SimulatedBiometricPrompt.Answer): Unit = prompt.queue(*answers)

    /** Someone enrolls another biometric in Settings: keys bound to the enrollment are invalidated. */
    @Synchronized public fun enrollBiometric(finger: String) {
        fingers.add(finger)
        keyStore.biometricEnrollmentChanged()
    }

    /**
     * The user removes the screen lock: every key that needs authentication is invalidated, and the
     * enrolled biometrics go with it (Settings warns "This will delete the fingerprint model…":
     * biometrics need a secure lock screen; AOSP packages/apps/Settings ChooseLockGeneric).
     */
    @Synchronized public fun removeLockScreen() {
        secure = false
        fingers.clear()
        keyStore.lockScreenRemoved()
    }

    /** The screen locks (power button). */
    @Synchronized public fun lock() {
        locked = true
    }

    /** The owner unlocks the screen. */
    @Synchronized public fun unlock() {
        locked = false
    }

    /** The app a simulated phone runs unless told otherwise. */
    public companion object {
        /** The sample app's package. */
        public const val SAMPLE_PACKAGE: String = "com.bioauth.sample"

        /** SHA-256 standing for the sample app's signing certificate. */
        public val SAMPLE_SIGNING_CERTIFICATE_DIGEST: ByteArray
            get() = MessageDigest.getInstance("SHA-256").digest("BioAuthKit sample release signing certificate".toByteArray())
    }
}
