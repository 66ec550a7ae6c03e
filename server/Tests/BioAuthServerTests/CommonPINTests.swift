import Testing

@testable import BioAuthServer

/// What `CommonPINs` refuses: calendar dates, digit patterns and the published top lists, and no
/// more than about a tenth of the PIN space.
@Suite("Common PINs")
struct CommonPINTests {
    @Test(
        "calendar dates are refused, day first, month first and year first",
        arguments: [
            "1225", "0815", "3105", "2512", "0229", "2902", "311299", "123199", "991231", "250590",
            "25121990", "12251990", "19901225",
        ]
    )
    func datesRefused(pin: String) {
        #expect(CommonPINs.contains(pin))
    }

    @Test(
        "days no month has, and 8-digit dates outside 1900–2099, are not dates",
        arguments: ["3102", "3104", "0231", "3113", "321299", "25121899", "31022100"]
    )
    func impossibleDatesAccepted(pin: String) {
        #expect(!CommonPINs.contains(pin))
    }

    @Test(
        "the review's six-digit patterns are refused, and so are their kin",
        arguments: ["111222", "123654", "222333", "999000", "123321", "321456", "987123", "112233", "147258", "159753"]
    )
    func reviewPatternsRefused(pin: String) {
        #expect(CommonPINs.contains(pin))
    }

    @Test("every PIN on the published lists is refused")
    func publishedListsRefused() {
        for (name, list) in Self.publishedLists {
            for pin in list {
                #expect(CommonPINs.contains(pin), "\(pin), on \(name)")
            }
        }
    }

    @Test("the published lists hold what their sources give: 10, 10, 27, 20 and 29 PINs of 4 or 6 digits")
    func publishedListsAsPublished() {
        #expect(Self.publishedLists.map(\.pins.count) == [10, 10, 27, 20, 29])
        #expect(CommonPINLists.markertTopFourDigit.allSatisfy { $0.count == 4 })
        #expect(CommonPINLists.markertTopSixDigit.allSatisfy { $0.count == 6 })
        #expect(CommonPINLists.markertTopFourDigit.isSubset(of: CommonPINLists.markertBlocklistFourDigit27))
        for (_, list) in Self.publishedLists {
            #expect(list.allSatisfy { pin in [4, 6].contains(pin.count) && pin.utf8.allSatisfy { (48...57).contains($0) } })
        }
    }

    @Test(
        "uncommon PINs are accepted",
        arguments: [
            "4921", "6803", "3917", "8068", "5832", "7639", "583920", "902817", "482916", "246810",
            "58213", "80417362", "4096217583",
        ]
    )
    func uncommonPINsAccepted(pin: String) {
        #expect(!CommonPINs.contains(pin))
    }

    @Test(
        "the earlier rules still hold: runs, repeats, years, keypad shapes",
        arguments: ["0000", "1234", "4321", "7890", "1212", "1990", "2013", "2580", "1004", "123123", "000000", "0123456789"]
    )
    func earlierRulesHold(pin: String) {
        #expect(CommonPINs.contains(pin))
    }

    @Test("every rule has its own name and refuses some PIN")
    func rulesNamedAndUsed() {
        let names = CommonPINs.rules.map(\.name)
        #expect(Set(names).count == names.count)
        let samples = ["1212", "1234", "2468", "1122", "123654", "1990", "1225", "5683", "159753", "1379", "1004", "0741"]
        for rule in CommonPINs.rules {
            #expect(samples.contains { pin in rule.refuses(pin, pin.utf8.map { Int($0) - 48 }) }, "\(rule.name)")
        }
    }

    @Test(
        "about a tenth of the space is refused: 975 of 10,000 4-digit PINs, 88,414 of 1,000,000 6-digit ones",
        arguments: [(4, 975), (6, 88_414)]
    )
    func refusedShare(width: Int, refused: Int) {
        // Markert et al. suggest a blocklist of about 10 % of the space. Checks every PIN of the
        // width (some seconds for 6 digits in a debug build); CommonPINs' doc comment quotes these.
        #expect(Self.refused(width: width) == refused)
    }

    /// The published lists, named.
    static let publishedLists: [(name: String, pins: Set<String>)] = [
        ("Markert et al. top 10, 4 digits", CommonPINLists.markertTopFourDigit),
        ("Markert et al. top 10, 6 digits", CommonPINLists.markertTopSixDigit),
        ("Markert et al. DD-4-digit-27", CommonPINLists.markertBlocklistFourDigit27),
        ("DataGenetics top 20", CommonPINLists.dataGeneticsTopFourDigit),
        ("earlier list", CommonPINLists.earlierListed),
    ]

    /// How many of the PINs of `width` digits are refused.
    static func refused(width: Int) -> Int {
        let total = (0..<width).reduce(1) { product, _ in product * 10 }
        return (0..<total).count { number in
            let digits = String(number)
            return CommonPINs.contains(String(repeating: "0", count: width - digits.count) + digits)
        }
    }
}
