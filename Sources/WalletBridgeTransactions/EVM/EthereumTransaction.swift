import WalletBridgeSystem
import WalletBridgeKeys
import WalletBridgeProtocol

/// An Ethereum transaction to sign: legacy (EIP-155), EIP-2930 or EIP-1559.
///
/// Built from eth_signTransaction's object or from an unsigned serialized transaction; either
/// way every field is checked when it is read (canonical RLP, quantities within their bits, a
/// chain id a wallet takes), so that what `summary()` shows is what `signingHash` commits to.
package struct EthereumTransaction: Sendable, Equatable {
    package enum Kind: Sendable, Equatable { case legacy, accessList, feeMarket }

    /// One `accessList` entry (EIP-2930): an address and the 32-byte storage keys it warms.
    struct AccessListEntry: Sendable, Equatable {
        var address: EthereumAddress
        var storageKeys: [[UInt8]]
    }

    package let kind: Kind
    /// The chain the transaction names (EIP-155's for legacy, the typed field otherwise).
    package let chainID: UInt64
    /// `from`, when the request named it (eth_signTransaction's object form).
    package let from: EthereumAddress?

    let nonce: UInt64
    let gasLimit: UInt64
    /// legacy and EIP-2930: the price per gas. EIP-1559: `maxFeePerGas`.
    let maxFeePerGas: UInt256
    /// EIP-1559 only (zero otherwise).
    let maxPriorityFeePerGas: UInt256
    /// Nil for a contract creation.
    let to: EthereumAddress?
    let value: UInt256
    let data: [UInt8]
    let accessList: [AccessListEntry]

    /// The most a serialized transaction may take: 128 KiB, the size nodes accept into their pools.
    static let maxBytes = 128 * 1024
    /// Access lists are bounded before they are read; no real transaction comes near.
    static let maxAccessListEntries = 1_000
    static let maxStorageKeys = 4_000

    init(
        kind: Kind, chainID: UInt64, from: EthereumAddress?, nonce: UInt64, gasLimit: UInt64, maxFeePerGas: UInt256,
        maxPriorityFeePerGas: UInt256, to: EthereumAddress?, value: UInt256, data: [UInt8],
        accessList: [AccessListEntry]
    ) {
        (self.kind, self.chainID, self.from, self.nonce, self.gasLimit) = (kind, chainID, from, nonce, gasLimit)
        (self.maxFeePerGas, self.maxPriorityFeePerGas, self.to, self.value) = (
            maxFeePerGas, maxPriorityFeePerGas, to, value
        )
        (self.data, self.accessList) = (data, accessList)
    }

    /// This transaction with `from` set to the signing key. The serialized (string) form of
    /// eth_signTransaction does not carry its sender: the method calls this with the key that
    /// will sign, before `summary()`, so that the summary compares token owners with the signer
    /// (whose tokens move, and so `movesFunds`; someone else's are warned of). Without it,
    /// every owner is treated as possibly the sender's and warned of as unknown. The signing
    /// hash does not depend on `from`.
    package func naming(from sender: EthereumAddress) -> EthereumTransaction {
        EthereumTransaction(
            kind: kind, chainID: chainID, from: sender, nonce: nonce, gasLimit: gasLimit, maxFeePerGas: maxFeePerGas,
            maxPriorityFeePerGas: maxPriorityFeePerGas, to: to, value: value, data: data, accessList: accessList)
    }

    /// eth_signTransaction's transaction: an object as wallets take it (`from`, `to`, `value`,
    /// `data`, `nonce`, `gas`, `gasPrice` or `maxFeePerGas` and `maxPriorityFeePerGas`,
    /// `chainId`, `type`, `accessList`), or a string of 0x and the hex of an unsigned serialized
    /// transaction. `chain` is the request's chain: a transaction for another is refused.
    /// Errors are -32602 naming `field` and the member.
    package init(json: JSONValue, chain: ChainID, field: String) throws(RPCError) {
        guard let requestChain = EIP155.chainID(of: chain) else {
            throw Self.invalid(field, "the request's chain \(chain) is not an EIP-155 chain (eip155: and a chain id)")
        }
        switch json {
        case .string(let text):
            let transaction = try Self.serialized(text, field: field)
            guard transaction.chainID == requestChain else {
                throw Self.invalid(
                    field,
                    "names chain id \(transaction.chainID), but the request is for \(chain): a transaction is signed only for the chain it names"
                )
            }
            self = transaction
        case .object(let members):
            self = try JSONTransaction(members: members, requestChain: requestChain, chain: chain, field: field)
                .transaction()
        default:
            throw Self.invalid(
                field,
                "expected a transaction: an object (from, to, value, data, nonce, gas, fees) or 0x and the hex of an unsigned serialized transaction; found \(json.typeName)"
            )
        }
    }

    private static func serialized(_ text: String, field: String) throws(RPCError) -> EthereumTransaction {
        guard text.utf8.count <= 2 + 2 * maxBytes else {
            throw invalid(
                field, "a serialized transaction is at most \(DisplayText.grouped(maxBytes)) bytes; this is longer")
        }
        guard text.hasPrefix("0x"), let bytes = Hex.decode(text.dropFirst(2)) else {
            throw invalid(field, "expected 0x and an even number of hex digits: an unsigned serialized transaction")
        }
        do {
            return try EthereumTransaction(unsigned: bytes)
        } catch {
            throw error.rpcError(at: field)
        }
    }

    /// Reads an unsigned serialized transaction (typed envelope or legacy RLP), strictly:
    /// canonical RLP, no trailing bytes.
    package init(unsigned bytes: [UInt8]) throws(TransactionError) {
        guard !bytes.isEmpty else { throw TransactionError(field: "", problem: "empty: no transaction") }
        guard bytes.count <= Self.maxBytes else {
            throw TransactionError(
                field: "",
                problem:
                    "\(DisplayText.grouped(bytes.count)) bytes; a transaction is at most \(DisplayText.grouped(Self.maxBytes))"
            )
        }
        self = try UnsignedReader(bytes: bytes).transaction()
    }

    /// What is signed: EIP-155's nine fields for legacy, the type byte and its fields otherwise.
    package var unsignedBytes: [UInt8] {
        switch kind {
        case .legacy:
            RLP.encode(.list(legacyFields + [.bytes(RLP.minimalBigEndian(chainID)), .bytes([]), .bytes([])]))
        case .accessList, .feeMarket:
            [typeByte] + RLP.encode(.list(typedFields))
        }
    }

    /// Keccak-256 of what is signed (EIP-155's nine fields for legacy, the typed payload
    /// otherwise): 32 bytes.
    package var signingHash: [UInt8] { Keccak256.hash(unsignedBytes) }

    /// The raw signed transaction for a 65-byte signature r ‖ s ‖ v (v 27 or 28, as
    /// `Secp256k1.sign` gives it): what eth_sendRawTransaction takes. Empty for a signature of
    /// another shape, which `Secp256k1.sign` never gives.
    package func signed(with signature: [UInt8]) -> [UInt8] {
        guard signature.count == Secp256k1.signatureBytes, [27, 28].contains(signature[64]) else { return [] }
        let recovery = UInt64(signature[64] - 27)
        // r and s are integers to RLP: their leading zero bytes go.
        let r = RLP.Item.bytes(Array(signature[0..<32].drop { $0 == 0 }))
        let s = RLP.Item.bytes(Array(signature[32..<64].drop { $0 == 0 }))
        switch kind {
        case .legacy:
            // EIP-155: v = chainId × 2 + 35 + recovery id; the chain id is at most 2^53 - 1.
            let v = chainID * 2 + 35 + recovery
            return RLP.encode(.list(legacyFields + [.bytes(RLP.minimalBigEndian(v)), r, s]))
        case .accessList, .feeMarket:
            return [typeByte] + RLP.encode(.list(typedFields + [.bytes(RLP.minimalBigEndian(recovery)), r, s]))
        }
    }

    private var typeByte: UInt8 { kind == .feeMarket ? 0x02 : 0x01 }

    private var tail: [RLP.Item] {
        [.bytes(to?.bytes ?? []), .bytes(value.minimalBytes), .bytes(data)]
    }

    private var legacyFields: [RLP.Item] {
        [
            .bytes(RLP.minimalBigEndian(nonce)), .bytes(maxFeePerGas.minimalBytes),
            .bytes(RLP.minimalBigEndian(gasLimit)),
        ] + tail
    }

    private var typedFields: [RLP.Item] {
        let fees: [RLP.Item] =
            kind == .feeMarket
            ? [.bytes(maxPriorityFeePerGas.minimalBytes), .bytes(maxFeePerGas.minimalBytes)]
            : [.bytes(maxFeePerGas.minimalBytes)]
        let list = RLP.Item.list(
            accessList.map { entry in
                .list([.bytes(entry.address.bytes), .list(entry.storageKeys.map(RLP.Item.bytes))])
            })
        return [.bytes(RLP.minimalBigEndian(chainID)), .bytes(RLP.minimalBigEndian(nonce))] + fees
            + [.bytes(RLP.minimalBigEndian(gasLimit))] + tail + [list]
    }

    static func invalid(_ field: String, _ problem: String) -> RPCError { .invalidParams(field, problem) }
}
