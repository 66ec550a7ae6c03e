import BioAuthKit
import BioAuthSimulator
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A server newer than the app may answer with an error code the app has never seen: it still
/// reaches the app as the server's refusal, with its code and status, not as a transport failure.
@Suite("An error code the SDK does not know")
struct UnknownServerCodeTests {
    /// A server that refuses everything with a code from a later version of the contract.
    struct FutureServer: HTTPTransport {
        func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
            let body = Data(#"{"error":{"code":"a_code_from_the_future","message":"Not yet."}}"#.utf8)
            return (body, HTTPURLResponse(url: request.url!, statusCode: 409, httpVersion: "HTTP/1.1", headerFields: nil)!)
        }
    }

    @Test("an unknown error code reaches the app as a server error carrying that code and the status")
    func unknownCodeIsAServerError() async throws {
        let client = BioAuthClient(
            configuration: BioAuthConfiguration(serverURL: URL(string: "https://auth.bank.example")!, relyingPartyID: "bank.example"),
            device: SimulatedDevice().backends,
            transport: FutureServer()
        )
        do {
            _ = try await client.signIn(username: "alice", password: "correct horse")
            Issue.record("the sign-in succeeded")
        } catch {
            #expect(error.code == .server, "\(error)")
            #expect(error.serverCode?.rawValue == "a_code_from_the_future")
            #expect(error.serverCode?.isKnown == false)
            #expect(error.description.contains("409 a_code_from_the_future"))
        }
    }
}
