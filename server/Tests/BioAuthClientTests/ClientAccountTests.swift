import BioAuthKit
import BioAuthSimulator
import BioAuthTesting
import Foundation
import Synchronization
import Testing

/// The account layer from the app's side: step-up handled by the SDK, the PIN bound to this
/// device, password change, sign-out everywhere, and no session left behind.
@Suite("Client: step-up, device-bound PIN, password change, session hygiene")
struct ClientAccountTests {
    /// Counts how often the app was asked for the password.
    final class PasswordPrompt: Sendable {
        private let asked = Mutex(0)
        var count: Int { asked.withLock { $0 } }
        func answer(_ password: String?) -> @Sendable () async -> String? {
            { [self] in
                asked.withLock { $0 += 1 }
                return password
            }
        }
    }

    private static func withServer<T: Sendable>(_ body: @Sendable (LoopbackServer, ServerClock) async throws -> T) async throws -> T {
        try await LoopbackServer.run { server in try await body(server, server.clock) }
    }

    private static func isLive(_ token: String, on server: LoopbackServer) async throws -> Bool {
        try await server.raw(.getCurrentSession, token: token).1.statusCode == 200
    }

    @Test("turning biometric sign-in on again from a biometric session keeps the user signed in, with no extra prompt while fresh")
    func reEnableFromBiometricSession() async throws {
        try await Self.withServer { server, _ in
            let account = try await Account.signedIn(on: server)
            let first = try await account.enableBiometricsAndSignOut()
            account.device.willAnswer(.present("owner"))
            try await account.client.signInWithBiometrics(prompt: "Sign in")
            let token = try #require(await account.client.sessionToken)

            let prompts = account.device.promptCount
            account.device.willAnswer(.present("owner"))
            let second = try await account.client.enableBiometricSignIn(label: "again", prompt: "Turn on Face ID")
            #expect(account.device.promptCount == prompts + 1, "fresh session: only the new key's signature")
            #expect(try await Self.isLive(token, on: server), "the session the old key signed in survives")
            let registrations = try await server.registrations(token: token)
            #expect(registrations.map(\.id) == [second.id])
            #expect(!registrations.contains { $0.id == first.id })
            try await account.client.signOut()
            account.device.willAnswer(.present("owner"))
            let signedIn = try await account.client.signInWithBiometrics(prompt: "Sign in")
            #expect(signedIn.session.authentication.registrationID == second.id)
        }
    }

    @Test("past the step-up window, enabling biometrics re-authenticates with the previous key (one prompt) and retries")
    func staleSessionReauthenticatesWithBiometrics() async throws {
        try await Self.withServer { server, clock in
            let account = try await Account.signedIn(on: server)
            _ = try await account.enableBiometricsAndSignOut()
            account.device.willAnswer(.present("owner"))
            try await account.client.signInWithBiometrics(prompt: "Sign in")
            clock.advance(seconds: 10 * 60)
            let prompts = account.device.promptCount
            account.device.willAnswer(.present("owner"), .present("owner"))
            _ = try await account.client.enableBiometricSignIn(prompt: "Turn on Face ID")
            #expect(account.device.promptCount == prompts + 2, "re-authentication, then the new key")
            #expect(await account.client.session?.authenticatedAt ?? .distantPast > clock.now.addingTimeInterval(-1))
        }
    }

    @Test("a fresh session sets a PIN without asking for the password; a stale one asks once and retries")
    func setPINStepUp() async throws {
        try await Self.withServer { server, clock in
            let account = try await Account.signedIn(on: server)
            let prompt = PasswordPrompt()
            try await account.client.setPIN("4921", keepBehindBiometrics: false, reauthentication: .password(prompt.answer(Account.password)))
            #expect(prompt.count == 0)
            clock.advance(seconds: 6 * 60)
            try await account.client.setPIN("3917", keepBehindBiometrics: false, reauthentication: .password(prompt.answer(Account.password)))
            #expect(prompt.count == 1)
            try await account.client.signOut()
            #expect(try await account.client.signInWithPIN("3917").session.authentication.method == .pin)
            await #expect(throws: BioAuthError.self) { try await account.client.signInWithPIN("4921") }
        }
    }

    @Test("without a way to re-authenticate, a stale session's credential change is reauthentication_required and changes nothing")
    func noReauthenticationGiven() async throws {
        try await Self.withServer { server, clock in
            let account = try await Account.signedIn(on: server)
            clock.advance(seconds: 6 * 60)
            let error = await caught { try await account.client.setPIN("4921") }
            #expect(error?.serverCode == .reauthenticationRequired)
            #expect(await account.client.isPINSet == false)
            let declined = await caught {
                try await account.client.changePassword(
                    current: Account.password,
                    new: "new password 99",
                    reauthentication: .password(PasswordPrompt().answer(nil))
                )
            }
            #expect(declined == .userCanceled)
        }
    }

    @Test("the PIN works only on the device that set it; setting it on another device moves it there")
    func pinBoundToDevice() async throws {
        try await Self.withServer { server, _ in
            let phone = try await Account.signedIn(on: server)
            try await phone.client.setPIN("4921", keepBehindBiometrics: false)
            let tablet = SimulatedDevice()
            let tabletClient = server.client(on: tablet)
            try await tabletClient.signIn(username: phone.username, password: Account.password)
            try await tabletClient.signOut()
            await #expect(throws: BioAuthError.itemNotFound) { try await tabletClient.signInWithPIN("4921") }

            try await tabletClient.signIn(username: phone.username, password: Account.password)
            try await tabletClient.setPIN("3917", keepBehindBiometrics: false)
            try await phone.client.signOut()
            await #expect(throws: BioAuthError.itemNotFound) { try await phone.client.signInWithPIN("3917") }
            #expect(await phone.client.isPINSet == false, "the phone forgot its replaced PIN key")
            try await tabletClient.signOut()
            #expect(try await tabletClient.signInWithPIN("3917").session.authentication.method == .pin)
        }
    }

    @Test("a new sign-in ends the session it replaces")
    func newSignInEndsTheOldSession() async throws {
        try await Self.withServer { server, _ in
            let account = try await Account.signedIn(on: server)
            let first = try #require(await account.client.sessionToken)
            try await account.client.signIn(username: account.username, password: Account.password)
            let second = try #require(await account.client.sessionToken)
            #expect(first != second)
            #expect(try await Self.isLive(first, on: server) == false)
            #expect(try await Self.isLive(second, on: server))
        }
    }

    @Test("changing the password ends the other devices' sessions; signing out everywhere else does too")
    func passwordChangeAndSignOutElsewhere() async throws {
        try await Self.withServer { server, _ in
            let phone = try await Account.signedIn(on: server)
            let tabletClient = server.client(on: SimulatedDevice())
            try await tabletClient.signIn(username: phone.username, password: Account.password)
            let tabletToken = try #require(await tabletClient.sessionToken)
            try await phone.client.changePassword(current: Account.password, new: "a brand new password")
            #expect(try await Self.isLive(tabletToken, on: server) == false)
            #expect(try await Self.isLive(try #require(await phone.client.sessionToken), on: server))

            try await tabletClient.signIn(username: phone.username, password: "a brand new password")
            let again = try #require(await tabletClient.sessionToken)
            try await phone.client.signOutEverywhereElse()
            #expect(try await Self.isLive(again, on: server) == false)
            #expect(try await Self.isLive(try #require(await phone.client.sessionToken), on: server))
        }
    }

    @Test("an invalidated key's sessions end on the server when the client revokes its registration")
    func lostKeyEndsItsSessions() async throws {
        try await Self.withServer { server, _ in
            let account = try await Account.signedIn(on: server)
            _ = try await account.enableBiometricsAndSignOut()
            account.device.willAnswer(.present("owner"))
            try await account.client.signInWithBiometrics(prompt: "Sign in")
            let biometricToken = try #require(await account.client.sessionToken)

            // The app is relaunched (nothing in memory), and a face is added.
            let relaunched = server.client(on: account.device)
            account.device.enroll("someone else")
            await #expect(throws: BioAuthError.biometryChanged) { try await relaunched.signInWithBiometrics(prompt: "Sign in") }
            let signedIn = try await relaunched.signIn(username: account.username, password: Account.password)
            #expect(signedIn.reconciliation != nil)
            #expect(try await Self.isLive(biometricToken, on: server) == false, "the stale key's session ended with its registration")
        }
    }
}
