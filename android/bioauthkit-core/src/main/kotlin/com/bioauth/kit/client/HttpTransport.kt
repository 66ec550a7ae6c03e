package com.bioauth.kit.client

import java.net.URL

/** One HTTP exchange. The SDK's default is [UrlConnectionTransport]; tests and apps may put their own. */
public interface HttpTransport {
    /** Sends [body] (JSON, if any) and returns the answer. Blocking; called off the main thread. */
    public fun send(method: String, url: URL, body: ByteArray?, bearer: String?): HttpAnswer
}

/** An HTTP answer. */
public class HttpAnswer(
    /** The status code. */
    public val status: Int,
    /** The `Retry-After` header, if any. */
    public val retryAfter: String?,
    /** The body (empty when there is none). */
    public val body: ByteArray,
)
