import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends one HTTP request; ``URLSessionTransport`` in apps, a recording wrapper in tests.
public protocol HTTPTransport: Sendable {
    /// Sends `request` and returns the body and response, or throws when no answer came.
    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse)
}
