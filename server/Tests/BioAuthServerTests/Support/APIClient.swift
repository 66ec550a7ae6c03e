import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore

/// The test server's client: HummingbirdTesting's, on one keep-alive connection, recording every
/// `operationId status` it sees answered (``DocumentedStatusTests`` reads them).
struct APIClient: ContractClient {
    let client: TestClient
    /// Every `operationId status` this client has seen answered.
    let recorded = ObservedStatuses()

    var observed: ObservedStatuses? { recorded }

    func send(_ method: HTTPRequest.Method, _ path: String, headers: HTTPFields, body: Data?) async throws -> (HTTPResponse.Status, HTTPFields, Data)
    {
        var headers = headers
        headers[.connection] = "keep-alive"
        let response = try await client.execute(
            TestClient.Request(
                path,
                method: method,
                authority: "localhost",
                headers: headers,
                body: body.map { ByteBuffer(data: $0) }
            )
        )
        return (response.status, response.headers, Data(buffer: response.body ?? ByteBuffer()))
    }
}
