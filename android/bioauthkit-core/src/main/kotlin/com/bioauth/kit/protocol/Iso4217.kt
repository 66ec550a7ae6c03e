package com.bioauth.kit.protocol

/**
 * Active ISO 4217 currency codes and their minor units (the ISO 4217 list of 2025: funds codes
 * included; precious metals, testing and "no currency" codes left out, having no minor units): the
 * Swift `ISO4217` table, code for code.
 */
internal object Iso4217 {
    /** Each code's digits after the decimal point. */
    val minorDigits: Map<String, Int> = mapOf(
        0 to "BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX UYI VND VUV XAF XOF XPF",
        2 to """
            AED AFN ALL AMD AOA ARS AUD AWG AZN BAM BBD BDT BGN BMD BND BOB BOV BRL BSD BTN BWP BYN BZD CAD
            CDF CHE CHF CHW CNY COP COU CRC CUP CVE CZK DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP
            GMD GTQ GYD HKD HNL HTG HUF IDR ILS INR IRR JMD KES KGS KHR KPW KYD KZT LAK LBP LKR LRD LSL MAD
            MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MXV MYR MZN NAD NGN NIO NOK NPR NZD PAB PEN PGK PHP
            PKR PLN QAR RON RSD RUB SAR SBD SCR SDG SEK SGD SHP SLE SOS SRD SSP STN SVC SYP SZL THB TJS TMT
            TOP TRY TTD TWD TZS UAH USD USN UYU UZS VED VES WST XCD XCG YER ZAR ZMW ZWG
        """,
        3 to "BHD IQD JOD KWD LYD OMR TND",
        4 to "CLF UYW",
    ).flatMap { (digits, codes) -> codes.trim().split(Regex("\\s+")).map { it to digits } }.toMap()
}
