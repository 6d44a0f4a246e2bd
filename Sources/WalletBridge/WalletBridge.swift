// The library an extension developer imports: one `import WalletBridge` brings the public API
// of every layer (README.md, "Public API", lists it). The layers stay separate modules, so that
// what is public is exactly what a developer calls; the rest is `package`.
@_exported import WalletBridgeFraming
@_exported import WalletBridgeHost
@_exported import WalletBridgeProtocol
@_exported import WalletBridgeStdio
// For `Log` only: the rest of the system module is `package`, or `public` behind
// `@_spi(KeptAnswer)`, which this import does not carry.
@_exported import WalletBridgeSystem
