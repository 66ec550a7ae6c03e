package com.bioauth.kit.simulator

import com.bioauth.kit.device.DeviceBackends
import com.bioauth.kit.device.DeviceInfo
import java.security.MessageDigest

/**
 * A phone in software: its Keystore, its biometric sensor and the person in front of it, its app
 * storage, and an attacker who owns the app process (Frida) and can read the app's files.
 */
public class SimulatedDevice(
    apiLevel: Int = 34,
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
    /** `Build.VERSION.SDK_INT` (23 and up); [updateOS] raises it. */
    @Volatile public var apiLevel: Int = apiLevel
        private set

    /** How the user unlocks the screen ([unlock]). */
    public enum class Unlock {
        /** The PIN, pattern or password (the lock screen knowledge factor). */
        CREDENTIAL,

        /** A class 3 (strong) biometric, which takes part in the Keystore. */
        STRONG_BIOMETRIC,

        /** A class 1 or 2 biometric (many phones' face unlock), which does not take part in the Keystore. */
        WEAK_BIOMETRIC,

        /** A trust agent that unlocks actively (Smart Lock, a paired watch). */
        TRUST_AGENT,
    }

    /** The app's `versionCode`, as its attestation application id lists it. */
    public val appVersionCode: Long = 1

    private var secure = true
    private var locked = false
    private var keystoreUnlocked = true
    private var appInForeground = true
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
        override val apiLevel get() = this@SimulatedDevice.apiLevel
        override fun isDeviceSecure() = this@SimulatedDevice.isDeviceSecure()
        override fun isDeviceLocked() = this@SimulatedDevice.isLocked
        override fun elapsedRealtimeMillis() = this@SimulatedDevice.elapsedRealtimeMillis
    })

    /** `SystemClock.elapsedRealtime()`; [advanceClock] moves it. */
    @Volatile public var elapsedRealtimeMillis: Long = 1_000_000
        private set

    /**
     * Lets [millis] pass on the phone's elapsed-realtime clock: time passes for the deadlines the
     * client keeps (an access token's), while the phone's date and the server's clock stay as they are.
     */
    @Synchronized public fun advanceClock(millis: Long) {
        elapsedRealtimeMillis += millis
    }

    init {
        require(apiLevel >= 23) { "the SDK's minSdk is 23" }
    }

    /** `KeyguardManager.isDeviceSecure()`. */
    @Synchronized public fun isDeviceSecure(): Boolean = secure

    /** `KeyguardManager.isDeviceLocked()`. */
    public val isLocked: Boolean @Synchronized get() = locked

    /**
     * Whether keystore2 holds the user's unlocked-device super key: set by an unlock with the
     * credential or a strong biometric, cleared by locking (a weak biometric or a trust agent
     * unlocks the screen without it on Android 12-14: AOSP system/security 6946daa).
     */
    internal val isKeystoreUnlocked: Boolean @Synchronized get() = keystoreUnlocked && !locked

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
     * biometrics need a secure lock screen; AOSP packages/apps/Settings ChooseLockGeneric). On
     * Android 12-14 the unlocked-device keys are deleted too ([SimulatedKeyStore]).
     */
    @Synchronized public fun removeLockScreen() {
        secure = false
        fingers.clear()
        keyStore.lockScreenRemoved()
    }

    /** The user sets a secure lock screen (PIN, pattern or password) again. */
    @Synchronized public fun setLockScreen() {
        secure = true
        keystoreUnlocked = true
    }

    /** The screen locks (power button). */
    @Synchronized public fun lock() {
        locked = true
        keystoreUnlocked = false
    }

    /** The owner unlocks the screen, with the credential unless told [how]. */
    @Synchronized public fun unlock(how: Unlock = Unlock.CREDENTIAL) {
        locked = false
        keystoreUnlocked = how == Unlock.CREDENTIAL || how == Unlock.STRONG_BIOMETRIC
    }

    /**
     * The user leaves the app (home, another app): its activity is stopped and has saved its state
     * (`onSaveInstanceState`), so a prompt asked for now is not shown ([SimulatedBiometricPrompt]).
     */
    @Synchronized public fun leaveApp() {
        appInForeground = false
    }

    /** The user comes back: the activity is started and resumed again. */
    @Synchronized public fun returnToApp() {
        appInForeground = true
    }

    /** Whether the app's activity is in the foreground (its state not saved). */
    public val isAppInForeground: Boolean @Synchronized get() = appInForeground

    /** An OS update to [apiLevel]: keys, records and enrollments stay; the Keystore now behaves as that release does. */
    @Synchronized public fun updateOS(apiLevel: Int) {
        require(apiLevel >= this.apiLevel) { "an update does not go back" }
        this.apiLevel = apiLevel
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
