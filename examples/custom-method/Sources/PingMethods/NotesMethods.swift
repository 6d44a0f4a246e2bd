import Foundation
import WalletBridge

// A pair of methods with state, the kind a fixture file tests with a folder of its own
// (Fixtures/notes.json, docs/fixtures.md "State"): notes.save appends a note to a file, and
// notes.list lists them. A browser starts a fresh host for every message, so the state is in
// files, never in the process: here in `notes.json` in the folder that NOTES_DIR names.

/// The variable that names the notes' folder.
public let notesFolderVariable = "NOTES_DIR"

/// The error both methods answer when NOTES_DIR is unset or empty: a code of the host's own,
/// declared in each method's `errors`.
public let noNotesFolder = RPCError(code: -32051, message: "No notes folder", data: ["variable": "NOTES_DIR"])

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

    /// In the folder NOTES_DIR names, made if it is not there; `noNotesFolder` without one.
    init() throws {
        guard let folder = ProcessInfo.processInfo.environment[notesFolderVariable], !folder.isEmpty else { throw noNotesFolder }
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw RPCError(.internalError, detail: "cannot make the notes folder")
        }
        path = folder + "/notes.json"
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
