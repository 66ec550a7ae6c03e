package com.bioauth.kit.internal

import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.withContext

/** Runs blocking work (HTTP, Keystore generation and use) off the caller's thread. */
internal suspend fun <T> blocking(work: () -> T): T = withContext(Dispatchers.IO) { work() }
