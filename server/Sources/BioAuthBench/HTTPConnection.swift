import BioAuthProtocol
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// One keep-alive HTTP/1.1 connection to the server, as one device's app holds it: requests go
/// one after another, each answered before the next is sent.
///
/// Written on SwiftNIO rather than URLSession, whose Linux implementation (libcurl under
/// Foundation) would spend more of the shared two cores than the server under test.
final class HTTPConnection {
    /// A status and body.
    struct Reply {
        var status: Int
        var body: ByteBuffer
    }

    /// The server answered a status the benchmark did not expect.
    struct UnexpectedReply: Error, CustomStringConvertible {
        var method: String
        var path: String
        var status: Int
        var body: String
        var description: String { "\(method) \(path) answered \(status): \(body.prefix(300))" }
    }

    /// The server closed the connection before answering.
    struct ConnectionClosed: Error {}

    private var inbound: NIOAsyncChannelInboundStream<HTTPClientResponsePart>.AsyncIterator
    private let outbound: NIOAsyncChannelOutboundWriter<HTTPClientRequestPart>
    private let hostHeader: String
    private let encoder = WireJSON.makeEncoder()
    private let decoder = WireJSON.makeDecoder()

    private init(
        inbound: NIOAsyncChannelInboundStream<HTTPClientResponsePart>,
        outbound: NIOAsyncChannelOutboundWriter<HTTPClientRequestPart>,
        hostHeader: String
    ) {
        self.inbound = inbound.makeAsyncIterator()
        self.outbound = outbound
        self.hostHeader = hostHeader
    }

    /// Connects to `host:port`, runs `body` with the connection, and closes it.
    static func with<T: Sendable>(host: String, port: Int, _ body: (HTTPConnection) async throws -> T) async throws -> T {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
            .connect(host: host, port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    return try NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>(wrappingChannelSynchronously: channel)
                }
            }
        return try await channel.executeThenClose { inbound, outbound in
            try await body(HTTPConnection(inbound: inbound, outbound: outbound, hostHeader: "\(host):\(port)"))
        }
    }

    /// Sends one request and reads its whole answer.
    func send(_ method: HTTPMethod, _ path: String, body: ByteBuffer? = nil, bearer: String? = nil) async throws -> Reply {
        var head = HTTPRequestHead(version: .http1_1, method: method, uri: path)
        head.headers.add(name: "Host", value: hostHeader)
        if let body {
            head.headers.add(name: "Content-Type", value: "application/json")
            head.headers.add(name: "Content-Length", value: String(body.readableBytes))
        }
        if let bearer { head.headers.add(name: "Authorization", value: "Bearer \(bearer)") }
        if let body {
            try await outbound.write(contentsOf: [.head(head), .body(.byteBuffer(body)), .end(nil)])
        } else {
            try await outbound.write(contentsOf: [.head(head), .end(nil)])
        }
        var status: Int?
        var received = ByteBuffer()
        while let part = try await inbound.next() {
            switch part {
            case .head(let head): status = Int(head.status.code)
            case .body(var chunk): received.writeBuffer(&chunk)
            case .end:
                guard let status else { throw ConnectionClosed() }
                return Reply(status: status, body: received)
            }
        }
        throw ConnectionClosed()
    }

    /// Sends `request` (if any) as JSON to `endpoint` and decodes a 2xx answer as `Response`.
    func exchange<Response: Decodable>(
        _ endpoint: Endpoint,
        id: String? = nil,
        _ request: (any Encodable)?,
        as _: Response.Type,
        bearer: String? = nil
    ) async throws -> Response {
        let path = endpoint.path(id)
        let reply = try await send(
            HTTPMethod(rawValue: endpoint.method.rawValue),
            path,
            body: try request.map { ByteBuffer(data: try encoder.encode($0)) },
            bearer: bearer
        )
        guard (200..<300).contains(reply.status) else {
            throw UnexpectedReply(method: endpoint.method.rawValue, path: path, status: reply.status, body: String(buffer: reply.body))
        }
        return try decoder.decode(Response.self, from: Data(reply.body.readableBytesView))
    }
}
