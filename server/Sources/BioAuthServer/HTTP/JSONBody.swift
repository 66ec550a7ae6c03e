import BioAuthProtocol
import Foundation
import Hummingbird
import NIOCore

/// Reading request bodies and writing JSON answers.
enum JSONBody {
    /// Reads at most 64 KiB and decodes it as `T`; any other body is a 4xx answer.
    static func decode<T: Decodable>(_ type: T.Type, from request: Request, context: BioAuthRequestContext) async throws -> T {
        var request = request
        let buffer: ByteBuffer
        do {
            buffer = try await request.collectBody(upTo: context.maxUploadSize)
        } catch is NIOTooManyBytesError {
            throw Rejection(.payloadTooLarge, "The body is larger than \(context.maxUploadSize) bytes.")
        }
        guard !StorableText.jsonContainsNUL(buffer.readableBytesView) else {
            throw Rejection(.invalidRequest, "Strings may not contain the NUL character (\\u0000).")
        }
        do {
            return try WireJSON.makeDecoder().decode(T.self, from: Data(buffer: buffer))
        } catch let error as DecodingError {
            throw Rejection(.invalidRequest, describe(error))
        } catch {
            throw Rejection(.invalidRequest, "The body is not valid JSON.")
        }
    }

    /// A JSON answer. No answer of the API may be kept by a cache: some carry a session token or
    /// a CSRF token, and all describe an account.
    static func response(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        response(json: ByteBuffer(bytes: try WireJSON.makeEncoder().encode(value)), status: status)
    }

    /// A JSON answer already written (``HandWrittenJSON``).
    static func response(json: ByteBuffer, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"], body: .init(byteBuffer: json))
    }

    /// A message naming the field at fault, never echoing its value (it may be a secret).
    private static func describe(_ error: DecodingError) -> String {
        func path(_ codingPath: [any CodingKey]) -> String {
            codingPath.isEmpty ? "the body" : "'" + codingPath.map(\.stringValue).joined(separator: ".") + "'"
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "Missing field '\((context.codingPath + [key]).map(\.stringValue).joined(separator: "."))'."
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "Field \(path(context.codingPath)) has the wrong type."
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? "The body is not valid JSON." : "Field \(path(context.codingPath)) is malformed (\(context.debugDescription))."
        @unknown default:
            return "The body does not match the expected shape."
        }
    }
}
