#if canImport(Glibc)
import Glibc
#endif
import CLinux
import Synchronization

/// Counts the changes in a few folders, so that a file read earlier can be trusted again with an
/// atomic load instead of a `stat(2)`: while `generation` is what it was when the file was
/// stat'ed, nothing in its folder has changed since. A persistent port answers GetAccounts from
/// its copy of the keystore this way; a `stat` per request was a large part of a round trip
/// (BENCHMARKS.md).
///
/// How: one inotify descriptor, set to send SIGIO to the host's reader thread when an event is
/// queued, and a handler that only adds one to the count. Aimed at that thread, not read by a
/// watching thread, because of when it arrives: the kernel makes the signal pending on the
/// reader inside the system call that changes the folder (the rename of a new keystore), and a
/// thread runs its pending handlers before it returns from any system call. A change completed
/// before a request's bytes were read has therefore been counted before the request is handled,
/// on whichever thread handles it. A watching thread might not have run yet.
///
/// Only a process that names its reader thread (`start`, by `StdioHost`) watches. Elsewhere
/// (the agent, tests, the command line) `watch` says no and callers `stat` as before. A watched
/// folder that is moved or deleted turns watching off for good (`isIntact`).
///
/// What it costs the reader thread: SIGIO's handler is this one's (an embedding program's own
/// SIGIO handler is replaced once a folder is watched), and every change in a watched folder
/// interrupts the reader once. Handlers are installed with `SA_RESTART`, so a blocking read
/// goes on; calls the kernel never restarts (`poll`, `nanosleep`) return early with EINTR,
/// which their callers handle. The keystore's folder is quiet; a keystore kept in a busy folder
/// (`/tmp`) makes the reader take a signal per change there.
///
/// The one inotify instance of the process: a thread that waits for changes in a folder
/// (`EventFile`, a host's watch on the agent's folder) subscribes to it (`subscribe`) rather
/// than making its own. A user has 128 instances by default (`fs.inotify.max_user_instances`),
/// and a port's host that took two let 64 ports of one extension take them all. Whichever
/// thread reads the queue (`drain`, or a subscriber's `next`) hands each subscriber its events.
/// The signal is the instance's, not a watch's: while the keystore's folder is watched, every
/// event a subscriber asked for signals the reader too (and counts as a change, so the next
/// call `stat`s the keystore once): in a host, each change in the agent's folder, as each
/// events file the agent writes there (made, closed, renamed into place) and each port whose
/// host ends (it closes the agent's `ports` file: IN_CLOSE_WRITE). Once the keystore's folder
/// goes, the reader is signalled no more.
package enum FolderWatch {
    /// Names the thread that gets the signals: the reader's, which reads every request. Call it
    /// on that thread. Nothing is made until a folder is watched.
    package static func start() {
        state.thread.store(wallet_bridge_thread_id(), ordering: .releasing)
    }

    /// Starts counting the changes in `folder` (once per folder). False when this process does
    /// not watch (no `start`), when the folder cannot be watched (missing, or out of inotify
    /// watches), or when a watched folder went away.
    package static func watch(folder: String) -> Bool {
        let thread = state.thread.load(ordering: .acquiring)
        guard thread != 0, isIntact else { return false }
        return state.shared.withLock { shared in
            if shared.folders.contains(folder) { return true }
            guard let fd = descriptor(signalling: thread, &shared) else { return false }
            // IN_MASK_ADD: a subscriber's watch of the same folder keeps its events.
            let events =
                UInt32(IN_MODIFY | IN_ATTRIB | IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO | IN_CREATE | IN_DELETE)
                | UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR | IN_MASK_ADD)
            let watch = inotify_add_watch(fd, folder, events)
            guard watch >= 0 else {
                Log.debug("\(folder) is not watched for changes (errno \(errno)); it is checked on every call")
                return false
            }
            shared.folders.insert(folder)
            shared.watches.insert(watch)
            Log.debug("changes in \(folder) are signalled to the reader thread")
            return true
        }
    }

    /// The number of changes counted so far. Read it before the `stat` it vouches for, and call
    /// `drain` in between.
    package static var generation: UInt64 { state.generation.load(ordering: .acquiring) }

    /// False for good once a watched folder was moved or deleted (its path may now lead to
    /// another folder, which is not watched).
    package static var isIntact: Bool { state.intact.load(ordering: .acquiring) }

    /// Reads the events queued so far. The kernel sends no signal for an event that repeats the
    /// last one still queued, so the queue must be emptied before a `stat` that the next change
    /// has to be counted after. Notes a watched folder that went away. False when the count can
    /// no longer be trusted (nothing is watched, or a watched folder went away).
    package static func drain() -> Bool {
        let fd = state.descriptor.load(ordering: .acquiring)
        guard fd >= 0, isIntact, state.shared.withLock({ !$0.watches.isEmpty }) else { return false }
        state.shared.withLock { readQueue(fd, &$0) }
        return isIntact
    }

    /// Ends watching in this process, for good: nothing is trusted on the count any more, and
    /// no signal comes. For tests, which watch in a process that goes on with other tests.
    /// The instance stays for its subscribers; only the watches of `watch` go.
    package static func stopForGood() {
        state.intact.store(false, ordering: .releasing)
        state.thread.store(0, ordering: .releasing)
        state.shared.withLock { shared in
            let fd = state.descriptor.load(ordering: .acquiring)
            guard fd >= 0 else { return }
            if shared.signalling { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_ASYNC) }
            shared.signalling = false
            let subscribed = Set(shared.subscribers.values.map(\.watch))
            for watch in shared.watches where !subscribed.contains(watch) { inotify_rm_watch(fd, watch) }
            shared.watches = []
            shared.folders = []
        }
    }

    /// The process's inotify descriptor, made when first needed; nil when none can be had.
    private static func instance() -> Int32? {
        let existing = state.descriptor.load(ordering: .acquiring)
        if existing >= 0 { return existing }
        let fd = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard fd >= 0 else { return nil }
        state.descriptor.store(fd, ordering: .releasing)
        return fd
    }

    /// The inotify descriptor, set to signal `thread` on its first watch: the handler goes in
    /// before the descriptor may signal (SIGIO's default action ends the process).
    private static func descriptor(signalling thread: pid_t, _ shared: inout Shared) -> Int32? {
        guard let fd = instance() else { return nil }
        if shared.signalling { return fd }
        var action = sigaction()
        action.__sigaction_handler.sa_handler = onChange
        sigemptyset(&action.sa_mask)
        // Restarted: the reader's blocking read of stdin, or a handler's read of a file, goes on.
        action.sa_flags = SA_RESTART
        guard sigaction(SIGIO, &action, nil) == 0, wallet_bridge_signal_thread_on_input(fd, thread) == 0 else {
            return nil
        }
        shared.signalling = true
        return fd
    }

    /// Reads every event queued, and hands each subscriber its own. Notes a folder of `watch`'s
    /// that went away. Called with `shared` locked, so that two readers keep events in order.
    private static func readQueue(_ fd: Int32, _ shared: inout Shared) {
        var woken = Set<Int>()
        let size = 4096  // whole events only: the largest is 16 bytes and a name of 255
        withUnsafeTemporaryAllocation(byteCount: size, alignment: 8) { buffer in
            while true {
                let count = SystemCall.retryingInterrupts { read(fd, buffer.baseAddress!, size) }
                guard count > 0 else { return }
                var offset = 0
                while offset + 16 <= count {
                    // struct inotify_event: wd, mask, cookie, len, then len bytes of name.
                    let watch = buffer.load(fromByteOffset: offset, as: Int32.self)
                    let mask = buffer.load(fromByteOffset: offset + 4, as: UInt32.self)
                    let length = Int(buffer.load(fromByteOffset: offset + 12, as: UInt32.self))
                    if shared.watches.contains(watch),
                        mask & UInt32(IN_IGNORED | IN_DELETE_SELF | IN_MOVE_SELF | IN_UNMOUNT) != 0
                    {
                        state.intact.store(false, ordering: .releasing)
                        // Nothing is trusted on the count any more: no more signals for the
                        // reader either, whichever thread read this (a subscriber's may, and
                        // `drain` then never reads the queue again).
                        if shared.signalling { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_ASYNC) }
                        shared.signalling = false
                    }
                    // The queue overflowed (watch -1): every subscriber may have missed something.
                    let overflow = mask & UInt32(IN_Q_OVERFLOW) != 0
                    if !shared.subscribers.isEmpty {
                        let named = UnsafeRawBufferPointer(
                            rebasing: buffer[(offset + 16)..<min(count, offset + 16 + length)])
                        let name = String(decoding: named.prefix { $0 != 0 }, as: UTF8.self)
                        // The folder's own end reaches every subscriber of its watch, asked or not.
                        let always = UInt32(IN_IGNORED | IN_UNMOUNT)
                        for (id, subscriber) in shared.subscribers
                        where overflow || (subscriber.watch == watch && mask & (subscriber.mask | always) != 0) {
                            shared.subscribers[id]?.post(FolderEvent(mask: mask, name: name))
                            woken.insert(id)
                        }
                    }
                    offset += 16 + length
                }
            }
        }
        for id in woken {
            guard let wake = shared.subscribers[id]?.wake else { continue }
            var byte: UInt8 = 1
            _ = write(wake.write, &byte, 1)
        }
    }

    /// The most events kept for a subscriber that has not taken them: beyond, they are one
    /// IN_Q_OVERFLOW ("something changed", look again), and the folder's own end.
    package static let mailboxLimit = 64

    /// Subscribes to changes in `folder` (`mask`, inotify's), on the process's one instance;
    /// nil when it cannot be watched (no instance to be had, no watch left, no folder), with
    /// errno saying why.
    package static func subscribe(folder: String, mask: UInt32) -> FolderSubscription? {
        state.shared.withLock { shared -> FolderSubscription? in
            guard let fd = instance() else { return nil }
            guard let wake = try? Spawn.pipe(nonBlocking: true) else { return nil }
            let watch = inotify_add_watch(fd, folder, mask | UInt32(IN_MASK_ADD))
            guard watch >= 0 else {
                let code = errno
                close(wake.read)
                close(wake.write)
                errno = code
                return nil
            }
            shared.nextID += 1
            shared.subscribers[shared.nextID] = Subscriber(watch: watch, mask: mask, wake: wake)
            return FolderSubscription(id: shared.nextID, descriptor: fd, wake: wake.read)
        }
    }

    /// The events for subscriber `id` read so far, after reading the queue.
    fileprivate static func take(_ id: Int) -> [FolderEvent] {
        let fd = state.descriptor.load(ordering: .acquiring)
        return state.shared.withLock { shared in
            if fd >= 0 { readQueue(fd, &shared) }
            guard let subscriber = shared.subscribers[id] else { return [] }
            var drained = [UInt8](repeating: 0, count: 64)
            while read(subscriber.wake.read, &drained, drained.count) > 0 {}
            shared.subscribers[id]?.mailbox = []
            return subscriber.mailbox
        }
    }

    /// How many subscriptions are open: any of them may read the queue, which a test of how
    /// the kernel merges events must know to be nobody but itself.
    package static var subscriberCount: Int { state.shared.withLock { $0.subscribers.count } }

    /// Ends subscription `id`; its watch goes when nobody else watches that folder.
    fileprivate static func end(_ id: Int) {
        state.shared.withLock { shared in
            guard let subscriber = shared.subscribers.removeValue(forKey: id) else { return }
            close(subscriber.wake.read)
            close(subscriber.wake.write)
            let fd = state.descriptor.load(ordering: .acquiring)
            let stillWatched =
                shared.watches.contains(subscriber.watch)
                || shared.subscribers.values.contains { $0.watch == subscriber.watch }
            if fd >= 0, !stillWatched { inotify_rm_watch(fd, subscriber.watch) }
        }
    }

    private static let onChange: @convention(c) (Int32) -> Void = { _ in
        state.generation.wrappingAdd(1, ordering: .sequentiallyConsistent)
    }

    /// What the handler reads: made before it is installed; noncopyable, so no reference count.
    private static let state = State()

    private struct State: ~Copyable, @unchecked Sendable {
        let thread = Atomic<Int32>(0)
        let descriptor = Atomic<Int32>(-1)
        let generation = Atomic<UInt64>(0)
        let intact = Atomic<Bool>(true)
        let shared = Mutex<Shared>(Shared())
    }

    /// What the watchers share, under one lock.
    fileprivate struct Shared {
        /// The folders `watch` watches, and their watches.
        var folders: Set<String> = []
        var watches: Set<Int32> = []
        /// Whether the descriptor signals the reader thread.
        var signalling = false
        var subscribers: [Int: Subscriber] = [:]
        var nextID = 0
    }

    fileprivate struct Subscriber {
        let watch: Int32
        /// The events it asked for: another subscriber of the same folder may ask for more
        /// (the watch's mask is the union), which this one is not given.
        let mask: UInt32
        /// Written when events are in `mailbox`.
        let wake: (read: Int32, write: Int32)
        var mailbox: [FolderEvent] = []

        /// Adds `event` to the mailbox; a full one becomes "something changed"
        /// (IN_Q_OVERFLOW), keeping the folder's end, which a subscriber must not miss.
        mutating func post(_ event: FolderEvent) {
            guard mailbox.count >= FolderWatch.mailboxLimit else { return mailbox.append(event) }
            let ends = UInt32(IN_IGNORED | IN_DELETE_SELF | IN_MOVE_SELF | IN_UNMOUNT)
            mailbox = mailbox.filter { $0.mask & ends != 0 } + [FolderEvent(mask: UInt32(IN_Q_OVERFLOW), name: "")]
            if event.mask & ends != 0 { mailbox.append(event) }
        }
    }
}

/// One inotify event for a subscriber: its mask, and the name in the folder (empty for the
/// folder itself).
package struct FolderEvent: Sendable, Equatable {
    package let mask: UInt32
    package let name: String

    package init(mask: UInt32, name: String) {
        self.mask = mask
        self.name = name
    }
}

/// A subscription to the changes in one folder (`FolderWatch.subscribe`): wait until
/// `descriptor` or `wake` is readable (poll), then take the events with `next`.
package struct FolderSubscription: Sendable {
    fileprivate let id: Int
    /// The process's inotify instance, readable when an event is queued for anyone.
    package let descriptor: Int32
    /// Readable when another thread read this subscriber's events off the queue.
    package let wake: Int32

    /// The events for this subscriber since the last call, in order (possibly none).
    package func next() -> [FolderEvent] { FolderWatch.take(id) }

    /// Ends the subscription.
    package func end() { FolderWatch.end(id) }
}
