import Foundation
import Hummingbird
import ServiceLifecycle
import Synchronization

/// A bank's backend in the test: a Hummingbird server on loopback that records every POST to
/// `/hook` and answers the statuses it is told, one per request (then 200).
final class WebhookReceiver: Sendable {
    /// One request as it arrived.
    struct Received: Sendable {
        var contentType: String?
        var body: String
        var at: ContinuousClock.Instant
    }

    private struct State {
        var received: [Received] = []
        var answers: [Int]
        var held = false
        var release: [CheckedContinuation<Void, Never>] = []
        var url = ""
    }

    private let state: Mutex<State>

    private init(answers: [Int]) { state = Mutex(State(answers: answers)) }

    /// Runs `body` with a receiver answering `answers` in turn (then 200), and stops it.
    static func run<T: Sendable>(answering answers: [Int] = [], _ body: @Sendable (WebhookReceiver) async throws -> T) async throws -> T {
        let receiver = WebhookReceiver(answers: answers)
        let router = Router()
        router.post("/hook") { request, _ -> Response in
            let bytes = try await request.body.collect(upTo: 1 << 20)
            await receiver.record(Received(contentType: request.headers[.contentType], body: String(buffer: bytes), at: .now))
            return Response(status: .init(code: receiver.nextAnswer()))
        }
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let application = Application(
            router: router,
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in continuation.yield(channel.localAddress?.port ?? 0) }
        )
        let group = ServiceGroup(configuration: .init(services: [application], logger: application.logger))
        let task = Task { try await group.run() }
        defer { continuation.finish() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else { throw CancellationError() }
        receiver.state.withLock { $0.url = "http://127.0.0.1:\(port)/hook" }
        do {
            let result = try await body(receiver)
            receiver.open()
            await group.triggerGracefulShutdown()
            _ = try? await task.value
            return result
        } catch {
            receiver.open()
            await group.triggerGracefulShutdown()
            _ = try? await task.value
            throw error
        }
    }

    /// `http://127.0.0.1:<port>/hook`.
    var url: String { state.withLock { $0.url } }

    /// The requests so far.
    var received: [Received] { state.withLock { $0.received } }

    /// Makes requests wait, unanswered, until ``open()``.
    func hold() { state.withLock { $0.held = true } }

    /// Answers the waiting requests and stops holding new ones.
    func open() {
        let waiting = state.withLock { state in
            state.held = false
            defer { state.release = [] }
            return state.release
        }
        for continuation in waiting { continuation.resume() }
    }

    /// Waits until `count` requests have arrived (at most `seconds`), and returns them.
    func waitFor(_ count: Int, seconds: Double = 15) async throws -> [Received] {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while received.count < count && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        return received
    }

    private func record(_ request: Received) async {
        let held = state.withLock { state in
            state.received.append(request)
            return state.held
        }
        guard held else { return }
        await withCheckedContinuation { continuation in
            let stillHeld = state.withLock { state in
                if state.held { state.release.append(continuation) }
                return state.held
            }
            if !stillHeld { continuation.resume() }
        }
    }

    private func nextAnswer() -> Int {
        state.withLock { state in state.answers.isEmpty ? 200 : state.answers.removeFirst() }
    }
}
