import Foundation

/// The histograms in one scrape of a server's Prometheus text: for each series, its cumulative
/// bucket counts and its sum.
struct MetricsScrape: Sendable {
    /// One histogram series: a metric name and its labels but `le`.
    struct Series: Hashable, Sendable {
        var name: String
        var labels: [String: String]
    }

    /// Cumulative counts by upper bound (`+Inf` included), and the sum of the observed values.
    struct Histogram: Sendable {
        var buckets: [Double: Double] = [:]
        var sum: Double = 0
    }

    private(set) var histograms: [Series: Histogram] = [:]

    /// Parses the `_bucket` and `_sum` lines of `text`; anything else is skipped.
    init(_ text: String) {
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else { continue }
            let (name, labels) = Self.parse(line[..<space])
            if name.hasSuffix("_bucket"), let le = labels["le"], let bound = Double(le == "+Inf" ? "inf" : le) {
                var rest = labels
                rest["le"] = nil
                histograms[Series(name: String(name.dropLast("_bucket".count)), labels: rest), default: Histogram()].buckets[bound] = value
            } else if name.hasSuffix("_sum") {
                histograms[Series(name: String(name.dropLast("_sum".count)), labels: labels), default: Histogram()].sum = value
            }
        }
    }

    /// `name{a="x",b="y"}` as its name and labels (label values hold no quotes or commas here).
    private static func parse(_ series: Substring) -> (String, [String: String]) {
        guard let open = series.firstIndex(of: "{"), series.last == "}" else { return (String(series), [:]) }
        var labels: [String: String] = [:]
        for pair in series[series.index(after: open)..<series.index(before: series.endIndex)].split(separator: ",") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2 else { continue }
            labels[String(parts[0])] = String(parts[1].trimmingCharacters(in: ["\""]))
        }
        return (String(series[..<open]), labels)
    }

    /// What the series of `name` whose labels include `labels` observed since `earlier`, summed
    /// over their other labels.
    func change(_ name: String, labels: [String: String] = [:], since earlier: MetricsScrape) -> Histogram {
        var total = Histogram()
        for (series, now) in histograms where series.name == name && labels.allSatisfy({ series.labels[$0.key] == $0.value }) {
            let before = earlier.histograms[series] ?? Histogram()
            for (bound, count) in now.buckets { total.buckets[bound, default: 0] += count - (before.buckets[bound] ?? 0) }
            total.sum += now.sum - before.sum
        }
        return total
    }
}

extension MetricsScrape.Histogram {
    /// Both histograms' observations together (their buckets must be the same).
    static func + (lhs: Self, rhs: Self) -> Self {
        Self(buckets: lhs.buckets.merging(rhs.buckets, uniquingKeysWith: +), sum: lhs.sum + rhs.sum)
    }

    /// Observations.
    var count: Double { buckets[.infinity] ?? 0 }

    /// The upper bound of the bucket holding the `quantile`th observation; `nil` when it lies
    /// above the largest finite bound, or nothing was observed.
    func bound(atQuantile quantile: Double) -> Double? {
        guard count > 0 else { return nil }
        let bound = buckets.sorted { $0.key < $1.key }.first { $0.value >= quantile * count }?.key
        return bound.flatMap { $0.isFinite ? $0 : nil }
    }
}
