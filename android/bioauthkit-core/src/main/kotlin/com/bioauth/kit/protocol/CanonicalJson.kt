package com.bioauth.kit.protocol

/**
 * RFC 8785 (JSON Canonicalization Scheme) for what confirmations need: one object whose members
 * are all strings (the Swift `CanonicalJSON`, ported).
 */
internal object CanonicalJson {
    /**
     * `{"name":"value",…}` with members sorted by name as UTF-16 code units (RFC 8785 §3.2.3; Kotlin's
     * `String.compareTo` compares exactly those), no whitespace, UTF-8.
     */
    fun obj(members: List<Pair<String, String>>): ByteArray =
        members.sortedWith { a, b -> a.first.compareTo(b.first) }
            .joinToString(",", "{", "}") { (name, value) -> string(name) + ":" + string(value) }
            .toByteArray(Charsets.UTF_8)

    /**
     * A JSON string as RFC 8785 §3.2.2.2 writes it (ECMAScript's `JSON.stringify`): `"` and `\`
     * escaped, the short escapes `\b \t \n \f \r`, other controls below U+0020 as `\u00xx` in
     * lowercase hex, everything else as itself.
     */
    fun string(value: String): String {
        val out = StringBuilder(value.length + 2).append('"')
        for (char in value) {
            when {
                char == '"' -> out.append("\\\"")
                char == '\\' -> out.append("\\\\")
                char == '\b' -> out.append("\\b")
                char == '\t' -> out.append("\\t")
                char == '\n' -> out.append("\\n")
                char == '\u000C' -> out.append("\\f")
                char == '\r' -> out.append("\\r")
                char < ' ' -> out.append("\\u").append(Integer.toHexString(char.code).padStart(4, '0'))
                else -> out.append(char)
            }
        }
        return out.append('"').toString()
    }
}
