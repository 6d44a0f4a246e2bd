#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WalletBridge

// A pair of methods with state, the kind a fixture file tests with a folder of its own
// (Fixtures/notes.json, docs/fixtures.md "State"): notes.save appends a note to a file, and
// notes.list lists them. A browser starts a fresh host for every message, so the state is in
// files, never in the process.
//
// Where a real host keeps them: a browser starts the host with the browser's own environment,
// not a shell's, so the folder must come from what every session has. Here that is the XDG
// data folder, `$XDG_DATA_HOME/ping-host`, else `~/.local/share/ping-host` (`$HOME`), as the
// XDG Base Directory specification says; `NOTES_DIR` overrides it, which is how a fixture file
// gives the host a folder of its own (`"env": {"NOTES_DIR": "{tmpdir}/notes"}`) instead of the
// user's notes.

/// The variable that overrides the notes' folder: unset or empty, the default below.
public let notesFolderVariable = "NOTES_DIR"

/// The folder of this host's own under the XDG data folder.
public let notesFolderName = "ping-host"

/// The error both methods answer when there is no usable notes folder: `NOTES_DIR` relative or
/// not a folder that can be made, or no `NOTES_DIR`, `XDG_DATA_HOME` or `HOME` to start from.
/// A code of the host's own, declared in each method's `errors`; `data.variable` names the
/// variable the unusable folder came from.
public let noNotesFolder = RPCError(code: -32051, message: "No notes folder", data: ["variable": "NOTES_DIR"])

func notesFolderError(from variable: String) -> RPCError {
    RPCError(code: noNotesFolder.code, message: noNotesFolder.message, data: ["variable": .string(variable)])
}

/// `{"text": "milk"}`: saves one note; answers how many there are now.
public enum SaveNote: RPCMethod {
    public static let name = "notes.save"
    public static let summary: String? = "Saves a note after the others."
    public static let errors = [noNotesFolder]
    public struct Params: Codable, Sendable { public var text: String }
    public struct Result: Codable, Sendable { public var count: Int }
}

/// No params: every note, in the order saved.
public enum ListNotes: RPCMethod {
    public static let name = "notes.list"
    public static let summary: String? = "Lists the notes in the order saved."
    public static let errors = [noNotesFolder]
    public struct Result: Codable, Sendable { public var notes: [String] }
}

/// The notes file: a JSON array of strings, replaced whole (write, then rename) on every save.
struct NotesFile {
    let path: String

    /// `notes.json` in the notes folder (`folder(in:)`), made if it is not there.
    init(environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        let (folder, variable) = try Self.folder(in: environment)
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw notesFolderError(from: variable)
        }
        path = folder + "/notes.json"
    }

    /// The folder, and the variable it came from: `NOTES_DIR` when set and not empty (it must be
    /// absolute: a browser starts the host in a folder of its choosing), else
    /// `$XDG_DATA_HOME/ping-host`, else `$HOME/.local/share/ping-host`. A relative
    /// `XDG_DATA_HOME` is ignored, as the XDG specification says.
    static func folder(in environment: [String: String]) throws -> (path: String, variable: String) {
        if let folder = environment[notesFolderVariable], !folder.isEmpty {
            guard folder.hasPrefix("/") else { throw notesFolderError(from: notesFolderVariable) }
            return (folder, notesFolderVariable)
        }
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
            return (data + "/" + notesFolderName, "XDG_DATA_HOME")
        }
        guard let home = environment["HOME"], home.hasPrefix("/") else { throw notesFolderError(from: "HOME") }
        return (home + "/.local/share/" + notesFolderName, "HOME")
    }

    func read() throws -> [String] {
        guard let data = FileManager.default.contents(atPath: path) else { return [] }
        do {
            return try JSONDecoder().decode([String].self, from: data)
        } catch {
            throw RPCError(.internalError, detail: "the notes file is not a JSON array of strings")
        }
    }

    func write(_ notes: [String]) throws {
        do {
            try JSONEncoder().encode(notes).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw RPCError(.internalError, detail: "cannot write the notes file")
        }
    }
}

/// Registers notes.save and notes.list.
public func registerNotes(_ router: inout Router) throws {
    try router.register(SaveNote.self) { params, _ in
        let file = try NotesFile()
        let notes = try file.read() + [params.text]
        try file.write(notes)
        return SaveNote.Result(count: notes.count)
    }
    try router.register(ListNotes.self) { _, _ in
        ListNotes.Result(notes: try NotesFile().read())
    }
}
