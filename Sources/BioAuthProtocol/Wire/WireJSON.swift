import Foundation

/// The JSON coders every BioAuth client and server uses: RFC 3339 UTC times with milliseconds.
public enum WireJSON {
    /// An encoder writing times as `2026-11-21T20:18:25.123Z`.
    public static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(formatTimestamp(date))
        }
        return encoder
    }

    /// A decoder reading RFC 3339 times with or without fractional seconds.
    public static func makeDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = parseTimestamp(text) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "not an RFC 3339 time")
            }
            return date
        }
        return decoder
    }

    /// Formats a time as RFC 3339 UTC with milliseconds, rounded to the nearest millisecond.
    ///
    /// Milliseconds are computed here rather than by the format style, which truncates the
    /// binary fraction and can show a time one millisecond early.
    public static func formatTimestamp(_ date: Date) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
        let (seconds, fraction) = milliseconds.quotientAndRemainder(dividingBy: 1000)
        let (wholeSeconds, millis) = fraction < 0 ? (seconds - 1, fraction + 1000) : (seconds, fraction)
        let base = Date(timeIntervalSince1970: TimeInterval(wholeSeconds)).formatted(Date.ISO8601FormatStyle(timeZone: .gmt))
        let millisText = String(millis)
        return base.dropLast() + "." + String(repeating: "0", count: 3 - millisText.count) + millisText + "Z"
    }

    /// Parses an RFC 3339 UTC time (`Z`), with or without fractional seconds.
    public static func parseTimestamp(_ text: String) -> Date? {
        guard text.hasSuffix("Z") || text.hasSuffix("z") else { return nil }
        let body = text.dropLast()
        let parts = body.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = try? Date.ISO8601FormatStyle(timeZone: .gmt).parse(parts[0] + "Z") else { return nil }
        guard parts.count == 2 else { return whole }
        let digits = parts[1]
        guard !digits.isEmpty, digits.count <= 9, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Double("0." + digits) else { return nil }
        return whole.addingTimeInterval(value)
    }
}
