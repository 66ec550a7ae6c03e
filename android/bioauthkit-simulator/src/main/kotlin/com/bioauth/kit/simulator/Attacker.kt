package com.bioauth.kit.simulator

import com.bioauth.kit.device.KeyOperation
import com.bioauth.kit.device.KeySpec
import com.bioauth.kit.device.KeySpecs
import com.bioauth.kit.device.PromptOutcome

/**
 * Someone who owns the app's process on a rooted phone (Frida) and can read its files. Hooking
 * `AuthenticationCallback.onAuthenticationSucceeded`, they call it themselves, without a match,
 * with a result of their choosing.
 */
public class Attacker internal constructor(private val device: SimulatedDevice) {
    /** What the hooked success callback is called with. */
    public enum class Hook {
        /** A result whose `getCryptoObject()` is `null`. */
        NO_CRYPTO_OBJECT,

        /** A result carrying a crypto object of the attacker's own (a key they made, no match). */
        FORGED_CRYPTO_OBJECT,

        /** A result carrying the app's own crypto object, never authorised by a match. */
        APP_CRYPTO_OBJECT,
    }

    /** How a hooked `KeyGenParameterSpec.Builder` changes the key the app asks for. */
    public enum class KeyHook {
        /**
         * `setUserAuthenticationRequired(false)` whatever the app calls: a sign-in key that signs
         * whenever the hooked app asks, no biometric needed. The app's code believes otherwise;
         * the Keystore's attestation says what the key is.
         */
        WITHOUT_USER_AUTHENTICATION,

        /** `setUnlockedDeviceRequired(false)` whatever the app calls: a PIN key that signs while the phone is locked. */
        USABLE_WHILE_LOCKED,
    }

    @Volatile private var hook: Hook? = null

    @Volatile private var keyHook: KeyHook? = null
    private val ownKeys by lazy { SimulatedDevice(enrolled = setOf("attacker")) }

    /** From now on every prompt is answered by the hooked success callback. */
    public fun hookAuthenticationSucceeded(how: Hook) {
        hook = how
    }

    /** From now on every signing key the app generates is changed as [how] says. */
    public fun hookKeyGeneration(how: KeyHook) {
        keyHook = how
    }

    /** Removes the hooks. */
    public fun unhook() {
        hook = null
        keyHook = null
    }

    /** The spec the Keystore really gets for [spec] under the key hook. */
    internal fun hookedKeySpec(spec: KeySpec): KeySpec = when (keyHook) {
        null -> spec
        KeyHook.WITHOUT_USER_AUTHENTICATION -> spec.copy(authentication = null, invalidatedByBiometricEnrollment = null)
        KeyHook.USABLE_WHILE_LOCKED -> spec.copy(unlockedDeviceRequired = false)
    }

    /** The app's storage, as read from its data directory. */
    public fun readAppStorage(): Map<String, String> = device.storage.dump()

    internal fun hookedOutcome(operation: KeyOperation): PromptOutcome? = when (hook) {
        null -> null
        Hook.NO_CRYPTO_OBJECT -> PromptOutcome.Succeeded(null)
        Hook.APP_CRYPTO_OBJECT -> PromptOutcome.Succeeded(operation)
        Hook.FORGED_CRYPTO_OBJECT -> {
            val alias = "attacker-${System.nanoTime()}"
            ownKeys.keyStore.generateSigningKey(KeySpecs.pin(alias, apiLevel = 27, strongBox = false))
            PromptOutcome.Succeeded(ownKeys.keyStore.beginSigning(alias))
        }
    }
}
