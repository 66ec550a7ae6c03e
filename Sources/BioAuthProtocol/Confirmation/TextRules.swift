import Foundation

/// The character rules for a confirmation's text shown to a user (``ConfirmationRules``): what
/// could make the text look like something it is not is refused, never silently changed, so
/// that what is stored, shown and signed are the same characters.
enum TextRules {
    /// Why `text` may not be shown, or `nil` when it may.
    static func problem(_ text: String) -> String? {
        if let reason = spacingProblem(text) { return reason }
        for scalar in text.unicodeScalars {
            if let reason = characterProblem(scalar) { return reason }
        }
        guard Array(text.unicodeScalars) == Array(text.precomposedStringWithCompatibilityMapping.unicodeScalars) else {
            return "It has characters that stand for others (full-width, ligature or mathematical forms, or combining marks not composed)."
        }
        guard scripts(of: text).count <= 1 else { return "It mixes letters of the Latin, Greek and Cyrillic scripts." }
        return nil
    }

    /// Why `account` may not be shown as an account number: printable ASCII letters, digits,
    /// single spaces and `-./` only.
    static func accountProblem(_ account: String) -> String? {
        if let reason = spacingProblem(account) { return reason }
        let allowed = account.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || " -./".unicodeScalars.contains(scalar))
        }
        return allowed ? nil : "An account is ASCII letters, digits, spaces and -./ only."
    }

    /// Empty, spaces at either end, or two in a row.
    private static func spacingProblem(_ text: String) -> String? {
        if text.isEmpty { return "It is empty; leave the field out instead." }
        if text.hasPrefix(" ") || text.hasSuffix(" ") || text.contains("  ") { return "It has spaces at an end or two in a row." }
        return nil
    }

    /// Why one character may not be shown.
    private static func characterProblem(_ scalar: Unicode.Scalar) -> String? {
        switch scalar.properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator: return "It has a control character or a line break."
        case .format: return "It has an invisible formatting character (a direction override, a zero-width character)."
        case .privateUse, .surrogate, .unassigned: return "It has a character with no agreed meaning."
        case .spaceSeparator where scalar != " ": return "It has a space other than the plain space."
        default: break
        }
        if lookAlikeLetterBlocks.contains(where: { $0.contains(scalar.value) }) { return "It has phonetic letters that look like others." }
        return nil
    }

    /// Blocks of letters that imitate everyday Latin ones and no name is written in: IPA
    /// Extensions and the Phonetic Extensions.
    private static let lookAlikeLetterBlocks: [ClosedRange<UInt32>] = [0x0250...0x02AF, 0x1D00...0x1DBF]

    /// The scripts whose letters look alike, by block.
    private static let confusableScripts: [(name: String, blocks: [ClosedRange<UInt32>])] = [
        ("Latin", [0x0041...0x005A, 0x0061...0x007A, 0x00C0...0x024F, 0x1E00...0x1EFF, 0x2C60...0x2C7F, 0xA720...0xA7FF, 0xAB30...0xAB6F]),
        ("Greek", [0x0370...0x03FF, 0x1F00...0x1FFF]),
        ("Cyrillic", [0x0400...0x052F, 0x1C80...0x1C8F, 0x2DE0...0x2DFF, 0xA640...0xA69F]),
    ]

    /// Which of ``confusableScripts`` the letters of `text` belong to.
    private static func scripts(of text: String) -> Set<String> {
        var found = Set<String>()
        for scalar in text.unicodeScalars where scalar.properties.isAlphabetic {
            if let script = confusableScripts.first(where: { $0.blocks.contains { $0.contains(scalar.value) } }) { found.insert(script.name) }
        }
        return found
    }
}
