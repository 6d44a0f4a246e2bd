import Foundation
import WalletBridge
@testable import WalletBridgeWallet
@testable import WalletBridgeConsent
@testable import WalletBridgeKeys
@testable import WalletBridgeSessions
@testable import WalletBridgeSystem
@testable import WalletBridgeTransactions
import WalletBridgeTestSupport
import XCTest

/// A person who approves every dialog, and whose every dialog text is kept.
private struct ApprovingPerson: PassphraseSource {
    let shown = Recorder()

    func obtain<T: Sendable>(for request: ConsentRequest, attempt: @Sendable (SecureBytes) async throws -> T?)
        async throws -> T
    {
        shown.add(request.description(for: .passphrase))
        guard let result = try await attempt(secure("right")) else { throw ConsentRefusal.declined }
        return result
    }

    func confirm(_ request: ConsentRequest) async throws -> ConsentRequest.Confirmation {
        shown.add(request.description(for: .confirmation))
        return .once
    }

    func ask(_ question: ConsentQuestion) async throws -> Bool { true }
}

/// `solana_signMessage` signs the message's bytes with the session's key by a plain call
/// (`SessionWallet.signMessage`), not through SignPayloads' base64 shape; the keystore wallet
/// asks and records it exactly as a SignPayloads of that one message.
final class SessionMessageSigningTests: XCTestCase {
    private let caller = Caller.chromeExtension(origin: "chrome-extension://abcdefghijklmnopabcdefghijklmnop/")
    private var context: RequestContext {
        RequestContext(caller: caller, requestID: .number(JSONNumber(1)), method: "session_request")
    }
    private let key = TestKey(seed: 1)

    func testSolanaSignMessageAsksTheWalletForTheBytesAndTheKey() async throws {
        let wallet = RecordingSessionWallet()
        let now = 1_800_000_000
        let namespaces: Namespaces = [SolanaChain.namespace: WalletSupport.default.namespaces[SolanaChain.namespace]!]
        let session = Session(
            caller: SessionCaller(caller), callerName: nil, metadata: PeerMetadata(name: "Example dApp"),
            requiredNamespaces: namespaces, optionalNamespaces: [:], namespaces: namespaces, created: now,
            expiry: now + 3600)
        var service = SessionService(
            store: SessionStore(inMemory: [session], now: { now }), wallet: wallet, lifetime: 3600)
        service.clocks.wall = { now }
        let message = Array("Sign in to example.com".utf8)
        let answer = try await service.request(
            .object([
                "topic": .string(session.topic), "chainId": .string(SolanaChain.mainnet.description),
                "request": .object([
                    "method": "solana_signMessage",
                    "params": .object([
                        "message": .string(Base58.encode(message)), "pubkey": .string(key.base58),
                    ]),
                ]),
            ]), context: context)

        let asked = wallet.asked.messages.withLock { $0 }
        XCTAssertEqual(asked.map(\.message), [message])
        XCTAssertEqual(asked.map(\.publicKey), [key.publicKey])
        guard case .object(let members) = answer, case .string(let signature)? = members["signature"] else {
            return XCTFail("answered \(answer)")
        }
        let bytes = try XCTUnwrap(Base58.decode(signature, maxBytes: 64))
        XCTAssertTrue(Ed25519.verify(bytes, message: message, publicKey: key.publicKey))
    }

    func testTheKeystoreWalletAsksAndRecordsAMessageAsSignPayloadsOfIt() async throws {
        useWeakKDF()
        let folder = temporaryFolder(self)
        let keystore = Keystore(path: "\(folder)/keystore.json")
        let entry = try keystore.importKey(
            secure([UInt8](repeating: 1, count: 32)), label: "main", passphrase: secure("right"))
        let person = ApprovingPerson()
        var wallet = KeystoreWallet(keystore: keystore, passphrases: person)
        let auditPath = "\(folder)/state/audit.log"
        wallet.auditLog = AuditLog(path: auditPath)
        func auditLines() throws -> [[String: Any]] {
            try String(decoding: readBytes(auditPath), as: UTF8.self).split(separator: "\n").map { line in
                try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            }
        }
        // A text, and a transaction message this key pays for (its id is recorded).
        let messages = [Array("Sign in".utf8), HandMadeSolana.message(signers: [key.publicKey], transfers: [(0, 1)])]
        for message in messages {
            let signed = try await wallet.signPayloads(
                SignPayloadsParams(address: entry.address, payloads: [Base64.encode(message)]), context: context)
            let signature = try await wallet.signMessage(message, publicKey: key.publicKey, context: context)
            XCTAssertEqual(signature, key.sign(message))
            XCTAssertEqual(signed.signed_payloads, [Base64.encode(message + signature)])
            let dialogs = person.shown.values.suffix(2)
            XCTAssertEqual(dialogs.first, dialogs.last, "the same dialog")
            let lines = try auditLines().suffix(2).map { line in line.filter { $0.key != "time" } }
            XCTAssertEqual(lines.count, 2)
            XCTAssertEqual(
                lines.first.map { NSDictionary(dictionary: $0) }, lines.last.map { NSDictionary(dictionary: $0) },
                "the same audit line")
            XCTAssertEqual(lines.last?["payload_sha256"] as? [String], [PayloadSummary.sha256Hex(message)])
        }
        XCTAssertEqual(try auditLines().last?["transaction_ids"] as? [String], [Base58.encode(key.sign(messages[1]))])
    }
}
