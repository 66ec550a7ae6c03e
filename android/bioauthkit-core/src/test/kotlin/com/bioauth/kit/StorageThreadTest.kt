package com.bioauth.kit

import com.bioauth.kit.client.BioAuthClient
import com.bioauth.kit.client.BioAuthConfiguration
import com.bioauth.kit.device.AppStorage
import com.bioauth.kit.device.DeviceBackends
import com.bioauth.kit.simulator.SimulatedBiometricPrompt.Answer
import com.bioauth.kit.simulator.SimulatedDevice
import com.bioauth.kit.support.Account
import com.bioauth.kit.support.Account.Companion.PROMPT
import com.bioauth.kit.support.LoopbackServer
import com.bioauth.kit.support.runSuspend
import kotlinx.coroutines.asCoroutineDispatcher
import kotlinx.coroutines.withContext
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import java.util.UUID
import java.util.concurrent.CopyOnWriteArrayList
import java.util.concurrent.Executors

/** SharedPreferences writes (`commit()` writes the file) happen off the caller's thread, as the client's KDoc promises. */
class StorageThreadTest {
    /** The app's storage, noting the thread of every write. */
    private class Watched(private val storage: AppStorage) : AppStorage {
        val writers = CopyOnWriteArrayList<String>()

        override fun read(key: String): String? = storage.read(key)

        override fun write(key: String, value: String?) {
            writers += Thread.currentThread().name
            storage.write(key, value)
        }
    }

    @Test
    fun `every storage write of enabling biometrics, keeping the session, setting the PIN and signing out runs off the calling thread`() =
        runSuspend {
            val device = SimulatedDevice()
            val storage = Watched(device.storage)
            val backends = DeviceBackends(device.keyStore, device.prompt, storage, device.backends.info)
            val client = BioAuthClient(BioAuthConfiguration(LoopbackServer.url, LoopbackServer.RELYING_PARTY), backends)
            val main = Executors.newSingleThreadExecutor { Thread(it, "app-main") }
            try {
                withContext(main.asCoroutineDispatcher()) {
                    val username = "user-" + UUID.randomUUID().toString().take(8)
                    client.signUp(username, Account.PASSWORD)
                    client.signIn(username, Account.PASSWORD)
                    device.willAnswer(Answer.Present("owner"), Answer.Present("owner"), Answer.Present("owner"))
                    client.enableBiometricSignIn(prompt = PROMPT)
                    client.keepSessionBehindBiometrics(PROMPT)
                    client.setPIN(Account.PIN, PROMPT)
                    client.disableBiometricSignIn()
                    client.signOut()
                }
            } finally {
                main.shutdown()
            }
            assertTrue(storage.writers.size >= 5, "${storage.writers}")
            assertEquals(emptyList<String>(), storage.writers.filter { it == "app-main" }, "writes on the caller's thread")
        }
}
