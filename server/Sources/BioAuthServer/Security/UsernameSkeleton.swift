import Foundation

/// The confusable-detection skeleton of Unicode Technical Standard #39 §4, which finds usernames
/// that look alike: `аlice` with a Cyrillic `а` beside `alice`, `ｐａｙｐａｌ` beside `paypal`.
///
/// A skeleton maps every character to a prototype that looks like it: NFD, then every code point
/// replaced by its prototype (default-ignorable code points, such as U+200B ZERO WIDTH SPACE,
/// are dropped), then NFD again. Two usernames whose comparison keys have the same skeleton are
/// look-alikes. The skeleton is for comparison only: it is no username and is never shown.
///
/// The prototypes come from `Resources/confusables.txt`, which `scripts/generate-confusables`
/// derives from the ICU data of the Swift toolchain (ICU's `uspoof_getSkeleton` of every single
/// code point) and checks against ICU's skeletons of random strings. The table follows ICU's
/// Unicode version; regenerate it when the toolchain's ICU moves on. Foundation's NFD (Swift 6.3
/// on Linux) does not know the combining marks new in Unicode 16 (U+0897 and marks of Garay,
/// Tulu-Tigalari, Gurung Khema and Ol Onal) and leaves them unordered, so beside other marks
/// their skeleton can differ from ICU's.
enum UsernameSkeleton {
    /// The skeleton of `text`: NFD, every code point mapped to its prototype, NFD again.
    static func skeleton(_ text: String) -> String {
        var mapped = String.UnicodeScalarView()
        for scalar in text.decomposedStringWithCanonicalMapping.unicodeScalars {
            if let prototype = prototypes[scalar] {
                mapped.append(contentsOf: prototype)
            } else {
                mapped.append(scalar)
            }
        }
        return String(mapped).decomposedStringWithCanonicalMapping
    }

    /// Each code point whose skeleton is not itself, to its skeleton (empty for one that is dropped).
    private static let prototypes = parse(PackageResources.confusables_txt)

    /// Reads `confusables.txt`: `#` comment lines, then lines of a source code point and its
    /// target code points, in hex, separated by single spaces.
    static func parse(_ table: [UInt8]) -> [Unicode.Scalar: [Unicode.Scalar]] {
        var prototypes: [Unicode.Scalar: [Unicode.Scalar]] = [:]
        for (index, line) in table.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated()
        where !line.isEmpty && line.first != UInt8(ascii: "#") {
            let scalars = line.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false).map { field in
                guard let value = UInt32(String(decoding: field, as: UTF8.self), radix: 16),
                    let scalar = Unicode.Scalar(value)
                else {
                    preconditionFailure("confusables.txt line \(index + 1) is malformed: \(String(decoding: line, as: UTF8.self))")
                }
                return scalar
            }
            prototypes[scalars[0]] = Array(scalars.dropFirst())
        }
        return prototypes
    }
}
