#if canImport(Glibc)
import Glibc
#endif

/// Small questions about the file system, asked the same way by the wallet, the agent and the
/// command line.
package enum Files {
    /// The names in `folder` (not `.` and `..`), in the order the system lists them; empty when
    /// it cannot be read.
    package static func names(in folder: String) -> [String] {
        guard let directory = opendir(folder) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }

    /// What the symbolic link at `path` points to, or nil.
    package static func linkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The running binary, as the kernel knows it. When an upgrade replaced it under a running
    /// process, the kernel adds " (deleted)": the new binary is at the same path.
    package static func currentExecutable() -> String? {
        guard let path = linkTarget("/proc/self/exe") else { return nil }
        return path.hasSuffix(" (deleted)") ? String(path.dropLast(" (deleted)".count)) : path
    }

    /// `seconds` since the epoch written with strftime's `format`, in UTC or local time.
    package static func timeText(_ seconds: Int, format: String, utc: Bool) -> String {
        var time = time_t(seconds)
        var parts = tm()
        if utc { gmtime_r(&time, &parts) } else { localtime_r(&time, &parts) }
        var buffer = [CChar](repeating: 0, count: 64)
        let length = strftime(&buffer, buffer.count, format, &parts)
        return String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
