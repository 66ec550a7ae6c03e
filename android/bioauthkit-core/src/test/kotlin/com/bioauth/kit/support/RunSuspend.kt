package com.bioauth.kit.support

import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withTimeout

/** Runs a test's suspend body, bounded so that a prompt nobody answers fails the test instead of hanging it. */
fun <T> runSuspend(block: suspend () -> T): T = runBlocking { withTimeout(300_000) { block() } }
