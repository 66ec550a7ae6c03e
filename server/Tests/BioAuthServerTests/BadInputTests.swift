import BioAuthProtocol
import BioAuthTesting
import Foundation
import Hummingbird
import Testing

/// Garbage gets a clear 4xx with a stable code, and changes nothing.
@Suite("Bad input")
struct BadInputTests {
    /// Bodies malformed for both sign-up and sign-in, and (last) two only sign-in reads.
    static let malformedBodies: [(body: String, signUpToo: Bool)] = [
        (#"{"username": "alice""#, true),
        (#"not json at all"#, true),
        (#"[]"#, true),
        (#"{}"#, true),
        (#"{"username": "alice"}"#, true),
        (#"{"username": 42, "password": "long enough password"}"#, true),
        (#"{"username": "alice", "password": null}"#, true),
        ("", true),
        (#"{"username": "alice", "password": "long enough password", "session_duration_minutes": "ten"}"#, false),
        (#"{"username": "alice", "password": "long enough password", "session_duration_minutes": 10.5}"#, false),
    ]

    @Test("malformed bodies are invalid_request", arguments: malformedBodies)
    func malformedJSON(body: String, signUpToo: Bool) async throws {
        try await TestServer.run { server in
            try await server.api.signUp("alice", password: "long enough password")
            let before = try await server.snapshot()
            try await server.api.expectError(.invalidRequest, .post, "/v1/sessions/password", raw: Data(body.utf8))
            if signUpToo {
                try await server.api.expectError(.invalidRequest, .post, "/v1/users", raw: Data(body.utf8))
            }
            #expect(try await server.snapshot() == before)
        }
    }

    @Test("bad base64url is invalid_request", arguments: ["AAAA====", "AA+/", "AA A", "A", "Zh", "é"])
    func badBase64URL(text: String) async throws {
        try await TestServer.run { server in
            let account = try await server.api.newAccount()
            let before = try await server.snapshot()
            let body = #"{"algorithm": "ES256", "public_key": "\#(text)"}"#
            try await server.api.expectError(.invalidRequest, .post, "/v1/biometric/registrations", raw: Data(body.utf8), token: account.sessionToken)
            let signIn = #"{"challenge_id": "chl_x", "signature": "\#(text)"}"#
            try await server.api.expectError(.invalidRequest, .post, "/v1/sessions/biometric", raw: Data(signIn.utf8))
            #expect(try await server.snapshot() == before)
        }
    }

    @Test("a body over 64 KiB is payload_too_large")
    func oversizedBody() async throws {
        try await TestServer.run { server in
            let before = try await server.snapshot()
            let huge = #"{"username": "\#(String(repeating: "a", count: 70_000))", "password": "long enough password"}"#
            try await server.api.expectError(.payloadTooLarge, .post, "/v1/users", raw: Data(huge.utf8))
            #expect(try await server.snapshot() == before)
            let account = try await server.api.newAccount()
            let padded = #"{"algorithm": "ES256", "public_key": "AAAA", "label": "\#(String(repeating: "x", count: 65_536))"}"#
            try await server.api.expectError(
                .payloadTooLarge,
                .post,
                "/v1/biometric/registrations",
                raw: Data(padded.utf8),
                token: account.sessionToken
            )
        }
    }

    @Test("an unknown algorithm is unsupported_algorithm", arguments: ["RS256", "es256", "", "EdDSA"])
    func unsupportedAlgorithm(name: String) async throws {
        try await TestServer.run { server in
            let account = try await server.api.newAccount()
            let before = try await server.snapshot()
            let body = #"{"algorithm": "\#(name)", "public_key": "\#(Base64URL.encode(SoftwareDeviceKey.es256().publicKey()))"}"#
            try await server.api.expectError(
                .unsupportedAlgorithm,
                .post,
                "/v1/biometric/registrations",
                raw: Data(body.utf8),
                token: account.sessionToken
            )
            #expect(try await server.snapshot() == before)
        }
    }

    @Test("malformed public keys are invalid_public_key", arguments: TestVectors.shared.invalidPublicKeys)
    func invalidPublicKey(vector: TestVectors.InvalidPublicKey) async throws {
        try await TestServer.run { server in
            let account = try await server.api.newAccount()
            let before = try await server.snapshot()
            try await server.api.expectError(
                .invalidPublicKey,
                .post,
                "/v1/biometric/registrations",
                json: StartRegistrationRequest(algorithm: try #require(vector.signatureAlgorithm), publicKey: Base64URL.decode(vector.publicKey)!),
                token: account.sessionToken
            )
            #expect(try await server.snapshot() == before)
        }
    }

    @Test("a key of one algorithm declared as the other is invalid_public_key")
    func keyAlgorithmMismatch() async throws {
        try await TestServer.run { server in
            let account = try await server.api.newAccount()
            try await server.api.expectError(
                .invalidPublicKey,
                .post,
                "/v1/biometric/registrations",
                json: StartRegistrationRequest(algorithm: .ed25519, publicKey: SoftwareDeviceKey.es256().publicKey()),
                token: account.sessionToken
            )
            try await server.api.expectError(
                .invalidPublicKey,
                .post,
                "/v1/biometric/registrations",
                json: StartRegistrationRequest(algorithm: .es256, publicKey: SoftwareDeviceKey.ed25519().publicKey(.spki)),
                token: account.sessionToken
            )
            try await server.api.expectError(
                .invalidPublicKey,
                .post,
                "/v1/biometric/registrations",
                json: StartRegistrationRequest(algorithm: .es256, publicKey: Data()),
                token: account.sessionToken
            )
        }
    }

    @Test("a label over 64 characters is invalid_request")
    func longLabel() async throws {
        try await TestServer.run { server in
            let account = try await server.api.newAccount()
            try await server.api.expectError(
                .invalidRequest,
                .post,
                "/v1/biometric/registrations",
                json: StartRegistrationRequest(
                    algorithm: .es256,
                    publicKey: SoftwareDeviceKey.es256().publicKey(),
                    label: String(repeating: "l", count: 65)
                ),
                token: account.sessionToken
            )
        }
    }

    @Test("unknown paths are not_found and known paths with another method are method_not_allowed")
    func unknownRoutes() async throws {
        try await TestServer.run { server in
            let cases: [(HTTPRequest.Method, String, ErrorCode)] = [
                (.get, "/v2/users", .notFound),
                (.get, "/v1/users", .methodNotAllowed),
                (.put, "/v1/biometric/registrations/reg_1", .methodNotAllowed),
                (.delete, "/v1/passkeys", .methodNotAllowed),
            ]
            for (method, path, code) in cases {
                try await server.api.expectError(code, method, path)
            }
            try await server.api.expectError(.methodNotAllowed, .post, "/health")
        }
    }

    @Test("unknown fields in a body are ignored")
    func unknownFieldsIgnored() async throws {
        try await TestServer.run { server in
            let body = #"{"username": "carol", "password": "long enough password", "admin": true}"#
            let answer = try await server.api.call(.post, "/v1/users", raw: Data(body.utf8))
            #expect(answer.status == .created)
        }
    }
}
