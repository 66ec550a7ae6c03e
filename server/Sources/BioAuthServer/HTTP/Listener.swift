import Foundation
import NIOCore
import ServiceLifecycle

/// The server's two listeners: the public API and the private metrics.
enum ListenerRole: Sendable {
    case api, metrics
}

/// One of the server's listeners as a service whose failure to bind says which one it was.
struct Listener<Application: Service>: Service {
    let role: ListenerRole
    let host: String
    let port: Int
    let application: Application

    func run() async throws {
        do {
            try await application.run()
        } catch let error as IOError where error.errnoCode == EADDRINUSE || error.errnoCode == EADDRNOTAVAIL {
            throw ListenerError(role: role, host: host, port: port, addressInUse: error.errnoCode == EADDRINUSE)
        }
    }
}

/// A listener that could not bind its address, in words that name it.
struct ListenerError: Error, CustomStringConvertible {
    let role: ListenerRole
    let host: String
    let port: Int
    let addressInUse: Bool

    var description: String {
        let what = role == .api ? "port \(port)" : "metrics port \(port) (--metrics-port)"
        return addressInUse ? "\(what) on \(host) is already in use" : "cannot listen on \(host) for \(what): no such address on this machine"
    }
}

/// Announces the two listeners once both are bound, so an instance never says it is listening
/// and then exits because its other port was taken.
actor ListenerAnnouncement {
    private var api: (host: String, port: Int)?
    private var metrics: (host: String, port: Int)?
    private let announceAPI: @Sendable (String, Int) async -> Void
    private let announceMetrics: @Sendable (String, Int) async -> Void

    init(api: @escaping @Sendable (String, Int) async -> Void, metrics: @escaping @Sendable (String, Int) async -> Void) {
        announceAPI = api
        announceMetrics = metrics
    }

    /// Records that `role`'s listener is bound; announces both when both are.
    func bound(_ role: ListenerRole, host: String, port: Int) async {
        switch role {
        case .api: api = (host, port)
        case .metrics: metrics = (host, port)
        }
        guard let api, let metrics else { return }
        await announceAPI(api.host, api.port)
        await announceMetrics(metrics.host, metrics.port)
    }
}
