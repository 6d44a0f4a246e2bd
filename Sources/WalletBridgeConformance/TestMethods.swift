#if canImport(Glibc)
import Glibc
#endif
import WalletBridge

// Methods that exist only in the conformance host, to exercise every rule of the host core from
// the shared fixtures. The JSON-RPC specification's own examples (subtract, sum, notify_hello,
// update, get_data) are here too, registered the way a developer registers a custom method.

enum Subtract: RPCMethod {
    static let name = "subtract"
    /// The specification calls it both ways: `[42, 23]` and `{"minuend": 42, "subtrahend": 23}`.
    struct Params: Codable, Sendable {
        var minuend: Int
        var subtrahend: Int
        init(from decoder: any Decoder) throws {
            if var positional = try? decoder.unkeyedContainer() {
                minuend = try positional.decode(Int.self)
                subtrahend = try positional.decode(Int.self)
            } else {
                let named = try decoder.container(keyedBy: CodingKeys.self)
                minuend = try named.decode(Int.self, forKey: .minuend)
                subtrahend = try named.decode(Int.self, forKey: .subtrahend)
            }
        }
    }
    typealias Result = Int
}

enum Sum: RPCMethod {
    static let name = "sum"
    typealias Params = [Int]
    typealias Result = Int
}

enum NotifyHello: RPCMethod {
    static let name = "notify_hello"
    typealias Params = [Int]
    typealias Result = NoResult
}

enum Update: RPCMethod {
    static let name = "update"
    typealias Params = [Int]
    typealias Result = NoResult
}

enum GetData: RPCMethod {
    static let name = "get_data"
    typealias Result = JSONValue
}

/// A field that takes one of a few strings: what a caller sent that is not one of them is
/// answered in the host's words, listing the choices, never Swift's own text.
enum SetMode: RPCMethod {
    static let name = "test.setMode"
    enum Mode: String, Codable, CaseIterable, Sendable { case user, guest }
    struct Params: Codable, Sendable { var mode: Mode }
    typealias Result = Params
}

enum Echo: RPCMethod {
    static let name = "test.echo"
    typealias Params = JSONValue
    typealias Result = JSONValue
}

/// Sleeps, honouring cancellation: for concurrency, ordering and cancellation cases.
enum Sleep: RPCMethod {
    static let name = "test.sleep"
    struct Params: Codable, Sendable { var ms: Int }
    struct Result: Codable, Sendable { var slept: Int }
}

/// Never returns and ignores cancellation: only a timeout can answer it.
enum Hang: RPCMethod {
    static let name = "test.hang"
    typealias Result = NoResult
}

/// Blocks its pool thread in read(2) on a pipe nobody writes: a handler stuck in a system call,
/// which neither cancellation nor a timeout can reach. Only the end of the process ends it.
enum Block: RPCMethod {
    static let name = "test.block"
    typealias Result = NoResult
}

/// `test.block` on the reader thread (`.immediate`): a quick handler that turns out not to be,
/// like a keystore read that never answers. Only the signal backstop can end the host then.
enum BlockReader: RPCMethod {
    static let name = "test.blockReader"
    typealias Result = NoResult
}

/// Throws an error that is not an RPCError, whose text must not reach the wire.
enum Fail: RPCMethod {
    static let name = "test.fail"
    typealias Result = NoResult
}

struct UnexpectedFailure: Error, CustomStringConvertible {
    var description: String { "secret internal detail /home/user/.local/share/wallet-bridge" }
}

/// Throws the RPCError described by its params.
enum RaiseError: RPCMethod {
    static let name = "test.error"
    struct Params: Codable, Sendable {
        var code: Int
        var message: String
        var data: JSONValue?
    }
    typealias Result = NoResult
    /// It raises whatever it is given, so no list is the whole truth: these are the codes the
    /// shared fixtures give it, for `wallet-bridge conform`'s check that each error case's code
    /// is one the method documents.
    static var errors: [RPCError] {
        [
            RPCError(.authorizationFailed), RPCError(.notSigned), RPCError(.tooManyPayloads),
            RPCError(code: 42, message: "The answer"),
        ]
    }
}

/// Returns a string of `bytes` ASCII characters: for the 1 MiB reply limit.
enum Large: RPCMethod {
    static let name = "test.large"
    struct Params: Codable, Sendable { var bytes: Int }
    typealias Result = String
}

/// Returns the UTF-8 length of `data`: a large request with a small reply, for the benchmarks.
enum Measure: RPCMethod {
    static let name = "test.measure"
    struct Params: Codable, Sendable { var data: String }
    struct Result: Codable, Sendable { var bytes: Int }
}

/// Reports the handler's context: caller, id and method.
enum Context: RPCMethod {
    static let name = "test.context"
    struct Result: Codable, Sendable {
        /// JSON null when unidentified (an Optional would be left out of the object instead).
        var caller: JSONValue
        var id: JSONValue
        var method: String
    }
}

/// walletlib's own custom-method example, as a developer would port it.
enum CustomPing: RPCMethod {
    static let name = "MY_CUSTOM_PING_RPC_METHOD"
    struct Params: Codable, Sendable {
        var pingParam1: String
        var pingParam2: [String]
    }
    struct Result: Codable, Sendable { var pong: String }
}

/// Appends its params as one JSON line to the file named by WALLET_BRIDGE_TEST_REPORT: how the
/// end-to-end test gets results out of a headless browser without a WebDriver.
enum Report: RPCMethod {
    static let name = "test.report"
    typealias Params = JSONValue
    struct Result: Codable, Sendable { var written: Int }
}

/// The report file's lines (test.report's params, in the order written) as JSON values; none
/// when the file is not there. With test.report, a pair of methods with state kept in a file:
/// what the fixture runners' `{tmpdir}` and `setup` are tested with.
enum ReadReport: RPCMethod {
    static let name = "test.readReport"
    typealias Result = [JSONValue]
}

/// Which test methods to register.
public enum TestMethodSet: Sendable {
    /// Everything, for the conformance host.
    case all
    /// Only methods that answer at once and touch nothing outside the process: no sleeping,
    /// hanging or file writing. For the fuzzer, which runs millions of calls in one process.
    case immediate
}

public func registerTestMethods(_ router: inout Router, _ set: TestMethodSet = .all) throws {
    try router.register(CustomPing.self) { params, _ in
        .init(pong: "pong: \(params.pingParam1) (\(params.pingParam2.count) more)")
    }
    try router.register(Subtract.self) { params, _ in params.minuend - params.subtrahend }
    try router.register(Sum.self) { numbers, _ in numbers.reduce(0, +) }
    try router.register(NotifyHello.self) { _, _ in NoResult() }
    try router.register(Update.self) { _, _ in NoResult() }
    try router.register(GetData.self) { _, _ in .array([.string("hello"), .number(JSONNumber(5))]) }
    try router.register(Echo.self) { params, _ in params }
    try router.register(SetMode.self) { params, _ in params }
    try router.register(Fail.self) { _, _ in throw UnexpectedFailure() }
    try router.register(RaiseError.self) { params, _ in
        throw RPCError(code: ErrorCode(rawValue: params.code), message: params.message, data: params.data)
    }
    try router.register(Large.self) { params, _ in
        guard (0...(64 << 20)).contains(params.bytes) else {
            throw RPCError(.invalidParams, detail: "bytes must be between 0 and 67108864")
        }
        // One allocation: String(repeating:) appends a character at a time, which made this
        // test method, not the host, most of a 1 MiB reply's time.
        return String(decoding: [UInt8](repeating: UInt8(ascii: "x"), count: params.bytes), as: UTF8.self)
    }
    try router.register(Measure.self) { params, _ in .init(bytes: params.data.utf8.count) }
    try router.register(Context.self) { _, context in
        .init(
            caller: context.caller.identity.map(JSONValue.string) ?? .null, id: context.requestID?.jsonValue ?? .null,
            method: context.method)
    }
    guard set == .all else { return }
    try router.register(Sleep.self) { params, context in
        announceStart(context)
        try await Task.sleep(for: .milliseconds(params.ms))
        return .init(slept: params.ms)
    }
    try router.register(Hang.self) { _, context in
        announceStart(context)
        while true { try? await Task.sleep(for: .seconds(3600)) }
    }
    try router.register(Block.self) { _, context in
        announceStart(context)
        return try blockForever()
    }
    try router.register(BlockReader.self, execution: .immediate) { _, context in
        announceStart(context)
        return try blockForever()
    }
    try router.register(Report.self) { params, _ in
        guard let path = getenv("WALLET_BRIDGE_TEST_REPORT").map({ String(cString: $0) }) else {
            throw RPCError(.internalError, detail: "WALLET_BRIDGE_TEST_REPORT is not set")
        }
        let line = params.jsonBytes + [UInt8(ascii: "\n")]
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        guard fd >= 0 else { throw RPCError(.internalError, detail: "cannot open the report file") }
        defer { close(fd) }
        let written = line.withUnsafeBytes { write(fd, $0.baseAddress!, $0.count) }
        guard written == line.count else { throw RPCError(.internalError, detail: "short write to the report file") }
        return .init(written: written)
    }
    try router.register(ReadReport.self) { _, _ in
        guard let path = getenv("WALLET_BRIDGE_TEST_REPORT").map({ String(cString: $0) }) else {
            throw RPCError(.internalError, detail: "WALLET_BRIDGE_TEST_REPORT is not set")
        }
        return try readReportLines(path)
    }
}

/// The lines of the file at `path`, each parsed as JSON; none when there is no such file.
private func readReportLines(_ path: String) throws -> [JSONValue] {
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else {
        if errno == ENOENT { return [] }
        throw RPCError(.internalError, detail: "cannot open the report file")
    }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
        let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
        guard count >= 0 else { throw RPCError(.internalError, detail: "cannot read the report file") }
        if count == 0 { break }
        bytes += chunk[..<count]
        guard bytes.count <= 1 << 20 else { throw RPCError(.internalError, detail: "the report file is over 1 MiB") }
    }
    return try bytes.split(separator: UInt8(ascii: "\n")).map { line in
        do { return try JSONParser.parse(Array(line)) } catch {
            throw RPCError(.internalError, detail: "a line of the report file is not JSON")
        }
    }
}

/// With WALLET_BRIDGE_TEST_ANNOUNCE_STARTS set, writes "started <method> <id>" on a line of
/// stderr as a sleeping, hanging or blocking handler starts: a test then signals or closes the
/// host once its handler is in flight, instead of sleeping first and hoping it is.
private func announceStart(_ context: RequestContext) {
    guard getenv("WALLET_BRIDGE_TEST_ANNOUNCE_STARTS") != nil else { return }
    Log.writeStderr("started \(context.method) \((context.requestID ?? .null).jsonValue.compactText)\n")
}

/// Blocks the calling thread in read(2) on a pipe nobody writes.
private func blockForever() throws -> NoResult {
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else { throw RPCError(.internalError, detail: "pipe failed") }
    // Close-on-exec, so that a child started meanwhile does not hold the pipe too.
    for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    var byte: UInt8 = 0
    // The write end stays open and unwritten, so this read never returns.
    _ = read(ends[0], &byte, 1)
    throw RPCError(.internalError, detail: "a blocking test method returned")
}
