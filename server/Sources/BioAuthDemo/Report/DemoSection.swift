/// One step of the scenario or one attack: what happened, in plain words, and what crossed the wire.
package struct DemoSection: Codable, Sendable, Equatable {
    /// Whether this is a step of the scenario or an attack.
    package enum Kind: String, Codable, Sendable {
        /// One of the scenario's ten steps.
        case step
        /// An attack, shown failing.
        case attack
        /// For contrast: the event-based anti-pattern, shown falling.
        case antiPattern = "anti_pattern"
    }

    /// Step or attack.
    package var kind: Kind
    /// The scenario's step number (1…10), or the attack's position.
    package var number: Int
    /// A one-line title.
    package var title: String
    /// What happened and why, in plain words.
    package var explanation: String
    /// What the phone, the user or the attacker did, line by line (no secrets, only abbreviations).
    package var events: [String]
    /// Every HTTP exchange, in order, with secrets abbreviated.
    package var wire: [WireExchange]
    /// The properties this section checked.
    package var properties: [PropertyResult]
    /// Why the section did not run, if it did not.
    package var skippedBecause: String?

    enum CodingKeys: String, CodingKey {
        case kind, number, title, explanation, events, wire, properties
        case skippedBecause = "skipped_because"
    }

    /// Creates a section.
    package init(
        kind: Kind,
        number: Int,
        title: String,
        explanation: String,
        events: [String] = [],
        wire: [WireExchange] = [],
        properties: [PropertyResult] = [],
        skippedBecause: String? = nil
    ) {
        self.kind = kind
        self.number = number
        self.title = title
        self.explanation = explanation
        self.events = events
        self.wire = wire
        self.properties = properties
        self.skippedBecause = skippedBecause
    }

    /// An attack that could not run against this target: its one property is skipped, and the
    /// explanation says why.
    static func skippedAttack(number: Int, title: String, property: SecurityProperty, because reason: String) -> DemoSection {
        DemoSection(
            kind: .attack,
            number: number,
            title: title,
            explanation: "Skipped: this attack \(reason).",
            properties: [.skipped(property, because: reason)],
            skippedBecause: reason
        )
    }

    /// The result for `property`, if this section checked it.
    package func result(_ property: SecurityProperty) -> PropertyResult? {
        properties.first { $0.property == property }
    }
}
