/// Comparisons of secrets (MACs, CSRF tokens) whose time does not tell how many leading bytes matched.
enum ConstantTime {
    /// Whether `a` and `b` hold the same bytes; only a difference in length returns early.
    static func equals(_ a: some Collection<UInt8>, _ b: some Collection<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
