import Synchronization
import WalletBridge
@testable import WalletBridgeWallet
import WalletBridgeTestSupport
import XCTest
@testable import WalletBridgeKeys
@testable import WalletBridgeSessions
@testable import WalletBridgeTransactions

/// `solana_signTransaction`, `solana_signAllTransactions`, `eth_signTransaction` and the refusal
/// of `eth_sendTransaction` inside a session: their params and answers, which key signs, what
/// is refused before anyone is asked, and what the wallet is asked to show.
///
/// The cases that decode a transaction need the decoders (Transactions/Solana, Transactions/EVM).
final class TransactionSigningTests: XCTestCase {
    private let caller = Caller.chromeExtension(origin: "chrome-extension://abcdefghijklmnopabcdefghijklmnop/")
    private let now = 1_800_000_000
    private let a = RecordingSessionWallet.keys[0], b = RecordingSessionWallet.keys[1], stranger = TestKey(seed: 3)
    private var wallet = RecordingSessionWallet()
    private var session: Session!

    override func setUp() {
        wallet = RecordingSessionWallet()
        let namespaces: Namespaces = [
            SolanaChain.namespace: WalletSupport.default.namespaces[SolanaChain.namespace]!,
            EIP155.namespace: Namespace(chains: [EIP155.mainnet, ChainID("eip155:8453")!], methods: EIP155.methods),
        ]
        session = Session(
            caller: SessionCaller(caller), callerName: nil, metadata: PeerMetadata(name: "Example dApp"),
            requiredNamespaces: namespaces,
            optionalNamespaces: [:], namespaces: namespaces, created: now, expiry: now + 604_800)
    }

    private func call(_ method: String, _ params: JSONValue, chain: String = SolanaChain.mainnet.description)
        async throws -> JSONValue
    {
        var service = SessionService(
            store: SessionStore(inMemory: [session], now: { [now] in now }), wallet: wallet, lifetime: 604_800)
        service.clocks.wall = { [now] in now }
        let request: JSONValue = .object([
            "topic": .string(session.topic), "chainId": .string(chain),
            "request": .object(["method": .string(method), "params": params]),
        ])
        return try await service.request(
            request,
            context: RequestContext(caller: caller, requestID: .number(JSONNumber(1)), method: "session_request"))
    }

    /// The error `body` throws, and that the wallet was asked nothing.
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

    private func field(_ error: RPCError?) -> String? {
        guard case .object(let data)? = error?.data, case .string(let field)? = data["field"] else { return nil }
        return field
    }

    private func problem(_ error: RPCError?) -> String? {
        guard case .object(let data)? = error?.data, case .string(let problem)? = data["problem"] else { return nil }
        return problem
    }

    private func string(_ value: JSONValue?) -> String? {
        if case .string(let text)? = value { return text }
        return nil
    }

    private func members(_ value: JSONValue) -> [String: JSONValue] {
        if case .object(let members) = value { return members }
        XCTFail("not an object: \(value)")
        return [:]
    }

    // MARK: solana_signTransaction

    func testSignTransactionAnswersTheSignatureAndTheTransactionWithItInItsSlot() async throws {
        let message = HandMadeSolana.message(signers: [a.publicKey], transfers: [(0, 1_500_000_000)])
        let answer = members(
            try await call(
                "solana_signTransaction",
                .object(["transaction": .string(Base64.encode(HandMadeSolana.unsigned(message, signers: 1)))])))
        let signature = try XCTUnwrap(string(answer["signature"]).flatMap { Base58.decode($0, maxBytes: 64) })
        XCTAssertTrue(Ed25519.verify(signature, message: message, publicKey: a.publicKey))
        XCTAssertEqual(
            string(answer["transaction"]), Base64.encode(HandMadeSolana.transaction(message, signatures: [signature])))
        let asked = try XCTUnwrap(wallet.asked.solana.withLock { $0.first })
        XCTAssertEqual(asked.method, "solana_signTransaction")
        XCTAssertEqual(asked.chain, SolanaChain.mainnet)
        XCTAssertEqual(asked.publicKey, a.publicKey)
        XCTAssertEqual(asked.messages, [message], "the wallet signs the message's bytes, nothing else")
        XCTAssertEqual(asked.consent.chain, "Solana mainnet")
        XCTAssertEqual(asked.consent.summaries, [try SolanaMessage(bytes: message).summary(signer: a.publicKey)])
    }

    func testPartialSigningKeepsTheSignaturesAlreadyThere() async throws {
        let message = HandMadeSolana.message(signers: [stranger.publicKey, a.publicKey], transfers: [(1, 5)])
        let theirs = stranger.sign(message)
        let sent = HandMadeSolana.transaction(message, signatures: [theirs, [UInt8](repeating: 0, count: 64)])
        let answer = members(
            try await call("solana_signTransaction", .object(["transaction": .string(Base64.encode(sent))])))
        let signature = try XCTUnwrap(string(answer["signature"]).flatMap { Base58.decode($0, maxBytes: 64) })
        XCTAssertEqual(
            string(answer["transaction"]),
            Base64.encode(HandMadeSolana.transaction(message, signatures: [theirs, signature])))
        XCTAssertTrue(Ed25519.verify(signature, message: message, publicKey: a.publicKey))
    }

    func testPubkeyChoosesTheKeyElseTheFirstSignerOfTheSession() async throws {
        let message = HandMadeSolana.message(signers: [a.publicKey, b.publicKey], transfers: [(0, 1), (1, 2)])
        let sent = Base64.encode(HandMadeSolana.unsigned(message, signers: 2))
        let zero = [UInt8](repeating: 0, count: 64)
        let byB = members(
            try await call(
                "solana_signTransaction", .object(["transaction": .string(sent), "pubkey": .string(b.base58)])))
        XCTAssertEqual(string(byB["signature"]), Base58.encode(b.sign(message)))
        XCTAssertEqual(
            string(byB["transaction"]),
            Base64.encode(HandMadeSolana.transaction(message, signatures: [zero, b.sign(message)])))
        let first = members(try await call("solana_signTransaction", .object(["transaction": .string(sent)])))
        XCTAssertEqual(string(first["signature"]), Base58.encode(a.sign(message)))
        XCTAssertEqual(wallet.asked.solana.withLock { $0.map(\.publicKey) }, [b.publicKey, a.publicKey])
    }

    func testATransactionNoKeyOfTheSessionSignsIsRefusedUnasked() async throws {
        let message = HandMadeSolana.message(signers: [stranger.publicKey], transfers: [(0, 1)])
        let error = await refusal {
            try await call(
                "solana_signTransaction",
                .object(["transaction": .string(Base64.encode(HandMadeSolana.unsigned(message, signers: 1)))]))
        }
        XCTAssertEqual(error?.code, .invalidParams)
        XCTAssertEqual(field(error), "request.params.transaction")
        XCTAssertEqual(
            problem(error),
            "none of its signers (\(TransactionSummary.short(base58: stranger.base58))) is a key of this session")
    }

    func testAPubkeyTheSessionLacksIs4100AndOneThatDoesNotSignIs32602() async throws {
        let message = HandMadeSolana.message(signers: [a.publicKey], transfers: [(0, 1)])
        let sent = JSONValue.string(Base64.encode(HandMadeSolana.unsigned(message, signers: 1)))
        let unknown = await refusal {
            try await call(
                "solana_signTransaction", .object(["transaction": sent, "pubkey": .string(stranger.base58)]))
        }
        XCTAssertEqual(unknown?.code.rawValue, 4100)
        let notSigner = await refusal {
            try await call("solana_signTransaction", .object(["transaction": sent, "pubkey": .string(b.base58)]))
        }
        XCTAssertEqual(field(notSigner), "request.params.pubkey")
        XCTAssertEqual(
            problem(notSigner),
            "\(TransactionSummary.short(base58: b.base58)) is not a required signer of the transaction; its signers are \(TransactionSummary.short(base58: a.base58))"
        )
    }

    func testASignatureInTheWrongSlotIsRefusedUnasked() async throws {
        let message = HandMadeSolana.message(signers: [stranger.publicKey, a.publicKey], transfers: [(1, 5)])
        // The stranger's valid signature, in a's slot.
        let sent = HandMadeSolana.transaction(
            message, signatures: [[UInt8](repeating: 0, count: 64), stranger.sign(message)])
        let error = await refusal {
            try await call("solana_signTransaction", .object(["transaction": .string(Base64.encode(sent))]))
        }
        XCTAssertEqual(field(error), "request.params.transaction.signatures[1]")
        // And a signature of another message in its own slot.
        let other = HandMadeSolana.transaction(
            message, signatures: [stranger.sign(message + [0]), [UInt8](repeating: 0, count: 64)])
        let another = await refusal {
            try await call("solana_signTransaction", .object(["transaction": .string(Base64.encode(other))]))
        }
        XCTAssertEqual(field(another), "request.params.transaction.signatures[0]")
    }

    /// Text longer than any transaction is refused before it is decoded; decoded bytes past
    /// 1232 too; neither reaches the decoder.
    func testOversizedTransactionsAreRefusedBeforeDecoding() async throws {
        XCTAssertEqual(SolanaTransaction.maxBase64Characters, 1644)
        let long = await refusal {
            try await call(
                "solana_signTransaction", .object(["transaction": .string(String(repeating: "A", count: 1648))]))
        }
        XCTAssertEqual(field(long), "request.params.transaction")
        XCTAssertEqual(
            problem(long), "longer than a Solana transaction can be: at most 1232 bytes (1644 base64 characters)")
        let over = await refusal {
            try await call(
                "solana_signTransaction",
                .object(["transaction": .string(Base64.encode([UInt8](repeating: 1, count: 1233)))]))
        }
        XCTAssertEqual(problem(over), "is 1,233 bytes, over the 1,232 a Solana transaction may be")
        for bad: JSONValue in [.string("not base64!"), .string(""), .number(JSONNumber(5)), .null] {
            let error = await refusal { try await call("solana_signTransaction", .object(["transaction": bad])) }
            XCTAssertEqual(problem(error), "expected standard base64 of a serialized transaction (legacy or version 0)")
        }
        let array = await refusal { try await call("solana_signTransaction", .array([])) }
        XCTAssertEqual(field(array), "request.params")
    }

    func testADeclineIs4001() async throws {
        wallet.declines = true
        let message = HandMadeSolana.message(signers: [a.publicKey], transfers: [(0, 1)])
        do {
            _ = try await call(
                "solana_signTransaction",
                .object(["transaction": .string(Base64.encode(HandMadeSolana.unsigned(message, signers: 1)))]))
            XCTFail("signed")
        } catch let error as RPCError {
            XCTAssertEqual(error.code.rawValue, 4001)
        }
    }

    // MARK: solana_signAllTransactions

    func testABatchIsOneRequestSignedInOrder() async throws {
        let messages = [1, 2, 3].map { HandMadeSolana.message(signers: [a.publicKey], transfers: [(0, UInt64($0))]) }
        let answer = members(
            try await call(
                "solana_signAllTransactions",
                .object([
                    "transactions": .array(
                        messages.map { .string(Base64.encode(HandMadeSolana.unsigned($0, signers: 1))) })
                ])))
        XCTAssertEqual(answer["signatures"], .array(messages.map { .string(Base58.encode(a.sign($0))) }))
        XCTAssertEqual(
            answer["transactions"],
            .array(messages.map { .string(Base64.encode(HandMadeSolana.transaction($0, signatures: [a.sign($0)]))) }))
        let asked = wallet.asked.solana.withLock { $0 }
        XCTAssertEqual(asked.count, 1, "one dialog for the batch")
        XCTAssertEqual(asked.first?.messages, messages)
        XCTAssertEqual(asked.first?.consent.summaries.count, 3)
        XCTAssertEqual(asked.first?.method, "solana_signAllTransactions")
    }

    func testABatchIsAllOrNothing() async throws {
        let good = JSONValue.string(
            Base64.encode(
                HandMadeSolana.unsigned(HandMadeSolana.message(signers: [a.publicKey], transfers: [(0, 1)]), signers: 1)
            ))
        let bOnly = JSONValue.string(
            Base64.encode(
                HandMadeSolana.unsigned(HandMadeSolana.message(signers: [b.publicKey], transfers: [(0, 1)]), signers: 1)
            ))
        let bad = await refusal {
            try await call(
                "solana_signAllTransactions", .object(["transactions": .array([good, good, .string("%%")])]))
        }
        XCTAssertEqual(field(bad), "request.params.transactions[2]")
        let truncated = await refusal {
            try await call(
                "solana_signAllTransactions",
                .object(["transactions": .array([good, .string(Base64.encode([1, 0]))])]))
        }
        XCTAssertTrue(
            field(truncated)?.hasPrefix("request.params.transactions[1]") == true, "\(String(describing: truncated))")
        let twoKeys = await refusal {
            try await call("solana_signAllTransactions", .object(["transactions": .array([good, bOnly])]))
        }
        XCTAssertEqual(field(twoKeys), "request.params.transactions[1]")
        let tooMany = await refusal {
            try await call(
                "solana_signAllTransactions", .object(["transactions": .array(Array(repeating: good, count: 17))]))
        }
        XCTAssertEqual(problem(tooMany), "expected 1 to 16 transactions, not 17")
        let none = await refusal { try await call("solana_signAllTransactions", .object(["transactions": .array([])])) }
        XCTAssertEqual(problem(none), "expected 1 to 16 transactions, not 0")
        // One key for the whole batch, named: each must have it among its signers.
        let byB = await refusal {
            try await call(
                "solana_signAllTransactions",
                .object(["transactions": .array([bOnly, good]), "pubkey": .string(b.base58)]))
        }
        XCTAssertEqual(field(byB), "request.params.transactions[1]")
    }

    // MARK: eth_signTransaction, eth_sendTransaction

    private let feeMarket: JSONValue = .object([
        "from": .string(RecordingSessionWallet.ethereumAddresses[0].description),
        "to": .string("0x000000000000000000000000000000000000dEaD"), "value": .string("0x2386f26fc10000"),
        "gas": .string("0x5208"), "nonce": .string("0x7"), "maxFeePerGas": .string("0x6fc23ac00"),
        "maxPriorityFeePerGas": .string("0x59682f00"),
        "chainId": .string("0x1"), "type": .string("0x2"),
    ])

    func testEthSendTransactionIsRefusedSayingToSignThenBroadcast() async throws {
        let error = await refusal { try await call("eth_sendTransaction", .array([feeMarket]), chain: "eip155:1") }
        XCTAssertEqual(error?.code.rawValue, 3001)
        XCTAssertEqual(
            problem(error),
            "the wallet has no network and sends nothing: sign with eth_signTransaction, then broadcast the signed transaction with eth_sendRawTransaction from the extension"
        )
        XCTAssertFalse(WalletSupport.default.namespaces[EIP155.namespace]!.methods.contains("eth_sendTransaction"))
        XCTAssertTrue(EIP155.methods.contains("eth_signTransaction"))
        XCTAssertTrue(
            WalletSupport.default.namespaces[SolanaChain.namespace]!.methods.contains("solana_signAllTransactions"))
    }

    func testEthSignTransactionAnswersTheRawSignedTransaction() async throws {
        let answer = try await call("eth_signTransaction", .array([feeMarket]), chain: "eip155:1")
        let asked = try XCTUnwrap(wallet.asked.ethereum.withLock { $0.first })
        let transaction = try XCTUnwrap(asked.transaction)
        XCTAssertEqual(asked.digest, transaction.signingHash)
        XCTAssertEqual(asked.address.description, RecordingSessionWallet.ethereumAddresses[0].description)
        let secret = RecordingSessionWallet.ethereumSecrets[0].withUnsafeBytes { SecureBytes(copying: $0) }
        let signature = try XCTUnwrap(Secp256k1.sign(digest: transaction.signingHash, secretKey: secret))
        XCTAssertEqual(answer, .string(Hex.prefixed(transaction.signed(with: signature))))
        XCTAssertEqual(asked.transactionConsent?.chain, "Ethereum (eip155:1)")
        XCTAssertEqual(asked.transactionConsent?.summaries, [transaction.summary()])
    }

    func testEthSignTransactionForAnotherChainOrAccountIsRefusedUnasked() async throws {
        guard case .object(var members) = feeMarket else { return XCTFail() }
        members["chainId"] = .string("0x89")
        let otherChain = await refusal {
            try await call("eth_signTransaction", .array([.object(members)]), chain: "eip155:1")
        }
        XCTAssertEqual(otherChain?.code, .invalidParams)
        XCTAssertTrue(field(otherChain)?.hasPrefix("request.params[0]") == true)
        members["chainId"] = .string("0x1")
        members["from"] = .string("0x000000000000000000000000000000000000dEaD")
        let stranger = await refusal {
            try await call("eth_signTransaction", .array([.object(members)]), chain: "eip155:1")
        }
        XCTAssertEqual(stranger?.code.rawValue, 4100)
        let shape = await refusal { try await call("eth_signTransaction", feeMarket, chain: "eip155:1") }
        XCTAssertEqual(field(shape), "request.params")
        XCTAssertEqual(problem(shape), "expected [transaction] or [transaction, address]")
    }
}
