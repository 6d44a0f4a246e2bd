import WalletBridgeSystem
import WalletBridgeKeys
import WalletBridgeProtocol

/// eth_signTransaction's transaction object, read as the Ethereum JSON-RPC specification writes
/// it: quantities as 0x and hex digits without leading zeros, data as 0x and pairs of hex digits.
/// The wallet has no network, so nothing is filled in: `nonce`, `gas` and the fees are required.
struct JSONTransaction {
    let members: [String: JSONValue]
    let requestChain: UInt64
    let chain: ChainID
    let field: String

    static let known: Set<String> = [
        "from", "to", "value", "data", "input", "nonce", "gas", "gasLimit", "gasPrice", "maxFeePerGas",
        "maxPriorityFeePerGas",
        "chainId", "type", "accessList",
    ]

    init(members: [String: JSONValue], requestChain: UInt64, chain: ChainID, field: String) {
        (self.members, self.requestChain, self.chain, self.field) = (members, requestChain, chain, field)
    }

    func transaction() throws(RPCError) -> EthereumTransaction {
        // A member this wallet does not read could change what the dApp meant (a blob fee, an
        // authorization list): refused rather than dropped.
        if let unknown = members.keys.filter({ !Self.known.contains($0) }).min() {
            throw invalid(
                "\(field).\(String(unknown.prefix(64)))",
                "not a member of a transaction this wallet signs (legacy, EIP-2930, EIP-1559): it takes \(Self.known.sorted().joined(separator: ", "))"
            )
        }
        guard let fromValue = member("from") else { throw invalid("\(field).from", "required: the account that signs") }
        let from = try address(fromValue, "\(field).from")
        let to = try member("to").map { value throws(RPCError) in try address(value, "\(field).to") }
        let value =
            try member("value").map { value throws(RPCError) in try quantity(value, "\(field).value") } ?? UInt256(0)
        let data = try self.data()
        guard let nonceValue = member("nonce") else {
            throw invalid("\(field).nonce", "required: the wallet has no network to look the account's nonce up")
        }
        let nonce = try quantity64(nonceValue, "\(field).nonce")
        let gasLimit = try gas()
        let chainID = try self.chainID()
        let (kind, maxFee, priority) = try fees()
        let accessList = try self.accessList(kind: kind)
        let transaction = EthereumTransaction(
            kind: kind, chainID: chainID, from: from, nonce: nonce, gasLimit: gasLimit, maxFeePerGas: maxFee,
            maxPriorityFeePerGas: priority,
            to: to, value: value, data: data, accessList: accessList)
        let size = transaction.unsignedBytes.count
        guard size <= EthereumTransaction.maxBytes else {
            throw invalid(
                field,
                "\(DisplayText.grouped(size)) bytes once serialized; a transaction is at most \(DisplayText.grouped(EthereumTransaction.maxBytes))"
            )
        }
        return transaction
    }

    /// A member's value; nil when absent or null (JavaScript's `undefined` fields become either).
    private func member(_ name: String) -> JSONValue? {
        guard let value = members[name], value != .null else { return nil }
        return value
    }

    private func invalid(_ field: String, _ problem: String) -> RPCError { EthereumTransaction.invalid(field, problem) }

    private func address(_ value: JSONValue, _ field: String) throws(RPCError) -> EthereumAddress {
        guard case .string(let text) = value, let address = EthereumAddress(text) else {
            throw invalid(
                field, "expected an Ethereum address: 0x and 40 hex digits (mixed case must be its EIP-55 checksum)")
        }
        return address
    }

    /// A QUANTITY: `0x` and hex digits, no leading zeros (`0x0` is zero), within `bits`.
    private func quantity(_ value: JSONValue, _ field: String, bits: Int = 256) throws(RPCError) -> UInt256 {
        let shape =
            "a quantity is 0x and hex digits without leading zeros (0x0 for zero), as Ethereum's JSON-RPC writes it"
        guard case .string(let text) = value else { throw invalid(field, "\(shape); found \(value.typeName)") }
        guard text.hasPrefix("0x") else { throw invalid(field, "\(shape); this does not start with 0x") }
        let digits = text.utf8.dropFirst(2)
        guard !digits.isEmpty, digits.allSatisfy({ Hex.digitValue($0) != nil }) else {
            throw invalid(field, "\(shape); this has no hex digits or others")
        }
        guard digits.count == 1 || digits.first != UInt8(ascii: "0") else {
            throw invalid(field, "\(shape); this has a leading zero")
        }
        guard digits.count <= 64, let number = UInt256(digits: Substring(text.dropFirst(2)), radix: 16),
            number.bitWidth <= bits
        else {
            throw invalid(field, "out of range: at most 2^\(bits)-1")
        }
        return number
    }

    private func quantity64(_ value: JSONValue, _ field: String) throws(RPCError) -> UInt64 {
        try quantity(value, field, bits: 64).uint64 ?? 0
    }

    /// `data` or `input` (both, when equal): 0x and pairs of hex digits.
    private func data() throws(RPCError) -> [UInt8] {
        var result: [UInt8]?
        for name in ["data", "input"] {
            guard let value = member(name) else { continue }
            let at = "\(field).\(name)"
            guard case .string(let text) = value, text.hasPrefix("0x") else {
                throw invalid(at, "expected 0x and hex digits")
            }
            guard text.utf8.count <= 2 + 2 * EthereumTransaction.maxBytes else {
                throw invalid(
                    at,
                    "more than \(DisplayText.grouped(EthereumTransaction.maxBytes)) bytes; a transaction is at most that"
                )
            }
            guard let bytes = Hex.decode(text.dropFirst(2)) else {
                throw invalid(at, "expected 0x and an even number of hex digits")
            }
            if let result, result != bytes {
                throw invalid(at, "differs from data: give one of them, or both the same")
            }
            result = bytes
        }
        return result ?? []
    }

    private func gas() throws(RPCError) -> UInt64 {
        let gas = try member("gas").map { value throws(RPCError) in try quantity64(value, "\(field).gas") }
        let gasLimit = try member("gasLimit").map { value throws(RPCError) in try quantity64(value, "\(field).gasLimit")
        }
        if let gas, let gasLimit, gas != gasLimit {
            throw invalid("\(field).gasLimit", "differs from gas: give one of them, or both the same")
        }
        guard let limit = gas ?? gasLimit else {
            throw invalid("\(field).gas", "required (or gasLimit): the wallet has no network to estimate it")
        }
        return limit
    }

    private func chainID() throws(RPCError) -> UInt64 {
        guard let value = member("chainId") else { return requestChain }
        let at = "\(field).chainId"
        let number = try quantity(value, at)
        guard let id = number.uint64, id <= EIP155.maxChainID else {
            throw invalid(at, "overflows: a chain id is at most 2^53-1 (9,007,199,254,740,991)")
        }
        guard id == requestChain else {
            throw invalid(
                at, "is \(id), but the request is for \(chain): a transaction is signed only for the chain it names")
        }
        return id
    }

    /// The kind, and the fee fields: `gasPrice` (legacy, or EIP-2930 with `accessList` or type
    /// 0x1), or `maxFeePerGas` and `maxPriorityFeePerGas` (EIP-1559), never both.
    private func fees() throws(RPCError) -> (EthereumTransaction.Kind, UInt256, UInt256) {
        let type = try member("type").map { value throws(RPCError) in
            try quantity(value, "\(field).type", bits: 8).uint64 ?? 0
        }
        if let type, type > 2 {
            throw invalid(
                "\(field).type",
                "type 0x\(String(type, radix: 16)) is not supported: 0x0 (legacy), 0x1 (EIP-2930) and 0x2 (EIP-1559) are"
            )
        }
        let gasPrice = member("gasPrice")
        let maxFee = member("maxFeePerGas")
        let priority = member("maxPriorityFeePerGas")
        if let gasPrice {
            guard maxFee == nil, priority == nil else {
                throw invalid(
                    "\(field).gasPrice",
                    "gasPrice is for legacy and EIP-2930 transactions; with maxFeePerGas or maxPriorityFeePerGas give only those"
                )
            }
            guard type != 2 else {
                throw invalid(
                    "\(field).gasPrice", "type 0x2 (EIP-1559) takes maxFeePerGas and maxPriorityFeePerGas, not gasPrice"
                )
            }
            let price = try quantity(gasPrice, "\(field).gasPrice")
            let kind: EthereumTransaction.Kind =
                type == 1 || (type == nil && member("accessList") != nil) ? .accessList : .legacy
            return (kind, price, UInt256(0))
        }
        if maxFee != nil || priority != nil || type == 2 {
            guard type != 0, type != 1 else {
                throw invalid(
                    "\(field).type",
                    "type 0x\(type ?? 0) takes gasPrice; maxFeePerGas and maxPriorityFeePerGas are EIP-1559's (type 0x2)"
                )
            }
            guard let maxFee else {
                throw invalid(
                    "\(field).maxFeePerGas",
                    "required with maxPriorityFeePerGas: the wallet has no network to fill it in")
            }
            guard let priority else {
                throw invalid(
                    "\(field).maxPriorityFeePerGas",
                    "required with maxFeePerGas: the wallet has no network to fill it in")
            }
            let most = try quantity(maxFee, "\(field).maxFeePerGas")
            let tip = try quantity(priority, "\(field).maxPriorityFeePerGas")
            guard tip <= most else {
                throw invalid(
                    "\(field).maxPriorityFeePerGas", "is more than maxFeePerGas (\(tip.decimal) > \(most.decimal) wei)")
            }
            return (.feeMarket, most, tip)
        }
        throw invalid(
            "\(field).gasPrice",
            "required: gasPrice, or maxFeePerGas and maxPriorityFeePerGas; the wallet has no network to fill them in")
    }

    private func accessList(kind: EthereumTransaction.Kind) throws(RPCError) -> [EthereumTransaction.AccessListEntry] {
        guard let value = member("accessList") else { return [] }
        let at = "\(field).accessList"
        guard kind != .legacy else { throw invalid(at, "a legacy transaction (type 0x0) has no access list") }
        guard case .array(let entries) = value else { throw invalid(at, "expected an array of {address, storageKeys}") }
        guard entries.count <= EthereumTransaction.maxAccessListEntries else {
            throw invalid(at, "\(entries.count) entries; at most \(EthereumTransaction.maxAccessListEntries)")
        }
        var result: [EthereumTransaction.AccessListEntry] = []
        var keyCount = 0
        for (index, entry) in entries.enumerated() {
            let entryField = "\(at)[\(index)]"
            guard case .object(let parts) = entry, let addressValue = parts["address"],
                case .array(let keys)? = parts["storageKeys"],
                parts.count == 2
            else {
                throw invalid(
                    entryField, "expected {\"address\": an address, \"storageKeys\": [32-byte hex]} and nothing else")
            }
            let address = try address(addressValue, "\(entryField).address")
            keyCount += keys.count
            guard keyCount <= EthereumTransaction.maxStorageKeys else {
                throw invalid(
                    "\(entryField).storageKeys",
                    "more than \(EthereumTransaction.maxStorageKeys) storage keys in the access list")
            }
            var storageKeys: [[UInt8]] = []
            for (keyIndex, key) in keys.enumerated() {
                guard case .string(let text) = key, text.utf8.count == 66, text.hasPrefix("0x"),
                    let bytes = Hex.decode(text.dropFirst(2))
                else {
                    throw invalid(
                        "\(entryField).storageKeys[\(keyIndex)]", "expected a storage key: 0x and 64 hex digits")
                }
                storageKeys.append(bytes)
            }
            result.append(.init(address: address, storageKeys: storageKeys))
        }
        return result
    }
}
