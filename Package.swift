// swift-tools-version:6.0
// 6.0: the lowest that states the Swift 6 language mode, which checks the SDK for data races.
import PackageDescription

/// BioAuth's client SDK: what an app links.
///
/// BioAuthKit (and the wire protocol it re-exports) depends on nothing but the platform on Apple
/// systems: Foundation, CryptoKit, Security and LocalAuthentication. Where CryptoKit is missing
/// (Linux, Android, Windows) swift-crypto stands in for it. The server, its tools and the tests
/// that need a running server are the package in `server/`.
let cryptoWhereCryptoKitIsMissing: Target.Dependency = .product(
    name: "Crypto",
    package: "swift-crypto",
    condition: .when(platforms: [.linux, .android, .windows])
)

let package = Package(
    name: "BioAuth",
    platforms: [.iOS(.v15), .macOS(.v12)],
    products: [
        .library(name: "BioAuthKit", targets: ["BioAuthKit"]),
        .library(name: "BioAuthProtocol", targets: ["BioAuthProtocol"]),
        .library(name: "BioAuthSimulator", targets: ["BioAuthSimulator"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0")
    ],
    targets: [
        // The wire contract every client and the server share: messages, encodings, limits.
        .target(name: "BioAuthProtocol", dependencies: [cryptoWhereCryptoKitIsMissing]),
        // The client SDK.
        // Its privacy manifest: no tracking, no data collected by the SDK for itself (the app's own
        // server receives what the app signs in with), none of the APIs Apple asks a reason for.
        .target(
            name: "BioAuthKit",
            dependencies: ["BioAuthProtocol", cryptoWhereCryptoKitIsMissing],
            resources: [.copy("PrivacyInfo.xcprivacy")]
        ),
        // A software model of the phone's secure hardware, sensor, user and attacker.
        .target(name: "BioAuthSimulator", dependencies: ["BioAuthKit", cryptoWhereCryptoKitIsMissing]),
        .testTarget(name: "BioAuthProtocolTests", dependencies: ["BioAuthProtocol", cryptoWhereCryptoKitIsMissing]),
        .testTarget(name: "BioAuthKitTests", dependencies: ["BioAuthKit", "BioAuthSimulator", cryptoWhereCryptoKitIsMissing]),
    ],
    swiftLanguageModes: [.v6]
)
