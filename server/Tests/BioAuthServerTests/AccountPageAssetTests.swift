import BioAuthProtocol
import Foundation
import HTTPTypes
import Hummingbird
import Testing

@testable import BioAuthServer

/// The account page's files: what `AccountPage/web` holds is what `/` and `/assets/` serve, byte
/// for byte, and the script's modules import only files that are served.
@Suite("Account page files")
struct AccountPageAssetTests {
    /// `server/Sources/BioAuthServer/AccountPage/web`.
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/BioAuthServer/AccountPage/web")

    /// The folder's files but the page itself.
    static func assetNames() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0 != "index.html" }.sorted()
    }

    @Test("every file of the page's folder is served byte for byte, with its type and the page's headers")
    func servesEveryFile() async throws {
        let names = try Self.assetNames()
        #expect(names == AccountPageAssets.byName.keys.sorted(), "every file in AccountPage/web is in AccountPageAssets.byName")
        try await TestServer.run { server in
            let page = try await server.api.call(.get, Endpoint.getAccountPage.path())
            #expect(page.body == (try Data(contentsOf: Self.folder.appendingPathComponent("index.html"))))
            for name in names {
                let answer = try await server.api.call(.get, Endpoint.getAccountAsset.path(name))
                #expect(answer.status == .ok, "\(name)")
                #expect(answer.body == (try Data(contentsOf: Self.folder.appendingPathComponent(name))), "\(name)")
                let type = name.hasSuffix(".js") ? "text/javascript; charset=utf-8" : "text/css; charset=utf-8"
                #expect(answer.headers[.contentType] == type, "\(name)")
                for field in [HTTPField.Name.contentSecurityPolicy, .xContentTypeOptions, .cacheControl, HTTPField.Name("Referrer-Policy")!] {
                    #expect(answer.headers[field] != nil && answer.headers[field] == page.headers[field], "\(name): \(field)")
                }
            }
        }
    }

    @Test("every module a script imports is a served file")
    func importsAreServed() throws {
        let specifier = try Regex(#"(?:\bfrom|^import)\s*'\./([A-Za-z0-9._-]+)'"#).anchorsMatchLineEndings()
        var imported: Set<String> = []
        for name in try Self.assetNames() where name.hasSuffix(".js") {
            let text = try String(contentsOf: Self.folder.appendingPathComponent(name), encoding: .utf8)
            for match in text.matches(of: specifier) {
                let target = String(match.output[1].substring ?? "")
                #expect(AccountPageAssets.byName[target] != nil, "\(name) imports \(target), which is not served")
                imported.insert(target)
            }
            #expect(!text.contains("import("), "\(name): no dynamic import")
        }
        let scripts = Set(AccountPageAssets.byName.keys.filter { $0.hasSuffix(".js") })
        #expect(scripts.subtracting(imported) == ["app.js"], "app.js is the only module nothing imports")
    }

    @Test("a name the page has no file for, the page itself included, is 404 not_found")
    func unknownFile() async throws {
        try await TestServer.run { server in
            for name in ["no-such-file.js", "index.html", "APP.JS", "app.js.map"] {
                try await server.api.expectError(.notFound, .get, Endpoint.getAccountAsset.path(name))
            }
        }
    }
}
