package com.bioauth.kit.device

/**
 * What a phone provides, as seams: the Android layer (`platform/android`) passes each call to the
 * platform, the simulator models it on the JVM. Every decision (key specs per API level, prompt
 * settings, error mapping, flows) is made above these, in the SDK's neutral code.
 */
public class DeviceBackends(
    /** The Android Keystore. */
    public val keyStore: KeyStoreBackend,
    /** androidx.biometric's `BiometricPrompt` and `BiometricManager`. */
    public val prompt: BiometricPromptBackend,
    /** App-private storage (SharedPreferences): it holds only ciphertext and public values. */
    public val storage: AppStorage,
    /** The API level and the lock screen. */
    public val info: DeviceInfo,
)
