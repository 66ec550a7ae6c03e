package com.bioauth.sample

import com.bioauth.kit.client.BioAuthClient
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.withContext
import org.json.JSONObject
import java.io.IOException
import java.net.HttpURLConnection
import java.net.URL

/**
 * The app's own backend (Examples/ResourceServer: `GET /balance`, `POST /transfer`), which checks
 * BioAuth's access tokens itself, against the server's key set. Every call carries
 * `Authorization: Bearer <access token>` from [BioAuthClient.accessToken]: a cached token while it
 * has a minute left, never a prompt.
 */
class BankApi(
    private val client: BioAuthClient,
    /** Where the backend answers: the example's default on the developer's machine, as the emulator reaches it. */
    private val baseUrl: String = "http://10.0.2.2:8090",
) {
    /** The backend refused: [stepUpNeeded] when it asks for a more recent strong authentication. */
    class Refusal(val status: Int, val stepUpNeeded: Boolean) : IOException("the bank's API answered $status")

    /** `GET /balance`: the amount and its currency, for the screen. */
    suspend fun balance(): String {
        val json = JSONObject(send("GET", "/balance"))
        return "${json.getString("amount")} ${json.getString("currency")}"
    }

    /** `POST /transfer` (the backend demands a recent strong authentication). */
    suspend fun transfer() {
        send("POST", "/transfer")
    }

    private suspend fun send(method: String, path: String): String {
        val authorization = client.accessToken().authorizationHeader
        return withContext(Dispatchers.IO) {
            val connection = URL(baseUrl.trimEnd('/') + path).openConnection() as HttpURLConnection
            try {
                connection.requestMethod = method
                connection.setRequestProperty("Authorization", authorization)
                val status = connection.responseCode
                if (status !in 200..299) {
                    val challenge = connection.getHeaderField("WWW-Authenticate").orEmpty()
                    throw Refusal(status, status == 401 && "insufficient_user_authentication" in challenge)
                }
                connection.inputStream.use { String(it.readBytes(), Charsets.UTF_8) }
            } finally {
                connection.disconnect()
            }
        }
    }
}
