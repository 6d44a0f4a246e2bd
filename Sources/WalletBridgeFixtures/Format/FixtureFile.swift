#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import WalletBridge

/// One fixture file (docs/fixtures.md): a description and its cases,
/// checked as it is read so that a mistake in the file is reported as one, naming the file and
/// the case, rather than as a host that fails every case.
public struct FixtureFile: Sendable {
    /// The path it was read from.
    public let path: String
    /// What the file covers, in words.
    public let description: String?
    /// `env`: variables for every case of the file, setup cases too (each case's `environment`
    /// already holds them, under its own).
    public let environment: [String: String]
    /// `setup`: cases run before the file's cases, in order, once per run of the file; each
    /// must pass, and none is reported as a case of its own. Possibly empty.
    public let setup: [FixtureCase]
    /// Never empty; names unique, setup cases' included.
    public let cases: [FixtureCase]

    /// In an `env` value, the file's temporary folder: created fresh for each run of the file,
    /// removed after it (docs/fixtures.md, "State").
    public static let temporaryFolderPlaceholder = "{tmpdir}"

    /// The file's name without its folder: the `file` in `file#case`.
    public var name: String { Self.fileName(path) }

    /// Reads and checks one file.
    public static func load(_ path: String) throws(FixtureFormatError) -> FixtureFile {
        let name = fileName(path)
        guard let data = FileManager.default.contents(atPath: path) else {
            throw FixtureFormatError(
                file: path, problem: FileManager.default.fileExists(atPath: path) ? "cannot be read" : "no such file")
        }
        let bytes = Array(data)
        let document: JSONValue
        do {
            // Deeper than a host accepts (128): parse.json sends a request nested past that limit.
            document = try JSONParser.parse(bytes, maxDepth: 512)
        } catch {
            throw FixtureFormatError(
                file: path, problem: "not JSON: \(error.reason) at \(Self.lineAndColumn(of: error.offset, in: bytes))")
        }
        return try parse(document, path: path, fileName: name)
    }

    /// `path` itself when it is a file; for a folder, every `*.json` file in it except a
    /// README, in name order. A folder without one is an error: a run that checks nothing
    /// must not pass.
    public static func loadAll(_ path: String) throws(FixtureFormatError) -> [FixtureFile] {
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else { return [try load(path)] }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: path)
        } catch {
            throw FixtureFormatError(file: path, problem: "the folder cannot be read")
        }
        let files = names.filter { $0.hasSuffix(".json") && !$0.lowercased().hasPrefix("readme") }.sorted()
        guard !files.isEmpty else {
            throw FixtureFormatError(file: path, problem: "the folder holds no *.json fixture file")
        }
        var loaded: [FixtureFile] = []
        for file in files { loaded.append(try load(path.hasSuffix("/") ? path + file : path + "/" + file)) }
        return loaded
    }

    /// Checks a parsed document. `path` is for messages; `fileName` names the cases.
    public static func parse(_ document: JSONValue, path: String, fileName: String) throws(FixtureFormatError)
        -> FixtureFile
    {
        guard case .object(let members) = document else {
            throw FixtureFormatError(
                file: path, problem: "the file must hold an object with \"cases\", not \(Self.a(document))")
        }
        if let unknown = members.keys.sorted().first(where: { !Self.members.contains($0) }) {
            throw FixtureFormatError(
                file: path,
                problem: "unknown member \"\(unknown)\" (a file has \"description\", \"env\", \"setup\" and \"cases\")")
        }
        let description: String?
        switch members["description"] {
        case nil: description = nil
        case .string(let text)?: description = text
        case let other?:
            throw FixtureFormatError(file: path, problem: "\"description\" must be a string, not \(Self.a(other))")
        }
        guard let entries = members["cases"] else { throw FixtureFormatError(file: path, problem: "no \"cases\"") }
        guard case .array(let list) = entries else {
            throw FixtureFormatError(file: path, problem: "\"cases\" must be an array, not \(Self.a(entries))")
        }
        guard !list.isEmpty else { throw FixtureFormatError(file: path, problem: "\"cases\" is empty") }
        var environment: [String: String] = [:]
        if let env = members["env"] {
            switch FixtureCase.environment(env) {
            case .success(let variables): environment = variables
            case .failure(let problem): throw FixtureFormatError(file: path, problem: problem.text)
            }
        }
        var setupEntries: [JSONValue] = []
        switch members["setup"] {
        case nil: break
        case .array(let entries)?: setupEntries = entries
        case let other?:
            throw FixtureFormatError(file: path, problem: "\"setup\" must be an array of cases, not \(Self.a(other))")
        }
        var seen: Set<String> = []
        func read(_ entries: [JSONValue], setup: [FixtureCase]?) throws(FixtureFormatError) -> [FixtureCase] {
            var read: [FixtureCase] = []
            for (index, entry) in entries.enumerated() {
                let fixture = try FixtureCase(
                    entry, index: index, path: path, fileName: fileName, fileEnvironment: environment, setup: setup)
                guard seen.insert(fixture.name).inserted else {
                    throw FixtureFormatError(
                        file: path, caseName: fixture.name,
                        problem: "a second case with this name (names are unique within a file, setup cases' included)")
                }
                read.append(fixture)
            }
            return read
        }
        let setup = try read(setupEntries, setup: nil)
        let cases = try read(list, setup: setup)
        return FixtureFile(path: path, description: description, environment: environment, setup: setup, cases: cases)
    }

    static let members: Set<String> = ["description", "env", "setup", "cases"]

    /// The last component of a path.
    static func fileName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    /// "an array", "a string": a value's type for messages.
    static func a(_ value: JSONValue) -> String {
        switch value {
        case .array, .object: "an \(value.typeName)"
        case .null: "null"
        default: "a \(value.typeName)"
        }
    }

    /// Where a parse error is, as an editor shows it.
    static func lineAndColumn(of offset: Int, in bytes: [UInt8]) -> String {
        let before = bytes.prefix(offset)
        let line = before.count { $0 == UInt8(ascii: "\n") } + 1
        let column = before.count - (before.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0) + 1
        return "line \(line), column \(column)"
    }
}

/// One case of a fixture file: what to send, and what the host must answer.
public struct FixtureCase: Sendable, Hashable {
    /// What the runner writes to the host.
    public enum Input: Sendable, Hashable {
        /// `request`: a JSON value, sent compactly as one frame.
        case request(JSONValue)
        /// `request_text`: the frame body as exact text.
        case text(String)
        /// `request_base64`: the frame body as bytes.
        case bytes([UInt8])
        /// `stream_base64`: raw bytes for stdin, frame headers included.
        case stream([UInt8])

        /// The frame body, for the inputs that are one frame.
        public var frameBody: [UInt8]? {
            switch self {
            case .request(let value): value.jsonBytes
            case .text(let text): Array(text.utf8)
            case .bytes(let bytes): bytes
            case .stream: nil
            }
        }

        /// The request as JSON, when it is JSON: for the schema checks.
        public var json: JSONValue? {
            switch self {
            case .request(let value): value
            case .text(let text): try? JSONParser.parse(Array(text.utf8), maxDepth: 512)
            case .bytes, .stream: nil
            }
        }
    }

    /// The file's name (no folder), for `id`.
    public let file: String
    /// Unique within its file.
    public let name: String
    /// The rule the case checks, in words.
    public let rule: String?
    /// `args`: the host's argv after argv[0]; nil leaves the runner's default.
    public let arguments: [String]?
    /// `env`: variables added to the host's environment, the file's and the case's own (which
    /// wins); `{tmpdir}` in a value is left for the runner to replace (`environment(temporaryFolder:)`).
    public let environment: [String: String]
    /// Exactly one of `request`, `request_text`, `request_base64`, `stream_base64`.
    public let input: Input
    /// `response`: the reply; `.null` means no reply at all.
    public let response: JSONValue
    /// `response_text_includes`: text that must appear verbatim in the raw reply.
    public let responseTextIncludes: [String]
    /// `exit_code`: the status the host must exit with after the input; nil: it keeps serving.
    public let exitCode: Int32?
    /// Whether this is one of its file's `setup` cases.
    public let isSetup: Bool
    /// For a case, its file's setup cases, which run before it (once per run of the file);
    /// empty for a setup case.
    public let setup: [FixtureCase]

    /// Whether an `env` value holds `{tmpdir}`, so that the case needs its file's folder.
    public var usesTemporaryFolder: Bool {
        environment.values.contains { $0.contains(FixtureFile.temporaryFolderPlaceholder) }
    }

    /// `environment` with `{tmpdir}` replaced by `folder`.
    public func environment(temporaryFolder folder: String?) -> [String: String] {
        guard let folder else { return environment }
        return environment.mapValues { $0.replacing(FixtureFile.temporaryFolderPlaceholder, with: folder) }
    }

    /// `file#case`: how reports and test names call it.
    public var id: String { "\(file)#\(name)" }

    static let members: Set<String> = [
        "name", "rule", "args", "env", "request", "request_text", "request_base64", "stream_base64",
        "response", "response_text_includes", "exit_code",
    ]

    /// Why `env` (a file's or a case's) is not an object of variables, in `.failure`.
    static func environment(_ env: JSONValue) -> Result<[String: String], Problem> {
        guard case .object(let variables) = env else {
            return .failure(Problem("\"env\" must be an object of strings, not \(FixtureFile.a(env))"))
        }
        var environment: [String: String] = [:]
        for key in variables.keys.sorted() {
            guard case .string(let text)? = variables[key] else {
                return .failure(
                    Problem("\"env\".\(key) must be a string, not \(FixtureFile.a(variables[key] ?? .null))"))
            }
            guard !key.isEmpty, !key.contains("="), !key.contains("\0") else {
                return .failure(
                    Problem(
                        "\"env\" has \(JSONValue.string(key).compactText), which is not a variable name (non-empty, with no \"=\" or NUL)"
                    ))
            }
            guard !text.contains("\0") else {
                return .failure(Problem("\"env\".\(key) holds a NUL character, which no environment variable can"))
            }
            environment[key] = text
        }
        return .success(environment)
    }

    struct Problem: Error {
        let text: String
        init(_ text: String) { self.text = text }
    }

    /// What makes `reply` one that no host can send, to follow "response" in a message; nil
    /// when it is a reply. JSON-RPC 2.0, section 5: exactly one of `result` and `error`, and an
    /// error is an object with an integer `code` and a string `message`. A case expecting
    /// anything else could never pass: the file's mistake, not the host's.
    static func replyProblem(_ reply: JSONValue) -> String? {
        guard case .object(let members) = reply else { return nil }
        switch (members["result"], members["error"]) {
        case (nil, nil): return " has neither \"result\" nor \"error\": a reply has exactly one of them"
        case (_?, _?): return " has both \"result\" and \"error\": a reply has exactly one of them"
        case (nil, let error?):
            guard case .object(let fields) = error, fields["code"]?.intValue != nil,
                fields["message"]?.stringValue != nil
            else {
                let shown = error.objectValue == nil ? FixtureFile.a(error) : error.compactText
                return ".error must be an object with an integer \"code\" and a string \"message\", not \(shown)"
            }
            return nil
        case (_?, nil): return nil
        }
    }

    /// `setup` nil reads a setup case; otherwise a case, with its file's setup cases.
    init(
        _ entry: JSONValue, index: Int, path: String, fileName: String, fileEnvironment: [String: String] = [:],
        setup: [FixtureCase]? = []
    ) throws(FixtureFormatError) {
        let position = "\(setup == nil ? "setup case" : "case") \(index + 1)"
        guard case .object(let members) = entry else {
            throw FixtureFormatError(
                file: path, caseName: position, problem: "a case must be an object, not \(FixtureFile.a(entry))")
        }
        guard case .string(let name)? = members["name"], !name.isEmpty else {
            throw FixtureFormatError(file: path, caseName: position, problem: "\"name\" must be a non-empty string")
        }
        func failure(_ problem: String) -> FixtureFormatError {
            FixtureFormatError(file: path, caseName: name, problem: problem)
        }
        func strings(_ key: String) throws(FixtureFormatError) -> [String]? {
            guard let value = members[key] else { return nil }
            let texts = value.arrayValue?.compactMap(\.stringValue)
            guard let texts, texts.count == value.arrayValue?.count else {
                throw failure("\"\(key)\" must be an array of strings")
            }
            return texts
        }
        func base64(_ key: String) throws(FixtureFormatError) -> [UInt8]? {
            guard let value = members[key] else { return nil }
            guard case .string(let text) = value, let data = Data(base64Encoded: text) else {
                throw failure("\"\(key)\" must be a base64 string")
            }
            return Array(data)
        }

        if let unknown = members.keys.sorted().first(where: { !Self.members.contains($0) }) {
            throw failure(
                "unknown member \"\(unknown)\" (a case has \(Self.members.sorted().map { "\"\($0)\"" }.joined(separator: ", ")))"
            )
        }
        switch members["rule"] {
        case nil: rule = nil
        case .string(let text)?: rule = text
        case let other?: throw failure("\"rule\" must be a string, not \(FixtureFile.a(other))")
        }

        let inputs = ["request", "request_text", "request_base64", "stream_base64"].filter { members[$0] != nil }
        guard inputs.count == 1 else {
            throw failure(
                inputs.isEmpty
                    ? "no input: a case has exactly one of \"request\", \"request_text\", \"request_base64\", \"stream_base64\""
                    : "more than one input (\(inputs.map { "\"\($0)\"" }.joined(separator: ", "))): a case has exactly one"
            )
        }
        if let request = members["request"] {
            input = .request(request)
        } else if let text = members["request_text"] {
            guard case .string(let string) = text else {
                throw failure("\"request_text\" must be a string, not \(FixtureFile.a(text))")
            }
            input = .text(string)
        } else if let bytes = try base64("request_base64") {
            input = .bytes(bytes)
        } else {
            input = .stream(try base64("stream_base64") ?? [])
        }

        guard let response = members["response"] else {
            throw failure("no \"response\" (null, for a case that expects no reply)")
        }
        switch response {
        case .null:
            break
        case .object:
            if let problem = Self.replyProblem(response) { throw failure("\"response\"" + problem) }
        case .array(let replies):
            guard !replies.isEmpty else {
                throw failure(
                    "\"response\" is an empty array: a batch is answered with at least one reply, or with none at all (null)"
                )
            }
            for (index, reply) in replies.enumerated() {
                guard case .object = reply else {
                    throw failure("\"response\"[\(index)] must be a reply object, not \(FixtureFile.a(reply))")
                }
                if let problem = Self.replyProblem(reply) { throw failure("\"response\"[\(index)]" + problem) }
            }
        default:
            throw failure(
                "\"response\" must be a reply object, a batch's array or null, not \(FixtureFile.a(response))")
        }
        self.response = response
        responseTextIncludes = try strings("response_text_includes") ?? []
        arguments = try strings("args")

        // The file's variables, the case's own over them.
        var environment = fileEnvironment
        if let env = members["env"] {
            switch Self.environment(env) {
            case .success(let variables): environment.merge(variables) { $1 }
            case .failure(let problem): throw failure(problem.text)
            }
        }
        self.environment = environment

        if let status = members["exit_code"] {
            guard let code = status.intValue, (0...255).contains(code) else {
                throw failure("\"exit_code\" must be an integer from 0 to 255, not \(status.compactText)")
            }
            exitCode = Int32(code)
        } else {
            exitCode = nil
        }
        self.file = fileName
        self.name = name
        self.isSetup = setup == nil
        self.setup = setup ?? []
    }
}

/// Why a fixture file cannot be used, naming the file and, when it is one case's fault, the case.
public struct FixtureFormatError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file's path.
    public let file: String
    /// The case's name, or `case N` when it has no usable name.
    public let caseName: String?
    public let problem: String

    public init(file: String, caseName: String? = nil, problem: String) {
        (self.file, self.caseName, self.problem) = (file, caseName, problem)
    }

    public var description: String {
        "\(file)\(caseName.map { "#\($0)" } ?? ""): \(problem)"
    }
}
