/// The PINs people choose most, refused when a PIN is set (`400 pin_too_common`).
///
/// A PIN guessed in a handful of tries is no second factor. Markert et al., "This PIN Can Be Easily
/// Guessed" (IEEE S&P 2020), name dates, memorable numbers and keypad patterns as how people
/// choose, find that a blocklist as small as Apple's (2.7 % of 4-digit PINs, 0.3 % of 6-digit ones)
/// does little against a few guesses, and suggest about 10 % of the PIN space as the balance of
/// security and usability. The check is a table of named rules, any one of which refuses a PIN,
/// plus the published top lists (`CommonPINLists`). It refuses 9.75 % of all 4-digit PINs (dates
/// 5.9 %, years 2 %), 8.84 % of all 6-digit PINs (dates 8.4 %) and 0.21 % of all 8-digit PINs;
/// `CommonPINTests` holds it to the first two.
enum CommonPINs {
    /// Whether `pin` (already known to be 4–12 ASCII digits) is one of the refused ones.
    static func contains(_ pin: String) -> Bool {
        let digits = pin.utf8.map { Int($0) - 48 }
        return rules.contains { $0.refuses(pin, digits) }
    }

    /// One named reason to refuse a PIN: a pattern of its digits, or a list it is on.
    struct Rule: Sendable {
        /// What the rule refuses, in a few words.
        let name: String
        /// Whether the rule refuses a PIN, given as its text and as its digits (each 0–9).
        let refuses: @Sendable (_ pin: String, _ digits: [Int]) -> Bool

        /// A rule on the PIN's digits.
        init(_ name: String, pattern: @escaping @Sendable ([Int]) -> Bool) {
            self.name = name
            self.refuses = { _, digits in pattern(digits) }
        }

        /// A rule refusing the PINs on a published list.
        init(_ name: String, list: Set<String>) {
            self.name = name
            self.refuses = { pin, _ in list.contains(pin) }
        }
    }

    /// Every rule; a PIN is refused when any one of them refuses it.
    static let rules: [Rule] = [
        Rule("a block repeated (0000, 1212, 123123)", pattern: isRepeatedBlock),
        Rule("a straight run up or down, wrapping past 9 (1234, 4321, 7890)", pattern: isStraightRun),
        Rule("even steps (1357, 2468, 0369)", pattern: { isProgression($0[...]) }),
        Rule("doubled or tripled digits (1122, 112233, 111222)", pattern: isDigitGroups),
        Rule("two halves of even steps (123321, 123654, 147258)", pattern: isTwoProgressions),
        Rule("a year 1900–2099 (1990, 2013)", pattern: isYear),
        Rule("a calendar date, day or month first, or year first (1225, 3105, 311299, 991231)", pattern: isDate),
        Rule("Markert et al. top 10, 4 digits", list: CommonPINLists.markertTopFourDigit),
        Rule("Markert et al. top 10, 6 digits", list: CommonPINLists.markertTopSixDigit),
        Rule("Markert et al. DD-4-digit-27", list: CommonPINLists.markertBlocklistFourDigit27),
        Rule("DataGenetics top 20, 4 digits", list: CommonPINLists.dataGeneticsTopFourDigit),
        Rule("listed by the earlier rules (keypad shapes, 1004)", list: CommonPINLists.earlierListed),
    ]

    /// A block of one to half the length, repeated to fill the PIN (`0000`, `1212`, `123123`).
    private static func isRepeatedBlock(_ digits: [Int]) -> Bool {
        for size in 1...max(1, digits.count / 2) where digits.count % size == 0 {
            if isPeriodic(digits, period: size) { return true }
        }
        return false
    }

    /// Every step +1, or every step −1, modulo 10 (`1234`, `4321`, `7890`, `901234`).
    private static func isStraightRun(_ digits: [Int]) -> Bool {
        isRun(digits[...], step: 1, wrapping: true) || isRun(digits[...], step: -1, wrapping: true)
    }

    /// Every step the same, without wrapping past 9 (`1357`, `8642`, `0369`): rows, columns and
    /// diagonals of the keypad among them.
    private static func isProgression(_ digits: ArraySlice<Int>) -> Bool {
        guard let first = digits.first, digits.count >= 2 else { return true }
        return isRun(digits, step: digits[digits.startIndex + 1] - first, wrapping: false)
    }

    /// Equal groups of two or more of one digit each (`1122`, `112233`, `111222`, `11223344`).
    private static func isDigitGroups(_ digits: [Int]) -> Bool {
        for size in 2...max(2, digits.count / 2) where digits.count % size == 0 && digits.count / size >= 2 {
            if isGrouped(digits, size: size) { return true }
        }
        return false
    }

    /// Six or more digits whose two halves each go in even steps (`111222`, `123321`, `123654`,
    /// `147258`, `159753`, `789456`): two strokes on the keypad.
    private static func isTwoProgressions(_ digits: [Int]) -> Bool {
        digits.count >= 6 && digits.count % 2 == 0
            && isProgression(digits.prefix(digits.count / 2)) && isProgression(digits.suffix(digits.count / 2))
    }

    /// Whether every digit equals the one `period` places before it.
    private static func isPeriodic(_ digits: [Int], period: Int) -> Bool {
        for index in period..<digits.count where digits[index] != digits[index - period] { return false }
        return true
    }

    /// Whether every digit equals the first of its group of `size` (`112233` in groups of 2).
    private static func isGrouped(_ digits: [Int], size: Int) -> Bool {
        for index in digits.indices where digits[index] != digits[index - index % size] { return false }
        return true
    }

    /// Whether each digit is the one before plus `step`, modulo 10 if `wrapping`.
    private static func isRun(_ digits: ArraySlice<Int>, step: Int, wrapping: Bool) -> Bool {
        for index in digits.startIndex + 1..<digits.endIndex {
            let next = digits[index - 1] + step
            if digits[index] != (wrapping ? (next + 10) % 10 : next) { return false }
        }
        return true
    }

    /// Four digits read as a year 1900–2099 (birth years dominate chosen PINs).
    private static func isYear(_ digits: [Int]) -> Bool {
        digits.count == 4 && (digits[0] == 1 && digits[1] == 9 || digits[0] == 2 && digits[1] == 0)
    }

    /// Where day (`D`), month (`M`) and year (`Y`) sit in a date PIN, in both orders and year first.
    /// A two-digit year may be any; a four-digit one is 1900–2099. Eight digits are worth it: a full
    /// birth date is the obvious 8-digit PIN, and its three layouts cost 0.19 % of that space.
    static let dateLayouts = ["DDMM", "MMDD", "DDMMYY", "MMDDYY", "YYMMDD", "DDMMYYYY", "MMDDYYYY", "YYYYMMDD"]
        .map(DateLayout.init)

    /// One layout of `dateLayouts`: where each field's digits are.
    struct DateLayout: Sendable {
        /// The number of digits, e.g. 6 for `DDMMYY`.
        let length: Int
        /// The places of the day's, the month's and the year's digits (the year's empty if none).
        let day: Range<Int>, month: Range<Int>, year: Range<Int>

        /// Reads a layout such as `YYYYMMDD`.
        init(_ pattern: String) {
            let letters = Array(pattern)
            func places(_ letter: Character) -> Range<Int> {
                let first = letters.firstIndex(of: letter) ?? 0
                return first..<first + letters.count(where: { $0 == letter })
            }
            (length, day, month, year) = (letters.count, places("D"), places("M"), places("Y"))
        }

        /// Whether `digits` are a date in this layout (any two-digit year; four digits 1900–2099).
        func matches(_ digits: [Int]) -> Bool {
            guard digits.count == length else { return false }
            let (day, month, year) = (Self.value(digits, day), Self.value(digits, month), Self.value(digits, year))
            return 1 <= month && month <= 12 && 1 <= day && day <= CommonPINs.daysInMonth[month - 1]
                && (self.year.count < 4 || 1900 <= year && year <= 2099)
        }

        /// The number the digits at `places` spell.
        private static func value(_ digits: [Int], _ places: Range<Int>) -> Int {
            var value = 0
            for place in places { value = value * 10 + digits[place] }
            return value
        }
    }

    /// Days in each month, February with the 29th (a leap day is a birthday too).
    private static let daysInMonth = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]

    /// Whether the digits are a calendar date in one of `dateLayouts`.
    private static func isDate(_ digits: [Int]) -> Bool {
        for layout in dateLayouts where layout.matches(digits) { return true }
        return false
    }
}
