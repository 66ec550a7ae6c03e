import Foundation

/// The user's answers to prompts that stayed up after the app closed their context
/// (``SimulatedDevice/answerPromptLeftUp(_:)``), handed to the blocked calls in order.
final class LateAnswers: @unchecked Sendable {
    private let answers = Locked<[ScriptedAnswer]>([])
    private let given = DispatchSemaphore(value: 0)

    func give(_ answer: ScriptedAnswer) {
        answers.withLock { $0.append(answer) }
        given.signal()
    }

    /// The next answer, waiting for it for `limit` at most.
    func next(within limit: DispatchTimeInterval) -> ScriptedAnswer? {
        guard given.wait(timeout: .now() + limit) == .success else { return nil }
        return answers.withLock { $0.isEmpty ? nil : $0.removeFirst() }
    }
}
