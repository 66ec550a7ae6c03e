package com.bioauth.kit.client

import com.bioauth.kit.errors.BioAuthException
import com.bioauth.kit.errors.BioAuthException.Code
import com.bioauth.kit.errors.ServerRejection
import com.bioauth.kit.protocol.Endpoint
import com.bioauth.kit.protocol.ErrorResponse
import com.bioauth.kit.protocol.RequestBody
import com.bioauth.kit.protocol.ServerErrorCode
import org.json.JSONException
import org.json.JSONObject
import java.io.IOException
import java.net.URL
import kotlin.coroutines.cancellation.CancellationException

/** The contract over [HttpTransport]: one call, a decoded 2xx body or a [BioAuthException]. */
internal class ApiClient(private val serverUrl: String, private val transport: HttpTransport) {
    /** Calls [endpoint] and decodes its answer with [read]. */
    suspend fun <T> call(endpoint: Endpoint, id: String? = null, body: RequestBody? = null, token: String? = null, read: (JSONObject) -> T): T {
        val json = exchange(endpoint, id, body, token)
        return try {
            read(json)
        } catch (error: JSONException) {
            throw BioAuthException(Code.TRANSPORT, "${endpoint.template} answered an unexpected body: ${error.message}", cause = error)
        }
    }

    /** Calls [endpoint] for its effect (the body, if any, is not read). */
    suspend fun send(endpoint: Endpoint, id: String? = null, body: RequestBody? = null, token: String? = null) {
        exchange(endpoint, id, body, token)
    }

    private suspend fun exchange(endpoint: Endpoint, id: String?, body: RequestBody?, token: String?): JSONObject {
        val answer = try {
            blocking {
                transport.send(
                    endpoint.method,
                    URL(serverUrl.trimEnd('/') + endpoint.path(id)),
                    body?.json()?.toString()?.toByteArray(Charsets.UTF_8),
                    token,
                )
            }
        } catch (error: CancellationException) {
            throw error
        } catch (error: IOException) {
            throw BioAuthException(Code.TRANSPORT, "${endpoint.method} ${endpoint.template}: ${error.message}", cause = error)
        } catch (error: RuntimeException) {
            throw BioAuthException(Code.TRANSPORT, "${endpoint.method} ${endpoint.template}: $error", cause = error)
        }
        val text = String(answer.body, Charsets.UTF_8)
        if (answer.status in 200..299) {
            if (text.isBlank()) return JSONObject()
            return parse(text) ?: throw BioAuthException(Code.TRANSPORT, "${endpoint.template} answered a body that is not JSON")
        }
        val error = parse(text)?.let { json -> try { ErrorResponse.from(json) } catch (_: JSONException) { null } }
            ?: throw BioAuthException(Code.TRANSPORT, "${endpoint.template} answered ${answer.status} without the contract's error")
        val rejection = ServerRejection(
            status = answer.status,
            code = ServerErrorCode.of(error.code),
            rawCode = error.code,
            message = error.message,
            retryAfterSeconds = answer.retryAfter?.trim()?.toIntOrNull(),
            reason = error.reason,
        )
        throw BioAuthException(Code.SERVER, "${answer.status} ${error.code}", rejection)
    }

    private fun parse(text: String): JSONObject? = try {
        JSONObject(text)
    } catch (_: JSONException) {
        null
    }
}
