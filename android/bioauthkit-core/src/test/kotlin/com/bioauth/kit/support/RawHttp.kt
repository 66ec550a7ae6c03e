package com.bioauth.kit.support

import com.bioauth.kit.client.UrlConnectionTransport
import org.json.JSONObject
import java.net.URL

/** One HTTP call outside the SDK: what a test checks the server's side with, and what an attacker sends. */
object RawHttp {
    class Answer(val status: Int, val body: JSONObject)

    fun call(method: String, path: String, json: JSONObject? = null, token: String? = null, server: String = LoopbackServer.url): Answer {
        val answer = UrlConnectionTransport().send(method, URL(server + path), json?.toString()?.toByteArray(), token)
        val text = String(answer.body)
        return Answer(answer.status, if (text.isBlank()) JSONObject() else JSONObject(text))
    }
}
