import WalletBridge

/// What the person is asked to approve: who asks, with which key, for how many signatures.
public struct ConsentRequest: Sendable, Equatable {
    /// Who asks: the identity the browser gave the host.
    public var caller: Caller
    /// The key's label, as `keys list` shows it.
    public var keyLabel: String
    /// The key's address, shortened (`7xKX…3fGh`, base58 as Solana wallets show it).
    public var shortAddress: String
    /// How many signatures approving makes.
    public var payloadCount: Int

    public init(caller: Caller, keyLabel: String, shortAddress: String, payloadCount: Int) {
        self.caller = caller
        self.keyLabel = keyLabel
        self.shortAddress = shortAddress
        self.payloadCount = payloadCount
    }

    /// The dialog's title.
    public var title: String { "wallet-bridge: signature request" }

    /// The dialog's text. The caller's identity comes from the browser (argv), so an extension
    /// cannot pose as another one here.
    public var description: String {
        let payloads = payloadCount == 1 ? "1 payload" : "\(payloadCount) payloads"
        return """
            \(callerDescription) asks to sign \(payloads) with your key "\(keyLabel)" (\(shortAddress)).

            Enter the keystore passphrase to sign, or Cancel to refuse.
            """
    }

    /// The label beside the passphrase field.
    public var prompt: String { "Passphrase:" }

    private var callerDescription: String {
        switch caller {
        case .chromeExtension(let origin): "The extension \(Self.printable(origin))"
        case .firefoxAddon(let id, _): "The Firefox add-on \(Self.printable(id))"
        case .unidentified: "A program that was not started by a browser"
        }
    }

    /// Argv is the browser's, but a person can start the host with anything: keep the
    /// dialog's layout out of its reach.
    private static func printable(_ text: String) -> String {
        let cleaned = String(String.UnicodeScalarView(text.unicodeScalars.map {
            $0.properties.generalCategory == .control || $0.properties.generalCategory == .format ? "?" : $0
        }))
        return cleaned.count > 200 ? String(cleaned.prefix(200)) + "…" : cleaned
    }
}
