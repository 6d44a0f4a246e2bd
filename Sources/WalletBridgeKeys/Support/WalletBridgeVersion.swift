/// The release, as `wallet-bridge --version` prints it and `rpc.discover` names it. Here, below
/// the CLI, so that the shipped host's router can say it too.
public enum WalletBridgeVersion {
    public static let current = "0.1.0"
}
