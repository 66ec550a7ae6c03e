/// Which apps an operator accepts App Attest keys from, and from which environment.
package struct AppAttestPolicy: Hashable, Sendable {
    /// `<Team ID>.<bundle id>`, as the App Store's entitlements name the app.
    package var appIDs: [String]
    /// Development builds attest with a different AAGUID; a production server takes only production.
    package var environment: AppAttestEnvironment

    /// A policy for `appIDs` in `environment`.
    package init(appIDs: [String], environment: AppAttestEnvironment = .production) {
        self.appIDs = appIDs
        self.environment = environment
    }
}

/// The App Attest environment the app's entitlement (`com.apple.developer.devicecheck.appattest-environment`) selects.
package enum AppAttestEnvironment: String, Hashable, Sendable, CaseIterable {
    /// The AAGUID `appattest` followed by seven zero bytes.
    case production
    /// The AAGUID `appattestdevelop`.
    case development

    /// The authenticator data's AAGUID in this environment.
    var aaguid: [UInt8] {
        switch self {
        case .production: Array("appattest".utf8) + Array(repeating: 0, count: 7)
        case .development: Array("appattestdevelop".utf8)
        }
    }
}
