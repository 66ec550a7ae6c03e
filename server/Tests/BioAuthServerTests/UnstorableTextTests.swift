import BioAuthProtocol
import BioAuthTesting
import Foundation
import Hummingbird
import Testing

@testable import BioAuthServer

/// Strings PostgreSQL's text type refuses are bad input, on both databases: a 400, never a 500.
@Suite("NUL and other unstorable strings")
struct UnstorableTextTests {
    @Test(
        "a NUL in any JSON string field is 400 invalid_request and changes nothing",
        arguments: [
            ("/v1/users", #"{"username":"ali\u0000ce","password":"correct horse battery"}"#, false),
            ("/v1/users", #"{"username":"alice-nul","password":"correct\u0000horse battery"}"#, false),
            ("/v1/sessions/password", #"{"username":"a\u0000","password":"correct horse battery"}"#, false),
            ("/v1/biometric/challenges", #"{"registration_id":"reg_\u0000"}"#, false),
            ("/v1/sessions/biometric", #"{"challenge_id":"chl_\u0000","signature":"AAAA"}"#, false),
            ("/v1/sessions/pin", #"{"challenge_id":"chl_\u0000","signature":"AAAA","pin":"3917"}"#, false),
            ("/v1/biometric/registrations", #"{"algorithm":"ES256","public_key":"PUBLIC","label":"my\u0000phone"}"#, true),
            ("/v1/biometric/registrations", #"{"algorithm":"ES\u0000256","public_key":"PUBLIC"}"#, true),
        ]
    )
    func nulInJSON(path: String, body: String, authenticated: Bool) async throws {
        try await TestServer.run { server in
            let account = try await server.api.newAccount()
            let json = body.replacingOccurrences(of: "PUBLIC", with: Base64URL.encode(SoftwareDeviceKey.es256().publicKey()))
            let before = try await server.snapshot()
            try await server.api.expectError(.invalidRequest, .post, path, raw: Data(json.utf8), token: authenticated ? account.sessionToken : nil)
            #expect(try await server.snapshot() == before)
        }
    }

    @Test("an escaped backslash before u0000 is not a NUL")
    func escapedBackslashIsNotNUL() {
        #expect(!StorableText.jsonContainsNUL(Array(#"{"a":"\\u0000"}"#.utf8)))
        #expect(StorableText.jsonContainsNUL(Array(#"{"a":"\\\u0000"}"#.utf8)))
        #expect(!StorableText.jsonContainsNUL(Array(#"{"a":"\u0001 \n"}"#.utf8)))
    }

    @Test(
        "a NUL in a path id is a 4xx, never a 500",
        arguments: ["/v1/sessions/%00", "/v1/sessions/ses_%00x", "/v1/biometric/registrations/reg_%00"]
    )
    func nulInPath(path: String) async throws {
        try await TestServer.run { server in
            let account = try await server.api.newAccount()
            let answer = try await server.api.call(.delete, path, token: account.sessionToken)
            #expect((400..<500).contains(Int(answer.status.code)))
        }
    }

    @Test(
        "lone surrogates and other odd text are a 4xx or stored faithfully, never a 500",
        arguments: [#"\ud800"#, #"\udfff"#, #"\ud800\u0041"#, "\u{FFFF}", "\u{10FFFF}", "ü\u{0301}"]
    )
    func oddText(label: String) async throws {
        try await TestServer.run { server in
            let account = try await server.api.newAccount()
            let json = #"{"algorithm":"ES256","public_key":"\#(Base64URL.encode(SoftwareDeviceKey.es256().publicKey()))","label":"\#(label)"}"#
            let answer = try await server.api.call(.post, "/v1/biometric/registrations", raw: Data(json.utf8), token: account.sessionToken)
            #expect([201, 400].contains(Int(answer.status.code)))
        }
    }
}
