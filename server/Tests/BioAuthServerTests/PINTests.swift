import BioAuthProtocol
import BioAuthTesting
import Crypto
import Foundation
import HummingbirdBcrypt
import Testing

@testable import BioAuthServer

/// The PIN is two factors: knowledge (the PIN) and possession (the device key it was set with).
@Suite("PIN factor: knowledge and possession")
struct PINTests {
    @Test("a PIN signs in only with its device key's signature over a fresh challenge, and the right PIN")
    func pinFlow() async throws {
        try await TestServer.run { server in
            let account = try await server.api.newAccount()
            let device = try await server.api.setPIN("4921", token: account.sessionToken)
            let answer = try await server.api.pinSignIn(device, pin: "4921")
            let session = try answer.decode(SignInResponse.self)
            #expect(session.session.authentication == .init(method: .pin, registrationID: device.registrationID))
            #expect(session.user == account.user)
            #expect(try await server.api.pinSignIn(device, pin: "4922").errorCode == .invalidCredentials)
            let listed = try await server.api.registrationList(token: account.sessionToken)
            #expect(listed.registrations.map(\.kind) == [.pin])
        }
    }

    @Test("a username and a PIN alone give no session, even the right PIN, and change nothing")
    func usernameAndPINAloneGiveNothing() async throws {
        try await TestServer.run { server in
            let account = try await server.api.newAccount()
            try await server.api.setPIN("4921", token: account.sessionToken)
            let before = try await server.snapshot()
            for pin in ["4921", "0000"] {
                let body = Data(#"{"username":"\#(account.user.username)","pin":"\#(pin)"}"#.utf8)
                try await server.api.expectError(.invalidRequest, .post, "/v1/sessions/pin", raw: body)
            }
            #expect(try await server.snapshot() == before)
        }
    }

    @Test("without the device's signature no PIN is checked: a forged signature spends the challenge and counts nothing against the PIN")
    func signatureBeforePIN() async throws {
        try await TestServer.run { server in
            let account = try await server.api.newAccount()
            let device = try await server.api.setPIN("4921", token: account.sessionToken)
            for _ in 0..<8 {
                let forged = try await server.api.pinSignInBody(device, pin: "4921", signingKey: .es256())
                try await server.api.expectError(.signatureInvalid, .post, "/v1/sessions/pin", json: forged)
                try await server.api.expectError(.challengeInvalid, .post, "/v1/sessions/pin", json: forged)
            }
            let snapshot = try await server.snapshot()
            #expect(snapshot.tables["factor_failures"]?.isEmpty == true, "no PIN was checked, so no failure counted")
            #expect(try await server.api.pinSignIn(device, pin: "4921").status == .ok)
            // The forgeries are counted in the owner's trail: one row, not eight.
            let events = try await server.api.expect(.ok, AuditEventListResponse.self, .get, "/v1/audit", token: account.sessionToken).events
            let failures = events.filter { $0.type == .pinSignIn && $0.outcome == .failure }
            #expect(failures.map(\.count) == [8])
        }
    }

    @Test("PINs must be 4 to 12 ASCII digits", arguments: ["123", "1234567890123", "12a4", "١٢٣٤", "12 34", ""])
    func invalidPIN(pin: String) async throws {
        try await TestServer.run { server in
            let account = try await server.api.newAccount()
            let before = try await server.snapshot()
            try await server.api.expectError(
                .invalidPIN,
                .put,
                "/v1/users/me/pin",
                json: SetPINRequest(pin: pin, algorithm: .es256, publicKey: SoftwareDeviceKey.es256().publicKey()),
                token: account.sessionToken
            )
            #expect(try await server.snapshot() == before)
        }
    }

    @Test(
        "the most common PINs are refused with pin_too_common",
        arguments: [
            "1234", "0000", "1111", "1212", "4321", "1990", "2013", "2580", "1004", "7890", "123456", "654321", "123123", "112233", "147258",
            "000000", "121212", "0123456789",
        ]
    )
    func commonPINsRefused(pin: String) async throws {
        #expect(CommonPINs.contains(pin))
        try await TestServer.run { server in
            let account = try await server.api.newAccount()
            let before = try await server.snapshot()
            try await server.api.expectError(
                .pinTooCommon,
                .put,
                "/v1/users/me/pin",
                json: SetPINRequest(pin: pin, algorithm: .es256, publicKey: SoftwareDeviceKey.es256().publicKey()),
                token: account.sessionToken
            )
            #expect(try await server.snapshot() == before)
        }
    }

    @Test("ordinary PINs are not mistaken for common ones", arguments: ["3917", "4921", "246810", "58213", "80417362", "2100", "1899"])
    func ordinaryPINsAccepted(pin: String) {
        #expect(!CommonPINs.contains(pin))
    }

    @Test("setting a PIN needs a session")
    func pinNeedsSession() async throws {
        try await TestServer.run { server in
            try await server.api.expectError(
                .invalidSession,
                .put,
                "/v1/users/me/pin",
                json: SetPINRequest(pin: "4921", algorithm: .es256, publicKey: SoftwareDeviceKey.es256().publicKey())
            )
        }
    }

    @Test("a new PIN, on this device or another, replaces the old one and its key")
    func newPINReplacesOld() async throws {
        try await TestServer.run { server in
            let account = try await server.api.newAccount()
            let first = try await server.api.setPIN("4921", token: account.sessionToken)
            let second = try await server.api.setPIN("3917", key: .ed25519(), token: account.sessionToken)
            try await server.api.expectError(
                .registrationNotFound,
                .post,
                "/v1/biometric/challenges",
                json: CreateChallengeRequest(registrationID: first.registrationID)
            )
            #expect(try await server.api.pinSignIn(second, pin: "4921").errorCode == .invalidCredentials)
            #expect(try await server.api.pinSignIn(second, pin: "3917").status == .ok)
        }
    }

    @Test("a PIN key cannot sign a biometric sign-in, nor a biometric key a PIN sign-in")
    func kindsDoNotCross() async throws {
        try await TestServer.run { server in
            let account = try await server.api.newAccount()
            let pin = try await server.api.setPIN("4921", token: account.sessionToken)
            let face = SoftwareDeviceKey.es256()
            let biometric = try await server.api.register(face, token: account.sessionToken)
            try await server.api.expectError(
                .challengeInvalid,
                .post,
                "/v1/sessions/biometric",
                json: try await server.api.signedAuthentication(pin.key, registrationID: pin.registrationID)
            )
            let crossed = try await server.api.pinSignInBody(PINDevice(key: face, registrationID: biometric.id), pin: "4921")
            try await server.api.expectError(.challengeInvalid, .post, "/v1/sessions/pin", json: crossed)
        }
    }

    @Test("PIN hashes are keyed with a server secret outside the database: a copy of the database cannot test a guess")
    func pinHashIsKeyed() async throws {
        try await TestDatabase.current.withFreshDatabase { path in
            let stored = try await TestServer.run(configure: { $0.databasePath = path }) { server in
                let account = try await server.api.newAccount()
                let device = try await server.api.setPIN("4921", token: account.sessionToken)
                let row = try await server.server.database.withDatabase { db in
                    try await db.raw("SELECT pin_hash FROM registrations WHERE id = \(bind: device.registrationID)").first()
                }
                return (device, try #require(try row?.decode(column: "pin_hash", as: String?.self)))
            }
            let (device, hash) = stored
            #expect(hash.hasPrefix("hmac-bcrypt$\(ThrowawayPINKey.ring.current.id)$"))
            let bcrypt = String(hash.split(separator: "$", maxSplits: 2)[2])
            // What a thief with the database alone can try: the PIN, and the PIN pre-hashed without the key.
            #expect(!Bcrypt.verify("4921", hash: bcrypt))
            #expect(!Bcrypt.verify(Data(SHA256.hash(data: Data("4921".utf8))).base64EncodedString(), hash: bcrypt))
            // With the key, the right PIN verifies; a server with another key cannot check it.
            let keyed = Data(HMAC<SHA256>.authenticationCode(for: Data("4921".utf8), using: ThrowawayPINKey.ring.current.secret))
                .base64EncodedString()
            #expect(Bcrypt.verify(keyed, hash: bcrypt))
            let otherKey = PINKeyRing(keys: [Data(repeating: 7, count: 32)])
            let refused = try await TestServer.run(pinKeys: otherKey, configure: { $0.databasePath = path }) { server in
                try await server.api.pinSignIn(device, pin: "4921").errorCode
            }
            #expect(refused == .invalidCredentials)
        }
    }

    @Test("a PIN hashed under a retired key still signs in and is re-hashed under the current key")
    func pinKeyRotation() async throws {
        try await TestDatabase.current.withFreshDatabase { path in
            let device = try await TestServer.run(configure: { $0.databasePath = path }) { server in
                try await server.api.setPIN("4921", token: try await server.api.newAccount().sessionToken)
            }
            let rotated = PINKeyRing(keys: [Data(repeating: 0x11, count: 32), Data(repeating: 0x5a, count: 32)])
            try await TestServer.run(pinKeys: rotated, configure: { $0.databasePath = path }) { server in
                #expect(try await server.api.pinSignIn(device, pin: "4921").status == .ok)
                let hash = try await server.server.database.withDatabase { db in
                    try await db.raw("SELECT pin_hash FROM registrations WHERE id = \(bind: device.registrationID)").first()?
                        .decode(column: "pin_hash", as: String.self)
                }
                #expect(hash?.hasPrefix("hmac-bcrypt$\(rotated.current.id)$") == true)
                #expect(try await server.api.pinSignIn(device, pin: "4921").status == .ok)
            }
        }
    }

    @Test("three PIN lockouts in a row lock the PIN until a password sign-in")
    func pinLockoutEscalates() async throws {
        try await TestServer.run { server in
            let account = try await server.api.newAccount()
            let device = try await server.api.setPIN("4921", token: account.sessionToken)
            let policy = LockoutPolicy()
            for lockout in 1...policy.pinMaxLockouts {
                for _ in 0..<5 { #expect(try await server.api.pinSignIn(device, pin: "0000").errorCode == .invalidCredentials) }
                let refused = try await server.api.pinSignIn(device, pin: "4921")
                #expect(refused.errorCode == (lockout < policy.pinMaxLockouts ? .locked : .pinLocked), "lockout \(lockout)")
                server.clock.advance(seconds: TimeInterval(policy.lockMilliseconds(number: lockout) / 1000))
            }
            server.clock.advance(seconds: 24 * 60 * 60)
            _ = try await server.server.purge()
            let stillLocked = try await server.api.pinSignIn(device, pin: "4921")
            #expect(stillLocked.errorCode == .pinLocked)
            #expect(stillLocked.status == .forbidden)
            _ = try await server.api.signIn(account.user.username)
            #expect(try await server.api.pinSignIn(device, pin: "4921").status == .ok)
        }
    }

    @Test("four wrong PINs every 15 minutes lock at the fifth; slow guessing reaches the password-only lock after fifteen guesses")
    func slowPINGuessesStillLock() async throws {
        try await TestServer.run { server in
            let account = try await server.api.newAccount()
            let device = try await server.api.setPIN("4921", token: account.sessionToken)
            var guesses = 0
            var answer = try await server.api.pinSignIn(device, pin: "0000")
            // Four guesses, then a quarter hour's rest (what a forgetting counter needed), and the
            // same wait whenever the PIN is locked.
            while answer.errorCode != .pinLocked, guesses < 100 {
                if answer.errorCode == .invalidCredentials { guesses += 1 }
                if answer.errorCode != .invalidCredentials || guesses % 4 == 0 {
                    server.clock.advance(seconds: 15 * 60 + 1)
                    _ = try await server.server.purge()
                }
                answer = try await server.api.pinSignIn(device, pin: "0000")
            }
            #expect(answer.errorCode == .pinLocked)
            #expect(guesses == 15, "five per lock, three locks: then only a password sign-in unlocks it")
            server.clock.advance(seconds: 30 * 24 * 60 * 60)
            #expect(try await server.api.pinSignIn(device, pin: "4921").errorCode == .pinLocked)
        }
    }

    @Test("a successful PIN sign-in resets the escalation")
    func successResetsEscalation() async throws {
        try await TestServer.run { server in
            let account = try await server.api.newAccount()
            let device = try await server.api.setPIN("4921", token: account.sessionToken)
            for _ in 1...(LockoutPolicy().pinMaxLockouts * 2) {
                for _ in 0..<5 { _ = try await server.api.pinSignIn(device, pin: "0000") }
                server.clock.advance(seconds: 15 * 60)
                #expect(try await server.api.pinSignIn(device, pin: "4921").status == .ok)
            }
        }
    }
}

@Suite("PIN keys")
struct PINKeyFileTests {
    @Test("the embedded default creates its PIN key file at first start, mode 0600, beside the database, and keeps it")
    func defaultKeyFile() async throws {
        guard TestDatabase.current == .sqlite else { return }
        try await TestDatabase.sqlite.withFreshDatabase { path in
            var configuration = ServerConfiguration()
            configuration.databasePath = path
            configuration.port = 0
            let first = try await AuthServer.open(configuration: configuration)
            try await first.close()
            let keyFile = path + ".pin-key"
            let attributes = try FileManager.default.attributesOfItem(atPath: keyFile)
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
            let again = try await AuthServer.open(configuration: configuration)
            try await again.close()
            #expect(again.pinKeys.current.id == first.pinKeys.current.id)
            let database = try Data(contentsOf: URL(fileURLWithPath: path))
            let text = try String(contentsOfFile: keyFile, encoding: .utf8)
            let key = text.split(separator: "\n").last.map(String.init) ?? ""
            #expect(database.range(of: Data(key.utf8)) == nil)
        }
    }

    @Test("a PostgreSQL server without a PIN key file refuses to start")
    func postgresNeedsKeyFile() {
        var configuration = ServerConfiguration()
        configuration.databasePath = "postgres://nobody@127.0.0.1:1/none"
        #expect(throws: PINKeyRing.FileError.self) { _ = try ServerPolicies.pinKeyRing(configuration) }
        configuration.pinKeyFile = "/nonexistent/bioauth.pin-key"
        #expect(throws: PINKeyRing.FileError.self) { _ = try ServerPolicies.pinKeyRing(configuration) }
    }

    @Test("a key file line that is not 32 bytes of base64url is refused, naming the line but not the key")
    func badKeyFile() {
        #expect(throws: PINKeyRing.FileError.self) { try PINKeyRing.parse("# keys\nnot-a-key\n", path: "k") }
        #expect(throws: PINKeyRing.FileError.self) { try PINKeyRing.parse("# nothing\n", path: "k") }
        let ring = try? PINKeyRing.parse("\n# current\nWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlo\n", path: "k")
        #expect(ring?.current.id == ThrowawayPINKey.ring.current.id)
    }
}
