/// A vocabulary of the contract that later servers may grow (error codes, sign-in methods,
/// registration kinds and states, audit event kinds, the attestation mode and verdict): a value
/// this version does not know still decodes, with its text, so an app shipped today reads a newer
/// server's answers. ``allCases`` lists the values this version knows.
///
/// What a device signs stays closed: ``Ceremony`` is an enum, since a device must know exactly
/// what it signs.
public protocol OpenVocabulary: RawRepresentable, Codable, Hashable, Sendable, CaseIterable, CustomStringConvertible
where RawValue == String, AllCases == [Self] {
    /// The value with this text, known to this version or not.
    init(rawValue: String)
}

extension OpenVocabulary {
    /// The text.
    public var description: String { rawValue }

    /// Whether this version of the contract knows the value.
    public var isKnown: Bool { Self.allCases.contains(self) }

    /// The value with this text if this version knows it: for input that must be one of them.
    public init?(known rawValue: String) {
        self.init(rawValue: rawValue)
        guard isKnown else { return nil }
    }
}
