// swift-tools-version:6.1
import PackageDescription

// A native host with one custom method, built on the WalletBridge library of this repository.
// Build: `swift build` in this folder; the binary is .build/debug/ping-host.
let package = Package(
    name: "custom-method-example",
    dependencies: [
        .package(name: "wallet-bridge", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "ping-host",
            dependencies: [.product(name: "WalletBridge", package: "wallet-bridge")]
        ),
    ]
)
