package com.bioauth.kit.support

import com.bioauth.kit.errors.BioAuthException
import org.junit.jupiter.api.Assertions.fail

/** Runs [block] and returns the [BioAuthException] it threw; fails the test when it succeeded. */
fun failure(block: suspend () -> Unit): BioAuthException {
    try {
        runSuspend(block)
    } catch (error: BioAuthException) {
        return error
    }
    fail<Unit>("expected a BioAuthException")
    throw IllegalStateException()
}
