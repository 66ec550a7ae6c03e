package com.bioauth.kit.simulator

import com.bioauth.kit.device.KeyOperation
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

    @Volatile private var hook: Hook? = null
    private val ownKeys by lazy { SimulatedDevice(enrolled = setOf("attacker")) }

    /** From now on every prompt is answered by the hooked success callback. */
    public fun hookAuthenticationSucceeded(how: Hook) {
        hook = how
    }

    /** Removes the hook. */
    public fun unhook() {
        hook = null
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
