import FuzzSupport
@_spi(Fuzzing) import WalletBridgeAgent

// Input: everything one client sends to the agent's socket. Invariants: the agent never
// crashes or hangs on it (the connection ends when the client's bytes do), and everything it
// writes back is whole frames, each a JSON object or a batch's array.
@main enum AgentProtocolTarget {
    static func main() {
        fuzzMain { bytes in
            require(
                AgentFuzzing.serveOneClient(bytes) != nil,
                "the agent wrote something that is not a frame of a JSON reply")
        }
    }
}
