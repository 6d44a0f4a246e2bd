import WalletBridgeConsent
import WalletBridgeKeys
import WalletBridgeProtocol
import WalletBridgeTransactions

/// What the namespace methods' params share. Each params type reads through the decoder's
/// containers (an object's by key, positional params by position), so that derivation sees
/// their shape; each member that needs more than its JSON type is read by its own reader, shared
/// with the checks made when the method runs, which words every fault as -32602 naming its place
/// under `request.params` (the fixtures pin the wording), as `session_request` always worded it.
enum NamespaceParams {
    /// Where the params sit in `session_request`'s.
    static let path: [any CodingKey] = [Key("request"), Key("params")]

    /// A fault that no reader worded (none is expected: each params type words its own): -32602
    /// at its place, as the router words a `DecodingError`.
    static func rpcError(_ error: DecodingError) -> RPCError {
        switch error {
        case .dataCorrupted(let context) where context.underlyingError is ParamsProblem:
            return SessionService.invalid(SessionParams.field(context.codingPath), context.debugDescription)
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return SessionService.invalid(SessionParams.field(context.codingPath), "not a value this field accepts")
        case .keyNotFound(let key, let context):
            return SessionService.invalid(SessionParams.field(context.codingPath + [key]), "required field is missing")
        @unknown default:
            return SessionService.invalid(SessionParams.field(path), "not params this method accepts")
        }
    }

    /// The params as an object, or -32602 on them saying what `expected`.
    static func object<K: CodingKey>(
        _ decoder: any Decoder, keyedBy: K.Type, expected: String
    ) throws -> KeyedDecodingContainer<K> {
        do {
            return try decoder.container(keyedBy: K.self)
        } catch is DecodingError {
            throw SessionService.invalid(SessionParams.field(decoder.codingPath), expected)
        }
    }

    /// The params as an array of `counts` elements, or -32602 on them saying what `expected`.
    /// The count is checked before any element is read; derivation, which has no count, reads on.
    static func positions(
        _ decoder: any Decoder, counts: ClosedRange<Int>, expected: String
    ) throws -> any UnkeyedDecodingContainer {
        let positions: any UnkeyedDecodingContainer
        do {
            positions = try decoder.unkeyedContainer()
        } catch is DecodingError {
            throw SessionService.invalid(SessionParams.field(decoder.codingPath), expected)
        }
        if let count = positions.count, !counts.contains(count) {
            throw SessionService.invalid(SessionParams.field(decoder.codingPath), expected)
        }
        return positions
    }

    /// A member's key, or a position's (its index), to name a place in a fault.
    struct Key: CodingKey {
        let stringValue: String
        let intValue: Int?
        init(_ name: String) { (stringValue, intValue) = (name, nil) }
        init(stringValue: String) { self.init(stringValue) }
        init(intValue: Int) { (stringValue, self.intValue) = ("[\(intValue)]", intValue) }
    }

    /// The place of `key` under `codingPath`, as -32602 names it.
    static func field(_ codingPath: [any CodingKey], _ key: any CodingKey) -> String {
        SessionParams.field(codingPath + [key])
    }
}

// MARK: Members read by their own readers

/// A Solana account's public key: 32 bytes in base58, bounded by its length before it is decoded
/// (`SessionService.solanaPublicKey`).
struct SolanaPublicKeyMember: SessionParamsMember, Equatable {
    let bytes: [UInt8]
    init(json: JSONValue?, field: String) throws(RPCError) {
        bytes = try SessionService.solanaPublicKey(json, field: field)
    }
    init(bytes: [UInt8]) { self.bytes = bytes }
    var json: JSONValue { .string(Base58.encode(bytes)) }
    static var jsonSchema: JSONValue { SessionSchemas.base58PublicKey }
    static var schemaPlaceholder: Self { Self(bytes: []) }
}

/// A message to sign: 1 to `SolanaMethod.maxMessageBytes` bytes in base58, bounded by its length
/// before it is decoded (`Base58`).
struct SolanaMessageMember: SessionParamsMember, Equatable {
    let bytes: [UInt8]
    init(json: JSONValue?, field: String) throws(RPCError) {
        let most = SolanaMethod.maxMessageBytes
        guard case .string(let text)? = json, let bytes = Base58.decode(text, maxBytes: most), !bytes.isEmpty else {
            throw SessionService.invalid(field, "expected the message's bytes in base58, 1 to \(most) bytes")
        }
        self.bytes = bytes
    }
    init(bytes: [UInt8]) { self.bytes = bytes }
    var json: JSONValue { .string(Base58.encode(bytes)) }
    static var jsonSchema: JSONValue { ["type": "string", "pattern": .string("^\(SessionSchemas.base58Digit)+$")] }
    static var schemaPlaceholder: Self { Self(bytes: []) }
}

/// Positional params that name an Ethereum address, and say their order when it is not one.
protocol EthereumPositionalParams {
    /// "personal_sign's params are [message, address]": the usual mistake is the order.
    static var order: String { get }
}

/// An Ethereum address (any letter case; mixed case must be its EIP-55 checksum), read by
/// `SessionService.ethereumAddress` with `Params`' order in its words.
struct EthereumAddressMember<Params: EthereumPositionalParams>: SessionParamsMember, Equatable {
    let address: EthereumAddress
    init(json: JSONValue?, field: String) throws(RPCError) {
        address = try SessionService.ethereumAddress(json ?? .null, field: field, order: Params.order)
    }
    init(_ address: EthereumAddress) { self.address = address }
    var json: JSONValue { .string(address.description) }
    static var jsonSchema: JSONValue { SessionSchemas.ethereumAddress }
    /// The zero address, a constant that reads: derivation's value to go on with, never read.
    static var schemaPlaceholder: Self { Self(EthereumAddress("0x" + String(repeating: "0", count: 40))!) }
}

/// `personal_sign`'s message: 0x and hex, or text, not empty.
struct PersonalMessageMember: SessionParamsMember, Equatable {
    let text: String
    init(json: JSONValue?, field: String) throws(RPCError) {
        guard case .string(let text)? = json else {
            throw SessionService.invalid(field, "expected the message: 0x and its bytes in hex, or text")
        }
        guard !text.isEmpty else {
            throw SessionService.invalid(field, "the message is empty: there is nothing to sign")
        }
        self.text = text
    }
    init(_ text: String) { self.text = text }
    var json: JSONValue { .string(text) }
    static var jsonSchema: JSONValue {
        ["type": "string", "description": "The message: 0x and its bytes in hex, or UTF-8 text"]
    }
    static var schemaPlaceholder: Self { Self("") }
}
