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
    /// Milliseconds are computed here rather than by a format style, which truncates the binary
    /// fraction and can show a time one millisecond early. The calendar date comes from integer
    /// arithmetic in the proleptic Gregorian calendar, as RFC 3339 uses (Foundation's format
    /// style, which cost more than the rest of a sign-in's answer, is Julian before 1582). Years
    /// outside 0000–9999 have no RFC 3339 form; they are left to the format style.
    public static func formatTimestamp(_ date: Date) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
        let (days, millisecondOfDay) = floorDivision(milliseconds, 86_400_000)
        let (year, month, day) = civilDate(daysSince1970: days)
        guard (0...9999).contains(year) else {
            let (seconds, millis) = floorDivision(milliseconds, 1000)
            let base = Date(timeIntervalSince1970: TimeInterval(seconds)).formatted(Date.ISO8601FormatStyle(timeZone: .gmt))
            return base.dropLast() + "." + digits(millis, 3) + "Z"
        }
        let (second, millis) = floorDivision(millisecondOfDay, 1000)
        return digits(year, 4) + "-" + digits(month, 2) + "-" + digits(day, 2) + "T" + digits(second / 3600, 2) + ":"
            + digits(second / 60 % 60, 2) + ":" + digits(second % 60, 2) + "." + digits(millis, 3) + "Z"
    }

    /// `value` in decimal, zero-padded to `width` digits (`value` is never negative here).
    private static func digits(_ value: Int64, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }

    /// Division rounding towards negative infinity, with a remainder that is never negative.
    private static func floorDivision(_ value: Int64, _ divisor: Int64) -> (quotient: Int64, remainder: Int64) {
        let (quotient, remainder) = value.quotientAndRemainder(dividingBy: divisor)
        return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
    }

    /// The Gregorian year, month and day of a day counted from 1970-01-01 (Howard Hinnant's
    /// `civil_from_days`: eras of 400 years, years starting in March).
    private static func civilDate(daysSince1970: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let (era, dayOfEra) = floorDivision(daysSince1970 + 719_468, 146_097)
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
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
