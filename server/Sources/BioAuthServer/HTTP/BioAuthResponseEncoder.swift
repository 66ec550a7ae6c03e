import BioAuthProtocol
import Hummingbird
import NIOCore

/// Writes a handler's value as the contract's JSON (``WireJSON``). No answer of the API may be
/// kept by a cache: some carry a session token or a CSRF token, and all describe an account.
struct BioAuthResponseEncoder: ResponseEncoder {
    /// The headers of every JSON answer.
    static let headers: HTTPFields = [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"]

    func encode(_ value: some Encodable, from request: Request, context: some RequestContext) throws -> Response {
        Response(status: .ok, headers: Self.headers, body: .init(byteBuffer: ByteBuffer(bytes: try WireJSON.makeEncoder().encode(value))))
    }
}

/// A JSON answer written by hand (``HandWrittenJSON``: the sign-in answers, on the hot path),
/// with the headers every JSON answer has.
struct PrewrittenJSON: ResponseGenerator {
    var json: ByteBuffer
    var status: HTTPResponse.Status = .ok

    func response(from request: Request, context: some RequestContext) throws -> Response {
        Response(status: status, headers: BioAuthResponseEncoder.headers, body: .init(byteBuffer: json))
    }
}
