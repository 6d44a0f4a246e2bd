#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import WalletBridge
import WalletBridgeWallet

/// The agent's events on their way to the extensions: each host with a port open asks, on a
/// connection of its own, to hear its extension's events (`agent.subscribe`), and the agent
/// writes them there as notifications until that connection closes. The host passes them on to
/// its port (`AgentEvents`).
final class EventHub: Sendable {
    /// A subscriber: one connection, and the extension it speaks for.
    private struct Subscriber: Sendable {
        let caller: SessionCaller
        let writer: SocketWriter
    }

    private let subscribers = Mutex<[ObjectIdentifier: Subscriber]>([:])

    func subscribe(_ writer: SocketWriter, caller: SessionCaller) {
        subscribers.withLock { $0[ObjectIdentifier(writer)] = Subscriber(caller: caller, writer: writer) }
    }

    func unsubscribe(_ writer: SocketWriter) {
        _ = subscribers.withLock { $0.removeValue(forKey: ObjectIdentifier(writer)) }
    }

    /// How many connections hear `caller`'s events.
    func subscriberCount(of caller: SessionCaller) -> Int {
        subscribers.withLock { $0.values.count { $0.caller == caller } }
    }

    /// Sends the notification to every connection that hears `caller`'s events. The writes
    /// happen outside the lock: a host slow to read holds up only its own delivery (a send
    /// times out and shuts that connection, `SocketWriter`).
    func publish(to caller: SessionCaller, method: String, params: JSONValue) {
        let writers = subscribers.withLock { $0.values.filter { $0.caller == caller }.map(\.writer) }
        guard !writers.isEmpty else { return }
        let body = JSONValue.object(["jsonrpc": .string("2.0"), "method": .string(method), "params": params]).jsonBytes
        for writer in writers { writer.send(body) }
    }
}
