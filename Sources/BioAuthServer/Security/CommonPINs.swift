/// The PINs people choose most, refused when a PIN is set (`400 pin_too_common`).
///
/// A PIN guessed in a handful of tries is no second factor. The rules follow the published
/// studies of chosen PINs: the DataGenetics analysis of 3.4 million four-digit PINs (2012: the
/// top 20 alone cover over a quarter of them) and Markert et al., "This PIN Can Be Easily
/// Guessed" (IEEE S&P 2020), which measured how blocklists such as Apple's cut the success of a
/// few guesses. What is refused:
/// - one digit repeated (`0000`, `111111`);
/// - straight runs up or down the digits, wrapping past 9 (`1234`, `4321`, `7890`, `345678`);
/// - a short block repeated (`1212`, `6969`, `123123`, `121212`);
/// - four-digit years 1900–2099 (birth years and dates dominate chosen PINs);
/// - the top of the published frequency lists and keypad shapes (`1004`, `2580`, `1122`,
///   `112233`, `147258`, `159753`, `789456`, …).
enum CommonPINs {
    /// Whether `pin` (already known to be 4–12 ASCII digits) is one of the refused ones.
    static func contains(_ pin: String) -> Bool {
        let digits = pin.utf8.map { Int($0) - 48 }
        return isRepeatedBlock(digits) || isStraightRun(digits) || isYear(digits) || listed.contains(pin)
    }

    /// A block of one to half the length, repeated to fill the PIN (`0000`, `1212`, `123123`).
    private static func isRepeatedBlock(_ digits: [Int]) -> Bool {
        (1...max(1, digits.count / 2)).contains { size in
            digits.count % size == 0 && digits.indices.allSatisfy { digits[$0] == digits[$0 % size] }
        }
    }

    /// Every step +1, or every step −1, modulo 10.
    private static func isStraightRun(_ digits: [Int]) -> Bool {
        [1, 9].contains { step in zip(digits, digits.dropFirst()).allSatisfy { ($0 + step) % 10 == $1 } }
    }

    private static func isYear(_ digits: [Int]) -> Bool {
        digits.count == 4 && (digits[0] == 1 && digits[1] == 9 || digits[0] == 2 && digits[1] == 0)
    }

    /// Frequent PINs the rules above miss: the DataGenetics top 20 and the most common six-digit
    /// PINs, keypad columns and diagonals, and doubled pairs.
    private static let listed: Set<String> = [
        "1004", "1122", "2580", "0852", "1470", "0741", "1590", "3570", "7531", "1357", "2468", "8642",
        "112233", "445566", "778899", "123321", "654456", "147258", "258369", "369258", "159753", "357951", "789456",
        "456123", "102030", "147852", "963852", "741852", "852456",
    ]
}
