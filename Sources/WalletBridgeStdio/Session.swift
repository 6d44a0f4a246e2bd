#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import WalletBridgeHost
import WalletBridgeSystem

/// The one place the process ends, whichever event ends it first.
///
/// Shutdown has one owner, the thread that holds the read loop: any thread may *request* the end
/// (`requestEnd`), and only the loop's owner *performs* it (`end`), never from inside a handler
/// or a reply. The owner is the reader thread, except while it sleeps in read(2) with nothing
/// else to do: `ReaderWatch` may then take the loop from it, and end the session in its place.
/// A request can come from deep inside a handler's answer (a reply meets EPIPE while its call is
/// still in the in-flight table, on a pool thread or the reader's own), and ending from there
/// waited the whole grace for a call that could leave the table only once the end returned.
final class Session: Sendable {
    let configuration: HostConfiguration
    /// The writer, and the server once its router is built (`StdioHost.run`).
    let serving = Mutex<(server: Server?, writer: FrameWriter)?>(nil)
    /// The first end asked for: its status and its reason. Later ones are dropped.
    private let requested = Mutex<(status: Int32, reason: String)?>(nil)
    /// Whether `requested` is set: a load for the reader to check before it blocks in read(2).
    private let endAsked = Atomic<Bool>(false)
    /// The reader polls this for `POLLIN`, or its watch while it sleeps in read(2); a request
    /// writes one byte to `wakeWriteEnd`. -1 if the pipe could not be made: requests are then
    /// seen at the next housekeeping pass.
    let wakeFileDescriptor: Int32
    /// Also written by the signal handler (see `Signals`).
    let wakeWriteEnd: Int32

    /// How the process ends: `_exit` in the host; a test passes its own (that ends its thread).
    private let exit: @Sendable (Int32) -> Never

    /// `exit` defaults to `_exit`, not `exit`: everything the host writes goes out by write(2)
    /// as it happens, so there is no stdio buffer to flush, and running the runtime's exit
    /// handlers and static destructors only delayed the exit a browser waits for on every
    /// sendNativeMessage.
    init(configuration: HostConfiguration, exit: @escaping @Sendable (Int32) -> Never = { _exit($0) }) {
        self.configuration = configuration
        self.exit = exit
        // Non-blocking: a request or a signal handler never blocks on a full pipe.
        var ends: (read: Int32, write: Int32) = (-1, -1)
        do {
            ends = try Spawn.pipe(nonBlocking: true)
        } catch {
            Log.warning(
                "cannot make the shutdown wake-up pipe (\(error.reason)); a closed stdout may take \(StdioHost.parentCheckInterval) to notice"
            )
        }
        (wakeFileDescriptor, wakeWriteEnd) = ends
    }

    /// Asks the loop's owner to end the session. Safe from any thread, from inside a handler or
    /// a reply: it records the first request, wakes the reader (or its watch) and returns at once.
    func requestEnd(status: Int32, reason: String) {
        let first = requested.withLock { requested in
            guard requested == nil else { return false }
            requested = (status, reason)
            return true
        }
        guard first else { return }
        endAsked.store(true, ordering: .sequentiallyConsistent)
        if wakeWriteEnd >= 0 {
            var byte: UInt8 = 1
            _ = write(wakeWriteEnd, &byte, 1)
        }
    }

    /// Whether another thread or a signal asked for the end.
    var isEndRequested: Bool { endAsked.load(ordering: .sequentiallyConsistent) || Signals.caught != nil }

    /// The loop's owner only: ends the session if another thread or a signal asked for it.
    func endIfRequested() {
        if let (status, reason) = requested.withLock({ $0 }) { end(status: status, reason: reason) }
        if let number = Signals.caught { end(status: 0, reason: "signal \(number)") }
    }

    /// The loop's owner only (the reader, or the `ReaderWatch` that took the loop over from a
    /// reader asleep in read(2)), and never from inside a handler or a reply: cancels what is in
    /// flight, closes child processes, gives handlers `shutdownGrace` to answer and their
    /// replies the rest of it to reach the browser, and exits. An end requested earlier keeps
    /// its status and reason: the first event decides.
    func end(status: Int32, reason: String) -> Never {
        Signals.readerIsEnding()
        let (status, reason) = requested.withLock { requested in
            if requested == nil { requested = (status, reason) }
            return requested!
        }
        Log.info("shutting down: \(reason)")
        ChildProcesses.terminateAll()
        let now = configuration.clocks.monotonic
        let deadline = now() + configuration.shutdownGrace
        if let (server, writer) = serving.withLock({ $0 }) {
            if let server {
                server.cancelAll()
                if !server.waitUntilIdle(timeout: configuration.shutdownGrace) {
                    Log.warning("\(server.inFlightCount) requests did not finish within the shutdown grace period")
                }
            }
            writer.drain(until: deadline, now: now)
        }
        EndOfProcess.run()
        exit(status)
    }
}
