import HTTPTypes
import Hummingbird
import NIOCore

/// The account page's files, compiled into the binary from `AccountPage/web` (each one listed in
/// Package.swift): the page, and by name what it loads from `/assets/`.
enum AccountPageAssets {
    /// One file as it is served.
    struct Asset: Sendable {
        /// The file's bytes.
        let bytes: [UInt8]
        /// Its `Content-Type`.
        let contentType: String
    }

    /// The page's policy: its own script and style files only, no inline code, no framing.
    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
        + "form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

    /// `GET /`.
    static let page = Asset(bytes: PackageResources.index_html, contentType: "text/html; charset=utf-8")

    /// `GET /assets/{name}`: the style sheet and the script's ES modules, by file name.
    static let byName: [String: Asset] = [
        "app.css": style(PackageResources.app_css),
        "activity.js": script(PackageResources.activity_js),
        "api.js": script(PackageResources.api_js),
        "app.js": script(PackageResources.app_js),
        "confirmations.js": script(PackageResources.confirmations_js),
        "devices.js": script(PackageResources.devices_js),
        "dom.js": script(PackageResources.dom_js),
        "errors.js": script(PackageResources.errors_js),
        "format.js": script(PackageResources.format_js),
        "guarded.js": script(PackageResources.guarded_js),
        "items.js": script(PackageResources.items_js),
        "managed-item.js": script(PackageResources.managed_item_js),
        "messages.js": script(PackageResources.messages_js),
        "passkey-sign-in.js": script(PackageResources.passkey_sign_in_js),
        "passkeys.js": script(PackageResources.passkeys_js),
        "password-reset.js": script(PackageResources.password_reset_js),
        "password.js": script(PackageResources.password_js),
        "reauth.js": script(PackageResources.reauth_js),
        "sessions.js": script(PackageResources.sessions_js),
        "sign-in.js": script(PackageResources.sign_in_js),
        "signals.js": script(PackageResources.signals_js),
        "state.js": script(PackageResources.state_js),
        "views.js": script(PackageResources.views_js),
        "webauthn.js": script(PackageResources.webauthn_js),
        "words.js": script(PackageResources.words_js),
    ]

    /// The answer that serves `asset`, with the page's security and caching headers.
    static func response(_ asset: Asset) -> Response {
        Response(
            status: .ok,
            headers: [
                .contentType: asset.contentType, .contentSecurityPolicy: contentSecurityPolicy, .xContentTypeOptions: "nosniff",
                HTTPField.Name("Referrer-Policy")!: "no-referrer", .cacheControl: "no-cache",
            ],
            body: .init(byteBuffer: ByteBuffer(bytes: asset.bytes))
        )
    }

    /// A script; a browser runs an ES module only when it is served as JavaScript.
    private static func script(_ bytes: [UInt8]) -> Asset {
        Asset(bytes: bytes, contentType: "text/javascript; charset=utf-8")
    }

    /// A style sheet.
    private static func style(_ bytes: [UInt8]) -> Asset {
        Asset(bytes: bytes, contentType: "text/css; charset=utf-8")
    }
}
