package com.bioauth.kit.protocol

import org.json.JSONObject

/** A user as the server describes one. Times are RFC 3339 text, as sent. */
public data class User(
    /** The user's id. */
    val id: String,
    /** The username (canonical form). */
    val username: String,
    /** When the account was created. */
    val createdAt: String,
) {
    internal companion object {
        fun from(json: JSONObject) = User(json.getString("id"), json.getString("username"), json.getString("created_at"))
    }
}
