package com.bioauth.kit.client

import com.bioauth.kit.errors.BioAuthException
import com.bioauth.kit.errors.BioAuthException.Code
import com.bioauth.kit.errors.ServerRejection
import com.bioauth.kit.internal.Io
import com.bioauth.kit.protocol.Endpoint
import org.json.JSONException
import org.json.JSONObject
import java.io.IOException
import java.net.URL

/** The contract over [HttpTransport]: one call, a 2xx body or a [BioAuthException]. */
internal class ApiClient(private val serverUrl: String, private val transport: HttpTransport, private val io: Io) {
    /** Calls [endpoint] and returns its JSON body (empty for 204). */
    suspend fun call(endpoint: Endpoint, id: String? = null, body: JSONObject? = null, token: String? = null): JSONObject {
        val answer = io.run {
            try {
                transport.send(endpoint.method, URL(serverUrl.trimEnd('/') + endpoint.path(id)), body?.toString()?.toByteArray(Charsets.UTF_8), token)
            } catch (error: IOException) {
                throw BioAuthException(Code.TRANSPORT, "${endpoint.method} ${endpoint.template}: ${error.message}", cause = error)
            }
        }
        val text = String(answer.body, Charsets.UTF_8)
        if (answer.status in 200..299) {
            if (text.isBlank()) return JSONObject()
            return parse(text) ?: throw BioAuthException(Code.TRANSPORT, "${endpoint.template} answered a body that is not JSON")
        }
        val error = parse(text)?.optJSONObject("error")
        val code = error?.optString("code").orEmpty()
        if (code.isEmpty()) throw BioAuthException(Code.TRANSPORT, "${endpoint.template} answered ${answer.status} without the contract's error")
        val rejection = ServerRejection(answer.status, code, error?.optString("message").orEmpty(), answer.retryAfter?.toIntOrNull())
        throw BioAuthException(Code.SERVER, "${answer.status} $code", rejection)
    }

    /** Reads a decoded body; a body that is not the contract's shape is a transport failure. */
    inline fun <T> read(endpoint: Endpoint, body: JSONObject, reader: (JSONObject) -> T): T = try {
        reader(body)
    } catch (error: JSONException) {
        throw BioAuthException(Code.TRANSPORT, "${endpoint.template} answered an unexpected body: ${error.message}", cause = error)
    }

    private fun parse(text: String): JSONObject? = try {
        JSONObject(text)
    } catch (_: JSONException) {
        null
    }
}
