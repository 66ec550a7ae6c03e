package com.bioauth.kit.client

import java.io.IOException
import java.net.HttpURLConnection
import java.net.URL

/** `HttpURLConnection`, on Android and on the JVM alike. */
public class UrlConnectionTransport(private val timeoutMillis: Int = 15_000) : HttpTransport {
    override fun send(method: String, url: URL, body: ByteArray?, bearer: String?): HttpAnswer {
        val connection = url.openConnection() as HttpURLConnection
        try {
            connection.requestMethod = method
            connection.connectTimeout = timeoutMillis
            connection.readTimeout = timeoutMillis
            connection.setRequestProperty("Accept", "application/json")
            if (bearer != null) connection.setRequestProperty("Authorization", "Bearer $bearer")
            if (body != null) {
                connection.doOutput = true
                connection.setRequestProperty("Content-Type", "application/json")
                connection.outputStream.use { it.write(body) }
            }
            val status = connection.responseCode
            val stream = if (status >= 400) connection.errorStream else connection.inputStream
            val bytes = try {
                stream?.use { it.readBytes() } ?: ByteArray(0)
            } catch (_: IOException) {
                ByteArray(0)
            }
            return HttpAnswer(status, connection.getHeaderField("Retry-After"), bytes)
        } finally {
            connection.disconnect()
        }
    }
}
