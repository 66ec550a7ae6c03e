import Foundation
import Testing

/// BioAuthServer's arrows point down: each folder names only what its own layer and the layers
/// below declare; only storage speaks to a database; every statement over the schema's tables is
/// in `Storage/Tables/`. Read from the module's sources, so a new arrow up fails here.
@Suite("Architecture")
struct ArchitectureTests {
    /// The module's top-level folders, lowest layer first ("" is the files at its root: the
    /// composition root). A folder may name what its layer and the layers below declare.
    static let layers: [[String]] = [
        ["Model"],
        ["Configuration", "Security", "Operations"],
        ["Storage"],
        ["AccountCore"],
        // A folder per factor, then the credentials and the accounts they belong to.
        ["Password", "DeviceKey", "Passkey", "Credentials", "Accounts", "AccessTokens", "Confirmations", "Wire"],
        ["HTTP", "Routes", "AccountPage", ""],
    ]

    /// Storage's rooms for one database engine each: named only inside their room and by the
    /// composition root, which opens them.
    static let engineRooms = ["Storage/SQLite", "Storage/Postgres"]

    /// The modules that talk to a database.
    static let databaseModules = ["SQLKit", "PostgresNIO", "PostgresKit", "SQLiteNIO", "SQLiteKit"]

    @Test("every folder of the module has a layer")
    func everyFolderHasALayer() throws {
        let sources = try ModuleSources.load()
        let placed = Set(Self.layers.joined())
        let unplaced = Set(sources.files.map(\.folder)).subtracting(placed)
        #expect(unplaced.isEmpty, "folders without a layer in ArchitectureTests.layers: \(unplaced.sorted())")
    }

    @Test("no folder names a type declared in a layer above it")
    func arrowsPointDown() throws {
        let sources = try ModuleSources.load()
        let layer = Dictionary(uniqueKeysWithValues: Self.layers.enumerated().flatMap { index, folders in folders.map { ($0, index) } })
        var upward: [String] = []
        for file in sources.files {
            guard let own = layer[file.folder] else { continue }
            for (name, owner) in sources.references(of: file) where (layer[owner.folder] ?? 0) > own {
                upward.append("\(file.path) names \(name) (\(owner.path))")
            }
        }
        #expect(upward.isEmpty, "arrows up:\n\(upward.sorted().joined(separator: "\n"))")
    }

    @Test("an engine's room is named only inside it and by the composition root")
    func enginesStayInTheirRooms() throws {
        let sources = try ModuleSources.load()
        var leaks: [String] = []
        for file in sources.files where file.folder != "" {
            for (name, owner) in sources.references(of: file) {
                guard let room = Self.engineRooms.first(where: { owner.room == $0 }), file.room != room else { continue }
                leaks.append("\(file.path) names \(name) (\(owner.path))")
            }
        }
        #expect(leaks.isEmpty, "engine types outside their room:\n\(leaks.sorted().joined(separator: "\n"))")
    }

    @Test("only storage imports a database module")
    func onlyStorageImportsTheDatabase() throws {
        let sources = try ModuleSources.load()
        let imports = sources.files.filter { $0.folder != "Storage" }.flatMap { file in
            Self.databaseModules.filter { file.text.contains("import \($0)\n") }.map { "\(file.path) imports \($0)" }
        }
        #expect(imports.isEmpty, "\(imports)")
    }

    @Test("every statement over the schema's tables is in Storage/Tables")
    func sqlLivesInTables() throws {
        let sources = try ModuleSources.load()
        let tables = sources.files.filter { $0.room == "Storage/Tables" }.flatMap { file in
            file.code.matches(of: /CREATE TABLE (?:IF NOT EXISTS )?([a-z_]+)/).map { String($0.output.1) }
        }
        #expect(tables.count >= 10, "the schema's tables were not found: \(tables)")
        let names = tables.joined(separator: "|")
        let statement = try Regex("\\b(FROM|INTO|UPDATE|JOIN|TABLE)\\s+(\(names))\\b")
        let outside = sources.files.filter { $0.room != "Storage/Tables" }.flatMap { file in
            file.code.matches(of: statement).map { "\(file.path): \(file.code[$0.range])" }
        }
        #expect(outside.isEmpty, "SQL over the schema outside Storage/Tables:\n\(outside.joined(separator: "\n"))")
    }
}

/// BioAuthServer's Swift files, and the types each declares at its top level.
struct ModuleSources {
    struct File {
        /// The path under the module's folder: `Storage/Tables/UserTable.swift`.
        var path: String
        var text: String
        /// The text without comments.
        var code: String
        /// The first folder of `path` ("" for a file at the module's root).
        var folder: String { path.contains("/") ? String(path.prefix { $0 != "/" }) : "" }
        /// The folders of `path`: `Storage/Tables`.
        var room: String { path.split(separator: "/").dropLast().joined(separator: "/") }
    }

    var files: [File]
    /// Each type declared at a file's top level (not private), by name, with that file.
    var owners: [String: File]

    /// Reads `server/Sources/BioAuthServer`, found from this file's path.
    static func load() throws -> ModuleSources {
        let module = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/BioAuthServer")
        let paths = FileManager.default.enumerator(atPath: module.path)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
        let files = try paths.sorted().map { path in
            let text = try String(contentsOf: module.appendingPathComponent(path), encoding: .utf8)
            return File(path: path, text: text, code: withoutComments(text))
        }
        var owners: [String: File] = [:]
        let declaration =
            /(?m)^(?:@[A-Za-z]+(?:\([^)\n]*\))?\s+)*(?:(?:package|public|internal|final|indirect)\s+)*(?:struct|enum|class|actor|protocol|typealias)\s+([A-Za-z_][A-Za-z0-9_]*)/
        for file in files {
            for match in file.code.matches(of: declaration) { owners[String(match.output.1)] = owners[String(match.output.1)] ?? file }
        }
        return ModuleSources(files: files, owners: owners)
    }

    /// The types of other files `file` names, with their files; a name `file` declares itself (a
    /// nested type of the same name) is its own.
    func references(of file: File) -> [(String, File)] {
        let identifiers = Set(file.code.matches(of: /[A-Za-z_][A-Za-z0-9_]*/).map { String(file.code[$0.range]) })
        let ownNames = Set(
            file.code.matches(of: /(?:struct|enum|class|actor|protocol|typealias)\s+([A-Za-z_][A-Za-z0-9_]*)/).map { String($0.output.1) }
        )
        return identifiers.subtracting(ownNames).compactMap { name in
            owners[name].flatMap { $0.path == file.path ? nil : (name, $0) }
        }.sorted { $0.0 < $1.0 }
    }

    /// `text` without `//` and `/* */` comments (string literals kept: SQL lives in them).
    static func withoutComments(_ text: String) -> String {
        text.replacing(/\/\*[\s\S]*?\*\//, with: "").split(separator: "\n", omittingEmptySubsequences: false).map { line in
            // A `//` inside a string literal (a URL) is not a comment: only strip one outside quotes.
            var inString = false
            var previous: Character = " "
            for (offset, character) in line.enumerated() {
                if character == "\"" && previous != "\\" { inString.toggle() }
                if character == "/" && previous == "/" && !inString { return String(line.prefix(offset - 1)) }
                previous = character
            }
            return String(line)
        }.joined(separator: "\n")
    }
}
