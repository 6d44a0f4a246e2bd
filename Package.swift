// swift-tools-version:6.1
import PackageDescription

// Layers, each depending only on the ones above it (README.md, "Layout", gives a request's path):
//   WalletBridgeFraming   the 4-byte length and the body: one encoder and one decoder
//   WalletBridgeProtocol  JSON values and parser, requests, ids, responses, errors, method types; no I/O
//   WalletBridgeSystem    package-only OS plumbing: spawn, child processes, signals, SystemCall (EINTR), atomic files,
//                         user folders, file stamps, FolderWatch, the Unix socket and FrameReader, Log, DisplayText
//   WalletBridgeClient    the client side of JSON-RPC: one connection, replies matched by id, notifications queued
//   WalletBridgeHost      router, server, in-flight table, timeouts, caller
//   WalletBridgeStdio     the stdio transport: read loop, frame writer, parent watch, shutdown
//   WalletBridge          the library extension developers import: re-exports the layers above (System for Log)
//   WalletBridgeKeys      keystore, recovery, Ethereum keys/Keccak/EIP-712, chain ids, crypto wrappers, encodings
//   WalletBridgeTransactions  the Solana and EVM transaction decoders, their summaries and dialog layout; pure
//   WalletBridgeConsent   pinentry, Assuan, consent queue, dialogs, extension names, audit log, sign-in, caller policy
//   WalletBridgeSessions  sessions, namespaces, the session_* methods and their store
//   WalletBridgeWallet    the keystore wallet and its configuration, ConnectedAccounts; re-exports Keys and Consent
//   WalletBridgeAgent     the agent that keeps keys unlocked, and the host's client of it
//   WalletBridgeShippedHost  the shipped host's router: the keystore wallet or the agent-backed wallet
//   WalletBridgeFixtures  the shared fixture format and its runner, for any host built on WalletBridge
//   WalletBridgeTesting   one-line fixture tests for XCTest and Swift Testing (test targets only)
//   WalletBridgeCLI       the `wallet-bridge` subcommands for people (keys, install, doctor, call, conform, describe, new,
//                         agent, lock, log, sessions)
//   wallet-bridge         the shipped executable: the browser launch path never touches the CLI
let package = Package(
    name: "wallet-bridge",
    // Linux only (Glibc, /proc, statfs, native-messaging folders), so no Apple platform is
    // claimed: `platforms` sets only minimum Apple versions, and naming one promised a build there.
    products: [
        .library(name: "WalletBridge", targets: ["WalletBridge"]),
        // The default wallet, with the layers under it that the fuzzers (fuzz/) reach through
        // `@_spi(Fuzzing)`: the keystore and EIP-712 (WalletBridgeKeys), the transaction decoders.
        .library(
            name: "WalletBridgeWallet",
            targets: ["WalletBridgeWallet", "WalletBridgeKeys", "WalletBridgeTransactions", "WalletBridgeConsent"]),
        // For extension developers' test targets: their fixture files against their host.
        .library(name: "WalletBridgeTesting", targets: ["WalletBridgeTesting"]),
        .executable(name: "wallet-bridge", targets: ["wallet-bridge"]),
        .executable(name: "wallet-bridge-conformance-host", targets: ["wallet-bridge-conformance-host"]),
        .library(name: "WalletBridgeConformance", targets: ["WalletBridgeConformance"]),
        // For the fuzzers (fuzz/): the agent's socket protocol, through `@_spi(Fuzzing)`.
        .library(name: "WalletBridgeAgent", targets: ["WalletBridgeAgent"]),
    ],
    // Every module a package brings is linked whole into the static shipped binary, so a package
    // earns its place only where it beats its cost there. Weighed and left: attaswift/BigInt
    // (it imports Foundation, which then links in whole; UInt256 is four limbs),
    // swift-collections' Deque (its modules are larger than the short, bounded queues it would
    // hold, and ConsentQueue is built on the cold call), swift-system (SystemCall is the one
    // EINTR rule already), swift-subprocess (async only, and it finds posix_spawn's closefrom
    // and chdir actions with dlsym, which finds nothing in a static binary; Spawn links them).
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0")
    ],
    targets: [
        // What Swift's Glibc module leaves out (Sources/CLinux/shim.h lists each and why): pipe
        // sizes, child-process spawn actions and pidfds, socket calls and peer credentials, the
        // no-core-dump flag, and signals aimed at one thread.
        .systemLibrary(name: "CLinux"),
        .target(name: "WalletBridgeFraming"),
        .target(name: "WalletBridgeProtocol"),
        // Package-only (no product): the operating system's plumbing that every layer above shares.
        .target(name: "WalletBridgeSystem", dependencies: ["WalletBridgeFraming", "CLinux"]),
        .target(
            name: "WalletBridgeClient",
            dependencies: ["WalletBridgeFraming", "WalletBridgeProtocol", "WalletBridgeSystem", "CLinux"]),
        .target(
            name: "WalletBridgeHost",
            dependencies: ["WalletBridgeFraming", "WalletBridgeProtocol", "WalletBridgeSystem"]),
        .target(
            name: "WalletBridgeStdio",
            dependencies: [
                "WalletBridgeHost", "WalletBridgeFraming", "WalletBridgeProtocol", "WalletBridgeSystem", "CLinux",
            ]),
        .target(
            name: "WalletBridge",
            dependencies: [
                "WalletBridgeFraming", "WalletBridgeProtocol", "WalletBridgeSystem", "WalletBridgeHost",
                "WalletBridgeStdio",
            ]),
        // libsodium: the keystore's cryptography (Argon2id, XChaCha20-Poly1305, Ed25519), secure
        // memory for secrets, the CSPRNG, SHA-256, and the HMAC-SHA512 of SLIP-0010.
        .systemLibrary(
            name: "CSodium",
            pkgConfig: "libsodium",
            providers: [.apt(["libsodium-dev"])]
        ),
        // nettle: PBKDF2-HMAC-SHA512, the BIP-39 phrase-to-seed step, which libsodium lacks, and
        // the Keccak-f[1600] permutation (`sha3_permute`) under Ethereum's Keccak-256.
        // Only the functions called are linked into the static release binary.
        .systemLibrary(
            name: "CNettle",
            pkgConfig: "nettle",
            providers: [.apt(["nettle-dev"])]
        ),
        // libsecp256k1: Ethereum's keys and signatures (ECDSA with public-key recovery), and the
        // scalar and point additions of BIP-32's non-hardened children.
        .systemLibrary(
            name: "CSecp256k1",
            pkgConfig: "libsecp256k1",
            providers: [.apt(["libsecp256k1-dev"])]
        ),
        .target(
            name: "WalletBridgeKeys",
            dependencies: ["WalletBridgeProtocol", "WalletBridgeSystem", "CSodium", "CNettle", "CSecp256k1"]),
        .target(
            name: "WalletBridgeTransactions",
            dependencies: ["WalletBridgeKeys", "WalletBridgeProtocol", "WalletBridgeSystem"]),
        .target(
            name: "WalletBridgeConsent",
            dependencies: [
                "WalletBridgeTransactions", "WalletBridgeKeys", "WalletBridgeHost", "WalletBridgeProtocol",
                "WalletBridgeSystem",
                "CSodium", "CLinux",
            ]
        ),
        .target(
            name: "WalletBridgeSessions",
            dependencies: [
                "WalletBridgeConsent", "WalletBridgeTransactions", "WalletBridgeKeys", "WalletBridgeHost",
                "WalletBridgeProtocol",
                "WalletBridgeSystem",
            ]
        ),
        .target(
            name: "WalletBridgeWallet",
            dependencies: [
                "WalletBridgeSessions", "WalletBridgeConsent", "WalletBridgeTransactions", "WalletBridgeKeys",
                "WalletBridgeHost",
                "WalletBridgeProtocol", "WalletBridgeSystem", "CLinux",
            ]
        ),
        .target(
            name: "WalletBridgeAgent",
            dependencies: [
                "WalletBridgeWallet", "WalletBridgeSessions", "WalletBridgeConsent", "WalletBridgeKeys",
                "WalletBridgeHost",
                "WalletBridgeProtocol", "WalletBridgeFraming", "WalletBridgeSystem", "WalletBridgeClient", "CLinux",
            ]
        ),
        // The shipped host's router: the keystore wallet, or the agent-backed wallet that forwards
        // to the agent. Above the agent because it uses the agent's client.
        .target(
            name: "WalletBridgeShippedHost",
            dependencies: [
                "WalletBridgeAgent", "WalletBridgeWallet", "WalletBridgeSessions", "WalletBridgeKeys",
                "WalletBridgeHost",
                "WalletBridgeProtocol", "WalletBridgeSystem",
            ]
        ),
        // No XCTest or Testing here: the CLI (`conform`, `describe`) links it.
        .target(
            name: "WalletBridgeFixtures", dependencies: ["WalletBridge", "WalletBridgeSystem", "WalletBridgeClient"]),
        .target(name: "WalletBridgeTesting", dependencies: ["WalletBridgeFixtures"]),
        .target(
            name: "WalletBridgeCLI",
            dependencies: [
                "WalletBridge", "WalletBridgeSystem", "WalletBridgeKeys", "WalletBridgeConsent", "WalletBridgeSessions",
                "WalletBridgeWallet", "WalletBridgeAgent", "WalletBridgeShippedHost", "WalletBridgeFixtures",
                "WalletBridgeClient",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "wallet-bridge",
            dependencies: [
                "WalletBridge", "WalletBridgeConsent", "WalletBridgeWallet", "WalletBridgeAgent",
                "WalletBridgeShippedHost",
                "WalletBridgeCLI",
            ]
        ),
        // Test-only methods and the in-memory test wallet: what the shared fixtures, the JS
        // suite, the end-to-end tests and the fuzzers (fuzz/) drive. Never installed for users.
        .target(
            name: "WalletBridgeConformance",
            dependencies: [
                "WalletBridge", "WalletBridgeSystem", "WalletBridgeKeys", "WalletBridgeTransactions",
                "WalletBridgeConsent",
                "WalletBridgeSessions", "WalletBridgeWallet",
            ]
        ),
        .executableTarget(
            name: "wallet-bridge-conformance-host",
            dependencies: [
                "WalletBridge", "WalletBridgeSystem", "WalletBridgeKeys", "WalletBridgeWallet",
                "WalletBridgeConformance",
            ]
        ),
        // What every test target shares: `ManualClock`, `waitUntil`, temporary folders. Never in a
        // product.
        // Also the keystore tests' helpers (weak KDF, secure bytes, fixed seeds, the scripted pinentry's
        // path), hand-made Solana transactions and test keys, summaries from plain text.
        .target(
            name: "WalletBridgeTestSupport",
            dependencies: [
                "WalletBridgeProtocol", "WalletBridgeSystem", "WalletBridgeKeys", "WalletBridgeTransactions",
            ]
        ),
        // A test target per module, named after it (FooTests.swift tests Foo.swift; README
        // "Tests" lists the modules tested elsewhere, and the targets named after no module); a
        // test that goes through the router to reach its subject imports the layers above it too.
        .testTarget(name: "FramingTests", dependencies: ["WalletBridge"]),
        .testTarget(
            name: "ProtocolTests",
            dependencies: ["WalletBridge", "WalletBridgeFraming", "WalletBridgeProtocol", "WalletBridgeHost"]
        ),
        .testTarget(
            name: "ClientTests", dependencies: ["WalletBridgeClient", "WalletBridgeFraming", "WalletBridgeProtocol"]),
        .testTarget(
            name: "HostTests",
            dependencies: ["WalletBridgeTestSupport", "WalletBridge", "WalletBridgeHost", "WalletBridgeProtocol"]
        ),
        .testTarget(
            name: "StdioTests",
            dependencies: [
                "WalletBridge", "WalletBridgeHost", "WalletBridgeProtocol", "WalletBridgeStdio", "WalletBridgeSystem",
            ]
        ),
        // Rules over every file in Sources (read by path): no writes to stdout outside the frame
        // writer and the CLI's console, no import of the whole of Foundation.
        .testTarget(name: "SourceRulesTests", dependencies: ["WalletBridgeSystem"]),
        // Drives the built executables over real pipes; reads Tests/Fixtures by path.
        .testTarget(
            name: "HostProcessTests", dependencies: ["WalletBridgeTestSupport", "WalletBridge", "WalletBridgeTesting"]),
        // The fixture library's own parts: file checks, the reply diff, the in-process runner.
        .testTarget(
            name: "WalletBridgeFixturesTests",
            dependencies: [
                "WalletBridgeTestSupport", "WalletBridgeFixtures", "WalletBridgeConformance", "WalletBridgeWallet",
            ]),
        // install, uninstall, doctor, call, conform, describe, keys, log: unit tests over a temporary root, and process
        // tests that run the built `wallet-bridge` against a temporary HOME.
        .testTarget(
            name: "CLITests",
            dependencies: [
                "WalletBridgeTestSupport", "WalletBridgeCLI", "WalletBridge", "WalletBridgeSystem", "WalletBridgeKeys",
                "WalletBridgeConsent",
                "WalletBridgeWallet", "WalletBridgeTesting",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "KeysTests",
            dependencies: [
                "WalletBridgeTestSupport", "WalletBridge", "WalletBridgeKeys", "WalletBridgeConsent",
                "WalletBridgeSessions",
                "WalletBridgeWallet",
            ]
        ),
        .testTarget(
            name: "TransactionsTests",
            dependencies: [
                "WalletBridgeTestSupport", "WalletBridge", "WalletBridgeSystem", "WalletBridgeKeys",
                "WalletBridgeTransactions",
                "WalletBridgeConsent", "WalletBridgeSessions", "WalletBridgeWallet",
            ]
        ),
        // Reads the scripted pinentry in Tests/Support by path.
        .testTarget(
            name: "ConsentTests",
            dependencies: [
                "WalletBridgeTestSupport", "WalletBridge", "WalletBridgeSystem", "WalletBridgeKeys",
                "WalletBridgeTransactions",
                "WalletBridgeConsent", "WalletBridgeWallet",
            ]
        ),
        .testTarget(
            name: "SessionsTests",
            dependencies: [
                "WalletBridgeTestSupport", "WalletBridge", "WalletBridgeSystem", "WalletBridgeKeys",
                "WalletBridgeTransactions",
                "WalletBridgeConsent", "WalletBridgeSessions", "WalletBridgeWallet",
            ]
        ),
        // The keystore wallet: its methods, consent, configuration, ConnectedAccounts.
        .testTarget(
            name: "WalletTests",
            dependencies: [
                "WalletBridgeTestSupport", "WalletBridge", "WalletBridgeSystem", "WalletBridgeKeys",
                "WalletBridgeTransactions",
                "WalletBridgeConsent", "WalletBridgeSessions", "WalletBridgeWallet",
            ]
        ),
        .testTarget(
            name: "SystemTests",
            dependencies: [
                "WalletBridgeTestSupport", "WalletBridge", "WalletBridgeSystem", "WalletBridgeKeys",
                "WalletBridgeTransactions",
                "WalletBridgeConsent", "WalletBridgeSessions", "WalletBridgeWallet", "WalletBridgeCLI",
            ]
        ),
        // The agent's parts, and AgentConnection served over a socketpair.
        .testTarget(
            name: "AgentTests",
            dependencies: [
                "WalletBridgeTestSupport", "WalletBridge", "WalletBridgeSystem", "WalletBridgeSessions",
                "WalletBridgeWallet",
                "WalletBridgeAgent", "WalletBridgeShippedHost",
            ]
        ),
    ]
)

// WALLET_BRIDGE_TEST_HOOKS: the one test build flag. Set in debug builds, which are what the tests
// build and run (`swift build`, `swift test`, .build/debug/wallet-bridge for pytest and node); it
// compiles in the test-only environment switches, WALLET_BRIDGE_TEST_WEAK_KDF and
// WALLET_BRIDGE_TEST_SLOW_WRITE_MS. Release builds (scripts/build-release.sh, the .deb) leave them
// out: the shipped binary neither reads nor names them. Set here for every target, so that it
// holds wherever a file lives.
for target in package.targets where target.type != .system {
    let testHooks = SwiftSetting.define("WALLET_BRIDGE_TEST_HOOKS", .when(configuration: .debug))
    target.swiftSettings = (target.swiftSettings ?? []) + [testHooks]
}
