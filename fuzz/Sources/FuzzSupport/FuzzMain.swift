#if canImport(Glibc)
import Glibc
#endif

/// The function under test, set once by the target's `main` before any input arrives.
nonisolated(unsafe) private var currentTarget: (([UInt8]) -> Void)?

/// libFuzzer calls this for every input it generates.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    currentTarget?(bytes)
    return 0
}

#if FUZZING
@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt
#endif

/// Runs `target` under libFuzzer (built with `-DFUZZING`), or replays the files and folders
/// named on the command line once each (a plain build). A failed invariant is a crash, which
/// libFuzzer records as a finding and the replay reports with the file that caused it.
public func fuzzMain(_ target: @escaping ([UInt8]) -> Void) -> Never {
    currentTarget = target
    #if FUZZING
    var argc = CommandLine.argc
    var argv = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzTestOneInput(data, size) })
    #else
    var replayed = 0
    for path in CommandLine.arguments.dropFirst() {
        for file in files(at: path) {
            guard let bytes = readFile(file) else {
                say("cannot read \(file)\n")
                exit(2)
            }
            say("replaying \(file)\n")
            target(bytes)
            replayed += 1
        }
    }
    say("replayed \(replayed) inputs without a failure\n")
    exit(replayed > 0 ? 0 : 2)
    #endif
}

/// Fails the run: libFuzzer turns the trap into a saved crash input.
public func require(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() {
        say("invariant failed: \(message())\n")
        abort()
    }
}

private func files(at path: String) -> [String] {
    guard let directory = opendir(path) else { return [path] }
    defer { closedir(directory) }
    var names: [String] = []
    while let entry = readdir(directory) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        if !name.hasPrefix(".") { names.append(path + "/" + name) }
    }
    return names.sorted()
}

private func readFile(_ path: String) -> [UInt8]? {
    guard let file = fopen(path, "rb") else { return nil }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
        let count = fread(&chunk, 1, chunk.count, file)
        if count == 0 { break }
        bytes.append(contentsOf: chunk[0..<count])
    }
    return bytes
}

/// A line on stderr (fd 2 directly: the C `stderr` stream is not concurrency-safe in Swift 6).
private func say(_ text: String) {
    var bytes = Array(text.utf8)
    _ = bytes.withUnsafeMutableBytes { write(2, $0.baseAddress, $0.count) }
}
