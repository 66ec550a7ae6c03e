package com.bioauth.kit.internal

import java.util.concurrent.Executor
import java.util.concurrent.Executors
import kotlin.coroutines.resume
import kotlin.coroutines.resumeWithException
import kotlin.coroutines.suspendCoroutine

/** Runs blocking work (HTTP, Keystore generation) off the caller's thread; the stdlib's coroutines only. */
internal class Io(private val executor: Executor = shared) {
    suspend fun <T> run(work: () -> T): T = suspendCoroutine { continuation ->
        executor.execute {
            try {
                continuation.resume(work())
            } catch (error: Throwable) {
                continuation.resumeWithException(error)
            }
        }
    }

    private companion object {
        val shared: Executor = Executors.newCachedThreadPool { runnable -> Thread(runnable, "bioauth-io").apply { isDaemon = true } }
    }
}
