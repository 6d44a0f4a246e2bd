#if canImport(Glibc)
import Glibc
#endif
import CLinux
import WalletBridgeSystem

/// `wallet-bridge pinentry-guard PROGRAM`: runs pinentry for the agent, and ends it when the
/// agent is gone. Not a command for people (it is in no help text).
///
/// An agent killed outright (SIGKILL, the OOM killer) cannot close its dialog, and
/// pinentry-gtk2 does not notice that its Assuan socket was closed while the dialog is up: the
/// window would stay, answering nobody, and the next agent's dialog would open beside it. The
/// guard shares pinentry's stdin and stdout (the socket to the agent) without reading them; when
/// the agent's end closes, poll reports a hang-up, and the guard ends pinentry. Signals the agent
/// sends the guard (to cancel a dialog) are passed on to pinentry; the guard exits as pinentry
/// does.
///
/// PR_SET_PDEATHSIG cannot do this: it fires when the *thread* that started the child ends, and
/// the agent starts pinentry from whichever pool thread runs the request.
package enum PinentryGuard {
    package static let commandName = "pinentry-guard"

    /// The guard's argv after the executable, for `program` and its arguments.
    package static func arguments(for program: String, _ arguments: [String] = []) -> [String] {
        [commandName, program] + arguments
    }

    /// The child the signal handlers pass signals on to (0: none yet).
    nonisolated(unsafe) private static var child: pid_t = 0

    /// Runs the guard with `arguments` (after `pinentry-guard`) and exits with pinentry's status.
    package static func run(_ arguments: [String]) -> Never {
        guard let program = arguments.first else {
            Log.error("\(commandName) needs the pinentry program to run")
            exit(2)
        }
        let pid: pid_t
        do {
            pid = try Spawn.start(
                program, arguments: Array(arguments.dropFirst()), standardStreams: [0, 1, 2], searchPath: true)
        } catch {
            // Said the way pinentry reports a failure, on the socket the agent reads from.
            let line = "ERR 83886081 cannot start the pinentry program \"\(program)\": \(error.reason)\n"
            _ = Array(line.utf8).withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
            exit(127)
        }
        child = pid
        for number in [SIGTERM, SIGINT, SIGHUP] {
            signal(number) { received in
                if PinentryGuard.child > 0 { kill(PinentryGuard.child, received) }
            }
        }
        let exited = wallet_bridge_pidfd_open(pid)
        var watched = [
            pollfd(fd: exited, events: Int16(POLLIN), revents: 0),
            // No events asked for: poll still reports a hang-up, and nothing of the
            // conversation is read here.
            pollfd(fd: 0, events: 0, revents: 0),
        ]
        while true {
            // Without a pidfd (a kernel before 5.3), check for the child's exit every 100 ms.
            let deadline: ContinuousClock.Instant? = exited >= 0 ? nil : .now + .milliseconds(100)
            if SystemCall.poll(&watched, until: deadline) < 0 { break }
            if watched[1].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 {
                // The agent's end closed: after a BYE, pinentry is on its way out and is let go
                // by itself; one still showing its dialog is ended.
                exit(
                    awaitExit(pid, grace: .milliseconds(500))
                        ?? {
                            kill(pid, SIGTERM); return finish(pid, grace: .seconds(1))
                        }())
            }
            if exited < 0 || watched[0].revents != 0, let status = reap(pid) { exit(status) }
        }
        kill(pid, SIGTERM)
        exit(finish(pid, grace: .seconds(1)))
    }

    /// `pid`'s status if it exits within `grace`.
    private static func awaitExit(_ pid: pid_t, grace: Duration) -> Int32? {
        let deadline = ContinuousClock.now + grace
        while ContinuousClock.now < deadline {
            if let status = reap(pid) { return status }
            usleep(5_000)
        }
        return nil
    }

    /// The exit status to pass on once `pid` has ended (waiting at most `grace`, then killing).
    private static func finish(_ pid: pid_t, grace: Duration) -> Int32 {
        if let status = awaitExit(pid, grace: grace) { return status }
        kill(pid, SIGKILL)
        var status: Int32 = 0
        _ = waitpid(pid, &status, 0)
        return 1
    }

    /// `pid`'s status as a shell gives it (128 + signal for a killed one), if it has exited.
    private static func reap(_ pid: pid_t) -> Int32? {
        var status: Int32 = 0
        let result = waitpid(pid, &status, WNOHANG)
        guard result == pid else { return result < 0 ? 1 : nil }
        let signalled = status & 0x7f
        return signalled == 0 ? (status >> 8) & 0xff : 128 + signalled
    }
}
