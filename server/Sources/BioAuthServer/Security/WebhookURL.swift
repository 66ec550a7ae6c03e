import Foundation

/// Where a service credential's events may be posted: an absolute `https` URL, or `http` only to
/// this machine (`localhost`, `127.0.0.1`, `::1`), with a host and no user or fragment.
enum WebhookURL {
    /// Whether `text` is such a URL (at most 2,048 bytes).
    static func isAcceptable(_ text: String) -> Bool {
        guard text.utf8.count <= 2048, let url = URLComponents(string: text), let host = url.host, !host.isEmpty,
            url.user == nil, url.password == nil, url.fragment == nil
        else { return false }
        switch url.scheme?.lowercased() {
        case "https": return true
        case "http": return ["localhost", "127.0.0.1", "::1", "[::1]"].contains(host.lowercased())
        default: return false
        }
    }
}
