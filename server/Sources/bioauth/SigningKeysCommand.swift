import ArgumentParser
import BioAuthProtocol
import BioAuthServer
import Foundation
import Logging

/// `bioauth admin signing-keys`: the access-token signing keys every instance shares. Acts on the
/// database directly (SQLite file or PostgreSQL URL); instances serve a change within a minute.
struct SigningKeysCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "signing-keys",
        abstract: "The access-token signing keys: list them, rotate to a new one, retire one.",
        subcommands: [List.self, Rotate.self, Retire.self]
    )

    /// What every subcommand takes: the database and the file that seals the keys.
    struct Target: ParsableArguments {
        @Option(name: .customLong(ServerSetting.database.flag), help: ArgumentHelp("The server's database: " + ServerSetting.database.help))
        var database: String?

        @Option(name: .customLong(ServerSetting.pinKeyFile.flag), help: ArgumentHelp(ServerSetting.pinKeyFile.help))
        var pinKeyFile: String?

        @Option(name: .customLong(ServerSetting.signingKeyFile.flag), help: ArgumentHelp(ServerSetting.signingKeyFile.help))
        var signingKeyFile: String?

        @Option(name: .customLong(ServerSetting.accessTokenAlgorithm.flag), help: ArgumentHelp(ServerSetting.accessTokenAlgorithm.help))
        var algorithm: String?

        /// Opens the database, runs `body`, closes it; failures are one line.
        func run<T: Sendable>(_ body: (SigningKeyAdministration) async throws -> T) async throws -> T {
            let flags = [
                ServerSetting.database.flag: database, ServerSetting.pinKeyFile.flag: pinKeyFile,
                ServerSetting.signingKeyFile.flag: signingKeyFile, ServerSetting.accessTokenAlgorithm.flag: algorithm,
            ].compactMapValues { $0 }
            return try await AdminCommand.withDatabase(
                flags: flags,
                settings: [.database, .pinKeyFile, .signingKeyFile, .accessTokenAlgorithm],
                open: AuthServer.signingKeyAdministration,
                body
            )
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Every stored key, oldest first: kid, algorithm, state (next, signing, draining, expired) and its times."
        )
        @OptionGroup var target: Target

        func run() async throws {
            for key in try await target.run({ try await $0.list() }) { print(key) }
        }
    }

    struct Rotate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Store the next key: in the key set at once, signing once every cached key set holds it (6 minutes)."
        )
        @OptionGroup var target: Target

        func run() async throws {
            if let key = try await target.run({ try await $0.rotate() }) {
                print("stored \(key)")
            } else {
                print("a next key is already stored and waiting; nothing done (see list)")
            }
        }
    }

    struct Retire: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Stop signing with a key now; it leaves the key set once every token it signed has expired (1 hour). A retired signing key is replaced at once."
        )
        @OptionGroup var target: Target

        @Argument(help: "The key's kid (see list).")
        var kid: String

        func run() async throws {
            let kid = self.kid
            let result = try await target.run { try await $0.retire(kid: kid) }
            guard result.retired else { throw OperatorFailure.exit("no key \(kid) that is not retired already") }
            print("retired \(kid)" + (result.replacement.map { "; \($0) signs from now on" } ?? ""))
        }
    }
}
