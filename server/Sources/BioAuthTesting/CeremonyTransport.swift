import BioAuthProtocol

/// How a ceremony's requests reach the server: the server tests' contract-checking client, the
/// bench's keep-alive connection. The ceremonies themselves (``CeremonyTransport/register(_:token:encoding:label:)``
/// and the rest) are written once, over this.
package protocol CeremonyTransport {
    /// The relying-party id the server signs into every message.
    var relyingPartyID: String { get }

    /// Sends `request` and decodes a success answer; any other answer throws.
    func exchange<Answer: Decodable>(_ request: CeremonyRequest, as answer: Answer.Type) async throws -> Answer
}

/// One request of a ceremony.
package struct CeremonyRequest: Sendable {
    /// The call.
    package var endpoint: Endpoint
    /// The id in the endpoint's path, where it has one.
    package var id: String?
    /// The JSON body, if any.
    package var body: (any Encodable & Sendable)?
    /// The bearer token, if any.
    package var token: String?
}

extension CeremonyTransport {
    /// The loopback servers' relying party.
    package var relyingPartyID: String { LoopbackServer.relyingPartyID }

    /// Sends `body` (if any) to `endpoint` (with `id` where its path has one) with the bearer
    /// `token` (if any), and decodes a success answer; any other answer throws.
    package func exchange<Answer: Decodable>(
        _ endpoint: Endpoint,
        id: String?,
        body: (any Encodable & Sendable)?,
        token: String?,
        as answer: Answer.Type
    ) async throws -> Answer {
        try await exchange(CeremonyRequest(endpoint: endpoint, id: id, body: body, token: token), as: answer)
    }
}
