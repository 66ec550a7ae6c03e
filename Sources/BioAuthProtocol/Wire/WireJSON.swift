import Foundation

/// The JSON coders every BioAuth client and server uses: RFC 3339 UTC times with milliseconds.
public enum WireJSON {
    /// UTC (`TimeZone.gmt` is iOS 16 and later).
    private static let utc = TimeZone(secondsFromGMT: 0)!

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
            let base = Date(timeIntervalSince1970: TimeInterval(seconds)).formatted(Date.ISO8601FormatStyle(timeZone: utc))
            return base.dropLast() + "." + digits(millis, 3) + "Z"
        }
        let (second, millis) = floorDivision(millisecondOfDay, 1000)
        // Digits written into the form's bytes: joining fourteen strings cost five times as much.
        var text = Array("0000-00-00T00:00:00.000Z".utf8)
        func put(_ value: Int64, endingAt last: Int, width: Int) {
            var rest = value
            for index in stride(from: last, to: last - width, by: -1) {
                text[index] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            }
        }
        put(year, endingAt: 3, width: 4)
        put(month, endingAt: 6, width: 2)
        put(day, endingAt: 9, width: 2)
        put(second / 3600, endingAt: 12, width: 2)
        put(second / 60 % 60, endingAt: 15, width: 2)
        put(second % 60, endingAt: 18, width: 2)
        put(millis, endingAt: 22, width: 3)
        return String(decoding: text, as: UTF8.self)
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
    ///
    /// The form every BioAuth server writes, `2026-11-21T20:18:25.123Z` with a real date from 1583
    /// on, is read by integer arithmetic (``parseCanonicalTimestamp(_:)``); anything else goes to
    /// Foundation's format style, which also decides what to refuse.
    public static func parseTimestamp(_ text: String) -> Date? {
        parseCanonicalTimestamp(text) ?? parseTimestampWithFormatStyle(text)
    }

    /// `YYYY-MM-DDTHH:MM:SS[.F…]Z` (1 to 9 fraction digits, `Z` or `z`) with a valid Gregorian date
    /// from 1583 on and a time up to 23:59:59; `nil` for any other text. The instant is the one
    /// ``parseTimestampWithFormatStyle(_:)`` gives (the same whole seconds, then the same fraction
    /// added), at a small fraction of its cost.
    static func parseCanonicalTimestamp(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard (20...30).contains(bytes.count), bytes.last == UInt8(ascii: "Z") || bytes.last == UInt8(ascii: "z"),
            bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: "T"),
            bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
            let year = number(bytes[0..<4]), let month = number(bytes[5..<7]), let day = number(bytes[8..<10]),
            let hour = number(bytes[11..<13]), let minute = number(bytes[14..<16]), let second = number(bytes[17..<19]),
            year >= 1583, (1...12).contains(month), (1...daysInMonth(month, year: year)).contains(day),
            hour <= 23, minute <= 59, second <= 59
        else { return nil }
        let fraction = bytes[19..<(bytes.count - 1)]
        if !fraction.isEmpty {
            guard fraction.count >= 2, fraction.first == UInt8(ascii: "."), number(fraction.dropFirst()) != nil else { return nil }
        }
        let days = daysSince1970(year: year, month: month, day: day)
        let whole = Date(timeIntervalSince1970: TimeInterval(days * 86_400 + hour * 3600 + minute * 60 + second))
        guard !fraction.isEmpty, let value = Double("0" + String(decoding: fraction, as: UTF8.self)) else { return whole }
        return whole.addingTimeInterval(value)
    }

    /// The decimal value of ASCII digits, `nil` if any byte is not one.
    private static func number(_ digits: ArraySlice<UInt8>) -> Int64? {
        var value: Int64 = 0
        for digit in digits {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit) else { return nil }
            value = value * 10 + Int64(digit - UInt8(ascii: "0"))
        }
        return value
    }

    private static func daysInMonth(_ month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to a Gregorian date (Howard Hinnant's `days_from_civil`, the inverse of
    /// ``civilDate(daysSince1970:)``).
    private static func daysSince1970(year: Int64, month: Int64, day: Int64) -> Int64 {
        let shiftedYear = month <= 2 ? year - 1 : year
        let (era, yearOfEra) = floorDivision(shiftedYear, 400)
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// ``parseTimestamp(_:)`` by Foundation's ISO 8601 format style.
    static func parseTimestampWithFormatStyle(_ text: String) -> Date? {
        guard text.hasSuffix("Z") || text.hasSuffix("z") else { return nil }
        let body = text.dropLast()
        let parts = body.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = try? Date.ISO8601FormatStyle(timeZone: utc).parse(parts[0] + "Z") else { return nil }
        guard parts.count == 2 else { return whole }
        let digits = parts[1]
        guard !digits.isEmpty, digits.count <= 9, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Double("0." + digits) else {
            return nil
        }
        return whole.addingTimeInterval(value)
    }
}
