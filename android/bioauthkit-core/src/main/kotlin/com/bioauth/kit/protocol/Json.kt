package com.bioauth.kit.protocol

import org.json.JSONException
import org.json.JSONObject

// org.json (part of the Android platform) helpers shared by the wire bodies.

/** `null` for a missing or JSON-null member, else its string. */
internal fun JSONObject.stringOrNull(name: String): String? = if (isNull(name)) null else getString(name)

/** A base64url member, checked; a value that is not strict base64url is a contract violation. */
internal fun JSONObject.base64url(name: String): String =
    getString(name).also { if (Base64Url.decode(it) == null) throw JSONException("$name is not base64url") }

/** Puts [value] unless it is `null` (the contract's optional members are left out, not `null`). */
internal fun JSONObject.putIfPresent(name: String, value: Any?): JSONObject = if (value == null) this else put(name, value)
