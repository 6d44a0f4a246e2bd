import WalletBridge
import WalletBridgeWallet

/// The router of the shipped `wallet-bridge` binary: the keystore wallet and its policy.
public enum ShippedHost {
    public static func makeRouter() throws -> Router {
        var router = Router()
        try router.installKeystoreWallet()
        return router
    }
}
