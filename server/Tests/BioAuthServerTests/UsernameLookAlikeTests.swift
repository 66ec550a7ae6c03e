import BioAuthProtocol
import BioAuthTesting
import Foundation
import Testing

@testable import BioAuthServer

/// A username that looks like an existing one (Unicode TR 39 skeleton) is taken: nobody can make
/// `аlice` (Cyrillic а) beside `alice`, so neither people nor the support desk can be fooled.
@Suite("Look-alike usernames")
struct UsernameLookAlikeTests {
    @Test(
        "a look-alike of an existing username is 409 username_taken and changes nothing",
        arguments: ["\u{0430}lice", "ALICE", "a1ice", "aIice", "\u{FF41}\u{FF4C}\u{FF49}\u{FF43}\u{FF45}", "\u{1D41A}lice", "\u{0251}lice"]
    )
    func lookAlikeTaken(_ variant: String) async throws {
        try await TestServer.run { server in
            let suffix = "-\(UUID().uuidString.prefix(6).lowercased().filter { !"01".contains($0) })"
            _ = try await server.api.signUp("alice" + suffix)
            let before = try await server.snapshot()
            try await server.api.expectError(
                .usernameTaken,
                .post,
                Endpoint.createUser.path(),
                json: CreateUserRequest(username: variant + suffix, password: "correct horse battery")
            )
            #expect(try await server.snapshot() == before)
            _ = try await server.api.signUp("alicia" + suffix)
        }
    }

    @Test("skeletons: look-alikes share one, other names do not")
    func skeletons() throws {
        func skeleton(_ name: String) throws -> String { try #require(CredentialRules.username(name)).skeleton }
        #expect(try skeleton("\u{0430}lice") == skeleton("alice"))
        #expect(try skeleton("Ian") == skeleton("lan"))
        #expect(try skeleton("b0b") == skeleton("BOB"))
        #expect(try skeleton("paypal") == skeleton("p\u{0430}yp\u{0430}l"))
        #expect(try skeleton("alice") != skeleton("alicia"))
        #expect(try skeleton("bob") != skeleton("rob"))
    }
}
