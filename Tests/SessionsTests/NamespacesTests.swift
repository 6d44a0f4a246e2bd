import WalletBridge
@testable import WalletBridgeWallet
import WalletBridgeTestSupport
import XCTest
@testable import WalletBridgeKeys
@testable import WalletBridgeSessions

final class NamespacesTests: XCTestCase {
    private let mainnet = "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp"
    private let devnet = "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1"
    private let testnet = "solana:4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z"

    private func parse(_ value: JSONValue?, field: String = "requiredNamespaces") throws -> Namespaces {
        try Namespaces.parse(value, field: field)
    }

    /// The -32602 `parse` throws, as (field, problem).
    private func fault(
        _ value: JSONValue, field: String = "requiredNamespaces", file: StaticString = #filePath, line: UInt = #line
    ) -> (field: String, problem: String)? {
        invalidParamsFault(
            { () throws(RPCError) in _ = try Namespaces.parse(value, field: field) }, file: file, line: line)
    }

    private func solana(_ chains: [String], methods: [String] = ["solana_signMessage"], events: [String] = [])
        -> JSONValue
    {
        [
            "chains": .array(chains.map(JSONValue.string)), "methods": .array(methods.map(JSONValue.string)),
            "events": .array(events.map(JSONValue.string)),
        ]
    }

    private func chains(_ texts: String...) -> [ChainID] { texts.map { ChainID($0)! } }

    // MARK: parse

    func testAbsentOrNullIsEmpty() throws {
        XCTAssertEqual(try parse(nil), [:])
        XCTAssertEqual(try parse(.null), [:])
        XCTAssertEqual(try parse([:]), [:])
    }

    func testTheDocumentsProposal() throws {
        let parsed = try parse(["solana": solana([mainnet], events: ["accountsChanged"])])
        XCTAssertEqual(
            parsed,
            ["solana": Namespace(chains: chains(mainnet), methods: ["solana_signMessage"], events: ["accountsChanged"])]
        )
        XCTAssertEqual(parsed.json(), ["solana": solana([mainnet], events: ["accountsChanged"])])
    }

    func testChainIDKeysAreMergedIntoTheirNamespace() throws {
        let parsed = try parse([
            "solana": solana([mainnet], methods: ["solana_signMessage"]),
            devnet: ["methods": ["solana_getAccounts", "solana_signMessage"], "events": ["accountsChanged"]],
            mainnet: ["methods": ["solana_requestAccounts"], "events": []],
        ])
        // Keys in sorted order: "solana", "solana:5eykt…" (mainnet), "solana:EtWT…" (devnet).
        XCTAssertEqual(
            parsed,
            [
                "solana": Namespace(
                    chains: chains(mainnet, devnet),
                    methods: ["solana_signMessage", "solana_requestAccounts", "solana_getAccounts"],
                    events: ["accountsChanged"]
                )
            ])
        XCTAssertEqual(
            try parse([devnet: ["methods": [], "events": []]]), ["solana": Namespace(chains: chains(devnet))])
    }

    func testRepeatedEntriesAreKeptOnce() throws {
        let parsed = try parse([
            "solana": solana([mainnet, devnet, mainnet], methods: ["a", "b", "a"], events: ["e", "e"])
        ])
        XCTAssertEqual(
            parsed["solana"], Namespace(chains: chains(mainnet, devnet), methods: ["a", "b"], events: ["e"]))
    }

    func testUnknownMembersAreIgnored() throws {
        var namespace = solana([mainnet])
        if case .object(var members) = namespace { members["rpcMap"] = ["x": "y"]; namespace = .object(members) }
        XCTAssertEqual(try parse(["solana": namespace])["solana"]?.chains, chains(mainnet))
    }

    func testFaultsNameTheirField() {
        let cases: [(JSONValue, String, String)] = [
            ("solana", "requiredNamespaces", "expected an object"),
            (["Solana": solana([mainnet])], "requiredNamespaces.Solana", "CAIP-2 namespace"),
            (["so": solana([mainnet])], "requiredNamespaces.so", "CAIP-2 namespace"),
            (["solana": "x"], "requiredNamespaces.solana", "expected an object"),
            (["solana": ["methods": [], "events": []]], "requiredNamespaces.solana.chains", "required"),
            (["solana": solana([])], "requiredNamespaces.solana.chains", "at least one chain"),
            (
                ["solana": ["chains": "solana:1", "methods": [], "events": []]], "requiredNamespaces.solana.chains",
                "expected an array"
            ),
            (["solana": solana([mainnet, "solana"])], "requiredNamespaces.solana.chains[1]", "not a CAIP-2 chain id"),
            (["solana": solana([mainnet, "eip155:1"])], "requiredNamespaces.solana.chains[1]", "\"eip155\" namespace"),
            (
                ["solana": ["chains": [.string(mainnet), 1], "methods": [], "events": []]],
                "requiredNamespaces.solana.chains[1]", "expected a string"
            ),
            (
                ["solana": ["chains": [.string(mainnet)], "events": []]], "requiredNamespaces.solana.methods",
                "required"
            ),
            (
                ["solana": ["chains": [.string(mainnet)], "methods": []]], "requiredNamespaces.solana.events",
                "required"
            ),
            (
                ["solana": solana([mainnet], methods: ["a", ""])], "requiredNamespaces.solana.methods[1]",
                "must not be empty"
            ),
            (
                ["solana": solana([mainnet], events: [String(repeating: "e", count: 257)])],
                "requiredNamespaces.solana.events[0]", "longer than 256 bytes"
            ),
            ([mainnet: solana([mainnet])], "requiredNamespaces.\(mainnet).chains", "leave chains out"),
            (
                [mainnet: ["methods": [1], "events": []]], "requiredNamespaces.\(mainnet).methods[0]",
                "expected a string"
            ),
            (
                ["solana:" + String(repeating: "x", count: 33): ["methods": [], "events": []]],
                "requiredNamespaces.solana:" + String(repeating: "x", count: 33), "CAIP-2"
            ),
        ]
        for (value, field, problem) in cases {
            guard let found = fault(value) else { continue }
            XCTAssertEqual(found.field, field, "\(value)")
            XCTAssertTrue(found.problem.contains(problem), "\(found.problem) should say \(problem)")
        }
        XCTAssertEqual(
            fault(["solana": solana([])], field: "optionalNamespaces")?.field, "optionalNamespaces.solana.chains")
    }

    func testAnOverlongKeyIsNotEchoed() {
        let key = String(repeating: "k", count: 1000)
        let found = fault(.object([key: solana([mainnet])]))
        XCTAssertEqual(found?.field, "requiredNamespaces")
        XCTAssertEqual(found?.problem.contains(key), false)
    }

    func testTheFirstFaultInKeyOrderIsReported() {
        let value: JSONValue = ["zzz": solana([]), "aaa": solana(["bbb:1"])]
        XCTAssertEqual(fault(value)?.field, "requiredNamespaces.aaa.chains[0]")
    }

    func testSizesAreLimited() throws {
        var many: [String: JSONValue] = [:]
        for index in 0..<17 { many["nsx\(index)"] = solana(["abc:1"]) }
        XCTAssertEqual(fault(.object(many))?.field, "requiredNamespaces")
        many.removeValue(forKey: many.keys.sorted().last!)
        // 16 namespaces are fine as far as the count goes (each fails on its chain's namespace).
        XCTAssertNotEqual(fault(.object(many))?.field, "requiredNamespaces")

        let sixtyFour = (0..<64).map { "solana:c\($0)" }
        XCTAssertEqual(try parse(["solana": solana(sixtyFour)])["solana"]?.chains.count, 64)
        XCTAssertEqual(fault(["solana": solana(sixtyFour + ["solana:c64"])])?.field, "requiredNamespaces.solana.chains")
        XCTAssertEqual(
            fault(["solana": solana([mainnet], methods: (0...64).map { "m\($0)" })])?.field,
            "requiredNamespaces.solana.methods")
        XCTAssertEqual(
            fault(["solana": solana([mainnet], events: (0...64).map { "e\($0)" })])?.field,
            "requiredNamespaces.solana.events")
        XCTAssertNoThrow(try parse(["solana": solana([mainnet], events: [String(repeating: "e", count: 256)])]))

        // 64 chains under the namespace and one more by a chain id key: too many in all.
        XCTAssertEqual(
            fault(["solana": solana(sixtyFour), "solana:c64": ["methods": [], "events": []]])?.field,
            "requiredNamespaces.solana")

        // The names of one namespaces object share a budget of bytes.
        let long = (0..<32).map { "\($0)" + String(repeating: "m", count: 250) }  // 32 × ~252 bytes = ~8 KB
        let found = fault(["solana": solana([mainnet], methods: long, events: long)])
        XCTAssertEqual(found?.field.hasPrefix("requiredNamespaces.solana.events["), true)
        XCTAssertEqual(found?.problem.contains("8192 bytes"), true)
    }

    // MARK: approve

    private let support = WalletSupport.default

    private func approve(_ required: JSONValue, _ optional: JSONValue = [:]) throws -> Namespaces {
        try Namespaces.approve(
            required: try parse(required), optional: try parse(optional, field: "optionalNamespaces"), support: support)
    }

    private func refusal(
        _ required: JSONValue, _ optional: JSONValue = [:], file: StaticString = #filePath, line: UInt = #line
    ) -> RPCError? {
        do {
            _ = try approve(required, optional)
            XCTFail("approved", file: file, line: line)
            return nil
        } catch let error as RPCError {
            return error
        } catch {
            XCTFail("\(error)", file: file, line: line)
            return nil
        }
    }

    func testTheWalletsSupport() {
        XCTAssertEqual(
            support.namespaces["eip155"],
            Namespace(
                chains: [EIP155.mainnet],
                methods: [
                    "eth_accounts", "eth_chainId", "personal_sign", "eth_signTypedData_v4", "eth_signTransaction",
                ],
                events: ["accountsChanged", "chainChanged"]))
        // Every EVM chain id is offered; what is not a canonical decimal id from 1 to 2^53 - 1 is not.
        for chain in ["eip155:1", "eip155:137", "eip155:11155111", "eip155:9007199254740991"] {
            XCTAssertTrue(support.offers(ChainID(chain)!), chain)
        }
        for chain in ["eip155:0", "eip155:01", "eip155:0x1", "eip155:9007199254740992", "solana:other"] {
            XCTAssertFalse(support.offers(ChainID(chain)!), chain)
        }
        XCTAssertEqual(
            support.namespaces.filter { $0.key != "eip155" },
            [
                "solana": Namespace(
                    chains: SolanaChain.all,
                    methods: [
                        "solana_signMessage", "solana_getAccounts", "solana_requestAccounts", "solana_signTransaction",
                        "solana_signAllTransactions",
                        "solana_signIn",
                    ],
                    events: ["accountsChanged"]
                )
            ])
    }

    func testUnsupportedNamespaceKeyIs5104() {
        let error = refusal([
            "bip122": ["chains": ["bip122:000000000019d6689c085ae165831e93"], "methods": [], "events": []],
            "cosmos": ["chains": ["cosmos:hub"], "methods": [], "events": []],
            "solana": solana([mainnet]),
        ])
        XCTAssertEqual(error?.code, .unsupportedNamespaceKey)
        XCTAssertEqual(error?.message, "Unsupported namespace key")
        XCTAssertEqual(error?.data, ["namespaces": ["bip122", "cosmos"]])
        // A chain id key of another namespace is that namespace's key.
        XCTAssertEqual(
            refusal(["bip122:000000000019d6689c085ae165831e93": ["methods": [], "events": []]])?.data,
            ["namespaces": ["bip122"]])
    }

    func testUnsupportedChainsAre5100() {
        let error = refusal([
            "solana": solana([mainnet, "solana:other", "solana:third"], methods: ["nope"], events: ["nope"])
        ])
        XCTAssertEqual(error?.code, .unsupportedChains)
        XCTAssertEqual(
            error?.data, ["chains": ["solana:other", "solana:third"]], "chains come before methods and events")
    }

    func testUnsupportedMethodsAre5101() {
        let error = refusal([
            "solana": solana(
                [mainnet],
                methods: [
                    "solana_signMessage", "solana_signOut", "solana_signTransaction", "solana_signAndSendTransaction",
                ], events: ["nope"])
        ])
        XCTAssertEqual(error?.code, .unsupportedMethods)
        XCTAssertEqual(
            error?.data,
            [
                "methods": ["solana_signOut", "solana_signAndSendTransaction"],
                "problem": .string(
                    "the wallet has no network and sends nothing, so it offers no solana_signAndSendTransaction: "
                        + "sign with solana_signTransaction, then send the signed transaction from the extension (sendTransaction)"
                ),
            ], "methods come before events")
    }

    func testUnsupportedEventsAre5102() {
        let error = refusal(["solana": solana([mainnet], events: ["accountsChanged", "chainChanged"])])
        XCTAssertEqual(error?.code, .unsupportedEvents)
        XCTAssertEqual(error?.data, ["events": ["chainChanged"]])
    }

    func testNamespaceKeyIsCheckedBeforeChains() {
        XCTAssertEqual(
            refusal([
                "bip122": ["chains": ["bip122:000000000019d6689c085ae165831e93"], "methods": [], "events": []],
                "solana": solana(["solana:other"]),
            ])?.code, .unsupportedNamespaceKey)
    }

    func testOptionalNamespacesKeepOnlyWhatIsSupported() throws {
        let approved = try approve(
            ["solana": solana([mainnet], methods: ["solana_signMessage"])],
            [
                "solana": solana(
                    ["solana:other", devnet], methods: ["solana_signAndSendTransaction", "solana_getAccounts"],
                    events: ["chainChanged", "accountsChanged"]),
                "bip122": [
                    "chains": ["bip122:000000000019d6689c085ae165831e93"], "methods": ["bip122_signMessage"],
                    "events": [],
                ],
            ]
        )
        XCTAssertEqual(
            approved,
            [
                "solana": Namespace(
                    chains: chains(mainnet, devnet), methods: ["solana_signMessage", "solana_getAccounts"],
                    events: ["accountsChanged"]
                )
            ])
    }

    func testAnOptionalNamespaceLeftWithoutChainsDisappears() throws {
        // Its supported methods are not granted on the required chains either.
        let approved = try approve(
            ["solana": solana([mainnet])], ["solana": solana(["solana:other"], methods: ["solana_getAccounts"])])
        XCTAssertEqual(approved, ["solana": Namespace(chains: chains(mainnet), methods: ["solana_signMessage"])])
    }

    func testOptionalAloneIsEnough() throws {
        let approved = try approve([:], ["solana": solana([testnet, "solana:other"], events: ["accountsChanged"])])
        XCTAssertEqual(
            approved,
            ["solana": Namespace(chains: chains(testnet), methods: ["solana_signMessage"], events: ["accountsChanged"])]
        )
    }

    func testUnionKeepsTheOrderOfFirstAppearanceWithoutRepeats() throws {
        let approved = try approve(
            ["solana": solana([devnet, mainnet], methods: ["solana_getAccounts", "solana_signMessage"], events: [])],
            [
                "solana": solana(
                    [testnet, mainnet, devnet], methods: ["solana_requestAccounts", "solana_signMessage"],
                    events: ["accountsChanged"])
            ]
        )
        XCTAssertEqual(
            approved["solana"],
            Namespace(
                chains: chains(devnet, mainnet, testnet),
                methods: ["solana_getAccounts", "solana_signMessage", "solana_requestAccounts"],
                events: ["accountsChanged"]
            ))
    }

    func testNoSupportedChainAtAllIsInvalidParams() {
        let cases: [(JSONValue, JSONValue)] = [
            ([:], [:]), ([:], ["solana": solana(["solana:other"])]),
            ([:], ["bip122": ["chains": ["bip122:000000000019d6689c085ae165831e93"], "methods": [], "events": []]]),
        ]
        for (required, optional) in cases {
            let error = refusal(required, optional)
            XCTAssertEqual(error?.code, .invalidParams)
            guard case .object(let data)? = error?.data else { XCTFail(); continue }
            XCTAssertEqual(data["field"], "requiredNamespaces")
            guard case .string(let problem)? = data["problem"] else { XCTFail(); continue }
            XCTAssertTrue(problem.contains("at least one supported chain"), problem)
        }
    }

    func testAccountsAreEveryChainWithEveryAddressChainByChain() throws {
        let approved: Namespaces = [
            "solana": Namespace(
                chains: chains(mainnet, devnet), methods: ["solana_signMessage"], events: ["accountsChanged"])
        ]
        let a = "7S3P4HxJpyyigGzodYwHtCxZyUQe9JiBMHyRWXArAaKv", b = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM"
        XCTAssertEqual(
            approved.json(
                accounts: SessionAccounts(solana: [a, b], eip155: ["0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"])),
            [
                "solana": [
                    "chains": [.string(mainnet), .string(devnet)],
                    "accounts": [
                        .string("\(mainnet):\(a)"), .string("\(mainnet):\(b)"), .string("\(devnet):\(a)"),
                        .string("\(devnet):\(b)"),
                    ],
                    "methods": ["solana_signMessage"], "events": ["accountsChanged"],
                ]
            ])
        XCTAssertEqual(
            approved.json(accounts: SessionAccounts(eip155: ["0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"])),
            [
                "solana": [
                    "chains": [.string(mainnet), .string(devnet)], "accounts": [], "methods": ["solana_signMessage"],
                    "events": ["accountsChanged"],
                ]
            ])
        for account in ["\(mainnet):\(a)", "\(devnet):\(b)"] { XCTAssertNotNil(AccountID(account)) }
    }

    func testChecksASessionMakes() {
        let approved: Namespaces = ["solana": Namespace(chains: chains(mainnet), methods: ["solana_signMessage"])]
        XCTAssertTrue(approved.holds(SolanaChain.mainnet))
        XCTAssertFalse(approved.holds(SolanaChain.devnet))
        XCTAssertTrue(approved.allows(method: "solana_signMessage", on: SolanaChain.mainnet))
        XCTAssertFalse(approved.allows(method: "solana_getAccounts", on: SolanaChain.mainnet))
        XCTAssertFalse(approved.allows(method: "solana_signMessage", on: SolanaChain.devnet))
        XCTAssertEqual(approved.allChains, [SolanaChain.mainnet])
    }
}
