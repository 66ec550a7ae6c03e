package com.bioauth.kit.support

import com.bioauth.kit.client.HttpAnswer
import com.bioauth.kit.client.HttpTransport
import com.bioauth.kit.client.UrlConnectionTransport
import java.net.URL
import java.util.concurrent.ConcurrentHashMap
import java.util.concurrent.CopyOnWriteArrayList

/** Sends through [UrlConnectionTransport] and keeps the last request and answer body per path: a wiretap. */
class RecordingTransport : HttpTransport {
    private val transport = UrlConnectionTransport()

    /** The last body sent to each path. */
    val bodies = ConcurrentHashMap<String, String>()

    /** The last body answered at each path. */
    val answers = ConcurrentHashMap<String, String>()

    /** Every request's method and path, in order. */
    val requests = CopyOnWriteArrayList<String>()

    override fun send(method: String, url: URL, body: ByteArray?, bearer: String?): HttpAnswer {
        requests += "$method ${url.path}"
        if (body != null) bodies[url.path] = String(body)
        return transport.send(method, url, body, bearer).also { answers[url.path] = String(it.body) }
    }
}
