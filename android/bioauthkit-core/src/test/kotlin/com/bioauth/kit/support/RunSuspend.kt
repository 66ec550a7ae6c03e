package com.bioauth.kit.support

import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withTimeout

/**
 * Runs a test's suspend body, bounded so that a prompt nobody answers fails the test instead of
 * hanging it. Returns Unit whatever the body's last expression: JUnit runs only void test methods.
 */
fun runSuspend(block: suspend () -> Unit): Unit = runBlocking { withTimeout(300_000) { block() } }
