// swift-tools-version:6.1
// 6.1: Hummingbird's traits.
import PackageDescription

/// BioAuth's server: what an operator runs (`bioauth serve | admin`), with the developer's tools
/// beside it (`bioauth-dev demo | bench`) and every test that needs a server. The wire protocol
/// and the client SDK come from the repository's root package.
let package = Package(
    name: "BioAuthServer",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "bioauth", targets: ["bioauth"]),
        .executable(name: "bioauth-dev", targets: ["BioAuthDevTool"]),
    ],
    dependencies: [
        .package(name: "BioAuth", path: ".."),
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1", traits: ["FullFoundation"]),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth.git", from: "2.5.0"),
        .package(url: "https://github.com/vapor/sql-kit.git", from: "3.33.0"),
        .package(url: "https://github.com/vapor/sqlite-kit.git", from: "4.5.2"),
        .package(url: "https://github.com/vapor/sqlite-nio.git", from: "1.13.2"),
        .package(url: "https://github.com/vapor/postgres-kit.git", from: "2.17.0"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/jpsim/Yams.git", from: "5.0.1"),
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift.git", from: "0.2.0"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.4"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
    ],
    targets: [
        // WebAuthn's ceremony core (as swift-webauthn's): strict CBOR, COSE keys, the Level 3 JSON
        // forms, the verification procedures and attestation formats; no storage, no networking.
        .target(
            name: "BioAuthWebAuthn",
            dependencies: [
                .product(name: "BioAuthProtocol", package: "BioAuth"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ]
        ),
        // Hardware evidence for device keys (as BioAuthWebAuthn is for passkeys): Android Key
        // Attestation and Apple App Attest, the roots they anchor on, the operator's policy; no
        // storage, no networking.
        .target(
            name: "BioAuthAttestation",
            dependencies: [
                .product(name: "BioAuthProtocol", package: "BioAuth"),
                "BioAuthWebAuthn",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ],
            resources: [.embedInCode("Resources/google-attestation-roots.pem"), .embedInCode("Resources/apple-app-attestation-root.pem")]
        ),
        .target(
            name: "BioAuthServer",
            dependencies: [
                .product(name: "BioAuthProtocol", package: "BioAuth"),
                "BioAuthWebAuthn",
                "BioAuthAttestation",
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "SQLiteKit", package: "sqlite-kit"),
                // SQLiteHandle also imports sqlite-nio's internal VaporCSQLite target, which cannot be
                // declared; its comment says why and what the fallback is.
                .product(name: "SQLiteNIO", package: "sqlite-nio"),
                .product(name: "PostgresKit", package: "postgres-kit"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                // The HTTP parts Hummingbird's pipeline passes (RequestDeadlineHandler reads them).
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                // Webhook deliveries to a service credential's backend (HTTPS, certificates checked).
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ],
            resources: [
                .embedInCode("Resources/openapi.yaml"),
                .embedInCode("Resources/confusables.txt"),
                // The account page: every file of AccountPage/web, each also in AccountPageAssets.
                .embedInCode("AccountPage/web/index.html"),
                .embedInCode("AccountPage/web/app.css"),
                .embedInCode("AccountPage/web/activity.js"),
                .embedInCode("AccountPage/web/api.js"),
                .embedInCode("AccountPage/web/app.js"),
                .embedInCode("AccountPage/web/confirmations.js"),
                .embedInCode("AccountPage/web/devices.js"),
                .embedInCode("AccountPage/web/dom.js"),
                .embedInCode("AccountPage/web/errors.js"),
                .embedInCode("AccountPage/web/format.js"),
                .embedInCode("AccountPage/web/guarded.js"),
                .embedInCode("AccountPage/web/items.js"),
                .embedInCode("AccountPage/web/managed-item.js"),
                .embedInCode("AccountPage/web/messages.js"),
                .embedInCode("AccountPage/web/passkey-sign-in.js"),
                .embedInCode("AccountPage/web/passkeys.js"),
                .embedInCode("AccountPage/web/password-reset.js"),
                .embedInCode("AccountPage/web/password.js"),
                .embedInCode("AccountPage/web/reauth.js"),
                .embedInCode("AccountPage/web/sessions.js"),
                .embedInCode("AccountPage/web/sign-in.js"),
                .embedInCode("AccountPage/web/signals.js"),
                .embedInCode("AccountPage/web/state.js"),
                .embedInCode("AccountPage/web/views.js"),
                .embedInCode("AccountPage/web/webauthn.js"),
                .embedInCode("AccountPage/web/words.js"),
            ]
        ),
        // The operator's command: `bioauth serve`, `bioauth admin`, `bioauth --version`.
        .executableTarget(
            name: "bioauth",
            dependencies: [
                .product(name: "BioAuthProtocol", package: "BioAuth"),
                "BioAuthServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        // What the tests, the demo and the bench share (as HummingbirdTesting is for hummingbird):
        // the in-process loopback server and its clock, the `bioauth` process, the ceremonies a
        // software device key or passkey performs (with CBOR encoding for them), throwaway
        // PostgreSQL databases and PIN keys, the test vectors.
        .target(
            name: "BioAuthTesting",
            dependencies: [
                .product(name: "BioAuthProtocol", package: "BioAuth"),
                .product(name: "BioAuthKit", package: "BioAuth"),
                "BioAuthServer",
                "BioAuthWebAuthn",
                "BioAuthAttestation",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "SQLKit", package: "sql-kit"),
            ]
        ),
        // The demo's scenario: every step and attack as a function returning what happened.
        .target(
            name: "BioAuthDemo",
            dependencies: [
                .product(name: "BioAuthKit", package: "BioAuth"),
                .product(name: "BioAuthSimulator", package: "BioAuth"),
                "BioAuthWebAuthn",
                "BioAuthAttestation",
                .product(name: "Crypto", package: "swift-crypto"),
                "BioAuthTesting",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "SQLiteKit", package: "sqlite-kit"),
            ]
        ),
        // The bench: a real server over loopback HTTP, many simulated devices, the machine's limits.
        .target(
            name: "BioAuthBench",
            dependencies: [
                .product(name: "BioAuthProtocol", package: "BioAuth"),
                "BioAuthServer",
                "BioAuthTesting",
                .product(name: "SQLKit", package: "sql-kit"),
                // The SQLite floor drives SQLite's C API (VaporCSQLite, as BioAuthServer's SQLiteHandle does).
                .product(name: "SQLiteNIO", package: "sqlite-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Histogram", package: "hdrhistogram-swift"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        // The developer's command: `bioauth-dev demo`, `bioauth-dev bench`.
        .executableTarget(
            name: "BioAuthDevTool",
            dependencies: [
                .product(name: "BioAuthProtocol", package: "BioAuth"),
                "BioAuthDemo",
                "BioAuthBench",
                "BioAuthTesting",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "BioAuthServerTests",
            dependencies: [
                "BioAuthServer",
                "BioAuthTesting",
                .product(name: "BioAuthProtocol", package: "BioAuth"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "SQLiteKit", package: "sqlite-kit"),
                .product(name: "SQLiteNIO", package: "sqlite-nio"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "PostgresKit", package: "postgres-kit"),
            ]
        ),
        // BioAuthKit and the simulated phone against a real server over loopback HTTP, and the
        // protocol's test vectors.
        .testTarget(
            name: "BioAuthClientTests",
            dependencies: [
                .product(name: "BioAuthKit", package: "BioAuth"),
                .product(name: "BioAuthSimulator", package: "BioAuth"),
                .product(name: "BioAuthProtocol", package: "BioAuth"),
                "BioAuthTesting",
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .testTarget(
            name: "BioAuthDemoTests",
            dependencies: [
                "BioAuthDemo",
                .product(name: "BioAuthKit", package: "BioAuth"),
                .product(name: "BioAuthSimulator", package: "BioAuth"),
                "BioAuthTesting",
            ]
        ),
        .testTarget(
            name: "BioAuthWebAuthnTests",
            dependencies: [
                "BioAuthWebAuthn",
                .product(name: "BioAuthProtocol", package: "BioAuth"),
                "BioAuthTesting",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
            ],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "BioAuthAttestationTests",
            dependencies: [
                "BioAuthAttestation",
                "BioAuthWebAuthn",
                .product(name: "BioAuthProtocol", package: "BioAuth"),
                "BioAuthTesting",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ],
            exclude: ["Fixtures"]
        ),
        // Property-based tests of every parser of untrusted bytes.
        .testTarget(
            name: "BioAuthPropertyTests",
            dependencies: [
                .product(name: "BioAuthProtocol", package: "BioAuth"),
                "BioAuthWebAuthn",
                "BioAuthTesting",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
