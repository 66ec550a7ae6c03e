package com.bioauth.kit.client

import com.bioauth.kit.device.AppStorage
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.withContext

/** Runs blocking work (HTTP, Keystore generation and use, storage writes) off the caller's thread. */
internal suspend fun <T> blocking(work: () -> T): T = withContext(Dispatchers.IO) { work() }

/** [AppStorage.write] off the caller's thread: SharedPreferences' `commit()` writes the file before it returns. */
internal suspend fun AppStorage.writeOffCaller(key: String, value: String?) = blocking { write(key, value) }
