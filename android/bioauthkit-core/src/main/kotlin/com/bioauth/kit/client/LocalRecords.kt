package com.bioauth.kit.client

import com.bioauth.kit.device.AppStorage
import org.json.JSONObject

/** This device's registration of a key behind biometrics, as kept in app storage (public values only). */
internal data class EnrollmentRecord(
    val userId: String,
    val registrationId: String,
    val keyAlias: String,
    /** Why the key can no longer sign, once found out; the registration stays until the server revokes it. */
    val lost: LocalKeyLoss? = null,
)

/** This device's PIN key and the registration it is bound to. */
internal data class PinRecord(val userId: String, val registrationId: String, val keyAlias: String)

/**
 * The SDK's records in app storage, under names that start with the configured namespace. Writes
 * run on `Dispatchers.IO` ([writeOffCaller]): SharedPreferences commits to disk.
 */
internal class LocalRecords(private val storage: AppStorage, namespace: String) {
    private val enrollmentName = "$namespace.enrollment"
    private val pinName = "$namespace.pin"

    val enrollment: EnrollmentRecord?
        get() = read(enrollmentName) { json ->
            EnrollmentRecord(
                json.getString("user_id"), json.getString("registration_id"), json.getString("key_alias"),
                if (json.isNull("lost")) null else LocalKeyLoss.valueOf(json.getString("lost")),
            )
        }

    suspend fun saveEnrollment(record: EnrollmentRecord?) = storage.writeOffCaller(enrollmentName, record?.let {
        JSONObject().put("user_id", it.userId).put("registration_id", it.registrationId).put("key_alias", it.keyAlias)
            .put("lost", it.lost?.name ?: JSONObject.NULL).toString()
    })

    val pin: PinRecord?
        get() = read(pinName) { json -> PinRecord(json.getString("user_id"), json.getString("registration_id"), json.getString("key_alias")) }

    suspend fun savePin(record: PinRecord?) = storage.writeOffCaller(pinName, record?.let {
        JSONObject().put("user_id", it.userId).put("registration_id", it.registrationId).put("key_alias", it.keyAlias).toString()
    })

    /** A record that does not parse (written by a future version, or damaged) reads as none. */
    private fun <T> read(name: String, parse: (JSONObject) -> T): T? = storage.read(name)?.let { text ->
        try {
            parse(JSONObject(text))
        } catch (_: Exception) {
            null
        }
    }
}
