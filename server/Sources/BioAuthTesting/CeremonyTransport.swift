import BioAuthProtocol

/// How a ceremony's requests reach the server: the server tests' contract-checking client, the
/// bench's keep-alive connection. The ceremonies themselves (``CeremonyTransport/register(_:token:encoding:label:)``
/// and the rest) are written once, over this.
package protocol CeremonyTransport {
    /// The relying-party id the server signs into every message.
    var relyingPartyID: String { get }

    /// Sends `body` (if any) to `endpoint` (with `id` where its path has one) with the bearer
    /// `token` (if any), and decodes a success answer; any other answer throws.
    func exchange<Answer: Decodable>(
        _ endpoint: Endpoint,
        id: String?,
        body: (any Encodable & Sendable)?,
        token: String?,
        as answer: Answer.Type
    ) async throws -> Answer
}

extension CeremonyTransport {
    /// The loopback servers' relying party.
    package var relyingPartyID: String { LoopbackServer.relyingPartyID }
}
