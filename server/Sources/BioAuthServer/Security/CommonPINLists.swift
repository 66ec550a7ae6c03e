/// Published lists of the PINs people choose most, as data for `CommonPINs`' rules.
///
/// The study the rules follow is Markert, Bailey, Golla, Dürmuth and Aviv, "This PIN Can Be Easily
/// Guessed: Analyzing the Security of Smartphone Unlock PINs", IEEE S&P 2020, pp. 286–303
/// (arXiv:2003.04868). Its site, https://this-pin-can-be-easily-guessed.github.io (GitHub
/// `This-PIN-Can-Be-Easily-Guessed/This-PIN-Can-Be-Easily-Guessed.github.io`, `index.html`,
/// "Blocklists" table), offers the blocklists the study measured only as zip files:
/// `iOS-4-digit` (274 PINs) and `iOS-6-digit` (2,910 PINs), Apple's lists as of iOS 10.3, found by
/// brute force; `DD-4-digit-27` and `DD-4-digit-2740`, data-driven lists of the most common
/// Amitay-4-digit PINs. The repository states no licence. Apple's two lists could not be read as
/// text, so they are not copied here; the lists below are the ones published as text, each with
/// its source. Several are wholly covered by `CommonPINs`' pattern rules as well; they stay listed
/// so that the published data is checked as published.
enum CommonPINLists {
    /// Markert et al.'s ten most common 4-digit PINs (the Amitay-4-digit data set: 204,432 PINs
    /// set in an iPhone app's lock screen, Amitay 2011), most common first.
    ///
    /// As given in the Ruhr-Universität Bochum press release of March 2020 ("sorted by descending
    /// popularity"), quoted by Süddeutsche Zeitung and Macwelt; the same ten Amitay published in
    /// 2011. 10 PINs.
    static let markertTopFourDigit: Set<String> = [
        "1234", "0000", "2580", "1111", "5555", "5683", "0852", "2222", "1212", "1998",
    ]

    /// Markert et al.'s ten most common 6-digit PINs (the RockYou-6-digit data set: 2,758,490
    /// 6-digit runs in the RockYou password leak), most common first.
    ///
    /// Same source as `markertTopFourDigit`. 10 PINs.
    static let markertTopSixDigit: Set<String> = [
        "123456", "654321", "111111", "000000", "123123", "666666", "121212", "112233", "789456", "159753",
    ]

    /// The 27 most common Amitay-4-digit PINs: Markert et al.'s small blocklist `DD-4-digit-27`
    /// ("Top Amitay", 0.27 % of the 4-digit space), most common first.
    ///
    /// Quoted by iphone-ticker.de as an extract of the study's published lists (there labelled as
    /// Apple's list, but it is in popularity order, has exactly 27 PINs and opens with the Amitay
    /// top ten, so it is `DD-4-digit-27`); not checked against the zip file. 27 PINs.
    static let markertBlocklistFourDigit27: Set<String> = [
        "1234", "0000", "2580", "1111", "5555", "5683", "0852", "2222", "1212", "1998",
        "6969", "1379", "1997", "2468", "9999", "7777", "1996", "2011", "3333", "1999",
        "8888", "1995", "2525", "1590", "1235", "1994", "4444",
    ]

    /// The DataGenetics top 20 of 3.4 million 4-digit PINs from leaked password tables
    /// (Nick Berry, "PIN Analysis", 2012; together 26.83 % of the data), most common first. 20 PINs.
    static let dataGeneticsTopFourDigit: Set<String> = [
        "1234", "1111", "0000", "1212", "7777", "1004", "2000", "4444", "2222", "6969",
        "9999", "3333", "5555", "6666", "1122", "1313", "8888", "4321", "2001", "1010",
    ]

    /// The PINs the earlier rules listed, kept: keypad shapes (`2580`, `147258`, `159753`, …),
    /// doubled digits (`1122`, `112233`, …) and `1004`. 29 PINs.
    static let earlierListed: Set<String> = [
        "1004", "1122", "2580", "0852", "1470", "0741", "1590", "3570", "7531", "1357", "2468", "8642",
        "112233", "445566", "778899", "123321", "654456", "147258", "258369", "369258", "159753", "357951",
        "789456", "456123", "102030", "147852", "963852", "741852", "852456",
    ]
}
