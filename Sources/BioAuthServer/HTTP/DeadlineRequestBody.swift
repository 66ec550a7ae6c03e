import BioAuthProtocol
import Foundation
import Hummingbird

/// A request body that must arrive whole by a deadline.
///
/// The idle timeout closes a silent client, and a head trickled byte by byte never becomes an
/// HTTP part, so it looks silent too. A body trickled byte by byte does not: every byte is a
/// part. This wrapper refuses any part that arrives after the request's deadline, so such a
/// request ends with `400 invalid_request` and a closed connection at most one idle period after
/// the deadline. Real time, not the server's clock: this is about the network.
struct DeadlineRequestBody: AsyncSequence, Sendable {
    typealias Element = ByteBuffer

    let base: RequestBody
    let deadline: ContinuousClock.Instant
    let timeout: Duration

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: RequestBody.AsyncIterator
        let deadline: ContinuousClock.Instant
        let timeout: Duration

        mutating func next() async throws -> ByteBuffer? {
            let part = try await base.next()
            if part != nil, ContinuousClock.now > deadline {
                throw APIError(.invalidRequest, "The body did not arrive within \(timeout.components.seconds) s.", closeConnection: true)
            }
            return part
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: base.makeAsyncIterator(), deadline: deadline, timeout: timeout)
    }
}
