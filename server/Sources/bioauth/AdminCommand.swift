import ArgumentParser
import BioAuthProtocol
import BioAuthServer
import Foundation
import Logging

/// `bioauth admin`: a support desk's way in for a user who lost everything. Each subcommand acts
/// on the database directly (SQLite file or PostgreSQL URL) on exactly one account, named by its id
/// or its exact username and printed back with its id and creation time, and writes an audit event;
/// `list-keys` and `revoke-keys` act on device keys across every account, by their evidence's
/// verdict.
struct AdminCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "admin",
        abstract:
            "Account recovery for operators: end sessions, revoke device keys and passkeys, unlock factors, set a one-time password; list and revoke device keys by their evidence's verdict; the access-token signing keys; the bank backends' service credentials.",
        subcommands: [
            Recover.self, RevokeSessions.self, RevokeDevices.self, Unlock.self, ResetPassword.self, ListKeys.self, RevokeKeys.self,
            SigningKeysCommand.self, ServiceCredentialsCommand.self,
        ]
    )

    /// What every subcommand takes.
    struct Target: ParsableArguments {
        @Option(name: .customLong(ServerSetting.database.flag), help: ArgumentHelp("The server's database: " + ServerSetting.database.help))
        var database: String?

        @Option(
            name: .customLong(ServerSetting.passwordCost.flag),
            help: ArgumentHelp("For the one-time password: " + ServerSetting.passwordCost.help)
        )
        var passwordCost: Int?

        @Option(name: .customLong(ServerSetting.oneTimePasswordHours.flag), help: ArgumentHelp(ServerSetting.oneTimePasswordHours.help))
        var oneTimePasswordHours: Int?

        @Argument(help: "The account: its id (usr_…), or exactly its username (a look-alike is another account).")
        var user: String

        /// Opens the database, finds the account and prints it, runs `body` on it, closes the
        /// database; failures are one line.
        func run<T: Sendable>(_ body: (AccountAdministration, AccountAdministration.Account) async throws -> T) async throws -> T {
            let flags = [
                ServerSetting.database.flag: database, ServerSetting.passwordCost.flag: passwordCost.map(String.init),
                ServerSetting.oneTimePasswordHours.flag: oneTimePasswordHours.map(String.init),
            ].compactMapValues { $0 }
            return try await AdminCommand.withAdministration(flags: flags, settings: [.database, .passwordCost, .oneTimePasswordHours]) {
                administration in
                let account = try await administration.account(user)
                print("account \(account)")
                return try await body(administration, account)
            }
        }
    }

    /// Opens the database `flags` (and the environment) name, runs `body` on it, closes it;
    /// failures are one line.
    static func withAdministration<T: Sendable>(
        flags: [String: String],
        settings: [ServerSetting],
        _ body: (AccountAdministration) async throws -> T
    ) async throws -> T {
        try await withDatabase(flags: flags, settings: settings, open: AuthServer.administration, body)
    }

    /// Resolves the settings from `flags` and the environment, opens the database with `open`,
    /// runs `body` on what it opened and closes it; every failure is one line.
    static func withDatabase<Tool: OperatorDatabase, T: Sendable>(
        flags: [String: String],
        settings: [ServerSetting],
        open: (ServerConfiguration, Logger) async throws -> Tool,
        _ body: (Tool) async throws -> T
    ) async throws -> T {
        let configuration: ServerConfiguration
        do {
            configuration = try ServerConfiguration.resolve(flags: flags, environment: ProcessInfo.processInfo.environment, settings: settings)
        } catch {
            throw ValidationError(error.description)
        }
        var logger = Logger(label: "bioauth-admin")
        logger.logLevel = .warning
        let tool: Tool
        do {
            tool = try await open(configuration, logger)
        } catch {
            throw OperatorFailure.exit("cannot open \(configuration.databaseDescription): \(error)")
        }
        do {
            let result = try await body(tool)
            try await tool.close()
            return result
        } catch {
            try? await tool.close()
            throw OperatorFailure.exit("\(error)")
        }
    }

    /// What `list-keys` and `revoke-keys` take: the database and a verdict.
    struct KeySelection: ParsableArguments {
        @Option(name: .customLong(ServerSetting.database.flag), help: ArgumentHelp("The server's database: " + ServerSetting.database.help))
        var database: String?

        @Option(
            help: ArgumentHelp(
                "The verdict on the keys' hardware evidence: verified, absent (none sent, under prefer), refused (did not verify, under prefer), none (registered under none), or unverified (every one but verified)."
            )
        )
        var verdict: String

        /// The verdict as a filter.
        var filter: KeyVerdictFilter {
            get throws {
                guard let filter = KeyVerdictFilter(rawValue: verdict) else {
                    throw ValidationError("--verdict \(verdict): one of \(KeyVerdictFilter.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                return filter
            }
        }

        /// Runs `body` on the database with the filter.
        func run<T: Sendable>(_ body: (AccountAdministration, KeyVerdictFilter) async throws -> T) async throws -> T {
            let filter = try filter
            let flags = [ServerSetting.database.flag: database].compactMapValues { $0 }
            return try await AdminCommand.withAdministration(flags: flags, settings: [.database]) { try await body($0, filter) }
        }
    }

    struct ListKeys: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list-keys",
            abstract: "List the live device keys of every account whose hardware evidence got the verdict, one a line, oldest first."
        )
        @OptionGroup var selection: KeySelection

        func run() async throws {
            let keys = try await selection.run { try await $0.deviceKeys($1) }
            for key in keys { print(key) }
            print("\(keys.count) key(s)")
        }
    }

    struct RevokeKeys: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "revoke-keys",
            abstract:
                "Revoke the live device keys of every account whose hardware evidence got the verdict, and the sessions they signed in; each is printed and recorded in its account's activity."
        )
        @OptionGroup var selection: KeySelection

        func run() async throws {
            let keys = try await selection.run { try await $0.revokeDeviceKeys($1) }
            for key in keys { print("revoked \(key)") }
            print("revoked \(keys.count) key(s)")
        }
    }

    struct Recover: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Everything at once, in one transaction: end every session, revoke every device key and passkey, unlock the password and PIN, and set a one-time password (printed once)."
        )
        @OptionGroup var target: Target

        func run() async throws {
            let recovery = try await target.run { try await $0.recover($1) }
            let revoked = recovery.revoked
            print(
                "ended \(revoked.sessions) session(s); revoked \(revoked.biometricKeys) biometric key(s), \(revoked.pinKeys) PIN key(s), \(revoked.passkeys) passkey(s); unlocked password and PIN"
            )
            AdminCommand.printOneTimePassword(recovery.oneTimePassword, expiresAt: recovery.expiresAt)
        }
    }

    struct RevokeSessions: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "revoke-sessions", abstract: "End every session of the user.")
        @OptionGroup var target: Target

        func run() async throws {
            let count = try await target.run { try await $0.revokeSessions($1) }
            print("ended \(count) session(s)")
        }
    }

    struct RevokeDevices: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "revoke-devices",
            abstract: "Revoke every device key (biometric and PIN) and passkey of the user, and the sessions they signed in."
        )
        @OptionGroup var target: Target

        func run() async throws {
            let revoked = try await target.run { try await $0.revokeDevices($1) }
            print("revoked \(revoked.biometricKeys) biometric key(s), \(revoked.pinKeys) PIN key(s), \(revoked.passkeys) passkey(s)")
        }
    }

    struct Unlock: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Clear the lockouts of the user's password and PIN.")
        @OptionGroup var target: Target

        func run() async throws {
            try await target.run { try await $0.unlockFactors($1) }
            print("unlocked password and PIN")
        }
    }

    struct ResetPassword: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "reset-password",
            abstract: "End every session and set a one-time password (printed once) that signs in once and must be changed at that sign-in."
        )
        @OptionGroup var target: Target

        func run() async throws {
            let reset = try await target.run { try await $0.resetPassword($1) }
            print("ended \(reset.sessionsRevoked) session(s)")
            AdminCommand.printOneTimePassword(reset.password, expiresAt: reset.expiresAt)
        }
    }

    /// Prints a one-time password, once, with what the user must know of it.
    static func printOneTimePassword(_ password: String, expiresAt: Date) {
        print(
            "one-time password (give it to the user over a channel you verified; it signs in once, before \(WireJSON.formatTimestamp(expiresAt)), and must be changed then): \(password)"
        )
    }
}
