package com.bioauth.kit.client

import com.bioauth.kit.device.AppStorage
import org.json.JSONObject

/** This device's registration of a key, as kept in app storage (public values only). */
internal data class EnrollmentRecord(
    val userId: String,
    val registrationId: String,
    val keyAlias: String,
    /** Why the key can no longer sign (`key_invalidated`, `key_missing`), once found out. */
    val lost: String? = null,
) {
    fun json(): String = JSONObject().put("user_id", userId).put("registration_id", registrationId).put("key_alias", keyAlias)
        .put("lost", lost ?: JSONObject.NULL).toString()

    companion object {
        fun read(storage: AppStorage, name: String): EnrollmentRecord? = storage.read(name)?.let { text ->
            runCatching {
                val json = JSONObject(text)
                EnrollmentRecord(json.getString("user_id"), json.getString("registration_id"), json.getString("key_alias"),
                                 if (json.isNull("lost")) null else json.getString("lost"))
            }.getOrNull()
        }
    }
}
