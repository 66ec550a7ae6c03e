import Foundation
import Testing

/// BioAuthKit's arrows point down: each folder of the module names only types that its own layer
/// and the layers below declare, and the platform code in `Apple/` is reached only through the
/// device seam. Read from the module's sources, so a new arrow up fails here.
@Suite("Architecture")
struct ArchitectureTests {
    /// The module's folders, lowest layer first ("" is the files at its root). A folder may name
    /// what its own layer and the layers below declare.
    static let layers: [[String]] = [
        // The errors, the seam a device implements, and the version.
        ["", "Errors", "DeviceSeam"],
        // The seam over Security, LocalAuthentication and DeviceCheck.
        ["Apple"],
        // The public words of biometric protection: policy, availability, a lost key, a shared match.
        ["Biometrics"],
        // The decisions the vault and the key store share.
        ["Internal"],
        ["Keys", "Vault"],
        // The sign-in client, with its connection, records and attestation.
        ["Client"],
    ]

    @Test("every folder of the module has a layer")
    func everyFolderHasALayer() throws {
        let module = try KitSources.read()
        let placed = Set(Self.layers.joined())
        let unplaced = Set(module.files.map(\.folder)).subtracting(placed).sorted()
        #expect(unplaced.isEmpty, "folders without a layer in ArchitectureTests.layers: \(unplaced)")
    }

    @Test("no folder names a type declared in a layer above it")
    func arrowsPointDown() throws {
        let module = try KitSources.read()
        var rank: [String: Int] = [:]
        for (index, folders) in Self.layers.enumerated() {
            for folder in folders { rank[folder] = index }
        }
        let upward = module.files.flatMap { file in
            module.namedTypes(in: file).filter { (rank[$0.owner.folder] ?? 0) > (rank[file.folder] ?? .max) }
                .map { "\(file.path) names \($0.name), declared in \($0.owner.path)" }
        }
        #expect(upward.isEmpty, "arrows up:\n\(upward.joined(separator: "\n"))")
    }

    @Test("only Apple/ names the types Apple/ declares: the rest of the SDK reaches the platform through DeviceSeam/")
    func platformBehindTheSeam() throws {
        let module = try KitSources.read()
        let leaks = module.files.filter { $0.folder != "Apple" }.flatMap { file in
            module.namedTypes(in: file).filter { $0.owner.folder == "Apple" }
                .map { "\(file.path) names \($0.name), declared in \($0.owner.path)" }
        }
        #expect(leaks.isEmpty, "platform types outside Apple/:\n\(leaks.joined(separator: "\n"))")
    }
}

/// BioAuthKit's Swift files and the types declared at their top level.
struct KitSources {
    /// One Swift file of the module.
    struct File {
        /// The path under `Sources/BioAuthKit`: `Internal/ProtectionCore.swift`.
        let path: String
        /// The file's code, its comments removed.
        let code: String
        /// The first folder of `path`; "" for a file at the module's root.
        var folder: String { path.split(separator: "/").count > 1 ? String(path.split(separator: "/")[0]) : "" }
    }

    let files: [File]
    /// The file that declares each top-level type that is not private.
    let declarations: [String: File]

    /// Reads `Sources/BioAuthKit`, found from this file's path.
    static func read() throws -> KitSources {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let module = root.appendingPathComponent("Sources/BioAuthKit")
        let paths = try FileManager.default.subpathsOfDirectory(atPath: module.path).filter { $0.hasSuffix(".swift") }.sorted()
        let files = try paths.map { path in
            File(path: path, code: uncommented(try String(contentsOf: module.appendingPathComponent(path), encoding: .utf8)))
        }
        // At the start of a line: attributes (`@_spi(DeviceSeam)`), modifiers, then the kind and name.
        let topLevel =
            /(?m)^(?:@\w+(?:\([^)\n]*\))?\s+)*(?:(?:public|package|internal|final|indirect)\s+)*(?:struct|enum|class|actor|protocol|typealias)\s+(\w+)/
        var declarations: [String: File] = [:]
        for file in files {
            for match in file.code.matches(of: topLevel) where declarations[String(match.output.1)] == nil {
                declarations[String(match.output.1)] = file
            }
        }
        return KitSources(files: files, declarations: declarations)
    }

    /// The types of other files that `file` names, each with the file that declares it. A name
    /// that `file` declares itself, at any depth, is its own.
    func namedTypes(in file: File) -> [(name: String, owner: File)] {
        let own = Set(file.code.matches(of: /\b(?:struct|enum|class|actor|protocol|typealias)\s+(\w+)/).map { String($0.output.1) })
        let words = Set(file.code.matches(of: /\b[A-Za-z_]\w*/).map { String(file.code[$0.range]) })
        return words.subtracting(own).sorted().compactMap { name in
            guard let owner = declarations[name], owner.path != file.path else { return nil }
            return (name, owner)
        }
    }

    /// `source` without its `/* */` and `//` comments; a `//` inside a string literal stays.
    static func uncommented(_ source: String) -> String {
        let unblocked = source.replacing(/\/\*[\s\S]*?\*\//, with: "")
        return unblocked.split(separator: "\n", omittingEmptySubsequences: false).map { line -> Substring in
            var quoted = false
            var index = line.startIndex
            while index < line.endIndex {
                let next = line.index(after: index)
                if line[index] == "\\" && quoted {
                    index = line.index(index, offsetBy: 2, limitedBy: line.endIndex) ?? line.endIndex
                    continue
                }
                if line[index] == "\"" { quoted.toggle() }
                if !quoted && line[index...].hasPrefix("//") { return line[..<index] }
                index = next
            }
            return line
        }.joined(separator: "\n")
    }
}
