import Foundation
import Testing

@testable import BioAuthProtocol

@Suite("WireJSON: RFC 3339 times and snake_case bodies")
struct WireJSONTests {
    /// 2026-11-21T20:18:25Z, the contract's example instant (whole seconds).
    static let exampleSeconds: TimeInterval = 1_795_292_305

    static func isWireTimestamp(_ text: String) -> Bool {
        text.wholeMatch(of: /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z/) != nil
    }

    // MARK: Timestamps

    @Test("Timestamps are RFC 3339 UTC with exactly three fractional digits")
    func formatShape() {
        #expect(WireJSON.formatTimestamp(Date(timeIntervalSince1970: Self.exampleSeconds)) == "2026-11-21T20:18:25.000Z")
        // .125 and .5 are exact binary fractions, so no rounding question arises.
        #expect(WireJSON.formatTimestamp(Date(timeIntervalSince1970: Self.exampleSeconds + 0.125)) == "2026-11-21T20:18:25.125Z")
        #expect(WireJSON.formatTimestamp(Date(timeIntervalSince1970: 0.5)) == "1970-01-01T00:00:00.500Z")
        #expect(WireJSON.formatTimestamp(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00.000Z")
        for _ in 0..<200 {
            let date = Date(timeIntervalSince1970: .random(in: 0...4_102_444_800))
            let text = WireJSON.formatTimestamp(date)
            #expect(Self.isWireTimestamp(text), "\(text)")
            // Never more than a millisecond away from the instant.
            if let parsed = WireJSON.parseTimestamp(text) {
                #expect(abs(parsed.timeIntervalSince(date)) < 0.001)
            } else {
                Issue.record("could not parse our own \(text)")
            }
        }
    }

    @Test("The calendar arithmetic agrees with Foundation's ISO 8601 format over years 1583–9999, leap days and day edges included")
    func formatAgreesWithFoundation() {
        let style = Date.ISO8601FormatStyle(timeZone: .gmt)
        // Whole seconds, so that only the date and time of day are compared (the milliseconds are
        // checked above); the first and last second of a few leap days and century years too.
        // Foundation's calendar is Julian before October 1582, where RFC 3339's is Gregorian.
        let edges: [TimeInterval] = [-12_212_553_600, -2_208_988_800, 951_782_400, 951_868_799, 4_107_542_400, 253_402_300_799, -1]
        let samples = edges + (0..<2_000).map { _ in TimeInterval(Int64.random(in: -12_212_553_600...253_402_300_799)) }
        for seconds in samples {
            let date = Date(timeIntervalSince1970: seconds)
            #expect(WireJSON.formatTimestamp(date) == date.formatted(style).dropLast() + ".000Z", "\(seconds)")
        }
    }

    @Test("The timestamp is UTC whatever the process time zone")
    func utcOnly() {
        let text = WireJSON.formatTimestamp(Date(timeIntervalSince1970: Self.exampleSeconds))
        #expect(text.hasSuffix("Z"))
        #expect(!text.contains("+"))
    }

    @Test(
        "Parses times with and without fractional seconds",
        arguments: [
            ("2026-11-21T20:18:25Z", 0.0),
            ("2026-11-21T20:18:25.000Z", 0.0),
            ("2026-11-21T20:18:25.125Z", 0.125),
            ("2026-11-21T20:18:25.5Z", 0.5),
            ("2026-11-21T20:18:25.123Z", 0.123),
        ]
    )
    func parse(_ text: String, fraction: Double) throws {
        let date = try #require(WireJSON.parseTimestamp(text))
        #expect(abs(date.timeIntervalSince1970 - (Self.exampleSeconds + fraction)) < 0.0005)
    }

    @Test("The canonical form is read by arithmetic to exactly the instant the format style gives, over years 1583–9999 and 0–9 fraction digits")
    func canonicalParseAgreesWithFormatStyle() throws {
        let edges: [Int64] = [-12_212_553_600, -2_208_988_800, 951_782_400, 951_868_799, 4_107_542_400, 253_402_300_799, -1, 0]
        let samples = edges + (0..<3_000).map { _ in Int64.random(in: -12_212_553_600...253_402_300_799) }
        for (index, seconds) in samples.enumerated() {
            let digits = index % 10
            let fraction = digits == 0 ? "" : "." + String((0..<digits).map { _ in "0123456789".randomElement()! })
            let whole = WireJSON.formatTimestamp(Date(timeIntervalSince1970: TimeInterval(seconds))).dropLast(5)
            let text = String(whole) + fraction + (index % 7 == 0 ? "z" : "Z")
            let fast = try #require(WireJSON.parseCanonicalTimestamp(text), "\(text)")
            #expect(fast == WireJSON.parseTimestampWithFormatStyle(text), "\(text)")
        }
    }

    @Test(
        "Text outside the canonical form is left to the format style",
        arguments: [
            "2026-02-29T00:00:00Z", "2026-13-01T00:00:00Z", "2026-11-21T24:00:00Z", "2026-11-21T20:60:00Z", "2026-11-21T20:18:60Z",
            "1582-10-15T00:00:00Z", "2026-11-21t20:18:25Z", "2026-11-21T20:18:25.Z", "2026-11-21T20:18:25.1234567890Z",
            "+2026-11-21T20:18:25Z", "2026-11-21T20:18:25.12a3Z", "２０２６-11-21T20:18:25Z",
        ]
    )
    func nonCanonical(_ text: String) {
        #expect(WireJSON.parseCanonicalTimestamp(text) == nil)
        #expect(WireJSON.parseTimestamp(text) == WireJSON.parseTimestampWithFormatStyle(text))
    }

    @Test(
        "Rejects text that is not an RFC 3339 time",
        arguments: [
            "", "yesterday", "1795292305", "2026-11-21", "2026-11-21T20:18:25", "2026-11-21 20:18:25Z",
            "2026-11-21T21:18:25+01:00",  // the contract's times are UTC ("Z") only
            "2026-11-21T20:18:25.Z", "2026-11-21T20:18:25.1234567890Z",
        ]
    )
    func parseRejects(_ text: String) {
        #expect(WireJSON.parseTimestamp(text) == nil)
    }

    @Test("A date decoded from an invalid time string is a DecodingError")
    func decodeRejects() {
        let json = Data(#"{"id":"usr_1","username":"alice","created_at":"not a time"}"#.utf8)
        #expect(throws: DecodingError.self) { try WireJSON.makeDecoder().decode(User.self, from: json) }
    }

    @Test("Whole-millisecond timestamps survive text -> Date -> text for every millisecond value")
    func millisecondRoundTrip() {
        let mismatches = (0..<1000).compactMap { millisecond -> String? in
            let text = "2026-11-21T20:18:25.\(String(format: "%03d", millisecond))Z"
            guard let date = WireJSON.parseTimestamp(text) else { return "\(text) did not parse" }
            let again = WireJSON.formatTimestamp(date)
            return again == text ? nil : "\(text) -> \(again)"
        }
        #expect(mismatches.count == 0, "e.g. \(mismatches.prefix(3).joined(separator: ", "))")
    }

    @Test("A Date built from decimal milliseconds formats to those milliseconds")
    func decimalMilliseconds() {
        // 1795292305.123 is stored as 1795292305.12299990654: truncation would print .122.
        #expect(WireJSON.formatTimestamp(Date(timeIntervalSince1970: 1_795_292_305.123)) == "2026-11-21T20:18:25.123Z")
        #expect(WireJSON.formatTimestamp(Date(timeIntervalSince1970: 1_795_292_305.001)) == "2026-11-21T20:18:25.001Z")
    }

    // MARK: Bodies

    static let user = User(
        id: "usr_0123456789abcdef0123456789abcdef",
        username: "alice",
        createdAt: Date(timeIntervalSince1970: exampleSeconds - 86_400.5)
    )
    static let session = Session(
        id: "ses_0123456789abcdef0123456789abcdef",
        userID: user.id,
        createdAt: Date(timeIntervalSince1970: exampleSeconds),
        expiresAt: Date(timeIntervalSince1970: exampleSeconds + 3_600.125),
        authentication: .init(method: .biometric, registrationID: "reg_0123456789abcdef0123456789abcdef")
    )
    static let signIn = SignInResponse(
        sessionToken: "bat_" + Base64URL.encode([UInt8](repeating: 0xAB, count: 32)),
        session: session,
        user: user
    )

    static func object(_ data: Data) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test("SignInResponse round-trips through WireJSON")
    func signInRoundTrip() throws {
        let data = try WireJSON.makeEncoder().encode(Self.signIn)
        let decoded = try WireJSON.makeDecoder().decode(SignInResponse.self, from: data)
        #expect(decoded == Self.signIn)
    }

    @Test("SignInResponse uses the contract's snake_case keys")
    func signInKeys() throws {
        let data = try WireJSON.makeEncoder().encode(Self.signIn)
        let top = try Self.object(data)
        #expect(Set(top.keys) == ["session_token", "session", "user"])
        #expect(top["session_token"] as? String == Self.signIn.sessionToken)

        let session = try #require(top["session"] as? [String: Any])
        #expect(Set(session.keys) == ["id", "user_id", "created_at", "expires_at", "authentication", "authenticated_at", "factors"])
        #expect(session["authenticated_at"] as? String == "2026-11-21T20:18:25.000Z", "a new session's sign-in is its first authentication")
        #expect(session["factors"] as? [String] == ["biometric"], "a session proved the factor it signed in with")
        #expect(session["user_id"] as? String == Self.user.id)
        #expect(session["created_at"] as? String == "2026-11-21T20:18:25.000Z")
        #expect(session["expires_at"] as? String == "2026-11-21T21:18:25.125Z")
        let authentication = try #require(session["authentication"] as? [String: Any])
        #expect(authentication["method"] as? String == "biometric")
        #expect(authentication["registration_id"] as? String == "reg_0123456789abcdef0123456789abcdef")

        let user = try #require(top["user"] as? [String: Any])
        #expect(Set(user.keys) == ["id", "username", "created_at"])
        #expect(user["created_at"] as? String == "2026-11-20T20:18:24.500Z")

        let text = String(decoding: data, as: UTF8.self)
        for camel in ["sessionToken", "userID", "userId", "expiresAt", "createdAt", "registrationID"] {
            #expect(!text.contains(camel), "\(camel)")
        }
    }

    @Test("A contract-style SignInResponse with second-precision times decodes")
    func signInFromContractJSON() throws {
        let json = Data(
            """
            {"session_token":"bat_x","session":{"id":"ses_1","user_id":"usr_1","created_at":"2026-11-21T20:18:25Z",
            "expires_at":"2026-11-21T21:18:25.123Z","authentication":{"method":"password"},"authenticated_at":"2026-11-21T20:18:25Z"},
            "user":{"id":"usr_1","username":"alice","created_at":"2026-11-21T20:18:25.000Z"}}
            """.utf8
        )
        let response = try WireJSON.makeDecoder().decode(SignInResponse.self, from: json)
        #expect(response.sessionToken == "bat_x")
        #expect(response.session.userID == "usr_1")
        #expect(response.session.authentication.method == .password)
        #expect(response.session.authentication.registrationID == nil)
        #expect(response.session.createdAt == Date(timeIntervalSince1970: Self.exampleSeconds))
        #expect(abs(response.session.expiresAt.timeIntervalSince1970 - (Self.exampleSeconds + 3_600.123)) < 0.0005)
    }

    @Test("A non-biometric session omits authentication.registration_id")
    func passwordSessionOmitsRegistrationID() throws {
        var session = Self.session
        session.authentication = .init(method: .password)
        let object = try Self.object(WireJSON.makeEncoder().encode(session))
        let authentication = try #require(object["authentication"] as? [String: Any])
        #expect(Set(authentication.keys) == ["method"])
    }

    @Test("Registration.lastUsedAt == nil omits last_used_at; a value includes it")
    func registrationLastUsedAt() throws {
        var registration = Registration(
            id: "reg_0123456789abcdef0123456789abcdef",
            algorithm: .es256,
            label: "",
            status: .pending,
            createdAt: Date(timeIntervalSince1970: Self.exampleSeconds),
            lastUsedAt: nil
        )
        let withoutData = try WireJSON.makeEncoder().encode(registration)
        let without = try Self.object(withoutData)
        #expect(Set(without.keys) == ["id", "kind", "algorithm", "label", "status", "created_at"])
        #expect(without["kind"] as? String == "biometric")
        #expect(!String(decoding: withoutData, as: UTF8.self).contains("null"))
        #expect(without["algorithm"] as? String == "ES256")
        #expect(without["status"] as? String == "pending")
        #expect(without["label"] as? String == "")
        #expect(try WireJSON.makeDecoder().decode(Registration.self, from: withoutData) == registration)

        registration.lastUsedAt = Date(timeIntervalSince1970: Self.exampleSeconds + 60.25)
        registration.status = .active
        let withData = try WireJSON.makeEncoder().encode(registration)
        let with = try Self.object(withData)
        #expect(with["last_used_at"] as? String == "2026-11-21T20:19:25.250Z")
        #expect(try WireJSON.makeDecoder().decode(Registration.self, from: withData) == registration)
    }

    @Test("The encoder sorts keys and does not escape slashes")
    func encoderFormatting() throws {
        let data = try WireJSON.makeEncoder().encode(ErrorResponse(code: .invalidRequest, message: "a/b"))
        #expect(String(decoding: data, as: UTF8.self) == #"{"error":{"code":"invalid_request","message":"a/b"}}"#)
    }
}
