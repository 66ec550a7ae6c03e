/// Everything one run of the demo did and found, in the order it happened.
package struct DemoReport: Codable, Sendable, Equatable {
    /// `in-process` (a server on a temporary SQLite file) or `remote` (`--server URL`).
    package var mode: String
    /// The server the simulated phone talked to.
    package var serverURL: String
    /// The walk through the scenario, then the attacks.
    package var sections: [DemoSection]
    /// Every security property checked, in the order checked.
    package var properties: [PropertyResult]

    /// Whether no property failed (skipped ones do not count as failures).
    package var allPassed: Bool { !properties.contains { $0.status == .fail } }

    enum CodingKeys: String, CodingKey {
        case mode, sections, properties
        case serverURL = "server_url"
        case allPassed = "all_passed"
    }

    /// Creates a report.
    package init(mode: String, serverURL: String, sections: [DemoSection], properties: [PropertyResult]) {
        self.mode = mode
        self.serverURL = serverURL
        self.sections = sections
        self.properties = properties
    }

    /// Encodes `all_passed` as well, for machines reading `--json`.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(mode, forKey: .mode)
        try container.encode(serverURL, forKey: .serverURL)
        try container.encode(sections, forKey: .sections)
        try container.encode(properties, forKey: .properties)
        try container.encode(allPassed, forKey: .allPassed)
    }

    /// Decodes a report (`all_passed` is recomputed).
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        mode = try container.decode(String.self, forKey: .mode)
        serverURL = try container.decode(String.self, forKey: .serverURL)
        sections = try container.decode([DemoSection].self, forKey: .sections)
        properties = try container.decode([PropertyResult].self, forKey: .properties)
    }
}
