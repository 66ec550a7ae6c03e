package com.bioauth.kit.client

import com.bioauth.kit.device.AppStorage
import com.bioauth.kit.errors.BioAuthException
import com.bioauth.kit.errors.BioAuthException.Code
import com.bioauth.kit.protocol.Base64Url

/**
 * Small secrets (the session token, the PIN) in app storage, AES-GCM-encrypted under one Keystore
 * key behind biometrics. A key found invalidated or gone is deleted, with every secret
 * it encrypted, and the next [seal] makes a new one (as biometric_storage does): an enrollment
 * change never breaks the vault for good.
 */
internal class SecretVault(private val keys: DeviceKeys, private val storage: AppStorage, namespace: String) {
    private val keyAlias = "$namespace.vault-key"
    private val prefix = "$namespace.secret."

    /** The names the SDK keeps secrets under. */
    enum class Name { SESSION, PIN }

    /** Encrypts [secret] (one prompt) and returns what [put] stores; nothing is stored yet. */
    suspend fun seal(secret: ByteArray, text: PromptText): String {
        when (keys.probeCipher(keyAlias)) {
            DeviceKeys.Probe.USABLE, DeviceKeys.Probe.LOCKED -> Unit
            DeviceKeys.Probe.INVALIDATED, DeviceKeys.Probe.MISSING -> {
                forgetKey()
                keys.createVaultKey(keyAlias)
            }
        }
        val (iv, ciphertext) = keys.encrypt(keyAlias, secret, text)
        return Base64Url.encode(iv) + "." + Base64Url.encode(ciphertext)
    }

    /** Stores what [seal] returned under [name]. */
    suspend fun put(name: Name, sealed: String) = storage.writeOffCaller(prefix + name, sealed)

    /** Encrypts and stores [secret] under [name]: one prompt. */
    suspend fun store(name: Name, secret: ByteArray, text: PromptText) = put(name, seal(secret, text))

    /** Decrypts the secret under [name]: one prompt. An invalidated or missing key takes every secret with it. */
    suspend fun read(name: Name, text: PromptText): ByteArray {
        val stored = storage.read(prefix + name) ?: throw BioAuthException(Code.KEY_MISSING, "nothing is kept as $name")
        val parts = stored.split('.')
        val iv = parts.getOrNull(0)?.let(Base64Url::decode)
        val ciphertext = parts.getOrNull(1)?.let(Base64Url::decode)
        if (parts.size != 2 || iv == null || ciphertext == null) {
            remove(name)
            throw BioAuthException(Code.KEY_MISSING, "$name is not a kept secret")
        }
        return try {
            keys.decrypt(keyAlias, iv, ciphertext, text)
        } catch (error: BioAuthException) {
            when (error.code) {
                Code.KEY_INVALIDATED -> forgetKey()
                Code.KEY_MISSING -> remove(name)
                else -> Unit
            }
            throw error
        }
    }

    /** Whether a secret is kept under [name]. */
    fun contains(name: Name): Boolean = storage.read(prefix + name) != null

    /** Forgets the secret under [name]. */
    suspend fun remove(name: Name) = storage.writeOffCaller(prefix + name, null)

    /** Without a prompt: drops the key and every secret when the key is invalidated or gone (after a restore, say). */
    suspend fun repair(): Boolean {
        if (Name.entries.none { contains(it) }) return false
        val probe = keys.probeCipher(keyAlias)
        if (probe == DeviceKeys.Probe.USABLE || probe == DeviceKeys.Probe.LOCKED) return false
        forgetKey()
        return true
    }

    private suspend fun forgetKey() {
        keys.delete(keyAlias)
        Name.entries.forEach { remove(it) }
    }
}
