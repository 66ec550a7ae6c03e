package com.bioauth.kit.support

import org.json.JSONObject
import java.util.concurrent.ConcurrentHashMap
import java.util.concurrent.TimeUnit

/**
 * The bank's backend against a [LoopbackServer]: a service credential made the operator's way
 * (`bioauth admin service-credentials create` on the server's database), and the calls it makes
 * with it (`POST /v1/service/confirmations`, `GET /v1/service/confirmations/{id}`).
 */
class BankBackend private constructor(private val server: String, private val credential: String) {
    /** Asks [userId] to confirm [details]; the `201` body (the confirmation). */
    fun ask(userId: String, details: JSONObject): JSONObject {
        val body = JSONObject().put("user_id", userId).put("details", details)
        val answer = RawHttp.call("POST", "/v1/service/confirmations", body, credential, server)
        check(answer.status == 201) { "createConfirmation answered ${answer.status}: ${answer.body}" }
        return answer.body
    }

    /** The confirmation as the backend reads it. */
    fun get(id: String): JSONObject = RawHttp.call("GET", "/v1/service/confirmations/$id", token = credential, server = server).body

    companion object {
        private val backends = ConcurrentHashMap<String, BankBackend>()

        /** The backend of [server] (one credential per server, made once). */
        fun of(server: String = LoopbackServer.url): BankBackend = backends.computeIfAbsent(server) { BankBackend(it, credential(it)) }

        private fun credential(server: String): String {
            val binary = System.getenv("BIOAUTH_BINARY") ?: error("set BIOAUTH_BINARY")
            val database = LoopbackServer.databases[server] ?: error("no database known for $server")
            val process = ProcessBuilder(binary, "admin", "service-credentials", "create", "--database", database.path, "--name", "android tests")
                .redirectErrorStream(true).start()
            val output = process.inputStream.bufferedReader().readText()
            check(process.waitFor(60, TimeUnit.SECONDS) && process.exitValue() == 0) { "service-credentials create failed: $output" }
            return Regex("""Bearer\): (\S+)""").find(output)?.groupValues?.get(1) ?: error("no secret in: $output")
        }
    }
}
