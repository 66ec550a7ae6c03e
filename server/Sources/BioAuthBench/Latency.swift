import Histogram

/// Latency percentiles in milliseconds, read off an HDR histogram of microseconds.
package struct Latency: Codable, Sendable {
    /// Median.
    package var p50: Double
    /// 90th percentile.
    package var p90: Double
    /// 99th percentile.
    package var p99: Double
    /// 99.9th percentile.
    package var p999: Double
    /// The slowest.
    package var max: Double
    /// The mean.
    package var mean: Double

    /// The summary of `histogram` (values in microseconds).
    init(_ histogram: Histogram<UInt64>) {
        func milliseconds(_ percentile: Double) -> Double { Double(histogram.valueAtPercentile(percentile)) / 1_000 }
        p50 = milliseconds(50)
        p90 = milliseconds(90)
        p99 = milliseconds(99)
        p999 = milliseconds(99.9)
        max = Double(histogram.max) / 1_000
        mean = histogram.mean / 1_000
    }

    /// An empty histogram for microsecond latencies up to a minute, three significant digits.
    static func makeHistogram() -> Histogram<UInt64> {
        Histogram(lowestDiscernibleValue: 1, highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: .three)
    }
}
