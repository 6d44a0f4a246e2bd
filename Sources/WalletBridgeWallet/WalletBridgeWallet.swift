// The product's public API (README.md, "Public API") includes types of the layers under the
// keystore wallet: `Keystore` and `SecureBytes` (WalletBridgeKeys), the consent seam and
// `CallerPolicy` (WalletBridgeConsent). One `import WalletBridgeWallet` keeps bringing them.
@_exported import WalletBridgeConsent
@_exported import WalletBridgeKeys
