import Foundation
import WalletBridge
import WalletBridgeTestSupport
import XCTest

@_spi(Fuzzing) @testable import WalletBridgeWallet
@_spi(Fuzzing) @testable import WalletBridgeKeys
@_spi(Fuzzing) @testable import WalletBridgeTransactions

/// Ethereum transactions for eth_signTransaction: eth-account's vectors signed byte for byte,
/// strict RLP, the object form's rules, and the exact lines a person is shown.
/// Tests/Support/evm-transaction-vectors.json is made by Tests/Support/make-evm-vectors.py
/// (eth-account and eth-abi).
final class EthereumTransactionTests: XCTestCase {
    private let at = "request.params[0]"
    private let mainnet = ChainID("eip155:1")!

    private struct Vectors: Decodable {
        struct Transaction: Decodable {
            let name, key, from, unsigned, signingHash, raw, hash: String
            let json: [String: JSONValue]
        }
        let transactions: [Transaction]
        let calldata: [String: String]
    }

    private static let vectors: Vectors = {
        let url = URL(fileURLWithPath: "\(packageRoot)/Tests/Support/evm-transaction-vectors.json")
        // swiftlint:disable:next force_try
        return try! JSONDecoder().decode(Vectors.self, from: Data(contentsOf: url))
    }()

    private let alice = "0xF0109fC8DF283027b6285cc889F5aA624EaC1F55"
    private let bob = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"
    private let usdc = "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48"
    private let unknownToken = "0x1111111111111111111111111111111111111111"
    private let nft = "0x2222222222222222222222222222222222222222"
    private let permit2 = "0x000000000022D473030F116dDEE9F6B43aC78BA3"

    // MARK: eth-account's vectors

    func testVectorsMatchEthAccountByteForByte() throws {
        XCTAssertEqual(Self.vectors.transactions.count, 10)
        for vector in Self.vectors.transactions {
            let chainHex = try XCTUnwrap(vector.json["chainId"]?.stringValue)
            let chain = try XCTUnwrap(ChainID("eip155:\(try XCTUnwrap(UInt64(chainHex.dropFirst(2), radix: 16)))"))
            let transaction = try EthereumTransaction(json: .object(vector.json), chain: chain, field: at)
            XCTAssertEqual(Hex.prefixed(transaction.unsignedBytes), vector.unsigned, vector.name)
            XCTAssertEqual(Hex.prefixed(transaction.signingHash), vector.signingHash, vector.name)
            XCTAssertEqual(transaction.from?.description, vector.from, vector.name)

            let key = secure(try XCTUnwrap(Hex.decode(vector.key.dropFirst(2))))
            let signature = try XCTUnwrap(Secp256k1.sign(digest: transaction.signingHash, secretKey: key))
            let raw = transaction.signed(with: signature)
            XCTAssertEqual(Hex.prefixed(raw), vector.raw, vector.name)
            XCTAssertEqual(Hex.prefixed(Keccak256.hash(raw)), vector.hash, vector.name)

            // The serialized form reads back to the same transaction, but for its sender.
            let bytes = try XCTUnwrap(Hex.decode(vector.unsigned.dropFirst(2)))
            let decoded = try EthereumTransaction(unsigned: bytes)
            XCTAssertNil(decoded.from)
            XCTAssertEqual(decoded.naming(from: try XCTUnwrap(transaction.from)), transaction, vector.name)
            XCTAssertEqual(
                try EthereumTransaction(json: .string(vector.unsigned), chain: chain, field: at), decoded, vector.name)
        }
    }

    func testKindsOfTheVectors() throws {
        let kinds = try Self.vectors.transactions.map { vector in
            try EthereumTransaction(unsigned: try XCTUnwrap(Hex.decode(vector.unsigned.dropFirst(2)))).kind
        }
        XCTAssertEqual(
            kinds,
            [
                .legacy, .legacy, .legacy, .accessList, .accessList, .feeMarket, .feeMarket, .feeMarket, .legacy,
                .feeMarket,
            ])
        // The generator found signatures whose r (legacy) and s (EIP-1559) start with a zero
        // byte, which RLP writes without it: the vectors cover the integer encoding of both.
        guard case .list(let legacy) = try RLP.decode(try bytes(vector("legacy-short-r").raw), maxDepth: 1),
            case .bytes(let r) = legacy[7]
        else { return XCTFail("legacy-short-r") }
        XCTAssertLessThan(r.count, 32)
        guard
            case .list(let feeMarket) = try RLP.decode(
                Array(try bytes(vector("eip1559-short-s").raw).dropFirst()), maxDepth: 4),
            case .bytes(let s)? = feeMarket.last
        else { return XCTFail("eip1559-short-s") }
        XCTAssertLessThan(s.count, 32)
    }

    func testSignedRejectsASignatureOfAnotherShape() throws {
        let transaction = try EthereumTransaction(unsigned: try bytes(vector("legacy-send-mainnet").unsigned))
        XCTAssertEqual(transaction.signed(with: [UInt8](repeating: 1, count: 64)), [])
        XCTAssertEqual(transaction.signed(with: [UInt8](repeating: 1, count: 64) + [29]), [])
    }

    // MARK: RLP

    func testRLPRoundTripAndKnownEncodings() throws {
        // The Ethereum wiki's RLP examples.
        XCTAssertEqual(RLP.encode(.bytes(Array("dog".utf8))), [0x83] + Array("dog".utf8))
        XCTAssertEqual(
            RLP.encode(.list([.bytes(Array("cat".utf8)), .bytes(Array("dog".utf8))])),
            [0xC8, 0x83] + Array("cat".utf8) + [0x83] + Array("dog".utf8))
        XCTAssertEqual(RLP.encode(.bytes([])), [0x80])
        XCTAssertEqual(RLP.encode(.list([])), [0xC0])
        XCTAssertEqual(RLP.encode(.bytes([0x0F])), [0x0F])
        XCTAssertEqual(RLP.encode(.bytes([0x04, 0x00])), [0x82, 0x04, 0x00])
        XCTAssertEqual(
            RLP.encode(.list([.list([]), .list([.list([])]), .list([.list([]), .list([.list([])])])])),
            [0xC7, 0xC0, 0xC1, 0xC0, 0xC3, 0xC0, 0xC1, 0xC0])
        let long = [UInt8](repeating: 0x61, count: 56)
        XCTAssertEqual(RLP.encode(.bytes(long)), [0xB8, 56] + long)
        for item: RLP.Item in [.bytes(long), .list([.bytes(long), .bytes([1]), .list([.bytes([])])]), .bytes([0x80])] {
            XCTAssertEqual(try RLP.decode(RLP.encode(item), maxDepth: 4), item)
        }
    }

    func testRLPRefusesEachNonCanonicalForm() {
        let cases: [(String, [UInt8], String)] = [
            ("trailing", [0x80, 0x00], "trailing bytes"),
            ("single byte as string", [0x81, 0x05], "is written as a string"),
            ("long form below 56", [0xB8, 0x05, 1, 2, 3, 4, 5], "long form"),
            ("leading zero in length", [0xB9, 0x00, 0x38] + [UInt8](repeating: 0x61, count: 56), "leading zero byte"),
            ("string beyond input", [0x85, 1, 2], "beyond the input"),
            ("list beyond input", [0xC5, 0x80], "beyond the input"),
            ("length of length beyond input", [0xBA, 0x01], "runs past the end"),
            ("item beyond its list", [0xC1, 0x82, 0x01, 0x02], "beyond the input"),
            ("empty", [], "truncated"),
            ("too deep", [0xC1, 0xC0], "nested deeper"),
            ("huge length", [0xBF, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], "beyond the input"),
        ]
        for (name, bytes, problem) in cases {
            XCTAssertThrowsError(try RLP.decode(bytes, maxDepth: name == "too deep" ? 1 : 4), name) { error in
                XCTAssertTrue((error as? TransactionError)?.problem.contains(problem) == true, "\(name): \(error)")
            }
        }
    }

    // MARK: The serialized form's defects

    /// A legacy transaction to sign with `fields` changed: the nine EIP-155 fields.
    private func legacy(_ change: (inout [RLP.Item]) -> Void) -> [UInt8] {
        var fields: [RLP.Item] = [
            .bytes([1]), .bytes([0x3B, 0x9A, 0xCA, 0x00]), .bytes([0x52, 0x08]), .bytes(EthereumAddress(bob)!.bytes),
            .bytes([1]), .bytes([]),
            .bytes([1]), .bytes([]), .bytes([]),
        ]
        change(&fields)
        return RLP.encode(.list(fields))
    }

    private func unsignedFault(_ bytes: [UInt8], file: StaticString = #filePath, line: UInt = #line)
        -> TransactionError?
    {
        do {
            _ = try EthereumTransaction(unsigned: bytes)
            XCTFail("decoded", file: file, line: line)
            return nil
        } catch {
            return error
        }
    }

    func testSerializedDefectsNameTheirField() throws {
        XCTAssertNoThrow(try EthereumTransaction(unsigned: legacy { _ in }))
        let cases: [(String, [UInt8], String, String)] = [
            ("leading zero nonce", legacy { $0[0] = .bytes([0, 1]) }, "nonce", "leading zero"),
            ("leading zero value", legacy { $0[4] = .bytes([0, 1]) }, "value", "leading zero"),
            ("nonce past 64 bits", legacy { $0[0] = .bytes([UInt8](repeating: 1, count: 9)) }, "nonce", "out of range"),
            (
                "gasPrice past 256 bits", legacy { $0[1] = .bytes([UInt8](repeating: 1, count: 33)) }, "gasPrice",
                "out of range"
            ),
            ("chain id overflow", legacy { $0[6] = .bytes([0x20, 0, 0, 0, 0, 0, 0]) }, "chainId", "overflows"),
            ("chain id of 9 bytes", legacy { $0[6] = .bytes([UInt8](repeating: 1, count: 9)) }, "chainId", "overflows"),
            ("chain id zero", legacy { $0[6] = .bytes([]) }, "chainId", "is 0"),
            ("to of 19 bytes", legacy { $0[3] = .bytes([UInt8](repeating: 1, count: 19)) }, "to", "an address is 20"),
            ("signed already", legacy { $0[7] = .bytes([1]) }, "", "signed already"),
            ("no EIP-155", legacy { $0.removeLast(3) }, "", "replayed on any chain"),
            ("a list for data", legacy { $0[5] = .list([]) }, "", "nested deeper"),
            ("trailing byte", legacy { _ in } + [0x00], "", "trailing bytes"),
            ("blob type", [0x03, 0xC0], "type", "not supported"),
            ("unknown type", [0x7F], "type", "neither"),
        ]
        for (name, bytes, field, problem) in cases {
            let fault = unsignedFault(bytes)
            XCTAssertEqual(fault?.field, field, name)
            XCTAssertTrue(fault?.problem.contains(problem) == true, "\(name): \(String(describing: fault))")
        }
    }

    func testTypedDefects() throws {
        let good = try bytes(vector("eip2930-access-list").unsigned)
        guard case .list(let fields) = try RLP.decode(Array(good.dropFirst()), maxDepth: 4) else { return XCTFail() }
        func typed(_ change: (inout [RLP.Item]) -> Void) -> [UInt8] {
            var changed = fields
            change(&changed)
            return [0x01] + RLP.encode(.list(changed))
        }
        XCTAssertEqual(try EthereumTransaction(unsigned: typed { _ in }).unsignedBytes, good)
        let cases: [(String, [UInt8], String, String)] = [
            (
                "storage key of 31 bytes",
                typed {
                    $0[7] = .list([
                        .list([.bytes(EthereumAddress(bob)!.bytes), .list([.bytes([UInt8](repeating: 1, count: 31))])])
                    ])
                },
                "accessList[0].storageKeys[0]", "a storage key is 32"
            ),
            (
                "entry of one part", typed { $0[7] = .list([.list([.bytes(EthereumAddress(bob)!.bytes)])]) },
                "accessList[0]", "an address and a list"
            ),
            ("access list a string", typed { $0[7] = .bytes([]) }, "accessList", "found a string"),
            ("signed already", typed { $0 += [.bytes([1]), .bytes([1]), .bytes([1])] }, "", "looks signed already"),
            ("chain id overflow", typed { $0[0] = .bytes([UInt8](repeating: 0xFF, count: 8)) }, "chainId", "overflows"),
        ]
        for (name, bytes, field, problem) in cases {
            let fault = unsignedFault(bytes)
            XCTAssertEqual(fault?.field, field, name)
            XCTAssertTrue(fault?.problem.contains(problem) == true, "\(name): \(String(describing: fault))")
        }
        // An EIP-1559 transaction whose priority fee is above its maximum.
        let feeMarket = try bytes(vector("eip1559-send-key2").unsigned)
        guard case .list(var market) = try RLP.decode(Array(feeMarket.dropFirst()), maxDepth: 4) else {
            return XCTFail()
        }
        market[2] = .bytes([0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF])
        XCTAssertEqual(unsignedFault([0x02] + RLP.encode(.list(market)))?.field, "maxPriorityFeePerGas")
    }

    func testSerializedStringForm() throws {
        let unsigned = try vector("legacy-send-mainnet").unsigned
        // Its chain must be the request's.
        let base = try XCTUnwrap(ChainID("eip155:8453"))
        let mismatch = invalidParamsFault { () throws(RPCError) in
            _ = try EthereumTransaction(json: .string(unsigned), chain: base, field: at)
        }
        XCTAssertEqual(mismatch?.field, at)
        XCTAssertTrue(mismatch?.problem.contains("names chain id 1, but the request is for eip155:8453") == true)
        // Errors inside it carry the request's path.
        let leading = Hex.prefixed(legacy { $0[0] = .bytes([0, 1]) })
        XCTAssertEqual(
            invalidParamsFault { () throws(RPCError) in
                _ = try EthereumTransaction(json: .string(leading), chain: mainnet, field: at)
            }?.field, "\(at).nonce")
        for bad in ["0x", "0xabc", "0xzz", "eb80", ""] {
            XCTAssertEqual(
                invalidParamsFault { () throws(RPCError) in
                    _ = try EthereumTransaction(json: .string(bad), chain: mainnet, field: at)
                }?.field, at, bad)
        }
        let huge = "0x" + String(repeating: "00", count: EthereumTransaction.maxBytes + 1)
        XCTAssertTrue(
            invalidParamsFault { () throws(RPCError) in
                _ = try EthereumTransaction(json: .string(huge), chain: mainnet, field: at)
            }?.problem.contains("at most") == true)
        XCTAssertEqual(
            invalidParamsFault { () throws(RPCError) in
                _ = try EthereumTransaction(json: .number(JSONNumber(1)), chain: mainnet, field: at)
            }?.field, at)
    }

    // MARK: The object form

    private func object(_ changes: [String: JSONValue?] = [:]) -> JSONValue {
        var members: [String: JSONValue] = [
            "from": .string(alice), "to": .string(bob), "value": .string("0x1"), "nonce": .string("0x0"),
            "gas": .string("0x5208"),
            "maxFeePerGas": .string("0x6fc23ac00"), "maxPriorityFeePerGas": .string("0x3b9aca00"),
            "chainId": .string("0x1"),
        ]
        for (name, value) in changes { members[name] = value }
        return .object(members)
    }

    private func objectFault(_ changes: [String: JSONValue?], chain: ChainID? = nil) -> (
        field: String, problem: String
    )? {
        invalidParamsFault { () throws(RPCError) in
            _ = try EthereumTransaction(json: object(changes), chain: chain ?? mainnet, field: at)
        }
    }

    func testObjectFormKindsAndDefaults() throws {
        let feeMarket = try EthereumTransaction(json: object(), chain: mainnet, field: at)
        XCTAssertEqual(feeMarket.kind, .feeMarket)
        XCTAssertEqual(feeMarket.chainID, 1)
        let withoutChain = try EthereumTransaction(json: object(["chainId": nil]), chain: mainnet, field: at)
        XCTAssertEqual(withoutChain, feeMarket, "chainId defaults to the request's")
        let legacy = try EthereumTransaction(
            json: object(["maxFeePerGas": nil, "maxPriorityFeePerGas": nil, "gasPrice": .string("0x1")]),
            chain: mainnet, field: at)
        XCTAssertEqual(legacy.kind, .legacy)
        let accessList = try EthereumTransaction(
            json: object([
                "maxFeePerGas": nil, "maxPriorityFeePerGas": nil, "gasPrice": .string("0x1"), "accessList": .array([]),
            ]),
            chain: mainnet, field: at)
        XCTAssertEqual(accessList.kind, .accessList)
        let typeOne = try EthereumTransaction(
            json: object([
                "maxFeePerGas": nil, "maxPriorityFeePerGas": nil, "gasPrice": .string("0x1"), "type": .string("0x1"),
            ]),
            chain: mainnet, field: at)
        XCTAssertEqual(typeOne.kind, .accessList)
        // gasLimit for gas, input for data, null for absent, and to: null for a creation.
        let spelled = try EthereumTransaction(
            json: object([
                "gas": nil, "gasLimit": .string("0x5208"), "input": .string("0xab"), "value": .null, "to": .null,
            ]), chain: mainnet, field: at)
        XCTAssertEqual(spelled.summary().actionLines, [["Create a contract from 1 byte of code"]])
        XCTAssertEqual(
            spelled,
            try EthereumTransaction(
                json: object(["data": .string("0xab"), "to": nil, "value": .string("0x0")]), chain: mainnet, field: at))
        XCTAssertEqual(
            spelled.summary().warningTexts, ["Contract creation: this deploys new code, which cannot be read here"])
    }

    func testObjectFormDefectsNameTheirMember() {
        let cases: [(String, [String: JSONValue?], String, String)] = [
            ("missing nonce", ["nonce": nil], "nonce", "required"),
            ("missing gas", ["gas": nil], "gas", "required"),
            ("missing from", ["from": nil], "from", "required"),
            ("missing fees", ["maxFeePerGas": nil, "maxPriorityFeePerGas": nil], "gasPrice", "required"),
            ("missing priority", ["maxPriorityFeePerGas": nil], "maxPriorityFeePerGas", "required"),
            ("missing max fee", ["maxFeePerGas": nil], "maxFeePerGas", "required"),
            ("both fee kinds", ["gasPrice": .string("0x1")], "gasPrice", "cannot|only those"),
            (
                "priority above max", ["maxPriorityFeePerGas": .string("0x6fc23ac01")], "maxPriorityFeePerGas",
                "more than maxFeePerGas"
            ),
            ("leading zero", ["nonce": .string("0x01")], "nonce", "leading zero"),
            ("empty quantity", ["value": .string("0x")], "value", "no hex digits"),
            ("number quantity", ["value": .number(JSONNumber(1))], "value", "found number"),
            ("decimal string", ["value": .string("10")], "value", "does not start with 0x"),
            ("nonce past 64 bits", ["nonce": .string("0x10000000000000000")], "nonce", "out of range"),
            (
                "value past 256 bits", ["value": .string("0x1" + String(repeating: "0", count: 64))], "value",
                "out of range"
            ),
            ("chain mismatch", ["chainId": .string("0x2105")], "chainId", "is 8453, but the request is for eip155:1"),
            ("chain id overflow", ["chainId": .string("0x20000000000000")], "chainId", "overflows"),
            (
                "chain id past 64 bits", ["chainId": .string("0x" + String(repeating: "f", count: 20))], "chainId",
                "overflows"
            ),
            ("odd hex data", ["data": .string("0xabc")], "data", "even number"),
            ("bad hex data", ["data": .string("0xzz")], "data", "even number"),
            ("data without 0x", ["data": .string("abcd")], "data", "0x and hex"),
            ("data and input differ", ["data": .string("0x01"), "input": .string("0x02")], "input", "differs"),
            ("gas and gasLimit differ", ["gasLimit": .string("0x1")], "gasLimit", "differs"),
            ("bad to", ["to": .string("0x1234")], "to", "Ethereum address"),
            ("bad checksum", ["to": .string("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD")], "to", "EIP-55"),
            ("unknown member", ["maxFeePerBlobGas": .string("0x1")], "maxFeePerBlobGas", "not a member"),
            ("type 3", ["type": .string("0x3")], "type", "not supported"),
            ("type 0 with max fee", ["type": .string("0x0")], "type", "takes gasPrice"),
            ("access list not array", ["accessList": .string("x")], "accessList", "expected an array"),
            (
                "access list entry", ["accessList": .array([.object(["address": .string(bob)])])], "accessList[0]",
                "expected"
            ),
            (
                "storage key short",
                ["accessList": .array([.object(["address": .string(bob), "storageKeys": .array([.string("0x01")])])])],
                "accessList[0].storageKeys[0]", "64 hex digits"
            ),
        ]
        for (name, changes, member, problem) in cases {
            let fault = objectFault(changes)
            XCTAssertEqual(fault?.field, "\(at).\(member)", name)
            let matches = problem.split(separator: "|").contains { fault?.problem.contains($0) == true }
            XCTAssertTrue(matches, "\(name): \(String(describing: fault))")
        }
        let legacyWithList = objectFault([
            "maxFeePerGas": nil, "maxPriorityFeePerGas": nil, "gasPrice": .string("0x1"), "type": .string("0x0"),
            "accessList": .array([]),
        ])
        XCTAssertEqual(legacyWithList?.field, "\(at).accessList")
        XCTAssertEqual(objectFault([:], chain: ChainID("solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp"))?.field, at)
        let tooLong = objectFault(["data": .string("0x" + String(repeating: "00", count: EthereumTransaction.maxBytes))]
        )
        XCTAssertEqual(tooLong?.field, at)
    }

    // MARK: Summaries

    private func summary(
        to: String?, data: String = "0x", value: String = "0x0", chain: UInt64 = 1, from: String? = nil
    ) throws -> TransactionSummary {
        let json = object([
            "to": to.map(JSONValue.string) ?? .null, "data": .string(data), "value": .string(value),
            "chainId": .string("0x" + String(chain, radix: 16)),
            "from": .string(from ?? alice),
        ])
        return try EthereumTransaction(json: json, chain: try XCTUnwrap(ChainID("eip155:\(chain)")), field: at)
            .summary()
    }

    private func calldata(_ name: String) throws -> String { try XCTUnwrap(Self.vectors.calldata[name], name) }

    func testSummaryOfASendAndItsFacts() throws {
        let transaction = try EthereumTransaction(
            json: .object(try vector("legacy-send-mainnet").json), chain: mainnet, field: at)
        let send = transaction.summary()
        XCTAssertEqual(send.kind, "an Ethereum transaction (legacy)")
        XCTAssertEqual(send.warnings, [])
        // No "Chain:" fact: the dialog's heading names the chain.
        XCTAssertEqual(
            send.facts,
            ["Nonce: 0", "Gas limit: 21,000", "Gas price: 20 gwei", "Most it can cost in fees: 0.00042 ETH"])
        XCTAssertEqual(send.actions, [.init(["Send 0.01 ETH", "  to 0x5aAe…eAed"], movesFunds: true)])
        XCTAssertEqual(send.actionNoun, "call")

        // Base is an OP Stack rollup: its L1 data fee is not bounded by the transaction.
        let base = try XCTUnwrap(ChainID("eip155:8453"))
        let usdcOnBase = try EthereumTransaction(
            json: .object(try vector("eip1559-usdc-transfer-base").json), chain: base, field: at
        ).summary()
        XCTAssertEqual(usdcOnBase.kind, "an Ethereum transaction (EIP-1559)")
        XCTAssertEqual(usdcOnBase.warnings, [])
        XCTAssertEqual(
            usdcOnBase.facts,
            [
                "Nonce: 7", "Gas limit: 65,000", "Max fee: 30 gwei, priority 1.5 gwei",
                "Most it can cost in fees: 0.00195 ETH, plus an L1 data fee the transaction does not limit",
            ])
        XCTAssertEqual(
            usdcOnBase.actions,
            [
                .init(
                    ["Call 0x8335…2913 (USDC on Base)", "  transfer 12.5 USDC", "    to 0x5aAe…eAed"], movesFunds: true)
            ])

        let accessList = try EthereumTransaction(
            json: .object(try vector("eip2930-access-list").json), chain: mainnet, field: at
        ).summary()
        XCTAssertEqual(accessList.kind, "an Ethereum transaction (EIP-2930)")
        XCTAssertEqual(accessList.facts.last, "Access list: 2 addresses, 2 storage keys")

        // The largest of everything, on a chain the wallet does not know: no currency name is
        // guessed, the L1 data fee is said, and 78-digit numbers are shortened.
        let extreme = try EthereumTransaction(unsigned: bytes(try vector("legacy-max-chain-id").unsigned)).summary()
        XCTAssertEqual(
            extreme.facts,
            [
                "Nonce: 18446744073709551615", "Gas limit: 18,446,744,073,709,551,615",
                "Gas price: 1157…9935 (78 digits) wei",
                "Most it can cost in fees: more than 2^256 wei, plus an L1 data fee the transaction does not limit",
            ])
        XCTAssertEqual(extreme.actionLines, [["Send 1157…9935 (78 digits) wei", "  to 0x5aAe…eAed"]])
    }

    func testNativeCurrencyByChain() throws {
        let cases: [(UInt64, String)] = [
            (1, "Send 1 ETH"), (10, "Send 1 ETH"), (42161, "Send 1 ETH"), (137, "Send 1 POL"), (56, "Send 1 BNB"),
            (43114, "Send 1 AVAX"), (100, "Send 1 xDAI"), (250, "Send 1 FTM"), (42220, "Send 1 CELO"),
            (25, "Send 1 CRO"), (11155111, "Send 1 ETH"), (17000, "Send 1 ETH"), (84532, "Send 1 ETH"),
            (7, "Send 1 (native currency, 18 decimals)"),
        ]
        for (chain, line) in cases {
            XCTAssertEqual(
                try summary(to: bob, value: "0xde0b6b3a7640000", chain: chain).actionLines.first?.first, line,
                "chain \(chain)")
        }
        // The fee bound holds where the gas fields bound every fee; elsewhere it says what it leaves out.
        for chain: UInt64 in [1, 42161, 137, 43114, 11155111] {
            XCTAssertEqual(
                try summary(to: bob, chain: chain).facts.last?.hasSuffix("does not limit"), false, "chain \(chain)")
        }
        for chain: UInt64 in [10, 8453, 84532, 7] {
            XCTAssertEqual(
                try summary(to: bob, chain: chain).facts.last?.hasSuffix(
                    ", plus an L1 data fee the transaction does not limit"),
                true, "chain \(chain)")
        }
        XCTAssertEqual(
            try summary(to: bob, chain: 7).facts.last,
            "Most it can cost in fees: 0.00063 (native currency, 18 decimals), "
                + "plus an L1 data fee the transaction does not limit")
    }

    func testSummaryOfContractCreation() throws {
        let polygon = try XCTUnwrap(ChainID("eip155:137"))
        let creation = try EthereumTransaction(
            json: .object(try vector("legacy-contract-creation").json), chain: polygon, field: at
        ).summary()
        XCTAssertEqual(creation.warningTexts, ["Contract creation: this deploys new code, which cannot be read here"])
        XCTAssertEqual(
            creation.facts,
            [
                "Nonce: 3", "Gas limit: 100,000", "Gas price: 0.000000001 gwei",
                "Most it can cost in fees: 0.0000000000001 POL",
            ])
        XCTAssertEqual(creation.actions, [.init(["Create a contract from 5 bytes of code"], movesFunds: false)])
        let withValue = try summary(to: nil, data: "0x60", value: "0xde0b6b3a7640000")
        XCTAssertEqual(
            withValue.actions, [.init(["Create a contract from 1 byte of code", "  with 1 ETH"], movesFunds: true)])
    }

    func testSummaryOfERC20Calls() throws {
        let tokenNotKnown = "Token not known: 0x1111…1111 is not in the wallet's table, so its amounts are shown raw"
        let cases: [(String, String, [String], [String])] = [
            ("transfer", usdc, ["  transfer 12.5 USDC", "    to 0x5aAe…eAed"], []),
            ("transferFrom", usdc, ["  transfer 1 USDC", "    to 0x5aAe…eAed", "    from 0xF010…1F55"], []),
            ("approve", usdc, ["  approve spender 0x5aAe…eAed", "    to spend 5 USDC"], []),
            ("increaseAllowance", usdc, ["  increase the allowance of 0x5aAe…eAed", "    by 1.5 USDC"], []),
            (
                "approveUnlimited", usdc,
                ["  approve spender 0x5aAe…eAed", "    to spend an unlimited amount of USDC"],
                ["Unlimited approval: 0x5aAe…eAed may spend all your USDC"]
            ),
            (
                "approveHalf", usdc,
                ["  approve spender 0x5aAe…eAed", "    to spend 5789…9968 (77 digits) raw units of USDC"],
                ["Unlimited approval: 0x5aAe…eAed may spend all your USDC"]
            ),
            (
                "approveVeryLarge", usdc, ["  approve spender 0x5aAe…eAed", "    to spend 2,000,000,000 USDC"],
                ["Very large approval: 0x5aAe…eAed may spend 2,000,000,000 USDC"]
            ),
            (
                "transfer", unknownToken, ["  transfer 12500000 (token not known: raw amount)", "    to 0x5aAe…eAed"],
                [tokenNotKnown]
            ),
            (
                "transferMax", unknownToken,
                ["  transfer 1157…9934 (78 digits) (token not known: raw amount)", "    to 0x5aAe…eAed"],
                [tokenNotKnown]
            ),
            (
                "approveUnlimited", unknownToken,
                ["  approve spender 0x5aAe…eAed", "    to spend an unlimited amount of the token (token not known)"],
                ["Unlimited approval: 0x5aAe…eAed may spend all your tokens of 0x1111…1111", tokenNotKnown]
            ),
            (
                "transferFrom", nft,
                [
                    "  transfer 1000000: a raw amount, or ERC-721 token #1000000", "    to 0x5aAe…eAed",
                    "    from 0xF010…1F55",
                ],
                ["Token not known: 0x2222…2222 is not in the wallet's table, so its amounts are shown raw"]
            ),
        ]
        for (name, contract, lines, warnings) in cases {
            let shown = try summary(to: contract, data: calldata(name))
            let header =
                contract == usdc ? "Call 0xA0b8…eB48 (USDC on Ethereum)" : "Call \(EthereumAddress(contract)!.short)"
            XCTAssertEqual(shown.actions, [.init([header] + lines, movesFunds: true)], name)
            XCTAssertEqual(shown.warningTexts, warnings, name)
        }
        // A very large approval of a token not in the table: a billion tokens at 18 decimals.
        let large =
            "0x095ea7b3" + String(repeating: "0", count: 24) + "5aaeb6053f3e94c9b9a09f33669435e7ef1beaed"
            + String(repeating: "0", count: 40) + "033b2e3c9fd0803ce8000000"
        XCTAssertEqual(
            try summary(to: unknownToken, data: large).warningTexts.first,
            "Very large approval: 0x5aAe…eAed may spend 1000000000000000000000000000 raw units of 0x1111…1111")
        // A revoking approval of a known token moves nothing.
        let revoke =
            "0x095ea7b3" + String(repeating: "0", count: 24) + "5aaeb6053f3e94c9b9a09f33669435e7ef1beaed"
            + String(repeating: "0", count: 64)
        XCTAssertEqual(try summary(to: usdc, data: revoke).actions.first?.movesFunds, false)
    }

    /// ERC-721's approve(spender, tokenId) has ERC-20's selector: on a contract not in the
    /// table the number is worded both ways, and the spender may take that token.
    func testSummaryOfAnApprovalThatMayBeAnNFT() throws {
        let shown = try summary(to: nft, data: calldata("approveNFT"))
        XCTAssertEqual(
            shown.actions,
            [
                .init(
                    [
                        "Call 0x2222…2222", "  approve spender 0x5aAe…eAed",
                        "    to spend 1234: a raw amount, or ERC-721 token #1234",
                    ],
                    movesFunds: true)
            ])
        XCTAssertEqual(
            shown.warnings.first,
            .init(.funds, "If 0x2222…2222 is an NFT contract, 0x5aAe…eAed may take its token #1234"))
        let ens = try summary(to: nft, data: calldata("approveENS"))
        XCTAssertEqual(
            ens.actionLines,
            [
                [
                    "Call 0x2222…2222", "  approve spender 0x5aAe…eAed",
                    "    to spend 4901…7611 (77 digits): a raw amount, or ERC-721 token #4901…7611 (77 digits)",
                ]
            ])
        XCTAssertTrue(
            ens.warningTexts.contains(
                "If 0x2222…2222 is an NFT contract, 0x5aAe…eAed may take its token #4901…7611 (77 digits)"),
            "\(ens.warningTexts)")
        // A known ERC-20 is not an NFT contract.
        XCTAssertFalse(try summary(to: usdc, data: calldata("approveNFT")).warningTexts.contains { $0.contains("NFT") })
    }

    func testSummaryWarnsOfTransferFromAnotherOwner() throws {
        XCTAssertEqual(
            try summary(to: usdc, data: calldata("transferFrom"), from: bob).warningTexts,
            ["Moves tokens from 0xF010…1F55, which is not the sender"])
        let unsigned = try EthereumTransaction(
            unsigned: EthereumTransaction(
                json: object(["to": .string(usdc), "data": .string(calldata("transferFrom")), "value": .string("0x0")]),
                chain: mainnet, field: at
            )
            .unsignedBytes)
        XCTAssertEqual(
            unsigned.summary().warningTexts,
            ["Moves tokens from 0xF010…1F55: the transaction does not say who sends it"])
        XCTAssertEqual(unsigned.naming(from: EthereumAddress(alice)!).summary().warningTexts, [])
    }

    func testSummaryOfNFTCalls() throws {
        let parties = ["    to 0x5aAe…eAed", "    from 0xF010…1F55"]
        let cases: [(String, [String], [String], Bool)] = [
            ("safeTransferFrom721", ["  transfer NFT #42"] + parties, [], true),
            ("safeTransferFrom721Data", ["  transfer NFT #42, with 3 bytes of data"] + parties, [], true),
            ("safeTransferFrom1155", ["  transfer 5 of token #7"] + parties, [], true),
            (
                "safeBatchTransferFrom",
                ["  transfer 3 kinds of tokens"] + parties + [
                    "    10 of token #1", "    20 of token #2", "    30 of token #3",
                ],
                [], true
            ),
            (
                "safeBatchTransferFromLong",
                ["  transfer 10 kinds of tokens, with 1 byte of data"] + parties
                    + (1...3).map { "    1 of token #\($0)" } + ["    …and 7 more items"],
                ["This call moves 10 kinds of tokens; the dialog lists 3 of them"], true
            ),
            (
                "setApprovalForAll", ["  allow 0x5aAe…eAed to move all your tokens of 0x2222…2222"],
                ["Approval for all: 0x5aAe…eAed may move every token you hold of 0x2222…2222"], true
            ),
            ("setApprovalForAllRevoke", ["  stop 0x5aAe…eAed from moving all your tokens of 0x2222…2222"], [], false),
        ]
        for (name, lines, warnings, movesFunds) in cases {
            let shown = try summary(to: nft, data: calldata(name))
            XCTAssertEqual(shown.actions, [.init(["Call 0x2222…2222"] + lines, movesFunds: movesFunds)], name)
            XCTAssertEqual(shown.warningTexts, warnings, name)
        }
        // Someone else's tokens: warned of, and not the sender's funds.
        let others = try summary(to: nft, data: calldata("safeTransferFrom1155"), from: bob)
        XCTAssertEqual(others.warningTexts, ["Moves tokens from 0xF010…1F55, which is not the sender"])
        XCTAssertEqual(others.actions.first?.movesFunds, false)
    }

    /// The review's reproducers: token ids of 77 digits (ENS names), amounts of 78, eight-item
    /// batches. The recipient is on its own line before anything long, no line passes the
    /// dialog's limit, and a call stays within its lines.
    func testLongNumbersNeverPushAnAddressOutOfALine() throws {
        let parties = ["    to 0x5aAe…eAed", "    from 0xF010…1F55"]
        let cases: [(String, [String])] = [
            (
                "transferFromENS",
                ["  transfer 4901…7611 (77 digits): a raw amount, or ERC-721 token #4901…7611 (77 digits)"] + parties
            ),
            ("safeTransferFrom721DataENS", ["  transfer NFT #4901…7611 (77 digits), with 100 bytes of data"] + parties),
            ("safeTransferFrom1155Max", ["  transfer 1157…9935 (78 digits) of token #1157…9935 (78 digits)"] + parties),
            (
                "safeBatchTransferFromMax",
                ["  transfer 8 kinds of tokens"] + parties
                    + ["    1157…9935 (78 digits) of token #4901…7611 (77 digits)"]
                    + (2...3).map { "    1157…9935 (78 digits) of token #4901…761\($0) (77 digits)" }
                    + ["    …and 5 more items"]
            ),
        ]
        for (name, lines) in cases {
            let shown = try summary(to: nft, data: calldata(name))
            XCTAssertEqual(shown.actionLines, [["Call 0x2222…2222"] + lines], name)
            XCTAssertEqual(shown.actions.first?.movesFunds, true, name)
        }
        // With ETH sent along, the batch gives up an item so the call keeps to its lines.
        let withValue = try summary(to: nft, data: calldata("safeBatchTransferFromMax"), value: "0x1")
        XCTAssertEqual(withValue.actionLines.first?.count, CalldataDecoder.maxCallLines)
        XCTAssertEqual(withValue.actionLines.first?.last, "    …and 6 more items")
        for name in Self.vectors.calldata.keys.sorted() {
            for contract in [nft, usdc, permit2] {
                let shown = try summary(
                    to: contract, data: calldata(name), value: "0x" + String(repeating: "f", count: 64))
                let lines = shown.warningTexts + shown.facts + shown.actions.flatMap(\.lines)
                for line in lines {
                    XCTAssertLessThanOrEqual(line.utf8.count, TransactionConsent.maxLineBytes, "\(name): \(line)")
                }
                XCTAssertLessThanOrEqual(shown.actionLines[0].count, CalldataDecoder.maxCallLines, name)
            }
        }
    }

    func testSummaryOfPermit2() throws {
        let cases: [(String, [String], [String])] = [
            (
                "permit2Approve",
                [
                    "  Permit2: allow spender 0x5aAe…eAed",
                    "    to move up to an unlimited amount of USDC of token 0xA0b8…eB48",
                    "    expires 2027-01-01 00:00 UTC",
                ],
                [
                    "Unlimited approval: 0x5aAe…eAed may spend all your USDC",
                    "Permit2 approval: 0x5aAe…eAed may move your tokens of 0xA0b8…eB48 through Permit2",
                ]
            ),
            (
                "permit2ApproveSmall",
                [
                    "  Permit2: allow spender 0x5aAe…eAed", "    to move up to 25 USDC of token 0xA0b8…eB48",
                    "    expires with the block it is included in",
                ],
                ["Permit2 approval: 0x5aAe…eAed may move your tokens of 0xA0b8…eB48 through Permit2"]
            ),
            (
                "permit2Permit",
                [
                    "  Permit2: grants an allowance over 0xF010…1F55's tokens", "    to spender 0x5aAe…eAed",
                    "    up to 1 USDC of token 0xA0b8…eB48",
                    "    expires 2027-01-01 00:00 UTC; signature valid until 2027-01-01 00:00 UTC",
                ],
                ["Permit2 approval: 0x5aAe…eAed may move tokens of 0xA0b8…eB48 through Permit2"]
            ),
            (
                "permit2PermitForever",
                [
                    "  Permit2: grants an allowance over 0xF010…1F55's tokens", "    to spender 0x5aAe…eAed",
                    "    up to 1461…2974 (49 digits) raw units of USDC of token 0xA0b8…eB48",
                    "    never expires; the signature has no deadline",
                ],
                [
                    "Very large approval: 0x5aAe…eAed may spend 1461…2974 (49 digits) raw units of USDC",
                    "Permit2 approval: 0x5aAe…eAed may move tokens of 0xA0b8…eB48 through Permit2",
                ]
            ),
        ]
        for (name, lines, warnings) in cases {
            let shown = try summary(to: permit2, data: calldata(name))
            XCTAssertEqual(shown.actions, [.init(["Call 0x0000…8BA3"] + lines, movesFunds: true)], name)
            XCTAssertEqual(shown.warningTexts, warnings, name)
        }
        XCTAssertEqual(
            try summary(to: permit2, data: calldata("permit2Permit"), from: bob).warningTexts.last,
            "Grants an allowance over 0xF010…1F55's tokens, which is not the sender")
        // Permit2's approve elsewhere, and ERC-20's approve at Permit2, are not what they seem.
        XCTAssertEqual(
            try summary(to: usdc, data: calldata("permit2Approve")).warningTexts,
            ["Unknown function 0x87517c45: what this call does cannot be shown"])
        XCTAssertEqual(
            try summary(to: permit2, data: calldata("approve")).warningTexts,
            ["Unknown function 0x095ea7b3: what this call does cannot be shown"])
    }

    func testSummaryOfUnknownAndMalformedCalls() throws {
        let unknown = try summary(to: bob, data: calldata("unknown"))
        // A function the wallet cannot read may do anything with the sender's funds.
        XCTAssertEqual(
            unknown.actions,
            [.init(["Call 0x5aAe…eAed with selector 0xdeadbeef and 68 bytes of data"], movesFunds: true)])
        XCTAssertEqual(unknown.warningTexts, ["Unknown function 0xdeadbeef: what this call does cannot be shown"])

        let short = try summary(to: bob, data: "0x0102")
        XCTAssertEqual(
            short.actions,
            [.init(["Call 0x5aAe…eAed", "  2 bytes of data, too short for a function selector"], movesFunds: true)])
        XCTAssertEqual(
            short.warningTexts, ["Unknown call: 2 bytes of data are not a function call this wallet can read"])

        let transfer = try calldata("transfer")
        let malformed: [(String, String)] = [
            ("truncated", String(transfer.dropLast(2))),
            ("address high bits", "0xa9059cbb" + "01" + String(transfer.dropFirst(12))),
            (
                "bool of 2",
                "0xa22cb465" + String(repeating: "0", count: 24) + "5aaeb6053f3e94c9b9a09f33669435e7ef1beaed"
                    + String(repeating: "0", count: 63) + "2"
            ),
            (
                "batch offset outside",
                String(try calldata("safeBatchTransferFrom").prefix(10 + 128)) + String(repeating: "f", count: 64)
            ),
        ]
        for (name, data) in malformed {
            let shown = try summary(to: usdc, data: data)
            XCTAssertEqual(shown.warningTexts.count, 1, name)
            XCTAssertTrue(
                shown.warningTexts.first?.hasPrefix("Malformed call: the data do not decode as ") == true,
                "\(name): \(shown.warningTexts)")
            XCTAssertTrue(shown.actionLines[0].last?.contains("of data that do not decode as") == true, name)
            XCTAssertEqual(shown.actions.first?.movesFunds, true, name)
        }
        // A known call with bytes after its arguments: what it reads is shown, and the rest warned of.
        let trailing = try summary(to: usdc, data: calldata("transferTrailing"))
        XCTAssertEqual(
            trailing.actions,
            [
                .init(
                    ["Call 0xA0b8…eB48 (USDC on Ethereum)", "  transfer 12.5 USDC", "    to 0x5aAe…eAed"],
                    movesFunds: true)
            ])
        XCTAssertEqual(
            trailing.warnings,
            [
                .init(
                    .unreadable,
                    "4 extra bytes after the arguments of transfer: what the contract does with them cannot be shown")
            ])
        let revokeTrailing = try summary(to: nft, data: calldata("setApprovalForAllRevoke") + "00")
        XCTAssertEqual(
            revokeTrailing.warningTexts.first?.hasPrefix("1 extra byte after the arguments of setApprovalForAll"), true)
        XCTAssertEqual(revokeTrailing.actions.first?.movesFunds, true, "bytes it cannot read may do anything")
    }

    func testSummaryOfValueSentWithACall() throws {
        let shown = try summary(to: usdc, data: calldata("transfer"), value: "0x6f05b59d3b20000")
        XCTAssertEqual(
            shown.actionLines,
            [["Call 0xA0b8…eB48 (USDC on Ethereum)", "  with 0.5 ETH", "  transfer 12.5 USDC", "    to 0x5aAe…eAed"]])
        // ETH sent with a call that moves nothing else still moves funds.
        XCTAssertEqual(
            try summary(to: nft, data: calldata("setApprovalForAllRevoke"), value: "0x1").actions.first?.movesFunds,
            true)
        XCTAssertEqual(shown.warningTexts, ["Sends 0.5 ETH to 0xA0b8…eB48 along with the call"])
    }

    /// fuzz-evm-transaction's invariants (a call within its lines, each line within the
    /// dialog's bytes) hold for every committed seed, the review's long numbers among them.
    func testFuzzSeedsKeepTheSummaryInvariants() throws {
        let corpus = "\(packageRoot)/fuzz/corpus/evm-transaction"
        let regressions = "\(packageRoot)/fuzz/regressions/evm-transaction"
        let names =
            try FileManager.default.contentsOfDirectory(atPath: corpus).sorted().map { "\(corpus)/\($0)" }
            + FileManager.default.contentsOfDirectory(atPath: regressions).sorted().map { "\(regressions)/\($0)" }
        XCTAssertTrue(names.contains { $0.hasSuffix("/calldata-safeBatchTransferFromMax") }, "\(names)")
        // The fuzzer's find: 40 digits of wei on a chain the wallet does not know made a
        // fee line of 163 bytes.
        let fee = try XCTUnwrap(names.first { $0.hasSuffix("/fee-line-of-an-unknown-chain-over-160-bytes") })
        let unsigned = try EthereumTransaction(unsigned: [UInt8](try Data(contentsOf: URL(fileURLWithPath: fee))))
        XCTAssertEqual(
            unsigned.summary().facts.last,
            "Most it can cost in fees: 5,855,734,438,907,407.312750082606318914 (native currency, 18 decimals), "
                + "plus an L1 data fee the transaction does not limit")
        for name in names {
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: name)))
            XCTAssertNil(EthereumTransactionFuzzing.check(bytes), name)
            // The same calldata at every contract, from an unnamed sender, with ETH sent along.
            if bytes.first == 0xFF, bytes.count >= 2 {
                for contract: UInt8 in [0, 1, 2] {
                    XCTAssertNil(EthereumTransactionFuzzing.check([0xFF, contract | 0xC0] + bytes.dropFirst(2)), name)
                }
            }
        }
    }

    // MARK: Tables

    func testSelectorsAreTheKeccakOfTheirSignatures() {
        for selector in CalldataDecoder.Selector.allCases {
            let hash = Keccak256.hash(Array(selector.signature.utf8))
            XCTAssertEqual(
                hash[0..<4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }, selector.rawValue, selector.signature)
        }
    }

    func testTokenTableEntriesAreChecksummedAndFound() throws {
        XCTAssertEqual(EthereumTokens.entries.count, 23)
        for entry in EthereumTokens.entries {
            let address = try XCTUnwrap(EthereumAddress(entry.address), entry.address)
            XCTAssertEqual(address.description, entry.address, "EIP-55 spelling of \(entry.symbol) on \(entry.chain)")
            XCTAssertEqual(
                EthereumTokens.token(address, chain: entry.chain), .init(symbol: entry.symbol, decimals: entry.decimals)
            )
            XCTAssertTrue(["USDC", "USDC.e", "USDT", "DAI", "WETH"].contains(entry.symbol))
            XCTAssertEqual(entry.decimals, entry.symbol.hasPrefix("USD") ? 6 : 18)
        }
        for chain: UInt64 in [1, 8453, 137, 42161, 10] {
            XCTAssertEqual(
                Set(EthereumTokens.entries.filter { $0.chain == chain }.map(\.symbol)).isSuperset(of: [
                    "USDC", "USDT", "DAI", "WETH",
                ]), true,
                "chain \(chain)")
        }
        // A token is known on its own chain only.
        XCTAssertNil(EthereumTokens.token(EthereumAddress(usdc)!, chain: 8453))
    }

    func testDates() {
        XCTAssertEqual(CalldataDecoder.date(0), "1970-01-01 00:00 UTC")
        XCTAssertEqual(CalldataDecoder.date(1_798_761_600), "2027-01-01 00:00 UTC")
        XCTAssertEqual(CalldataDecoder.date(951_782_400 + 3_661), "2000-02-29 01:01 UTC")
        // The latest uint48 (Permit2's expiration) is far past any calendar library's range: no trap.
        XCTAssertEqual(CalldataDecoder.date((1 << 48) - 1), "8921556-12-07 10:44 UTC")
        XCTAssertTrue(
            CalldataDecoder.date(.max).hasSuffix(" UTC"), "a signature deadline can be any uint256 that fits 64 bits")
    }

    // MARK: Helpers

    private func vector(_ name: String) throws -> Vectors.Transaction {
        try XCTUnwrap(Self.vectors.transactions.first { $0.name == name }, name)
    }

    private func bytes(_ hex: String) throws -> [UInt8] {
        try XCTUnwrap(Hex.decode(hex.dropFirst(2)))
    }
}
