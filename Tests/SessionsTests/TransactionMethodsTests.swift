import Synchronization
import WalletBridge
@testable import WalletBridgeWallet
import WalletBridgeTestSupport
import XCTest
@testable import WalletBridgeKeys
@testable import WalletBridgeSessions
@testable import WalletBridgeTransactions

/// The transaction methods' round-2 behaviours: the Solana network is the extension's word, a
/// message sent without its signature slots is named as such, the serialized EVM form names its
/// signer (and the summary knows it), and a proposal that requires a sending method is told what
/// to use instead.
final class TransactionMethodsTests: XCTestCase {
    private let caller = Caller.chromeExtension(origin: "chrome-extension://abcdefghijklmnopabcdefghijklmnop/")
    private let now = 1_800_000_000
    private let a = RecordingSessionWallet.keys[0]
    private let (cow, dog) = (RecordingSessionWallet.ethereumAddresses[0], RecordingSessionWallet.ethereumAddresses[1])
    private var wallet = RecordingSessionWallet(ethereumKeys: 2)
    private var session: Session!

    override func setUp() {
        wallet = RecordingSessionWallet(ethereumKeys: 2)
        let namespaces: Namespaces = [
            SolanaChain.namespace: WalletSupport.default.namespaces[SolanaChain.namespace]!,
            EIP155.namespace: Namespace(chains: [EIP155.mainnet], methods: EIP155.methods),
        ]
        session = Session(
            caller: SessionCaller(caller), callerName: nil, metadata: PeerMetadata(name: "Example dApp"),
            requiredNamespaces: namespaces, optionalNamespaces: [:], namespaces: namespaces, created: now,
            expiry: now + 604_800)
    }

    private func call(_ method: String, _ params: JSONValue, chain: ChainID = SolanaChain.mainnet) async throws
        -> JSONValue
    {
        var service = SessionService(
            store: SessionStore(inMemory: [session], now: { [now] in now }), wallet: wallet, lifetime: 604_800)
        service.clocks.wall = { [now] in now }
        let request: JSONValue = .object([
            "topic": .string(session.topic), "chainId": .string(chain.description),
            "request": .object(["method": .string(method), "params": params]),
        ])
        return try await service.request(
            request,
            context: RequestContext(caller: caller, requestID: .number(JSONNumber(1)), method: "session_request"))
    }

    /// The error `body` throws; the wallet was asked nothing.
    private func refusal(_ body: () async throws -> JSONValue, file: StaticString = #filePath, line: UInt = #line) async
        -> RPCError?
    {
        do {
            let answer = try await body()
            XCTFail("answered \(answer)", file: file, line: line)
            return nil
        } catch let error as RPCError {
            XCTAssertTrue(
                wallet.asked.solana.withLock { $0.isEmpty } && wallet.asked.ethereum.withLock { $0.isEmpty },
                "the wallet was asked", file: file, line: line)
            return error
        } catch {
            XCTFail("\(error)", file: file, line: line)
            return nil
        }
    }

    private func data(_ error: RPCError?, _ key: String) -> String? {
        guard case .object(let data)? = error?.data, case .string(let text)? = data[key] else { return nil }
        return text
    }

    private func transfer(signers: Int = 1) -> JSONValue {
        let message = HandMadeSolana.message(signers: [a.publicKey], transfers: [(0, 1_500_000_000)])
        return .string(Base64.encode(HandMadeSolana.unsigned(message, signers: signers)))
    }

    // MARK: Solana: the network is the extension's word

    private static let devnetWarning = TransactionSummary.Warning(
        .trust,
        "The extension says Solana devnet: a signed Solana transaction is valid on any network where its blockhash is "
            + "recent; treat it as real funds")

    func testOffMainnetTheDialogWarnsThatTheNetworkIsOnlyTheExtensionsWord() async throws {
        _ = try await call("solana_signTransaction", .object(["transaction": transfer()]), chain: SolanaChain.devnet)
        _ = try await call(
            "solana_signAllTransactions", .object(["transactions": .array([transfer(), transfer()])]),
            chain: SolanaChain.devnet)
        let asked = wallet.asked.solana.withLock { $0 }
        XCTAssertEqual(asked.count, 2)
        XCTAssertEqual(asked[0].consent.summaries.map { $0.warnings.last }, [Self.devnetWarning])
        XCTAssertEqual(asked[1].consent.summaries.map { $0.warnings.last }, [Self.devnetWarning, Self.devnetWarning])
        XCTAssertTrue(asked[0].consent.lines(budget: 4_000).contains("⚠ " + Self.devnetWarning.text))
        let testnet = try XCTUnwrap(SessionService.networkWarning(SolanaChain.testnet))
        XCTAssertTrue(testnet.text.hasPrefix("The extension says Solana testnet: "))
    }

    func testOnMainnetThereIsNoNetworkWarning() async throws {
        _ = try await call("solana_signTransaction", .object(["transaction": transfer()]))
        let asked = try XCTUnwrap(wallet.asked.solana.withLock { $0.first })
        XCTAssertFalse(asked.consent.summaries[0].warnings.contains { $0.text.hasPrefix("The extension says") })
        XCTAssertNil(SessionService.networkWarning(SolanaChain.mainnet))
    }

    /// The audit log names a transaction by its fee payer's signature: the wallet is told the
    /// ids the request already carries (a fee payer that signed before), nil where none.
    func testTheWalletIsToldTheIDsOfTransactionsWhoseFeePayerSignedBefore() async throws {
        let payer = TestKey(seed: 3)
        let message = HandMadeSolana.message(signers: [payer.publicKey, a.publicKey], transfers: [(1, 5)])
        let paid = HandMadeSolana.transaction(
            message, signatures: [payer.sign(message), [UInt8](repeating: 0, count: 64)])
        _ = try await call(
            "solana_signAllTransactions",
            .object([
                "transactions": .array([
                    .string(Base64.encode(paid)), .string(Base64.encode(HandMadeSolana.unsigned(message, signers: 2))),
                ])
            ]))
        let asked = try XCTUnwrap(wallet.asked.solana.withLock { $0.first })
        XCTAssertEqual(asked.transactionIDs, [Base58.encode(payer.sign(message)), nil])
    }

    // MARK: Solana: a message without its signatures

    func testAMessageSentWithoutItsSignatureSlotsIsToldSo() async throws {
        let message = HandMadeSolana.message(signers: [a.publicKey], transfers: [(0, 5)])
        let expected =
            "this is a transaction message without its signatures: send the serialized transaction "
            + "(a compact-u16 count and 64 zero bytes per signer before the message)"
        let one = await refusal {
            try await call("solana_signTransaction", .object(["transaction": .string(Base64.encode(message))]))
        }
        XCTAssertEqual(one?.code, .invalidParams)
        XCTAssertEqual(data(one, "field"), "request.params.transaction")
        XCTAssertEqual(data(one, "problem"), expected)
        let batch = await refusal {
            try await call(
                "solana_signAllTransactions",
                .object(["transactions": .array([transfer(), .string(Base64.encode(message))])]))
        }
        XCTAssertEqual(data(batch, "field"), "request.params.transactions[1]")
        XCTAssertEqual(data(batch, "problem"), expected)
        // Bytes that are neither keep the decoder's own answer.
        let truncated = await refusal {
            try await call("solana_signTransaction", .object(["transaction": .string(Base64.encode([1, 0]))]))
        }
        XCTAssertNotEqual(data(truncated, "problem"), expected)
        XCTAssertTrue(data(truncated, "field")?.hasPrefix("request.params.transaction") == true)
    }

    // MARK: eth_signTransaction's serialized form

    private static let usdc = "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48"

    /// `transferFrom(owner, 0x…dEaD, 1000)` on USDC, as an unsigned EIP-1559 transaction's hex.
    private func serializedTransferFrom(owner: EthereumAddress) throws -> String {
        func word(_ bytes: [UInt8]) -> [UInt8] { [UInt8](repeating: 0, count: 32 - bytes.count) + bytes }
        let recipient = try XCTUnwrap(EthereumAddress("0x000000000000000000000000000000000000dEaD"))
        let calldata = [0x23, 0xb8, 0x72, 0xdd] + word(owner.bytes) + word(recipient.bytes) + word([0x03, 0xe8])
        let object: JSONValue = .object([
            "from": .string(owner.description), "to": .string(Self.usdc), "data": .string(Hex.prefixed(calldata)),
            "gas": .string("0x186a0"), "nonce": .string("0x7"), "maxFeePerGas": .string("0x6fc23ac00"),
            "maxPriorityFeePerGas": .string("0x59682f00"), "chainId": .string("0x1"),
        ])
        let transaction = try EthereumTransaction(json: object, chain: EIP155.mainnet, field: "tx")
        return Hex.prefixed(transaction.unsignedBytes)
    }

    func testTheSerializedFormKnowsItsSignerSoATransferFromOfItsOwnTokensIsNotWarnedAbout() async throws {
        let hex = try serializedTransferFrom(owner: cow)
        _ = try await call("eth_signTransaction", .array([.string(hex)]), chain: EIP155.mainnet)
        let asked = try XCTUnwrap(wallet.asked.ethereum.withLock { $0.first })
        XCTAssertEqual(asked.address, cow)
        XCTAssertEqual(asked.transaction?.from, cow)
        let warnings = try XCTUnwrap(asked.transactionConsent?.summaries.first?.warnings.map(\.text))
        XCTAssertFalse(warnings.contains { $0.hasPrefix("Moves tokens from") }, "\(warnings)")
    }

    func testASecondParamNamesTheAccountThatSignsTheSerializedForm() async throws {
        let hex = try serializedTransferFrom(owner: dog)
        let answer = try await call(
            "eth_signTransaction", .array([.string(hex), .string(dog.description)]), chain: EIP155.mainnet)
        let asked = try XCTUnwrap(wallet.asked.ethereum.withLock { $0.first })
        XCTAssertEqual(asked.address, dog)
        let transaction = try XCTUnwrap(asked.transaction)
        XCTAssertEqual(transaction.from, dog)
        let warnings = try XCTUnwrap(asked.transactionConsent?.summaries.first?.warnings.map(\.text))
        XCTAssertFalse(warnings.contains { $0.hasPrefix("Moves tokens from") }, "\(warnings)")
        // The raw transaction is signed by dog's key: its signature recovers dog's address.
        let secret = RecordingSessionWallet.ethereumSecrets[1].withUnsafeBytes { SecureBytes(copying: $0) }
        let signature = try XCTUnwrap(Secp256k1.sign(digest: transaction.signingHash, secretKey: secret))
        XCTAssertEqual(answer, .string(Hex.prefixed(transaction.signed(with: signature))))
        let recovered = try XCTUnwrap(Secp256k1.recover(signature: signature, digest: transaction.signingHash))
        XCTAssertEqual(EthereumAddress(publicKey: recovered), dog)
        // Without it, the first account signs: the same bytes are then cow's to sign, and a
        // transferFrom of dog's tokens is warned about.
        _ = try await call("eth_signTransaction", .array([.string(hex)]), chain: EIP155.mainnet)
        let second = try XCTUnwrap(wallet.asked.ethereum.withLock { $0.last })
        XCTAssertEqual(second.address, cow)
        XCTAssertTrue(
            second.transactionConsent?.summaries.first?.warnings.contains {
                $0.text == "Moves tokens from \(dog.short), which is not the sender"
            } == true)
    }

    func testTheSecondParamIsRefusedWhenItIsNotAnAccountOrContradictsFrom() async throws {
        let hex = try serializedTransferFrom(owner: cow)
        let stranger = "0x000000000000000000000000000000000000dEaD"
        let unknown = await refusal {
            try await call("eth_signTransaction", .array([.string(hex), .string(stranger)]), chain: EIP155.mainnet)
        }
        XCTAssertEqual(unknown?.code.rawValue, 4100)
        let notAddress = await refusal {
            try await call("eth_signTransaction", .array([.string(hex), .string("cow")]), chain: EIP155.mainnet)
        }
        XCTAssertEqual(notAddress?.code, .invalidParams)
        XCTAssertEqual(data(notAddress, "field"), "request.params[1]")
        let object: JSONValue = .object([
            "from": .string(cow.description), "to": .string(stranger), "gas": .string("0x5208"),
            "nonce": .string("0x0"),
            "gasPrice": .string("0x3b9aca00"),
        ])
        let contradicts = await refusal {
            try await call("eth_signTransaction", .array([object, .string(dog.description)]), chain: EIP155.mainnet)
        }
        XCTAssertEqual(data(contradicts, "field"), "request.params[1]")
        XCTAssertEqual(
            data(contradicts, "problem"),
            "is \(dog), but the transaction's from is \(cow): the account that signs is named once")
        let three = await refusal {
            try await call(
                "eth_signTransaction", .array([.string(hex), .string(cow.description), .null]), chain: EIP155.mainnet)
        }
        XCTAssertEqual(data(three, "field"), "request.params")
        XCTAssertEqual(data(three, "problem"), "expected [transaction] or [transaction, address]")
        // With `from` the same as the second param, it signs.
        _ = try await call(
            "eth_signTransaction", .array([object, .string(cow.description.lowercased())]), chain: EIP155.mainnet)
        XCTAssertEqual(wallet.asked.ethereum.withLock { $0.map(\.address) }, [cow])
    }

    // MARK: session_connect: methods that send

    private func approve(_ required: JSONValue) throws -> Namespaces {
        try Namespaces.approve(
            required: try Namespaces.parse(required, field: "requiredNamespaces"), optional: [:], support: .default)
    }

    private func rejection(_ required: JSONValue, file: StaticString = #filePath, line: UInt = #line) -> RPCError? {
        do {
            XCTFail("approved \(try approve(required))", file: file, line: line)
        } catch let error as RPCError {
            return error
        } catch {
            XCTFail("\(error)", file: file, line: line)
        }
        return nil
    }

    func testAProposalRequiringASendingMethodIs5101SayingWhatToUseInstead() throws {
        let eth = rejection([
            "eip155": [
                "chains": ["eip155:1"], "methods": ["eth_signTransaction", "eth_sendTransaction"], "events": [],
            ]
        ])
        XCTAssertEqual(eth?.code.rawValue, 5101)
        XCTAssertEqual(
            eth?.data,
            .object([
                "methods": ["eth_sendTransaction"],
                "problem": .string(
                    "the wallet has no network and sends nothing, so it offers no eth_sendTransaction: sign with "
                        + "eth_signTransaction, then broadcast the signed transaction with eth_sendRawTransaction from the extension"
                ),
            ]))
        let both = rejection([
            "eip155": ["chains": ["eip155:1"], "methods": ["eth_sendTransaction"], "events": []],
            "solana": [
                "chains": [.string(SolanaChain.mainnet.description)], "methods": ["solana_signAndSendTransaction"],
                "events": [],
            ],
        ])
        XCTAssertEqual(
            data(both, "problem"),
            "the wallet has no network and sends nothing, so it offers no eth_sendTransaction or solana_signAndSendTransaction: "
                + "sign with eth_signTransaction, then broadcast the signed transaction with eth_sendRawTransaction from the "
                + "extension; sign with solana_signTransaction, then send the signed transaction from the extension (sendTransaction)"
        )
        // Another unsupported method keeps the plain 5101.
        let other = rejection(["eip155": ["chains": ["eip155:1"], "methods": ["eth_mine"], "events": []]])
        XCTAssertEqual(other?.code.rawValue, 5101)
        XCTAssertEqual(other?.data, .object(["methods": ["eth_mine"]]))
        // Optional ones are left out quietly, as before.
        let approved = try Namespaces.approve(
            required: [:],
            optional: try Namespaces.parse(
                [
                    "eip155": [
                        "chains": ["eip155:1"], "methods": ["eth_sendTransaction", "eth_signTransaction"], "events": [],
                    ]
                ],
                field: "optionalNamespaces"),
            support: .default)
        XCTAssertEqual(approved["eip155"]?.methods, ["eth_signTransaction"])
    }

    // MARK: The OpenRPC description

    private func object(_ value: JSONValue?, file: StaticString = #filePath, line: UInt = #line) -> [String: JSONValue]
    {
        guard case .object(let members)? = value else {
            XCTFail("not an object: \(String(describing: value))", file: file, line: line)
            return [:]
        }
        return members
    }

    private func array(_ value: JSONValue?, file: StaticString = #filePath, line: UInt = #line) -> [JSONValue] {
        guard case .array(let members)? = value else {
            XCTFail("not an array: \(String(describing: value))", file: file, line: line)
            return []
        }
        return members
    }

    /// The transaction object's schema names the members the host reads, no more (the host
    /// refuses any other), and requires a gas limit and a fee; the second param is an address.
    func testTheEthereumTransactionSchemaIsTheObjectTheHostReads() throws {
        let params = object(EthSignTransaction.describedParams.schema)
        XCTAssertEqual(params["maxItems"], .number(JSONNumber(2)))
        let items = array(params["items"])
        XCTAssertEqual(items.count, 2)
        let transaction = object(array(object(items.first)["anyOf"]).first)
        XCTAssertEqual(Set(object(transaction["properties"]).keys), JSONTransaction.known)
        XCTAssertEqual(transaction["additionalProperties"], .bool(false))
        XCTAssertEqual(
            transaction["allOf"],
            [
                ["anyOf": [["required": ["gas"]], ["required": ["gasLimit"]]]],
                ["anyOf": [["required": ["gasPrice"]], ["required": ["maxFeePerGas", "maxPriorityFeePerGas"]]]],
            ])
        XCTAssertEqual(object(items.last)["pattern"], object(SessionSchemas.ethereumAddress)["pattern"])
    }

    /// Standard padded base64, as the host reads it: whole groups of four, at least one.
    func testTheSolanaTransactionPatternIsPaddedBase64AndPubkeyMayBeNull() throws {
        guard case .string(let pattern)? = object(SessionSchemas.solanaTransaction)["pattern"] else {
            return XCTFail("no pattern")
        }
        let regex = try Regex(pattern)
        for taken in ["AAAA", "AAA=", "AA==", "AAAAAA==", Base64.encode([UInt8](repeating: 7, count: 1232))] {
            XCTAssertNotNil(taken.wholeMatch(of: regex), taken)
            XCTAssertNotNil(Base64.decode(taken), "the host reads \(taken) too")
        }
        for refused in ["", "AAA", "AA=", "A===", "AAAAA", "AAAA=", "AA==AAAA", "AA-_"] {
            XCTAssertNil(refused.wholeMatch(of: regex), refused)
        }
        for params in [SolanaSignTransaction.describedParams.schema, SolanaSignAllTransactions.describedParams.schema] {
            let pubkey = object(object(object(params)["properties"])["pubkey"])
            XCTAssertEqual(pubkey["anyOf"], [SessionSchemas.base58PublicKey, ["type": "null"]])
        }
    }
}
