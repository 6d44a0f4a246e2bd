// swift-tools-version:6.1
import PackageDescription

// A native host with custom methods, built on the WalletBridge library of this repository, and
// the tests that run its fixture file (Fixtures/ping.json) against it.
// Build: `swift build` in this folder; the binary is .build/debug/ping-host. Test: `swift test`.
let package = Package(
    name: "custom-method-example",
    dependencies: [
        .package(name: "wallet-bridge", path: "../..")
    ],
    targets: [
        // The methods and the router that serves them: what the host runs, and what the tests
        // run in process.
        .target(
            name: "PingMethods",
            dependencies: [.product(name: "WalletBridge", package: "wallet-bridge")]
        ),
        .executableTarget(
            name: "ping-host",
            dependencies: ["PingMethods", .product(name: "WalletBridge", package: "wallet-bridge")]
        ),
        // The fixture file against the built ping-host (`swift test` builds it beside the tests)
        // and against makePingRouter() in process.
        .testTarget(
            name: "PingHostTests",
            dependencies: ["PingMethods", .product(name: "WalletBridgeTesting", package: "wallet-bridge")]
        ),
    ]
)
