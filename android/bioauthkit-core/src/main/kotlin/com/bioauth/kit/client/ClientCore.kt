package com.bioauth.kit.client

import com.bioauth.kit.device.DeviceBackends
import com.bioauth.kit.errors.BioAuthException
import com.bioauth.kit.errors.BioAuthException.Code
import com.bioauth.kit.protocol.Ceremony
import com.bioauth.kit.protocol.ChallengeResponse
import com.bioauth.kit.protocol.CreateChallengeRequest
import com.bioauth.kit.protocol.Endpoint
import com.bioauth.kit.protocol.Session
import com.bioauth.kit.protocol.SignInResponse
import com.bioauth.kit.protocol.SignedMessage
import com.bioauth.kit.protocol.User
import java.util.UUID

/** What every feature of the client shares: the server, the device's keys and records, and the session. */
internal class ClientCore(val configuration: BioAuthConfiguration, val device: DeviceBackends, transport: HttpTransport) {
    val api = ApiClient(configuration.serverUrl, transport)
    val keys = DeviceKeys(device, configuration.policy)
    val vault = SecretVault(keys, device.storage, configuration.namespace)
    val records = LocalRecords(device.storage, configuration.namespace)
    val evidence = HardwareEvidence(this)

    /** The signed-in session: its token (never stored in the clear), the session and its user. */
    class Current(val token: String, val session: Session, val user: User)

    /** The access token handed to the app's backend; dropped whenever [current] changes. */
    val accessTokens = AccessTokenCache()

    /**
     * The signed-in session. Any change of it (sign-out, a new sign-in, an ended session, a
     * re-authentication, which a token's claims would then miss) drops the cached access token.
     */
    @Volatile var current: Current? = null
        set(value) {
            if (value?.token != field?.token || value?.session != field?.session) accessTokens.drop()
            field = value
        }

    /** The server said [token]'s session is over: signed out here, if it is still the current one. */
    @Synchronized
    fun sessionEnded(token: String) {
        if (current?.token == token) current = null
    }

    fun requireToken(): String = current?.token ?: throw BioAuthException(Code.NOT_SIGNED_IN)

    fun requireUser(): User = current?.user ?: throw BioAuthException(Code.NOT_SIGNED_IN)

    /** Adopts a sign-in's answer. The session it replaces is ended on the server: no live session is left behind. */
    suspend fun adopt(answer: SignInResponse): SignedIn {
        val previous = current?.token
        current = Current(answer.sessionToken, answer.session, answer.user)
        if (previous != null && previous != answer.sessionToken) {
            try {
                api.send(Endpoint.SIGN_OUT, token = previous)
            } catch (_: BioAuthException) {
                // Already over, or unreachable: it expires on its own.
            }
        }
        return SignedIn(answer.user, answer.session)
    }

    /** A fresh authentication challenge for [registrationId]. */
    suspend fun challenge(registrationId: String): ChallengeResponse =
        api.call(Endpoint.CREATE_CHALLENGE, body = CreateChallengeRequest(registrationId), read = ChallengeResponse::from)

    /** The bytes a device key signs (docs/PROTOCOL.md). */
    fun message(ceremony: Ceremony, registrationId: String, challenge: ByteArray): ByteArray =
        SignedMessage(ceremony, configuration.relyingPartyId, registrationId, challenge).encoded()

    /** A new Keystore alias: every registration gets its own key. */
    fun newAlias(kind: String): String = "${configuration.namespace}.$kind.${UUID.randomUUID()}"
}
