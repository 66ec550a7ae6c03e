// swift-tools-version:6.1
import PackageDescription

/// An app team's own backend that trusts BioAuth's access tokens: it verifies them with jwt-kit
/// against BioAuth's published key set, and serves `GET /balance` and `POST /transfer`.
/// Copy this folder; it depends on nothing in this repository.
let package = Package(
    name: "ResourceServer",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "resource-server", targets: ["ResourceServer"])
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/vapor/jwt-kit.git", from: "5.7.1"),
    ],
    targets: [
        .executableTarget(
            name: "ResourceServer",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "JWTKit", package: "jwt-kit"),
            ]
        )
    ]
)
