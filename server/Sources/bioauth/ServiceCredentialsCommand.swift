import ArgumentParser
import BioAuthServer

/// `bioauth admin service-credentials`: the credentials a bank's backend creates confirmations
/// with. Acts on the database directly (SQLite file or PostgreSQL URL).
struct ServiceCredentialsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "service-credentials",
        abstract: "The bank backends' credentials for confirmations: create one (its secret printed once), list them, revoke one.",
        subcommands: [Create.self, List.self, Revoke.self]
    )

    /// What every subcommand takes: the database.
    struct Target: ParsableArguments {
        @Option(name: .customLong(ServerSetting.database.flag), help: ArgumentHelp("The server's database: " + ServerSetting.database.help))
        var database: String?

        /// Opens the database, runs `body`, closes it; failures are one line.
        func run<T: Sendable>(_ body: (ServiceCredentialAdministration) async throws -> T) async throws -> T {
            try await AdminCommand.withDatabase(
                flags: [ServerSetting.database.flag: database].compactMapValues { $0 },
                settings: [.database],
                open: AuthServer.serviceCredentialAdministration,
                body
            )
        }
    }

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make a credential; its secret is printed once (only its SHA-256 is stored): give it to the backend now."
        )
        @OptionGroup var target: Target

        @Option(help: "What the credential is for, as you will recognise it in list (1 to 100 characters).")
        var name: String

        @Option(help: "Where its confirmations' outcomes are posted: an https URL (http only to localhost, 127.0.0.1 or ::1).")
        var webhookURL: String?

        func run() async throws {
            let (name, webhookURL) = (self.name, self.webhookURL)
            let made = try await target.run { try await $0.create(name: name, webhookURL: webhookURL) }
            print("created \(made.credential)")
            print("service credential (shown once; send it as Authorization: Bearer): \(made.secret)")
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Every credential, oldest first: id, name, webhook, times (never its secret).")
        @OptionGroup var target: Target

        func run() async throws {
            for credential in try await target.run({ try await $0.list() }) { print(credential) }
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Refuse the credential from now on.")
        @OptionGroup var target: Target

        @Argument(help: "The credential's id (svc_…, see list).")
        var id: String

        func run() async throws {
            let id = self.id
            print("revoked \(try await target.run { try await $0.revoke(id: id) })")
        }
    }
}
