#if canImport(Glibc)
import Glibc
#endif
@testable import WalletBridgeWallet
import WalletBridgeTestSupport
import XCTest
@testable import WalletBridgeKeys

/// The agent's members of the configuration file: `agent`, `cache_ttl`, `max_cache_ttl` and
/// `agent_idle_exit`.
final class WalletConfigTests: XCTestCase {
    /// Loads `text` from a config.json in a fresh 0700 folder, as the loader requires.
    private func load(_ text: String) throws -> WalletConfig {
        let folder = temporaryFolder(self)
        chmod(folder, 0o700)
        let path = "\(folder)/config.json"
        writeBytes(Array(text.utf8), path)
        chmod(path, 0o600)
        return try WalletConfig.load(path: path)
    }

    func testDefaults() throws {
        for config in [
            WalletConfig(), try load("{}"), try WalletConfig.load(path: "/nonexistent/wallet-bridge/config.json"),
        ] {
            XCTAssertTrue(config.useAgent)
            XCTAssertEqual(config.unlockLifetimes, UnlockCache.Lifetimes(idle: .seconds(600), maximum: .seconds(7200)))
            XCTAssertEqual(config.unlockLifetimes.idle, .seconds(600))
            XCTAssertEqual(config.unlockLifetimes.maximum, .seconds(7200))
            XCTAssertEqual(config.agentIdleExit, .seconds(600))
        }
    }

    func testEveryAgentMember() throws {
        let config = try load(#"{"agent": false, "cache_ttl": 30, "max_cache_ttl": 3600, "agent_idle_exit": 120}"#)
        XCTAssertFalse(config.useAgent)
        XCTAssertEqual(config.unlockLifetimes.idle, .seconds(30))
        XCTAssertEqual(config.unlockLifetimes.maximum, .seconds(3600))
        XCTAssertEqual(config.agentIdleExit, .seconds(120))
        // The other members keep their defaults.
        XCTAssertEqual(config.policy, .allowAll)
        XCTAssertEqual(config.maxPayloads, WalletConfig().maxPayloads)
        XCTAssertNil(config.pinentry)
        XCTAssertNil(config.keystore)
    }

    func testEachMemberAlone() throws {
        XCTAssertTrue(try load(#"{"agent": true}"#).useAgent)
        XCTAssertFalse(try load(#"{"agent": false}"#).useAgent)

        let idle = try load(#"{"cache_ttl": 5}"#)
        XCTAssertEqual(idle.unlockLifetimes, UnlockCache.Lifetimes(idle: .seconds(5), maximum: .seconds(7200)))
        XCTAssertEqual(idle.agentIdleExit, .seconds(600))

        let maximum = try load(#"{"max_cache_ttl": 86400}"#)
        XCTAssertEqual(maximum.unlockLifetimes, UnlockCache.Lifetimes(idle: .seconds(600), maximum: .seconds(86400)))

        let exit = try load(#"{"agent_idle_exit": 1}"#)
        XCTAssertEqual(exit.agentIdleExit, .seconds(1))
        XCTAssertEqual(exit.unlockLifetimes, UnlockCache.Lifetimes())
    }

    func testTheBoundsAreAccepted() throws {
        for key in ["cache_ttl", "max_cache_ttl", "agent_idle_exit"] {
            for seconds in [1, 604_800] {
                // The two lifetimes together: one alone at a bound would pass the other.
                let text =
                    key == "agent_idle_exit"
                    ? #"{"\#(key)": \#(seconds)}"# : #"{"cache_ttl": \#(seconds), "max_cache_ttl": \#(seconds)}"#
                let config = try load(text)
                let value =
                    switch key {
                    case "cache_ttl": config.unlockLifetimes.idle
                    case "max_cache_ttl": config.unlockLifetimes.maximum
                    default: config.agentIdleExit
                    }
                XCTAssertEqual(value, .seconds(seconds), "\(key): \(seconds)")
            }
        }
    }

    func testAnIdleLifetimeLongerThanTheMaximumIsRefused() throws {
        for text in [#"{"cache_ttl": 100, "max_cache_ttl": 50}"#, #"{"cache_ttl": 7201}"#, #"{"max_cache_ttl": 599}"#] {
            XCTAssertThrowsError(try load(text), text) { error in
                let description = "\(error)"
                XCTAssertTrue(
                    description.contains("\"cache_ttl\"") && description.contains("longer than \"max_cache_ttl\""),
                    "\(text): \(description)")
            }
        }
        XCTAssertEqual(
            try load(#"{"cache_ttl": 50, "max_cache_ttl": 50}"#).unlockLifetimes,
            UnlockCache.Lifetimes(idle: .seconds(50), maximum: .seconds(50)))
    }

    func testInvalidDurationsAreRefusedByName() throws {
        for key in ["cache_ttl", "max_cache_ttl", "agent_idle_exit"] {
            for value in ["0", "-1", "604801", "1.5", #""10""#, "true", "null", "[600]", "99999999999999999999999"] {
                let text = #"{"\#(key)": \#(value)}"#
                XCTAssertThrowsError(try load(text), text) { error in
                    guard let invalid = error as? WalletConfig.Invalid else { return XCTFail("\(text): \(error)") }
                    XCTAssertEqual(invalid.kind, .malformed, text)
                    let description = "\(invalid)"
                    XCTAssertTrue(description.contains("is invalid"), description)
                    XCTAssertTrue(description.contains("\"\(key)\""), "\(text): \(description)")
                    XCTAssertTrue(description.contains("1...604800"), "\(text): \(description)")
                }
            }
        }
    }

    /// `proposal_timeout`: how long a proposal waits for the person (docs/sessions.md).
    func testTheProposalTimeout() throws {
        XCTAssertEqual(WalletConfig().proposalTimeout, 300, "WalletKit's 5 minutes")
        XCTAssertEqual(try load("{}").proposalTimeout, 300)
        for seconds in [1, 90, 3600] {
            XCTAssertEqual(try load(#"{"proposal_timeout": \#(seconds)}"#).proposalTimeout, seconds)
        }
        for value in ["0", "-1", "3601", "1.5", #""300""#, "true", "null", "[300]", "99999999999999999999999"] {
            let text = #"{"proposal_timeout": \#(value)}"#
            XCTAssertThrowsError(try load(text), text) { error in
                let description = "\(error)"
                XCTAssertTrue(
                    description.contains("\"proposal_timeout\"") && description.contains("1...3600"),
                    "\(text): \(description)")
            }
        }
    }

    func testAnInvalidAgentFlagIsRefusedByName() throws {
        for value in [#""yes""#, #""true""#, "1", "0", "null", "{}"] {
            let text = #"{"agent": \#(value)}"#
            XCTAssertThrowsError(try load(text), text) { error in
                let description = "\(error)"
                XCTAssertTrue(description.contains("\"agent\""), "\(text): \(description)")
                XCTAssertTrue(description.contains("true or false"), "\(text): \(description)")
            }
        }
    }

    func testAnInvalidAgentMemberMakesTheHostRefuseEveryCall() throws {
        let folder = temporaryFolder(self)
        chmod(folder, 0o700)
        let path = "\(folder)/config.json"
        writeBytes(Array(#"{"cache_ttl": 0}"#.utf8), path)
        guard case .denyAll(let reason) = WalletConfig.loadForHost(path: path).policy else {
            return XCTFail("an invalid cache_ttl did not deny everything")
        }
        XCTAssertTrue(reason.contains("cache_ttl"), reason)
    }

    func testAMisspeltAgentMemberIsRefusedAndTheKnownOnesAreListed() throws {
        XCTAssertThrowsError(try load(#"{"cache_tll": 600}"#)) { error in
            let description = "\(error)"
            XCTAssertTrue(description.contains("unknown member \"cache_tll\""), description)
            for known in ["agent", "cache_ttl", "max_cache_ttl", "agent_idle_exit"] {
                XCTAssertTrue(description.contains(known), "\(known) is not listed: \(description)")
            }
        }
    }
}
