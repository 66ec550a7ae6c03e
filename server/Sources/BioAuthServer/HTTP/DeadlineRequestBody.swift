import BioAuthProtocol
import Foundation
import Hummingbird
import NIOCore

/// A request body that must arrive whole by a deadline.
///
/// The idle timeout closes a silent client, and a head trickled byte by byte never becomes an
/// HTTP part, so it looks silent too. A body trickled byte by byte does not: every byte is a
/// part. This wrapper refuses any part that arrives after the request's deadline and closes the
/// connection outright: answering `Connection: close` is not enough, because the server would
/// still drain the rest of the body, and the client could trickle that for ever. Real time, not
/// the server's clock: this is about the network.
struct DeadlineRequestBody: AsyncSequence, Sendable {
    typealias Element = ByteBuffer

    let base: RequestBody
    let deadline: ContinuousClock.Instant
    let timeout: Duration
    /// The connection the body arrives on, closed when the deadline passes.
    let channel: any Channel

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: RequestBody.AsyncIterator
        let deadline: ContinuousClock.Instant
        let timeout: Duration
        let channel: any Channel

        mutating func next() async throws -> ByteBuffer? {
            let part = try await base.next()
            if part != nil, ContinuousClock.now > deadline {
                channel.close(promise: nil)
                throw Rejection(.invalidRequest, "The body did not arrive within \(timeout.components.seconds) s.")
            }
            return part
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: base.makeAsyncIterator(), deadline: deadline, timeout: timeout, channel: channel)
    }
}
