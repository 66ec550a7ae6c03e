import BioAuthTesting
import Foundation

/// The server the demo's phone talks to.
package struct DemoTarget: Sendable {
    /// Its base URL.
    package var baseURL: URL
    /// The relying-party id it signs challenges for.
    package var relyingPartyID: String
    /// The in-process server, when the demo started one (the attacks that need its clock or its
    /// database file run only then).
    package var inProcess: LoopbackServer?

    /// A server started by the demo.
    package static func inProcess(_ server: LoopbackServer) -> DemoTarget {
        DemoTarget(baseURL: server.baseURL, relyingPartyID: LoopbackServer.demoRelyingPartyID, inProcess: server)
    }

    /// A server already running elsewhere (`--server URL`).
    package static func remote(_ baseURL: URL, relyingPartyID: String) -> DemoTarget {
        DemoTarget(baseURL: baseURL, relyingPartyID: relyingPartyID, inProcess: nil)
    }
}
