import WalletBridge

/// The router of the shipped `wallet-bridge` binary.
public enum ShippedHost {
    public static func makeRouter() throws -> Router {
        // The keystore wallet plugs in here (issue 3). Until then the built-in methods are not
        // registered and answer "Method not found": the shipped host never pretends to sign.
        Router()
    }
}
