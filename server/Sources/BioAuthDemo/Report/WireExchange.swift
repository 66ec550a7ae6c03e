/// One HTTP request and its answer, as an eavesdropper would see them, except that every token,
/// key, signature and challenge is abbreviated (`bat_s4j2…xgeM`) and passwords and PINs are masked.
package struct WireExchange: Codable, Sendable, Equatable {
    /// `POST`, `GET`, …
    package var method: String
    /// The path, e.g. `/v1/sessions/password`.
    package var path: String
    /// The abbreviated bearer token, when the request carried one.
    package var bearer: String?
    /// The request body, abbreviated (nested objects shown as `{…}`).
    package var request: String?
    /// The HTTP status of the answer (0 when none came).
    package var status: Int
    /// The answer body, abbreviated.
    package var response: String?

    /// Creates an exchange.
    package init(method: String, path: String, bearer: String? = nil, request: String? = nil, status: Int, response: String? = nil) {
        self.method = method
        self.path = path
        self.bearer = bearer
        self.request = request
        self.status = status
        self.response = response
    }
}
