import WalletBridgeKeys

/// Reads an unsigned serialized transaction: a legacy RLP list with EIP-155's [chainId, 0, 0]
/// in place of the signature, or EIP-2718's type byte (0x01, 0x02) and its RLP list. Errors
/// name the field as eth_signTransaction's object names it (`maxFeePerGas`,
/// `accessList[1].storageKeys[0]`), so that both forms of a request read alike.
struct UnsignedReader {
    let bytes: [UInt8]

    func transaction() throws(TransactionError) -> EthereumTransaction {
        let first = bytes[0]
        switch first {
        case 0xC0...:
            return try legacy(RLP.decode(bytes, maxDepth: 1))
        case 0x01, 0x02:
            // A typed payload nests three lists deep: access list, entry, storage keys.
            return try typed(
                first == 0x02 ? .feeMarket : .accessList, RLP.decode(Array(bytes.dropFirst()), maxDepth: 4))
        case 0x03, 0x04:
            throw TransactionError(
                field: "type",
                problem:
                    "transaction type 0x0\(first) (\(first == 3 ? "EIP-4844 blob" : "EIP-7702 set-code")) is not supported; legacy, 0x01 and 0x02 are"
            )
        default:
            throw TransactionError(
                field: "type",
                problem:
                    "0x\(Hex.encode([first])) is neither a transaction type (0x01, 0x02) nor the start of a legacy RLP list"
            )
        }
    }

    private func legacy(_ item: RLP.Item) throws(TransactionError) -> EthereumTransaction {
        guard case .list(let fields) = item else {
            throw TransactionError(field: "", problem: "a legacy transaction is an RLP list; this is a string")
        }
        guard fields.count == 9 else {
            throw TransactionError(
                field: "",
                problem: fields.count == 6
                    ? "a legacy transaction without EIP-155's chain id could be replayed on any chain; it is not signed"
                    : "a legacy transaction to sign has 9 fields (EIP-155: nonce, gasPrice, gas, to, value, data, chainId, 0, 0); this has \(fields.count)"
            )
        }
        guard fields[7] == .bytes([]), fields[8] == .bytes([]) else {
            throw TransactionError(
                field: "",
                problem: "its last two fields are not EIP-155's 0 and 0: it is signed already, or not EIP-155")
        }
        return EthereumTransaction(
            kind: .legacy, chainID: try chainID(fields[6]), from: nil, nonce: try integer64(fields[0], "nonce"),
            gasLimit: try integer64(fields[2], "gas"), maxFeePerGas: try integer(fields[1], "gasPrice"),
            maxPriorityFeePerGas: UInt256(0),
            to: try to(fields[3]), value: try integer(fields[4], "value"), data: try string(fields[5], "data"),
            accessList: [])
    }

    private func typed(_ kind: EthereumTransaction.Kind, _ item: RLP.Item) throws(TransactionError)
        -> EthereumTransaction
    {
        let names =
            kind == .feeMarket
            ? ["chainId", "nonce", "maxPriorityFeePerGas", "maxFeePerGas", "gas", "to", "value", "data", "accessList"]
            : ["chainId", "nonce", "gasPrice", "gas", "to", "value", "data", "accessList"]
        guard case .list(let fields) = item else {
            throw TransactionError(field: "", problem: "a typed transaction's payload is an RLP list; this is a string")
        }
        guard fields.count == names.count else {
            let signed = fields.count == names.count + 3 ? " (it looks signed already: send it unsigned)" : ""
            throw TransactionError(
                field: "",
                problem:
                    "an unsigned type 0x0\(kind == .feeMarket ? 2 : 1) transaction has \(names.count) fields (\(names.joined(separator: ", "))); this has \(fields.count)\(signed)"
            )
        }
        let fee = kind == .feeMarket ? 1 : 0
        let maxFee = try integer(fields[2 + fee], names[2 + fee])
        let priority = kind == .feeMarket ? try integer(fields[2], "maxPriorityFeePerGas") : UInt256(0)
        if kind == .feeMarket, maxFee < priority {
            throw TransactionError(
                field: "maxPriorityFeePerGas",
                problem: "is more than maxFeePerGas (\(priority.decimal) > \(maxFee.decimal) wei)")
        }
        return EthereumTransaction(
            kind: kind, chainID: try chainID(fields[0]), from: nil, nonce: try integer64(fields[1], "nonce"),
            gasLimit: try integer64(fields[3 + fee], "gas"),
            maxFeePerGas: maxFee, maxPriorityFeePerGas: priority, to: try to(fields[4 + fee]),
            value: try integer(fields[5 + fee], "value"),
            data: try string(fields[6 + fee], "data"), accessList: try accessList(fields[7 + fee]))
    }

    private func string(_ item: RLP.Item, _ field: String) throws(TransactionError) -> [UInt8] {
        guard case .bytes(let bytes) = item else {
            throw TransactionError(field: field, problem: "expected an RLP string, found a list")
        }
        return bytes
    }

    /// An RLP integer: big-endian, no leading zero byte (zero is the empty string).
    private func integer(_ item: RLP.Item, _ field: String, bits: Int = 256) throws(TransactionError) -> UInt256 {
        let bytes = try string(item, field)
        guard bytes.first != 0 else {
            throw TransactionError(
                field: field,
                problem: "an RLP integer with a leading zero byte (non-canonical; zero is the empty string)")
        }
        guard bytes.count * 8 <= bits, let value = UInt256(bigEndian: bytes) else {
            throw TransactionError(field: field, problem: "\(bytes.count) bytes: out of range, at most 2^\(bits)-1")
        }
        return value
    }

    private func integer64(_ item: RLP.Item, _ field: String) throws(TransactionError) -> UInt64 {
        // Eight bytes with no leading zero is always below 2^64.
        try integer(item, field, bits: 64).uint64 ?? 0
    }

    private func chainID(_ item: RLP.Item) throws(TransactionError) -> UInt64 {
        let bytes = try string(item, "chainId")
        guard bytes.first != 0 else {
            throw TransactionError(
                field: "chainId",
                problem: "an RLP integer with a leading zero byte (non-canonical; zero is the empty string)")
        }
        guard let id = UInt256(bigEndian: bytes)?.uint64, id <= EIP155.maxChainID else {
            throw TransactionError(
                field: "chainId", problem: "overflows: a chain id is at most 2^53-1 (9,007,199,254,740,991)")
        }
        guard id >= 1 else { throw TransactionError(field: "chainId", problem: "is 0: a chain id is 1 or more") }
        return id
    }

    private func to(_ item: RLP.Item) throws(TransactionError) -> EthereumAddress? {
        let bytes = try string(item, "to")
        if bytes.isEmpty { return nil }
        guard bytes.count == EthereumAddress.byteCount, let address = EthereumAddress(Hex.prefixed(bytes)) else {
            throw TransactionError(
                field: "to", problem: "\(bytes.count) bytes: an address is 20 (or empty for a contract creation)")
        }
        return address
    }

    private func accessList(_ item: RLP.Item) throws(TransactionError) -> [EthereumTransaction.AccessListEntry] {
        guard case .list(let entries) = item else {
            throw TransactionError(field: "accessList", problem: "expected an RLP list, found a string")
        }
        guard entries.count <= EthereumTransaction.maxAccessListEntries else {
            throw TransactionError(
                field: "accessList",
                problem: "\(entries.count) entries; at most \(EthereumTransaction.maxAccessListEntries)")
        }
        var result: [EthereumTransaction.AccessListEntry] = []
        var keyCount = 0
        for (index, entry) in entries.enumerated() {
            let at = "accessList[\(index)]"
            guard case .list(let parts) = entry, parts.count == 2 else {
                throw TransactionError(
                    field: at, problem: "an access list entry is a list of an address and a list of storage keys")
            }
            let addressBytes = try string(parts[0], "\(at).address")
            guard addressBytes.count == EthereumAddress.byteCount,
                let address = EthereumAddress(Hex.prefixed(addressBytes))
            else {
                throw TransactionError(field: "\(at).address", problem: "\(addressBytes.count) bytes: an address is 20")
            }
            guard case .list(let keys) = parts[1] else {
                throw TransactionError(field: "\(at).storageKeys", problem: "expected an RLP list, found a string")
            }
            keyCount += keys.count
            guard keyCount <= EthereumTransaction.maxStorageKeys else {
                throw TransactionError(
                    field: "\(at).storageKeys",
                    problem: "more than \(EthereumTransaction.maxStorageKeys) storage keys in the access list")
            }
            var storageKeys: [[UInt8]] = []
            for (keyIndex, key) in keys.enumerated() {
                let bytes = try string(key, "\(at).storageKeys[\(keyIndex)]")
                guard bytes.count == 32 else {
                    throw TransactionError(
                        field: "\(at).storageKeys[\(keyIndex)]", problem: "\(bytes.count) bytes: a storage key is 32")
                }
                storageKeys.append(bytes)
            }
            result.append(.init(address: address, storageKeys: storageKeys))
        }
        return result
    }
}
