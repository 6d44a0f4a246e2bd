#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc

/// The folder `{tmpdir}` names in a fixture file's `env` values (docs/fixtures.md, "State"):
/// made fresh for one run of one file, private to the user (mkdtemp: 0700), under `$TMPDIR`
/// (`/tmp` without it), and removed with everything in it once the file's cases have run. Its
/// path is absolute: a relative `$TMPDIR` is taken from the current folder, since the host runs
/// in a folder of its own, where the relative path would name something else.
final class TemporaryFolder {
    let path: String

    /// Makes one; throws a message saying why it could not.
    init() throws(FixtureRunFailure) {
        var parent = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        if !parent.hasPrefix("/") {
            guard let cwd = getcwd(nil, 0) else {
                let reason = String(cString: strerror(errno))
                throw FixtureRunFailure(
                    description:
                        "the temporary folder for {tmpdir} could not be made in \(parent): $TMPDIR is relative, and the current folder is unknown (\(reason))"
                )
            }
            defer { free(cwd) }
            let folder = String(cString: cwd)
            parent = parent == "." ? folder : (folder == "/" ? "" : folder) + "/" + parent
        }
        while parent.count > 1, parent.hasSuffix("/") { parent.removeLast() }
        var template = Array((parent + "/wallet-bridge-fixture.XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else {
            let reason = String(cString: strerror(errno))
            throw FixtureRunFailure(
                description: "the temporary folder for {tmpdir} could not be made in \(parent) (\(reason))")
        }
        path = String(cString: made)
    }

    /// Removes it and all it holds; a message when that failed, for the run's warnings.
    func remove() -> String? {
        do {
            try FileManager.default.removeItem(atPath: path)
            return nil
        } catch {
            return "the temporary folder \(path) ({tmpdir}) could not be removed: \(error)"
        }
    }
}

/// Why a fixture run could not do what a file asks for: no temporary folder, say.
struct FixtureRunFailure: Error, CustomStringConvertible {
    let description: String
}
