import ArgumentParser
import BioAuthServer
import Foundation
import Logging

/// `bioauth admin`: a support desk's way in for a user who lost everything. Each subcommand acts
/// on the database directly (SQLite file or PostgreSQL URL) and writes an audit event.
struct AdminCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "admin",
        abstract: "Account recovery for operators: end sessions, revoke device keys, unlock factors, set a one-time password.",
        subcommands: [Recover.self, RevokeSessions.self, RevokeDevices.self, Unlock.self, ResetPassword.self]
    )

    /// What every subcommand takes.
    struct Target: ParsableArguments {
        @Option(name: .customLong(ServerSetting.database.flag), help: ArgumentHelp("The server's database: " + ServerSetting.database.help))
        var database: String?

        @Option(name: .customLong(ServerSetting.passwordCost.flag), help: ArgumentHelp("For the one-time password: " + ServerSetting.passwordCost.help))
        var passwordCost: Int?

        @Argument(help: "The user's username.")
        var username: String

        /// Opens the database, runs `body` on it, closes it; failures are one line.
        func run<T: Sendable>(_ body: (AccountAdministration) async throws -> T) async throws -> T {
            let flags = [ServerSetting.database.flag: database, ServerSetting.passwordCost.flag: passwordCost.map(String.init)].compactMapValues { $0 }
            let configuration: ServerConfiguration
            do {
                configuration = try ServerConfiguration.resolve(flags: flags, environment: ProcessInfo.processInfo.environment,
                                                                settings: [.database, .passwordCost])
            } catch {
                throw ValidationError(error.description)
            }
            var logger = Logger(label: "bioauth-admin")
            logger.logLevel = .warning
            let administration: AccountAdministration
            do {
                administration = try await AuthServer.administration(configuration: configuration, logger: logger)
            } catch {
                throw ValidationFailure("cannot open \(configuration.databaseDescription): \(error)")
            }
            do {
                let result = try await body(administration)
                try await administration.close()
                return result
            } catch {
                try? await administration.close()
                throw ValidationFailure("\(error)")
            }
        }
    }

    struct Recover: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Everything at once: end every session, revoke every device key, unlock the password and PIN, and set a one-time password (printed once).")
        @OptionGroup var target: Target

        func run() async throws {
            let recovery = try await target.run { try await $0.recover(username: target.username) }
            print("ended \(recovery.sessionsRevoked) session(s), revoked \(recovery.registrationsRevoked) device key(s), unlocked password and PIN")
            print("one-time password (give it to the user; it must be changed at the next sign-in): \(recovery.oneTimePassword)")
        }
    }

    struct RevokeSessions: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "revoke-sessions", abstract: "End every session of the user.")
        @OptionGroup var target: Target

        func run() async throws {
            let count = try await target.run { try await $0.revokeSessions(username: target.username) }
            print("ended \(count) session(s)")
        }
    }

    struct RevokeDevices: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "revoke-devices", abstract: "Revoke every device key (biometric and PIN) of the user, and the sessions they signed in.")
        @OptionGroup var target: Target

        func run() async throws {
            let count = try await target.run { try await $0.revokeRegistrations(username: target.username) }
            print("revoked \(count) device key(s)")
        }
    }

    struct Unlock: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Clear the lockouts of the user's password and PIN.")
        @OptionGroup var target: Target

        func run() async throws {
            try await target.run { try await $0.unlockFactors(username: target.username) }
            print("unlocked password and PIN")
        }
    }

    struct ResetPassword: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "reset-password", abstract: "Set a one-time password (printed once) that must be changed at the next sign-in.")
        @OptionGroup var target: Target

        func run() async throws {
            let password = try await target.run { try await $0.resetPassword(username: target.username) }
            print("one-time password (give it to the user; it must be changed at the next sign-in): \(password)")
        }
    }
}
