package com.bioauth.kit.support

import java.util.concurrent.CountDownLatch
import java.util.concurrent.TimeUnit
import kotlin.coroutines.Continuation
import kotlin.coroutines.EmptyCoroutineContext
import kotlin.coroutines.startCoroutine

/** Runs a suspend block to the end on this thread's behalf (the stdlib's coroutines only; no kotlinx). */
fun <T> runSuspend(block: suspend () -> T): T {
    val done = CountDownLatch(1)
    var outcome: Result<T>? = null
    block.startCoroutine(Continuation(EmptyCoroutineContext) { result ->
        outcome = result
        done.countDown()
    })
    check(done.await(300, TimeUnit.SECONDS)) { "the suspend block did not finish within 300 s" }
    return outcome!!.getOrThrow()
}
