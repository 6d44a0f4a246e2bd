import Foundation
import WalletBridge
@testable import WalletBridgeWallet
import WalletBridgeTestSupport
import XCTest
@testable import WalletBridgeConsent
@testable import WalletBridgeKeys

/// A person at a pinentry who approves every confirmation, and whose dialogs are kept with
/// whether they offered "Sign and allow".
private struct OfferingPerson: PassphraseSource {
    let shown = Recorder()
    let offered = Recorder()

    func obtain<T: Sendable>(for request: ConsentRequest, attempt: @Sendable (SecureBytes) async throws -> T?)
        async throws -> T
    {
        shown.add(request.description(for: .passphrase))
        guard let result = try await attempt(secure("right")) else { throw ConsentRefusal.declined }
        return result
    }

    func confirm(_ request: ConsentRequest) async throws -> ConsentRequest.Confirmation {
        shown.add(request.description(for: .confirmation))
        offered.add(request.rememberMinutes.map { "\($0) minutes" } ?? "none")
        return .once
    }

    func ask(_ question: ConsentQuestion) async throws -> Bool { true }
}

/// A sign-in, well-formed or not, is asked every time (docs/sign-in.md): an allowance ("Sign
/// and allow", `approve_for_minutes`) never signs one unseen, and its dialog never offers one.
final class SignInAllowanceTests: XCTestCase {
    private var keystore = Keystore(path: "")
    private var solanaEntry: KeystoreFile.Entry!
    private var ethereumEntry: KeystoreFile.Entry!
    private let caller = Caller.chromeExtension(origin: "chrome-extension://abcdefghijklmnopabcdefghijklmnop/")
    private let site = "https://app.example.com"

    private var context: RequestContext {
        var context = RequestContext(caller: caller, requestID: .number(JSONNumber(1)), method: "session_request")
        context.site = site
        return context
    }

    override func setUpWithError() throws {
        useWeakKDF()
        keystore = Keystore(path: "\(temporaryFolder(self))/keystore.json")
        solanaEntry = try keystore.importKey(
            secure([UInt8](repeating: 1, count: 32)), label: "main", passphrase: secure("right"))
        ethereumEntry = try keystore.importKey(
            secure(Keccak256.hash(Array("cow".utf8))), type: .secp256k1, label: "eth", passphrase: secure("right"))
    }

    /// The keystore wallet with its keys unlocked and "Sign and allow" on, and, when `allowed`,
    /// this site's allowance for both keys already given.
    private func wallet(allowed: Bool) throws -> (KeystoreWallet, OfferingPerson) {
        let person = OfferingPerson()
        var wallet = KeystoreWallet(keystore: keystore, passphrases: person)
        wallet.auditLog = AuditLog(path: "\(temporaryFolder(self))/audit.log")
        let cache = UnlockCache()
        wallet.unlockCache = cache
        wallet.allowMinutes = 10
        let file = try XCTUnwrap(try keystore.read())
        cache.store(try Keystore.deriveKey(file, passphrase: secure("right")), for: file)
        if allowed {
            let identity = "\(try XCTUnwrap(caller.identity)) for \(site)"
            for entry in [solanaEntry!, ethereumEntry!] {
                cache.remember(caller: identity, address: entry.address, until: .now + .seconds(600))
            }
        }
        return (wallet, person)
    }

    private func personalSign(_ text: String, with wallet: KeystoreWallet) async throws {
        let address = try XCTUnwrap(ethereumEntry.ethereumAddress)
        let bytes = Array(text.utf8)
        let consent = try EthereumConsent.personalMessage(
            bytes, chain: EIP155.mainnet, signer: address, site: site, field: "request.params[0]")
        let signing = EthereumSigningRequest(
            method: "personal_sign", chain: EIP155.mainnet, address: address,
            digest: EthereumSigningRequest.personalMessageDigest(bytes), consent: consent)
        _ = try await wallet.signEthereum(signing, context: context)
    }

    private func signMessage(_ text: String, with wallet: KeystoreWallet) async throws {
        _ = try await wallet.signPayloads(
            SignPayloadsParams(address: solanaEntry.address, payloads: [Base64.encode(Array(text.utf8))]),
            context: context)
    }

    private var address: String { ethereumEntry.ethereumAddress!.description }

    /// Two line breaks after the address where EIP-4361 has three: not well-formed, yet a
    /// lenient verifier takes its signature as a sign-in for bank.example.
    private var malformed: String {
        "bank.example wants you to sign in with your Ethereum account:\n\(address)\n\nURI: https://bank.example/login\nVersion: 1\n"
            + "Chain ID: 1\nNonce: 32891756\nIssued At: 2021-09-30T16:25:24Z"
    }

    private var wellFormed: String {
        "app.example.com wants you to sign in with your Ethereum account:\n\(address)\n\n\nURI: https://app.example.com/login\n"
            + "Version: 1\nChain ID: 1\nNonce: 32891756\nIssued At: 2021-09-30T16:25:24Z"
    }

    private let solanaText =
        "bank.example wants you to sign in with your Solana account:\n7S3P4HxJpyyigGzodYwHtCxZyUQe9JiBMHyRWXArAaKv"

    func testAnAllowanceNeverSignsASignInUnseen() async throws {
        let (wallet, person) = try wallet(allowed: true)
        try await personalSign("Hello", with: wallet)
        try await signMessage("Hello", with: wallet)
        XCTAssertEqual(person.shown.values, [], "messages within the allowance: nobody asked")

        try await personalSign(malformed, with: wallet)
        try await personalSign(wellFormed, with: wallet)
        try await signMessage(solanaText, with: wallet)
        let dialogs = person.shown.values
        XCTAssertEqual(dialogs.count, 3, "each sign-in asked: \(dialogs)")
        guard dialogs.count == 3 else { return }
        XCTAssertEqual(person.offered.values, ["none", "none", "none"])
        XCTAssertTrue(
            dialogs[0].contains("⚠ This sign-in is for bank.example, but the request comes from the site \(site)"),
            dialogs[0])
        XCTAssertTrue(dialogs[0].contains("⚠ This reads like a sign-in, but is not a well-formed one"), dialogs[0])
        // solana_signMessage of sign-in text: the same warning, before the text.
        XCTAssertTrue(
            dialogs[2].contains(
                "asks to sign 1 payload with your key \"main\" (AKnL…RSZ9):\n⚠ This sign-in is for bank.example, but the request comes "
                    + "from the site \(site) (as the extension reports it)\n1. Text: \"bank.example wants you"),
            dialogs[2])
    }

    func testASignInsDialogNeverOffersSignAndAllow() async throws {
        let (wallet, person) = try wallet(allowed: false)
        try await personalSign("Hello", with: wallet)
        XCTAssertEqual(person.offered.values, ["10 minutes"], "a message's dialog offers it")
        XCTAssertTrue(
            person.shown.values[0].hasSuffix(
                "\"Sign and allow\" also signs what this site asks through this extension of this key for the next 10 minutes "
                    + "without asking."), person.shown.values[0])
        try await personalSign(malformed, with: wallet)
        try await signMessage(solanaText, with: wallet)
        // Sign In With Solana's own text from its own site: asked, and no warning.
        try await signMessage("app.example.com wants you to sign in with your Solana account:\nabc", with: wallet)
        XCTAssertEqual(person.offered.values, ["10 minutes", "none", "none", "none"])
        guard person.shown.values.count == 4 else { return XCTFail("\(person.shown.values)") }
        XCTAssertFalse(person.shown.values[3].contains("⚠"), person.shown.values[3])
    }

    /// Outside a site's session the allowance is the extension's, and the text says so.
    func testTheAllowanceTextNamesWhoItCovers() {
        var request = ConsentRequest(
            caller: caller, keyLabel: "main", shortAddress: "AKnL…RSZ9", payloads: [.text("hi")], rememberMinutes: 5)
        XCTAssertTrue(
            request.description(for: .confirmation).contains(
                "signs what this extension asks of this key for the next 5"))
        request.site = site
        XCTAssertTrue(
            request.description(for: .confirmation).contains(
                "signs what this site asks through this extension of this key for the next 5"))
    }
}
