import BioAuthProtocol
import Foundation
import Hummingbird
import NIOCore

/// Reads a request body as the contract's JSON: at most the context's upload limit, no NUL
/// characters, decoded with ``WireJSON``; anything else is a 4xx ``Rejection`` naming the field at
/// fault. Handlers call `request.decode(as:context:)`.
struct BioAuthRequestDecoder: RequestDecoder {
    func decode<T: Decodable>(_ type: T.Type, from request: Request, context: some RequestContext) async throws -> T {
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
            throw Rejection(.invalidRequest, Self.describe(error))
        } catch {
            throw Rejection(.invalidRequest, "The body is not valid JSON.")
        }
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
            return context.codingPath.isEmpty
                ? "The body is not valid JSON." : "Field \(path(context.codingPath)) is malformed (\(context.debugDescription))."
        @unknown default:
            return "The body does not match the expected shape."
        }
    }
}
