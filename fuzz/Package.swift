// swift-tools-version:6.1
import PackageDescription

// libFuzzer targets for the parsers of untrusted bytes: the host's three, and the agent's socket. Built and run by
// scripts/fuzz.sh: with `-sanitize=fuzzer,address -DFUZZING` each target is a libFuzzer binary;
// built plainly (as the test command does) each replays corpus files once, so the seed corpus
// and every past crash stay regression tests.
let package = Package(
    name: "wallet-bridge-fuzz",
    dependencies: [.package(name: "wallet-bridge", path: "..")],
    targets: [
        .target(name: "FuzzSupport"),
        .executableTarget(
            name: "fuzz-frame-decoder",
            dependencies: ["FuzzSupport", .product(name: "WalletBridge", package: "wallet-bridge")]
        ),
        .executableTarget(
            name: "fuzz-json-rpc",
            dependencies: [
                "FuzzSupport",
                .product(name: "WalletBridge", package: "wallet-bridge"),
                .product(name: "WalletBridgeConformance", package: "wallet-bridge"),
            ]
        ),
        .executableTarget(
            name: "fuzz-agent-protocol",
            dependencies: ["FuzzSupport", .product(name: "WalletBridgeAgent", package: "wallet-bridge")]
        ),
        .executableTarget(
            name: "fuzz-keystore",
            dependencies: ["FuzzSupport", .product(name: "WalletBridgeWallet", package: "wallet-bridge")]
        ),
        .executableTarget(
            name: "fuzz-eip712",
            dependencies: ["FuzzSupport", .product(name: "WalletBridgeWallet", package: "wallet-bridge")]
        ),
        .executableTarget(
            name: "fuzz-evm-transaction",
            dependencies: ["FuzzSupport", .product(name: "WalletBridgeWallet", package: "wallet-bridge")]
        ),
        .executableTarget(
            name: "fuzz-solana-transaction",
            dependencies: ["FuzzSupport", .product(name: "WalletBridgeWallet", package: "wallet-bridge")]
        ),
    ]
)
