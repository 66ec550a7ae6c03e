package com.bioauth.kit.support

import com.bioauth.kit.errors.BioAuthException
import org.junit.jupiter.api.Assertions.fail

/** Runs [block] and returns the [BioAuthException] it threw; fails the test when it succeeded or threw anything else. */
suspend fun failure(block: suspend () -> Unit): BioAuthException {
    try {
        block()
    } catch (error: BioAuthException) {
        return error
    }
    fail<Unit>("expected a BioAuthException")
    throw IllegalStateException()
}
