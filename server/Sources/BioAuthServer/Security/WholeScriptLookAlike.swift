/// A name written wholly in letters of another script that look like Latin ones: `Рау` in
/// Cyrillic (`Р`, `а`, `у`) reads as the Latin `Pay`. ``ConfirmationRules`` refuses a name that
/// mixes scripts; this catches the one that does not mix, with the look-alike skeleton of
/// ``UsernameSkeleton`` (Unicode TS #39): the server refuses such a payee name.
enum WholeScriptLookAlike {
    /// Whether `text` has letters, none of them ASCII, and its skeleton is ASCII alone: every
    /// letter looks like a Latin one.
    static func imitatesLatin(_ text: String) -> Bool {
        let letters = text.unicodeScalars.filter { $0.properties.isAlphabetic }
        guard !letters.isEmpty, !letters.contains(where: \.isASCII) else { return false }
        return UsernameSkeleton.skeleton(text).unicodeScalars.allSatisfy(\.isASCII)
    }
}
