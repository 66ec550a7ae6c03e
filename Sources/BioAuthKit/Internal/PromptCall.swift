import Foundation

/// Runs a keychain or Secure Enclave call that may show a prompt.
///
/// - Off Swift's cooperative pool: the call blocks its thread until the user answers, and a
///   cooperative thread blocked that long starves the app's other tasks (the pool has one thread
///   per core). It runs on a thread of its own: prompts come at a person's pace, and a dispatch
///   queue's pool is as narrow as the cores where it cannot grow at once (libdispatch on Linux
///   added a thread only after a second).
/// - Cancellable: cancelling the calling task invalidates the prompt's context, which
///   "terminates any existing policy evaluation and the respective call will fail with
///   LAErrorAppCancel" (LAContext.h, `invalidate`), and the call answers `canceled` at once,
///   whatever the platform answers later.
enum PromptCall {
    static func run<T: Sendable>(
        invalidating context: any AuthenticationContext,
        canceled: T,
        _ call: @escaping @Sendable () -> T
    ) async -> T {
        guard !Task.isCancelled else { return canceled }
        let answer = OneAnswer<T>()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                answer.wait(continuation)
                let thread = Thread { answer.give(call()) }
                thread.qualityOfService = .userInitiated
                thread.start()
            }
        } onCancel: {
            context.invalidate()
            answer.give(canceled)
        }
    }
}

/// The first of several answers, handed to one waiting continuation whichever comes first.
private final class OneAnswer<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<T, Never>?
    private var early: T?
    private var answered = false

    func wait(_ waiting: CheckedContinuation<T, Never>) {
        lock.lock()
        if let early {
            lock.unlock()
            waiting.resume(returning: early)
            return
        }
        continuation = waiting
        lock.unlock()
    }

    func give(_ value: T) {
        lock.lock()
        guard !answered else {
            lock.unlock()
            return
        }
        answered = true
        guard let waiting = continuation else {
            early = value
            lock.unlock()
            return
        }
        continuation = nil
        lock.unlock()
        waiting.resume(returning: value)
    }
}
