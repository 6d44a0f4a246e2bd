#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import WalletBridge

/// A GetAccounts answer kept by one host process for the next, with the stamp (`FileStamp`) of
/// every file it was worked out from, so that a browser's next `sendNativeMessage` is answered
/// before the router is built: a `stat` per file, one small read and the reply (docs/agent.md,
/// "The answer cache"). Building the router, reading the configuration, the keystore and the
/// sessions file and checking them made a cold GetAccounts 1.6 times the cost of a bare Swift
/// program that answers one frame (BENCHMARKS.md, seventh round).
///
/// Nothing is kept that the files would not give again:
/// - The inputs are stamped before they are read (`Recorder.stamp`), so a change racing the read
///   leaves a stamp that no longer matches, never a new stamp on an old answer.
/// - The answer is kept only when it was read from the files (not from the agent, not after
///   asking the person), when the process wrote no warning (a warning must be seen on every
///   call, and the next process says it again), and when every input last changed at least two
///   seconds before its stamp (`FileStamp.isSettled`), so that two versions of a file within one
///   tick of the filesystem's clock cannot share a stamp.
/// - A connected extension's answer lasts until its session expires (`until`).
/// - The key holds everything else the answer depends on: the arguments (the caller), the user,
///   the version, every `WALLET_BRIDGE_*` variable but `WALLET_BRIDGE_LOG`, and `HOME` and the
///   XDG folder variables (which decide the files and the limits). The executable is an input
///   like the files.
///
/// The file lives in the agent's folder (0700, this user's alone, `AgentPaths`), is written
/// with mode 0600, and holds no secret: addresses are public keys. One that cannot be read, is
/// damaged, or does not match is ignored and replaced by the next answer.
///
/// Its format is made for a cold process to check quickly (JSON cost it as much as the rest of
/// the answer): fields that each end with a NUL byte, which no argument, variable, path or
/// address can hold. The format line (`wallet-bridge-answer-cache 1`); the number of the key's
/// parts and the parts; `until` in seconds since the epoch, or an empty field; the number of
/// inputs, and for each its path and its stamp (`FileStamp.text`, or `-` for no file); the
/// addresses.
package struct AnswerCache: Sendable {
    /// The first field: the format and its version.
    static let formatLine = "wallet-bridge-answer-cache 1"
    /// A kept answer is a few hundred bytes per address.
    static let maxFileBytes = 1 << 20

    package let path: String
    /// What the answer depends on besides its inputs' files (`key(arguments:)`).
    package let key: [String]

    package init(folder: String, key: [String]) {
        self.key = key
        path = "\(folder)/answers-\(shortHash(key))"
    }

    /// The variables, besides `WALLET_BRIDGE_*`, that decide which files a host reads
    /// (`UserFolders`). Only these: a variable that changes from one launch to the next (a
    /// desktop's activation token) would give every launch a key, and a file, of its own.
    static let folderVariables = ["HOME=", "XDG_CONFIG_HOME=", "XDG_DATA_HOME=", "XDG_RUNTIME_DIR=", "XDG_STATE_HOME="]
    /// The one `WALLET_BRIDGE_*` variable that changes no answer: a host started with
    /// `WALLET_BRIDGE_LOG=debug` to see where its answer came from uses the answer the others
    /// use. (Warnings keep an answer from being kept at every level: `Log.warningCount`.)
    static let logVariable = "WALLET_BRIDGE_LOG="

    /// The key of a host serving `caller`, in this process's environment: the version, the
    /// program, the caller, and the variables that decide the files and the limits. (The user is
    /// the folder's, and the file's owner, both checked.)
    package static func key(caller: Caller) -> [String] {
        var variables: [String] = []
        var entry = environ
        while let pointer = entry.pointee {
            // Most of a browser's environment is not ours: only names that start as ours do are
            // made into strings.
            if case let first = UInt8(bitPattern: pointer.pointee), first == UInt8(ascii: "W") || first == UInt8(ascii: "X") || first == UInt8(ascii: "H") {
                let variable = String(cString: pointer)
                if variable.hasPrefix("WALLET_BRIDGE_") ? !variable.hasPrefix(Self.logVariable) : folderVariables.contains(where: { variable.hasPrefix($0) }) {
                    variables.append(variable)
                }
            }
            entry += 1
        }
        // In a fixed order, sorted by hand: a few variables, and the first use of `sorted()`
        // made the runtime search the binary's protocol conformances, which cost a cold
        // process more than everything else here (bench/).
        for index in variables.indices.dropFirst() {
            var place = index
            while place > 0, variables[place] < variables[place - 1] {
                variables.swapAt(place, place - 1)
                place -= 1
            }
        }
        // The program as started (argv[0]): two installed copies keep an answer each, instead
        // of taking turns over one file (the executable is an input all the same). The caller
        // as the policy and the sessions name it, not the whole argument list.
        var key = ["wallet-bridge \(WalletBridgeVersion.current)", CommandLine.arguments.first ?? ""]
        switch caller {
        case .chromeExtension(let origin): key += ["chrome-extension", origin]
        case .firefoxAddon(let id, _): key += ["firefox-addon", id]
        case .unidentified: key += ["unidentified"]
        }
        key.append("environment")
        key.append(contentsOf: variables)
        return key
    }

    /// The answer kept under `key`, when every input is as it was stamped and `now` (seconds
    /// since the epoch) is before its `until`; nil otherwise.
    /// Why an answer is not given back is logged at debug level (`WALLET_BRIDGE_LOG=debug`).
    package func accounts(now: Int64) -> GetAccountsResult? {
        guard let stamp = FileStamp.of(path) else { return miss("none kept at \(path)") }
        // As written: this user's, 0600. One that others could have written is not trusted.
        guard stamp.owner == getuid(), stamp.isRegularFile, stamp.mode & 0o077 == 0 else {
            return miss("\(path) is not a file of this user's alone")
        }
        guard let bytes = (try? AtomicFile.read(path, maxBytes: Self.maxFileBytes)) ?? nil else { return miss("cannot read \(path)") }
        return bytes.withUnsafeBufferPointer { buffer in
            var fields = Fields(buffer)
            guard fields.next(is: Self.formatLine), fields.next(is: String(key.count)) else { return miss("\(path) is damaged or of another version") }
            for part in key {
                guard fields.next(is: part) else { return miss("\(path) was kept for another caller or environment") }
            }
            guard let until = fields.next() else { return miss("\(path) is damaged") }
            if !until.isEmpty {
                guard let until = Int64(String(decoding: until, as: UTF8.self)), now < until else { return miss("the session it was kept for has ended") }
            }
            guard let count = fields.next().flatMap({ Int(String(decoding: $0, as: UTF8.self)) }) else { return miss("\(path) is damaged") }
            // Each stamp is written on the stack and compared in place; the path is a field,
            // NUL-ended where it lies.
            // The first input that is not as stamped, if any (nil: all are).
            let changed = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: FileStamp.textLength) { text -> String? in
                for _ in 0..<count {
                    guard let path = fields.next(), let recorded = fields.next() else { return "the list of its files" }
                    switch FileStamp.lookUp(cString: UnsafeRawPointer(path.baseAddress!).assumingMemoryBound(to: CChar.self)) {
                    case .present(let stamp):
                        stamp.writeText(into: text)
                        guard Fields.same(recorded, UnsafeBufferPointer(text)) else { return String(decoding: path, as: UTF8.self) }
                    case .absent:
                        guard recorded.count == 1, recorded[0] == Self.absent else { return String(decoding: path, as: UTF8.self) }
                    case .unknown:
                        return String(decoding: path, as: UTF8.self)
                    }
                }
                return nil
            }
            if let changed { return miss("\(changed) changed since it was kept") }
            var addresses: [String] = []
            while let address = fields.next() { addresses.append(String(decoding: address, as: UTF8.self)) }
            return fields.isComplete ? GetAccountsResult(addresses: addresses) : miss("\(path) is damaged")
        }
    }

    private func miss(_ reason: @autoclosure () -> String) -> GetAccountsResult? {
        Log.debug("no kept answer used: \(reason())")
        return nil
    }

    /// How an input that did not exist is kept.
    static let absent = UInt8(ascii: "-")

    /// The NUL-ended fields of a file, in order. Each field returned is followed by its NUL.
    private struct Fields {
        let bytes: UnsafeBufferPointer<UInt8>
        var position = 0

        init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        /// The next field, or nil at the end (or where the last one has no NUL).
        mutating func next() -> UnsafeBufferPointer<UInt8>? {
            guard position < bytes.count, let base = bytes.baseAddress, let found = memchr(base + position, 0, bytes.count - position) else {
                return nil
            }
            let end = UnsafeRawPointer(found) - UnsafeRawPointer(base)
            defer { position = end + 1 }
            return UnsafeBufferPointer(rebasing: bytes[position..<end])
        }

        /// Whether the next field is `expected`'s bytes.
        mutating func next(is expected: String) -> Bool {
            var expected = expected
            return expected.withUTF8 { expected in next().map { Self.same($0, expected) } ?? false }
        }

        /// `memcmp`: comparing element by element was a tenth of a kept answer's cost.
        static func same(_ one: UnsafeBufferPointer<UInt8>, _ other: UnsafeBufferPointer<UInt8>) -> Bool {
            one.count == other.count && (one.isEmpty || memcmp(one.baseAddress!, other.baseAddress!, one.count) == 0)
        }

        /// True when every byte was read as a field.
        var isComplete: Bool { position == bytes.count }
    }

    /// Keeps an answer of this process for the next: the stamps of its inputs first, then the
    /// answer, once. Hand it to the code that reads the inputs, and stamp each before it is read.
    package final class Recorder: Sendable {
        let cache: AnswerCache
        private struct Input {
            let path: String
            let stamp: FileStamp.Lookup
            /// Whether the file had last changed two seconds or more before it was stamped.
            let settled: Bool
        }
        private let inputs = Mutex<[Input]>([])
        private let recorded = Atomic<Bool>(false)
        private let warningsBefore: Int
        /// Makes the folder before the file is written; false, having logged why, when it
        /// cannot be used.
        private let prepareFolder: @Sendable () -> Bool
        /// Seconds since the epoch (tests pass their own).
        private let now: @Sendable () -> Int64

        package init(_ cache: AnswerCache, now: @escaping @Sendable () -> Int64 = { Int64(time(nil)) }, prepareFolder: @escaping @Sendable () -> Bool) {
            self.cache = cache
            self.now = now
            self.prepareFolder = prepareFolder
            warningsBefore = Log.warningCount
        }

        /// Stamps `paths` as they are now. Call it before reading them.
        package func stamp(_ paths: [String]) {
            let now = now()
            let stamped = paths.map { path in
                let stamp = FileStamp.lookUp(path)
                let settled = switch stamp {
                case .present(let stamp): stamp.isSettled(at: now)
                case .absent: true
                case .unknown: false
                }
                return Input(path: path, stamp: stamp, settled: settled)
            }
            inputs.withLock { $0.append(contentsOf: stamped) }
        }

        /// Keeps `result`, good until `until` (seconds since the epoch; nil: until an input
        /// changes). Only the first call of a process writes; a failed write is logged at debug
        /// level only: the next process works the answer out again.
        package func record(_ result: GetAccountsResult, until: Int?) {
            // Every GetAccounts of a port comes here: after the first, one atomic load.
            guard !recorded.load(ordering: .relaxed), !recorded.exchange(true, ordering: .relaxed) else { return }
            let inputs = inputs.withLock { $0 }
            if let unsettled = inputs.first(where: { !$0.settled }) {
                return Log.debug("answer not kept: \(unsettled.path) changed less than 2 s before it was read, or cannot be looked at")
            }
            guard Log.warningCount == warningsBefore else { return Log.debug("answer not kept: a warning was written") }
            guard prepareFolder() else { return }  // which says why
            var file: [UInt8] = []
            func field(_ bytes: some Sequence<UInt8>) {
                file.append(contentsOf: bytes)
                file.append(0)
            }
            field(AnswerCache.formatLine.utf8)
            field(String(cache.key.count).utf8)
            for part in cache.key { field(part.utf8) }
            field((until.map(String.init) ?? "").utf8)
            field(String(inputs.count).utf8)
            for input in inputs {
                field(input.path.utf8)
                switch input.stamp {
                case .present(let stamp): field(stamp.text)
                case .absent, .unknown: field(CollectionOfOne(AnswerCache.absent))  // never unknown: those are not kept
                }
            }
            for address in result.addresses { field(address.utf8) }
            do {
                try AtomicFile.replace(cache.path, with: file, mode: 0o600)
            } catch {
                Log.debug("answer not kept: \(error)")
            }
        }
    }
}
