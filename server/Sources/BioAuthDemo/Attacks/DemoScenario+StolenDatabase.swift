import BioAuthKit
import BioAuthTesting
import Foundation

/// Attack 5: a stolen copy of the server's database.
extension DemoScenario {
    /// Attack 5: the attacker copies the SQLite file and tries to sign in with what is in it.
    package func attackStolenDatabase() async throws -> DemoSection {
        let title = "A stolen copy of the database"
        guard let server = target.inProcess else {
            let reason = "needs the server's database file; the in-process demo copies its own (run without --server)"
            return .skippedAttack(number: 5, title: title, property: .stolenDatabaseUseless, because: reason)
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bioauth-stolen-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let rawFiles = [server.configuration.databasePath, server.configuration.databasePath + "-wal"].compactMap {
            FileManager.default.contents(atPath: $0)
        }
        let stolen = try await StolenDatabase.steal(from: server.configuration.databasePath, into: folder)

        // 1. Plaintext secrets anywhere in the bytes?
        let secrets = tap.issuedTokens.map { ("a session token", $0) } + [("the password", password), ("the PIN", pin)]
        let found = Set(secrets.filter { stolen.contains($0.1, in: rawFiles) }.map(\.0))

        // 2. Every token hash, in every plausible spelling, as a bearer token; last as a token
        //    would be spelled, with the session's id and the hash in place of the secret.
        var tokenStatuses: [Int] = []
        for session in stolen.sessions {
            let hash = session.tokenHash
            let hex = hash.map { String(format: "%02x", $0) }.joined()
            let idBytes = Data(
                stride(from: 4, to: session.id.count, by: 2).compactMap {
                    UInt8(session.id.dropFirst($0).prefix(2), radix: 16)
                }
            )
            for candidate in [hex, Base64URL.encode(hash), "bat_" + Base64URL.encode(hash), "bat_" + Base64URL.encode(idBytes + hash)] {
                tokenStatuses.append(try await http.call(.getCurrentSession, token: candidate).status)
            }
        }
        // 3. Every password hash as the password.
        var passwordStatuses: [Int] = []
        for account in stolen.accounts {
            passwordStatuses.append(
                try await http.call(
                    .signInWithPassword,
                    json: ["username": account.username, "password": account.passwordHash]
                ).status
            )
        }
        let wire = tap.drain()
        let tries = tokenStatuses + passwordStatuses
        let property = PropertyResult(
            .stolenDatabaseUseless,
            held: found.isEmpty && !tries.isEmpty && tries.allSatisfy { $0 == 401 },
            "\(stolen.sessions.count) token hashes × 4 spellings and \(stolen.accounts.count) password hash\(stolen.accounts.count == 1 ? "" : "es") tried: "
                + "\(tries.filter { $0 == 401 }.count)/\(tries.count) answered 401; plaintext secrets in the file: \(found.isEmpty ? "none" : found.sorted().joined(separator: ", "))"
        )
        var result = section(
            .attack,
            5,
            title,
            """
            The attacker gets a copy of the server's SQLite file (and its write-ahead log). \
            Sessions are stored as the SHA-256 of their token, passwords and PINs as bcrypt \
            hashes; no token, password or PIN is in it. A hash is not a credential: used as a \
            bearer token or as a password it is refused like any other guess, and reversing \
            bcrypt means guessing passwords at its deliberately slow rate.
            """,
            events: [
                "copied: \(stolen.files.map(\.lastPathComponent).joined(separator: ", ")) (\(rawFiles.map(\.count).reduce(0, +)) bytes)",
                "users: \(stolen.accounts.count), password hashes like \(stolen.accounts.first.map { Redaction.abbreviate($0.passwordHash) } ?? "-") (bcrypt)",
                "sessions: \(stolen.sessions.count), token hashes like \(stolen.sessions.first.map { Redaction.abbreviate($0.tokenHash) } ?? "-") (SHA-256)",
                "plaintext tokens, password or PIN found in the bytes: \(found.isEmpty ? "none" : found.sorted().joined(separator: ", "))",
                "each token hash as a bearer token (hex, base64url, bat_+base64url, bat_+base64url of session id and hash): \(tokenStatuses.count) tries, all \(Set(tokenStatuses).sorted())",
                "each password hash as the password: \(passwordStatuses.count) tries, all \(Set(passwordStatuses).sorted())",
            ],
            properties: [property]
        )
        result.wire = Array(wire.prefix(2)) + Array(wire.suffix(1))
        if wire.count > 3 { result.events.append("(\(wire.count) requests in all; the first two and the last are shown)") }
        return result
    }
}
