import AsyncHTTPClient
import Foundation
import Logging
import NIOCore

/// Events posted to service credentials' webhooks in the background, at least once while the
/// server runs: ``enqueue(_:)`` returns at once (an approval's answer never waits for a backend),
/// a bounded queue holds what is waiting, and each event is tried three times, 1 s and 5 s apart,
/// until the backend answers 2xx. Redirects are not followed. No log line holds an event's body
/// or the webhook's URL (which may carry the backend's own secret); lines name the confirmation.
/// What is queued when the server stops is not sent: `getConfirmation` is always the truth.
///
/// The backend drops an event whose `jti` it has seen (a retry, or the same outcome queued twice).
final class WebhookDelivery: Sendable {
    /// One POST: the URL and the compact JWS it carries (`Content-Type: application/jwt`).
    struct Post: Sendable, Equatable {
        /// The service credential's webhook URL.
        var url: String
        /// The event, a compact JWS.
        var body: String
    }

    /// What is queued: the confirmation it is about, and how to make its post when its turn
    /// comes (reading and signing happen then, off the request that caused it); `nil` when there
    /// is nothing to send.
    struct Event: Sendable {
        /// The confirmation, for the log.
        var confirmationID: String
        /// Makes the post.
        var prepare: @Sendable () async throws -> Post?
    }

    /// How events are sent.
    struct Schedule: Sendable {
        /// The pauses before the second and the third attempt.
        var retryDelays: [Duration] = [.seconds(1), .seconds(5)]
        /// How long one attempt may take, connecting included.
        var attemptTimeout: Duration = .seconds(10)
        /// Events waiting at most; one more is dropped (and logged).
        var capacity = 1000
        /// Events being sent at once.
        var concurrency = 16
    }

    private let continuation: AsyncStream<Event>.Continuation
    private let worker: Task<Void, Never>
    private let logger: Logger

    /// The process's one client for webhooks (its connections are pooled per backend; it lives as
    /// long as the process, so no server's life has to end it): redirects are not followed.
    private static let client: HTTPClient = {
        var configuration = HTTPClient.Configuration(redirectConfiguration: .disallow)
        configuration.timeout = .init(connect: .seconds(5), read: .seconds(10))
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }()

    /// Starts the sender.
    init(schedule: Schedule = Schedule(), logger: Logger) {
        let (events, continuation) = AsyncStream.makeStream(of: Event.self, bufferingPolicy: .bufferingOldest(schedule.capacity))
        let client = Self.client
        self.continuation = continuation
        self.logger = logger
        worker = Task {
            await withTaskGroup(of: Void.self) { group in
                var running = 0
                for await event in events {
                    if running == schedule.concurrency {
                        await group.next()
                        running -= 1
                    }
                    group.addTask { await Self.deliver(event, client: client, schedule: schedule, logger: logger) }
                    running += 1
                }
            }
        }
    }

    /// Queues `event`; when the queue is full it is dropped and logged.
    func enqueue(_ event: Event) {
        if case .dropped = continuation.yield(event) {
            logger.warning("webhook queue full: an event was not sent", metadata: ["confirmation_id": "\(event.confirmationID)"])
        }
    }

    /// Stops sending: what is queued or being retried is not sent.
    func shutdown() async {
        continuation.finish()
        worker.cancel()
        await worker.value
    }

    deinit {
        continuation.finish()
        worker.cancel()
    }

    /// Makes `event`'s post and sends it, up to three times.
    private static func deliver(_ event: Event, client: HTTPClient, schedule: Schedule, logger: Logger) async {
        var metadata: Logger.Metadata = ["confirmation_id": "\(event.confirmationID)"]
        let post: Post?
        do {
            post = try await event.prepare()
        } catch {
            logger.error("webhook event could not be made", metadata: metadata.merging(["error": "\(type(of: error))"]) { $1 })
            return
        }
        guard let post else { return }
        for attempt in 1...(schedule.retryDelays.count + 1) {
            if attempt > 1 {
                guard (try? await Task.sleep(for: schedule.retryDelays[attempt - 2])) != nil else { return }
            }
            metadata["attempt"] = "\(attempt)"
            switch await send(post, client: client, timeout: schedule.attemptTimeout) {
            case .success(let status) where (200..<300).contains(status):
                logger.info("webhook event delivered", metadata: metadata.merging(["status": "\(status)"]) { $1 })
                return
            case .success(let status):
                logger.warning("webhook answered an error", metadata: metadata.merging(["status": "\(status)"]) { $1 })
            case .failure(let error):
                logger.warning("webhook not reached", metadata: metadata.merging(["error": "\(error)"]) { $1 })
            }
        }
        logger.error("webhook event given up after \(schedule.retryDelays.count + 1) attempts", metadata: metadata)
    }

    /// Why an attempt did not reach the backend, without the URL.
    struct SendFailure: Error, CustomStringConvertible {
        var description: String
    }

    /// One attempt: the backend's status, or why there is none.
    private static func send(_ post: Post, client: HTTPClient, timeout: Duration) async -> Result<Int, SendFailure> {
        var request = HTTPClientRequest(url: post.url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/jwt")
        request.body = .bytes(ByteBuffer(string: post.body))
        do {
            let response = try await client.execute(request, timeout: .nanoseconds(Int64(timeout / .nanoseconds(1))))
            // The answer's body is read (up to 64 KiB) so the connection can be reused, and not kept.
            _ = try? await response.body.collect(upTo: 64 * 1024)
            return .success(Int(response.status.code))
        } catch let error as HTTPClientError {
            return .failure(SendFailure(description: "\(error)"))
        } catch {
            return .failure(SendFailure(description: "\(type(of: error))"))
        }
    }
}
