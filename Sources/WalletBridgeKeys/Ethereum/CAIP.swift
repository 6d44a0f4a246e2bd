/// A CAIP-2 chain id, `namespace:reference` (`solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp`).
///
/// Only a valid id can be made, so that everything past the parser (approval, the session's
/// checks, the CAIP-10 accounts built from it) can rely on its shape: no colon inside either
/// part, nothing a dialog or a log would have to escape.
package struct ChainID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// 3 to 8 of `[-a-z0-9]`: `solana`, `eip155`.
    package let namespace: String
    /// 1 to 32 of `[-_a-zA-Z0-9]`: for Solana, the first 32 characters of the genesis hash.
    package let reference: String

    /// Nil unless `text` is `namespace:reference` with both parts valid.
    package init?(_ text: String) {
        // 8 + 1 + 32: nothing longer is copied, whatever a proposal sends.
        guard text.utf8.count <= 41 else { return nil }
        let bytes = Array(text.utf8)
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { return nil }
        self.init(
            namespace: String(decoding: bytes[..<colon], as: UTF8.self),
            reference: String(decoding: bytes[(colon + 1)...], as: UTF8.self))
    }

    /// Nil unless both parts are valid.
    package init?(namespace: String, reference: String) {
        guard Self.isNamespace(namespace), Self.isReference(reference) else { return nil }
        self.namespace = namespace
        self.reference = reference
    }

    package var description: String { "\(namespace):\(reference)" }

    /// By text, so that lists of chains sort as a person reading them expects.
    package static func < (lhs: ChainID, rhs: ChainID) -> Bool { lhs.description < rhs.description }

    /// True when `text` is a CAIP-2 namespace: 3 to 8 of `[-a-z0-9]`. Uppercase is refused, as
    /// CAIP-2 refuses it: `Solana` and `solana` would otherwise be two namespaces for one chain.
    package static func isNamespace(_ text: String) -> Bool {
        CAIPSyntax.matches(text, lengths: 3...8) { byte in
            byte == UInt8(ascii: "-") || CAIPSyntax.isDigit(byte) || CAIPSyntax.isLower(byte)
        }
    }

    /// True when `text` is a CAIP-2 reference: 1 to 32 of `[-_a-zA-Z0-9]`.
    package static func isReference(_ text: String) -> Bool {
        CAIPSyntax.matches(text, lengths: 1...32) { byte in
            byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || CAIPSyntax.isAlphanumeric(byte)
        }
    }
}

/// A CAIP-10 account id, `chain:address`
/// (`solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp:7S3P4HxJpyyigGzodYwHtCxZyUQe9JiBMHyRWXArAaKv`).
package struct AccountID: Hashable, Comparable, Sendable, CustomStringConvertible {
    package let chain: ChainID
    /// 1 to 128 of `[-.%a-zA-Z0-9]`; for Solana, the base58 public key.
    package let address: String

    /// Nil unless `text` is a valid chain id, a colon and a valid address. Neither part of a
    /// chain id nor an address holds a colon, so the text has exactly two.
    package init?(_ text: String) {
        guard text.utf8.count <= 41 + 1 + 128 else { return nil }
        let bytes = Array(text.utf8)
        guard let last = bytes.lastIndex(of: UInt8(ascii: ":")),
            let chain = ChainID(String(decoding: bytes[..<last], as: UTF8.self))
        else { return nil }
        self.init(chain: chain, address: String(decoding: bytes[(last + 1)...], as: UTF8.self))
    }

    /// Nil unless `address` is a valid CAIP-10 address.
    package init?(chain: ChainID, address: String) {
        guard Self.isAddress(address) else { return nil }
        self.chain = chain
        self.address = address
    }

    package var description: String { "\(chain):\(address)" }

    package static func < (lhs: AccountID, rhs: AccountID) -> Bool { lhs.description < rhs.description }

    /// True when `text` is a CAIP-10 address: 1 to 128 of `[-.%a-zA-Z0-9]`.
    package static func isAddress(_ text: String) -> Bool {
        CAIPSyntax.matches(text, lengths: 1...128) { byte in
            byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "%")
                || CAIPSyntax.isAlphanumeric(byte)
        }
    }
}

/// The Solana chains the wallet signs for (CAIP-2 ids from the Solana namespace of
/// ChainAgnostic's registry: `solana:` and the first 32 characters of the genesis hash).
package enum SolanaChain {
    /// The CAIP-2 namespace.
    package static let namespace = "solana"
    package static let mainnet = ChainID("solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp")!
    package static let devnet = ChainID("solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1")!
    package static let testnet = ChainID("solana:4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z")!
    /// Mainnet first: the order a dialog lists them in.
    package static let all = [mainnet, devnet, testnet]

    /// What a dialog calls `chain` ("Solana mainnet"); nil for a chain that is not one of these.
    package static func name(of chain: ChainID) -> String? {
        switch chain {
        case mainnet: "Solana mainnet"
        case devnet: "Solana devnet"
        case testnet: "Solana testnet"
        default: nil
        }
    }
}

/// Ethereum and the chains that share its accounts and signatures (CAIP-2 `eip155`, whose
/// reference is the EIP-155 chain id in decimal). The wallet signs for any of them: a signature
/// does not depend on the chain, except through what is signed (typed data names its chain).
package enum EIP155 {
    package static let namespace = "eip155"
    /// Ethereum mainnet: `eip155:1`.
    package static let mainnet = ChainID("eip155:1")!
    /// The largest chain id a wallet takes: 2^53 - 1, which JavaScript still holds exactly
    /// (MetaMask's bound too).
    package static let maxChainID: UInt64 = (1 << 53) - 1

    /// The methods an `eip155` namespace can allow.
    package static let accountsMethod = "eth_accounts"
    package static let chainIDMethod = "eth_chainId"
    package static let personalSignMethod = "personal_sign"
    package static let signTypedDataMethod = "eth_signTypedData_v4"
    /// Signs a transaction for the extension to broadcast (`eth_sendRawTransaction`).
    package static let signTransactionMethod = "eth_signTransaction"
    package static let methods = [
        accountsMethod, chainIDMethod, personalSignMethod, signTypedDataMethod, signTransactionMethod,
    ]
    /// The methods that sign, and so ask the person each time.
    package static let signingMethods = [personalSignMethod, signTypedDataMethod, signTransactionMethod]
    /// Never allowed: the wallet has no network to send a transaction on (`SessionService.request`
    /// says what to do instead).
    package static let sendTransactionMethod = "eth_sendTransaction"
    /// EIP-1193's events.
    package static let chainChangedEvent = "chainChanged"

    /// The chain id of `chain` when it is an `eip155` chain with a canonical decimal reference
    /// (no leading zero) from 1 to `maxChainID`.
    package static func chainID(of chain: ChainID) -> UInt64? {
        guard chain.namespace == namespace, chain.reference.first != "0",
            chain.reference.utf8.allSatisfy(CAIPSyntax.isDigit), let id = UInt64(chain.reference), id >= 1,
            id <= maxChainID
        else { return nil }
        return id
    }

    /// "Ethereum (eip155:1)": what a dialog calls `chain`.
    package static func name(of chain: ChainID) -> String {
        let names: [String: String] = [
            "1": "Ethereum", "10": "OP Mainnet", "56": "BNB Smart Chain", "137": "Polygon", "8453": "Base",
            "42161": "Arbitrum One",
            "11155111": "Sepolia",
        ]
        guard chain.namespace == namespace, let name = names[chain.reference] else { return chain.description }
        return "\(name) (\(chain))"
    }
}

extension ChainID {
    /// The chain's name for a person when the wallet knows it ("Solana devnet", "Ethereum
    /// (eip155:1)"), else its id.
    package var displayName: String {
        SolanaChain.name(of: self) ?? (namespace == EIP155.namespace ? EIP155.name(of: self) : description)
    }
}

/// Byte tests for the CAIP grammars, which are ASCII only: working on UTF-8 bytes keeps a
/// non-ASCII letter (which `Character.isLetter` would accept) out.
package enum CAIPSyntax {
    package static func matches(_ text: String, lengths: ClosedRange<Int>, _ allowed: (UInt8) -> Bool) -> Bool {
        let utf8 = text.utf8
        return lengths.contains(utf8.count) && utf8.allSatisfy(allowed)
    }

    package static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
    package static func isLower(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") }
    package static func isUpper(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") }
    package static func isAlphanumeric(_ byte: UInt8) -> Bool { isDigit(byte) || isLower(byte) || isUpper(byte) }
}
