#if canImport(Glibc)
import Glibc
#endif
import XCTest

/// A fresh folder of this user's alone (mkdtemp: 0700) under `$TMPDIR` (else /tmp), named
/// `<prefix>-XXXXXX`. The caller removes it (`removeTree`).
package func makeTemporaryFolder(prefix: String) throws -> String {
    let base = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
    var template = Array("\(base.hasSuffix("/") ? String(base.dropLast()) : base)/\(prefix)-XXXXXX".utf8CString)
    let made = template.withUnsafeMutableBufferPointer { buffer in
        mkdtemp(buffer.baseAddress!).map { String(cString: $0) }
    }
    guard let made else { throw TemporaryFolderError(errno: errno) }
    return made
}

package struct TemporaryFolderError: Error, CustomStringConvertible {
    package let errno: Int32
    package var description: String { "mkdtemp failed: \(String(cString: strerror(errno)))" }
}

/// A fresh folder (`makeTemporaryFolder`), removed when `test` ends.
package func temporaryFolder(_ test: XCTestCase, prefix: String = "wallet-tests") -> String {
    let path: String
    do {
        path = try makeTemporaryFolder(prefix: prefix)
    } catch {
        preconditionFailure("\(error)")
    }
    test.addTeardownBlock { _ = try? removeTree(path) }
    return path
}

/// Removes `path` and all under it, making read-only folders writable first; links are removed,
/// never followed.
package func removeTree(_ path: String) throws {
    var info = stat()
    guard lstat(path, &info) == 0 else { return }
    if (info.st_mode & S_IFMT) == S_IFDIR {
        chmod(path, 0o700)
        for name in directoryEntries(path) { try removeTree("\(path)/\(name)") }
        rmdir(path)
    } else {
        unlink(path)
    }
}

/// The names in the folder at `path`, sorted, without `.` and `..`; none when it cannot be read.
package func directoryEntries(_ path: String) -> [String] {
    guard let directory = opendir(path) else { return [] }
    defer { closedir(directory) }
    var names: [String] = []
    while let entry = readdir(directory) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        if name != "." && name != ".." { names.append(name) }
    }
    return names.sorted()
}
