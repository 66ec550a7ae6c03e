package com.bioauth.kit.support

import java.io.File
import java.util.concurrent.TimeUnit

/**
 * A real `bioauth serve` on a loopback port over a throwaway SQLite file, for the whole JVM run
 * (scripts/test-android passes the binary in BIOAUTH_BINARY). The Swift suites' in-process
 * server is Swift; the Kotlin suite runs the same server as a process.
 */
object LoopbackServer {
    /** The relying party the server is started with. */
    const val RELYING_PARTY = "bank.example"

    /** How recent a sign-in must be for a credential change (`--step-up-minutes`): the shortest the server allows. */
    const val STEP_UP_MINUTES = 1

    /** Where the server answers. */
    val url: String by lazy { start() }

    /** Deletes a folder with java.io only: at JVM shutdown the test classpath may no longer load Kotlin's helpers. */
    private fun remove(file: File) {
        file.listFiles()?.forEach { remove(it) }
        file.delete()
    }

    /** The database file of each server started here, by where it answers (for `bioauth admin`). */
    val databases: MutableMap<String, File> = java.util.concurrent.ConcurrentHashMap()

    /** Starts another `bioauth serve` like this one, with [settings] added; returns where it answers. */
    fun start(vararg settings: String): String {
        val binary = System.getenv("BIOAUTH_BINARY") ?: error("set BIOAUTH_BINARY to the bioauth executable (scripts/test-android does)")
        val folder = File(System.getProperty("java.io.tmpdir"), "bioauth-android-${System.nanoTime()}").apply { mkdirs() }
        val process = ProcessBuilder(
            binary, "serve", "--host", "127.0.0.1", "--port", "0", "--metrics-port", "0", "--database", File(folder, "bioauth.sqlite").path,
            "--relying-party", RELYING_PARTY, "--password-cost", "10", "--requests-per-minute", "1000000",
            "--challenges-per-minute", "10000", "--step-up-minutes", STEP_UP_MINUTES.toString(), "--log-level", "warning", *settings,
        ).redirectError(ProcessBuilder.Redirect.INHERIT).start()
        Runtime.getRuntime().addShutdownHook(Thread {
            process.destroy()
            process.waitFor(10, TimeUnit.SECONDS)
            remove(folder)
        })
        val reader = process.inputStream.bufferedReader()
        while (true) {
            val line = reader.readLine() ?: error("bioauth serve exited before listening")
            Regex("listening on (http://\\S+)").find(line)?.let { match ->
                Thread { reader.forEachLine { } }.apply { isDaemon = true }.start()
                databases[match.groupValues[1]] = File(folder, "bioauth.sqlite")
                return match.groupValues[1]
            }
        }
    }
}
