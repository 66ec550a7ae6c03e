import BioAuthProtocol
import Foundation

/// How failed attempts at a secret factor (the password, a PIN) lock it: the one statement of the
/// policy. ``FactorFailureTable`` stores what it decides; nothing else decides.
///
/// Failures count until a success of the same factor, never forgotten because time passed:
/// every ``threshold`` consecutive failures lock the factor, each lock in a row twice as long as
/// the one before (from ``firstLock`` up to ``longestLock``). The PIN's ``pinMaxLockouts``-th lock
/// in a row holds until a password sign-in; the password's ``passwordMaxFailures``-th consecutive
/// failure locks it until an operator unlocks it or recovers the account (NIST SP 800-63B §5.2.2
/// allows at most 100). So a PIN gets at most `threshold × pinMaxLockouts` guesses before only the
/// password helps, however slowly they come, and a password at most `passwordMaxFailures`.
///
/// Every attempt reserves its slot before the secret is checked (``reserve(_:)``), so however
/// many attempts race, no more secrets are checked than the policy allows.
struct LockoutPolicy: Sendable {
    /// Consecutive failures that lock the factor (each time).
    var threshold = 5
    /// How long the first lock in a row lasts.
    var firstLock: Duration = .seconds(15 * 60)
    /// The longest a timed lock lasts.
    var longestLock: Duration = .seconds(24 * 60 * 60)
    /// Consecutive password failures after which the password stays locked until an operator acts.
    var passwordMaxFailures = 100
    /// PIN locks in a row after which only a password sign-in unlocks the PIN.
    var pinMaxLockouts = 3

    /// The factors it guards.
    enum Factor: String, Sendable {
        case password, pin
    }

    /// `locked_until` of a lock no time lifts (a PIN's until a password sign-in, a password's until
    /// an operator acts).
    static let untilCleared = Int64.max

    /// A factor's counter as a reservation left it.
    struct Counter: Sendable, Equatable {
        /// Consecutive failures since the last success, this attempt included when it was counted.
        var failures: Int
        /// Locks since the last success.
        var lockouts: Int
        /// The end of the current or last lock (milliseconds since 1970), if any.
        var lockedUntil: Int64?
        /// The database's now, as the reservation saw it.
        var now: Int64
    }

    /// One attempt at a factor, reserved: its number among the consecutive failures, and the locks
    /// before it.
    struct Attempt: Sendable, Equatable {
        var factor: Factor
        var usernameKey: String
        var number: Int
        var lockouts: Int
    }

    /// The verdict on a reservation.
    enum Verdict: Sendable, Equatable {
        /// Check the secret.
        case attempt(Attempt)
        /// Locked for so many more seconds.
        case locked(retryAfterSeconds: Int)
        /// The PIN is locked until a password sign-in.
        case lockedUntilPasswordSignIn
        /// The password is locked until an operator unlocks it.
        case lockedUntilUnlocked
    }

    /// What a failed attempt does to its factor.
    enum Lock: Sendable, Equatable {
        /// Lock for this many milliseconds from now (the database's now).
        case forMilliseconds(Int64)
        /// Lock until a success clears it (``untilCleared``).
        case untilCleared
    }

    /// The verdict on the counter a reservation of `factor` for `usernameKey` returned.
    func verdict(on counter: Counter, factor: Factor, usernameKey: String) -> Verdict {
        if let lockedUntil = counter.lockedUntil, lockedUntil > counter.now {
            if lockedUntil == Self.untilCleared { return factor == .pin ? .lockedUntilPasswordSignIn : .lockedUntilUnlocked }
            return .locked(retryAfterSeconds: Int((lockedUntil - counter.now + 999) / 1000))
        }
        if factor == .password, counter.failures > passwordMaxFailures { return .lockedUntilUnlocked }
        guard counter.failures <= (counter.lockouts + 1) * threshold else {
            // Attempts still being checked hold every slot before the next lock; their outcome decides it.
            return .locked(retryAfterSeconds: Int(lockMilliseconds(number: counter.lockouts + 1) / 1000))
        }
        return .attempt(Attempt(factor: factor, usernameKey: usernameKey, number: counter.failures, lockouts: counter.lockouts))
    }

    /// The lock `attempt`'s failure sets, if any: the last slot before a lock locks, the PIN's
    /// ``pinMaxLockouts``-th lock and the password's ``passwordMaxFailures``-th failure for good.
    func lock(after attempt: Attempt) -> Lock? {
        if attempt.factor == .password, attempt.number >= passwordMaxFailures { return .untilCleared }
        guard attempt.number == (attempt.lockouts + 1) * threshold else { return nil }
        let number = attempt.lockouts + 1
        if attempt.factor == .pin, number >= pinMaxLockouts { return .untilCleared }
        return .forMilliseconds(lockMilliseconds(number: number))
    }

    /// How long lock number `number` in a row lasts: ``firstLock`` doubled for each lock before it,
    /// at most ``longestLock``.
    func lockMilliseconds(number: Int) -> Int64 {
        let first = Int64(firstLock.components.seconds) * 1000
        let longest = Int64(longestLock.components.seconds) * 1000
        let doublings = min(max(0, number - 1), 40)
        return min(longest, first.multipliedReportingOverflow(by: 1 << doublings).overflow ? longest : first << doublings)
    }

    /// What a credential change renews, as far as the failure counters go.
    enum Renewal: Sendable {
        /// A new password: the failures were against the old one.
        case password
        /// A new PIN.
        case pin
        /// An operator's unlock.
        case unlock
        /// A new account: failures guessed at its username before it existed do not pass to it.
        case newAccount
    }

    /// The counters a credential change that renews `renewal` clears.
    static func cleared(byRenewalOf renewal: Renewal) -> [Factor] {
        switch renewal {
        case .password: [.password]
        case .pin: [.pin]
        case .unlock, .newAccount: [.password, .pin]
        }
    }

    /// The counters a success of `factor` clears: a password sign-in also unlocks the PIN.
    static func cleared(bySuccessOf factor: AuthenticationMethod) -> [Factor] {
        switch factor {
        case .password: [.password, .pin]
        case .pin: [.pin]
        default: []
        }
    }
}
