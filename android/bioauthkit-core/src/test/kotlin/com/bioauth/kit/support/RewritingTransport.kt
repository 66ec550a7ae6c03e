package com.bioauth.kit.support

import com.bioauth.kit.client.HttpAnswer
import com.bioauth.kit.client.HttpTransport
import com.bioauth.kit.client.UrlConnectionTransport
import org.json.JSONObject
import java.net.URL

/**
 * The way to the server through someone who rewrites its answers: [rewrite] gets each JSON answer
 * to a `GET` of [path] and changes it in place (a proxy, a compromised relay or malware between
 * the server and the app). Everything else goes through as sent.
 */
class RewritingTransport(private val path: String, private val rewrite: (JSONObject) -> Unit) : HttpTransport {
    private val transport = UrlConnectionTransport()

    override fun send(method: String, url: URL, body: ByteArray?, bearer: String?): HttpAnswer {
        val answer = transport.send(method, url, body, bearer)
        if (method != "GET" || url.path != path || answer.status != 200) return answer
        val json = JSONObject(String(answer.body, Charsets.UTF_8)).also(rewrite)
        return HttpAnswer(answer.status, answer.retryAfter, json.toString().toByteArray(Charsets.UTF_8))
    }
}
