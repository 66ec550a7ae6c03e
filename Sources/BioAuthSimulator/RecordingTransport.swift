import BioAuthKit
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A network tap: forwards requests, remembers them, and lets an attacker replay any of them.
public final class RecordingTransport: HTTPTransport, @unchecked Sendable {
    private let next: any HTTPTransport
    private let recorded = Locked<[URLRequest]>([])

    /// Records what goes through `next`.
    public init(_ next: any HTTPTransport = URLSessionTransport()) {
        self.next = next
    }

    /// Forwards and records.
    public func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        recorded.withLock { $0.append(request) }
        return try await next.send(request)
    }

    /// Every request sent so far, in order.
    public var requests: [URLRequest] { recorded.withLock { $0 } }

    /// The last request whose path ends with `suffix`.
    public func lastRequest(pathSuffix suffix: String) -> URLRequest? {
        requests.last { $0.url?.path.hasSuffix(suffix) == true }
    }

    /// Sends a recorded request again, byte for byte (not recorded).
    public func replay(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        try await next.send(request)
    }
}
