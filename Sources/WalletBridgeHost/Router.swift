import Synchronization
import WalletBridgeProtocol
import WalletBridgeSystem

public enum RouterError: Error, Sendable, Equatable, CustomStringConvertible {
    case duplicateMethod(String)
    case reservedName(String)

    public var description: String {
        switch self {
        case .duplicateMethod(let name): "method \"\(name)\" is already registered"
        case .reservedName(let name): "method names beginning with \"rpc.\" are reserved by JSON-RPC: \"\(name)\""
        }
    }
}

/// Where a handler starts running.
public enum Execution: Sendable, Hashable {
    /// On Swift's concurrency pool, while the host goes on reading requests. The default: a
    /// slow handler never holds up the others.
    case concurrent
    /// On the thread that reads requests, until the handler first suspends (then it continues
    /// on the pool). Only for handlers that answer in microseconds without blocking, such as a
    /// lookup: it saves the hop to the pool, which is a large part of a `sendNativeMessage` call,
    /// but the next request waits until the handler returns or suspends.
    case immediate
}

/// Maps method names to typed handlers. Built before serving, then shared read-only.
///
/// A registration records what `rpc.discover` and the server need before a call: the method's
/// name, where it starts, whether it asks the person and how to describe it. A handler registered
/// with `makingHandler` is made on its method's first call, so a host started for one call makes
/// only the handler of the method it is called for.
public struct Router: Sendable {
    /// A handler after type erasure: raw params in, the whole success response for the
    /// request's id out (nil for a notification, whose result goes nowhere and so is never
    /// encoded).
    typealias ErasedHandler =
        nonisolated(nonsending) @Sendable (JSONValue?, RequestID?, RequestContext) async throws -> [UInt8]?
    /// The same for a handler that never suspends.
    typealias SynchronousHandler = @Sendable (JSONValue?, RequestID?, RequestContext) throws -> [UInt8]?
    /// The same for the quick half of a handler with a fallback: the response, or `.deferred`.
    typealias QuickHandler = @Sendable (JSONValue?, RequestID?, RequestContext) throws -> ImmediateAnswer

    /// A registered method: its handler and where it starts. One link of the router's list of
    /// methods (`routes`), shared by the router's copies.
    final class Route: Sendable {
        enum Handler: Sendable {
            case synchronous(SynchronousHandler)
            /// A quick half that answers without suspending when it can, and returns `.deferred`
            /// when it cannot; the fallback then answers, on the pool.
            case quick(QuickHandler, fallback: ErasedHandler)
            case asynchronous(ErasedHandler)
        }
        /// The handler as registered, or the way to make it on the first call.
        enum Source: Sendable {
            case made(Handler)
            case toMake(@Sendable () -> Handler)
        }
        /// The handler made from `.toMake`: made once, then read without a lock. Two first calls
        /// that race may both make one; the first stored is the one every call uses.
        private final class Made: Sendable {
            let handler: Handler
            init(_ handler: Handler) { self.handler = handler }
        }

        let name: String
        private let source: Source
        private let made = AtomicLazyReference<Made>()
        let execution: Execution
        /// The method may ask the person (`RPCMethod.asksThePerson`).
        let asksThePerson: Bool
        /// The method's OpenRPC object, made only when `rpc.discover` asks: deriving schemas
        /// costs more than a whole cold call.
        let describe: @Sendable () -> JSONValue
        /// The method registered before this one.
        let next: Route?

        init(
            _ name: String, _ source: Source, execution: Execution, asksThePerson: Bool = false,
            describe: @escaping @Sendable () -> JSONValue, next: Route? = nil
        ) {
            (self.name, self.source, self.execution, self.asksThePerson) = (name, source, execution, asksThePerson)
            (self.describe, self.next) = (describe, next)
        }

        /// The method's handler, made now if this is its first call.
        var handler: Handler {
            switch source {
            case .made(let handler): return handler
            case .toMake(let make): return (made.load() ?? made.storeIfNil(Made(make()))).handler
            }
        }

        /// A synchronous handler that runs where the request is read is a plain call: no task
        /// is made for it, so a `sendNativeMessage` call that asks for accounts never starts
        /// Swift's concurrency runtime, whose start a cold call would otherwise pay for.
        var isPlainCall: Bool {
            guard execution == .immediate else { return false }
            switch handler {
            case .synchronous, .quick: return true
            case .asynchronous: return false
            }
        }
    }

    /// What `respondNow` made of a call: the answer, or a deferral to the fallback (a quick
    /// half that cannot answer without suspending, `registerWallet(_: some AccountsUsuallyAtHand)`).
    enum ImmediateAnswer {
        case answered([UInt8]?)
        case deferred
    }

    /// Decides whether the caller may make this call at all; throws the error to answer with.
    public typealias Authorization = @Sendable (RequestContext) throws(RPCError) -> Void

    /// The registered methods, the last registered first. A list, not a dictionary: a host
    /// started for one call looks up one name, and a dictionary's storage (its generic metadata,
    /// its growth, a hash of every name) is work each start would do for every method. A lookup
    /// walks the list, comparing names of the call's length only: made for the tens of methods a
    /// host has, not for thousands.
    private var routes: Route?
    private var authorization: Authorization?
    /// The errors `authorization` throws, made only when `rpc.discover` asks.
    private var authorizationRefusals: @Sendable () -> [RPCError] = { [] }

    /// What `rpc.discover` names the host: its title and version. The executable's name and
    /// "unversioned" unless set (worked out only when asked: a cold call reads no more than it must).
    public var info: OpenRPC.Info {
        get { declaredInfo ?? OpenRPC.Info(title: Self.executableName, version: "unversioned") }
        set { (namedInfo, infoIsNamed) = (newValue, true) }
    }
    /// Not an optional: replacing an `OpenRPC.Info?` had the runtime make its type on every start.
    private var namedInfo = OpenRPC.Info(title: "", version: "")
    private var infoIsNamed = false
    /// `info` as the developer set it, or nil: a host's `--version` prints no made-up one.
    package var declaredInfo: OpenRPC.Info? { infoIsNamed ? namedInfo : nil }

    /// Something that pushes notifications to the extension: started once, with the function
    /// that sends one, when the host has written its first reply (see `addEventSource`).
    public typealias EventSource = @Sendable (_ notify: @escaping Notify) -> Void
    /// Sends one JSON-RPC notification (a request without an id) to the extension.
    public typealias Notify = @Sendable (_ method: String, _ params: JSONValue) -> Void
    /// The sources, the last added first; a list of links rather than an array, whose type the
    /// runtime would make on every start.
    private var eventSources: EventSourceLink?
    final class EventSourceLink: Sendable {
        let start: EventSource
        let next: EventSourceLink?
        init(_ start: @escaping EventSource, next: EventSourceLink?) { (self.start, self.next) = (start, next) }
    }

    var hasEventSources: Bool { eventSources != nil }

    /// Starts every event source, in the order they were added.
    func startEventSources(_ notify: @escaping Notify) {
        func start(from link: EventSourceLink?) {
            guard let link else { return }
            start(from: link.next)
            link.start(notify)
        }
        start(from: eventSources)
    }

    /// Registers `source`, which the server starts after its first reply (`Server.eventQuietPeriod`
    /// after it, if the browser has not closed the host's input by then). Not before: a host
    /// started by `runtime.sendNativeMessage` answers one message, and the browser takes the
    /// first message it writes as that answer, so a notification written first would be taken
    /// for the reply; and such a host is ended right after its reply, so it never starts them.
    /// On a port (`runtime.connectNative`), events then flow for as long as the port stays open.
    public mutating func addEventSource(_ source: @escaping EventSource) {
        eventSources = EventSourceLink(source, next: eventSources)
    }

    public init() {}

    /// Installs a check that runs before every call, whether or not a handler is registered
    /// for its method, so a policy covers custom methods too and a refused caller cannot probe
    /// which methods exist. One check per router: installing a second replaces the first.
    /// `refusals` are the errors the check throws; `rpc.discover` lists them for every method.
    public mutating func authorize(refusals: [RPCError], with check: @escaping Authorization) {
        authorization = check
        authorizationRefusals = { refusals }
    }

    /// `authorize(refusals:with:)` for a check that refuses with `authorizationFailed`. That list
    /// is made only when `rpc.discover` asks: a call pays for the check alone.
    public mutating func authorize(with check: @escaping Authorization) {
        authorization = check
        authorizationRefusals = { [RPCError(.authorizationFailed)] }
    }

    /// Every registered route, the last registered first.
    private var allRoutes: [Route] {
        var all: [Route] = []
        var next = routes
        while let route = next {
            all.append(route)
            next = route.next
        }
        return all
    }

    public var methodNames: [String] { allRoutes.map(\.name).sorted() }

    /// Each registered method's name and `summary`, in name order (a host's `--help`).
    package var methodSummaries: [(name: String, summary: String?)] {
        allRoutes.sorted { $0.name < $1.name }.map { route in
            (route.name, route.describe().objectValue?["summary"]?.stringValue)
        }
    }

    /// Registers `handler` for `method`. A name registered twice is a programmer error and
    /// throws rather than silently replacing the first handler. Leave `execution` alone unless
    /// the handler is a quick lookup (see `Execution.immediate`).
    public mutating func register<M: RPCMethod>(
        _ method: M.Type,
        execution: Execution = .concurrent,
        handler: @escaping @Sendable (M.Params, RequestContext) async throws -> M.Result
    ) throws(RouterError) {
        try add(M.self, .made(Self.erase(M.self, handler)), execution: execution)
    }

    /// `register(_:execution:handler:)` with the handler made by `make` on the method's first
    /// call, with whatever it needs: a process that never calls the method never makes it.
    package mutating func register<M: RPCMethod>(
        _ method: M.Type,
        execution: Execution = .concurrent,
        makingHandler make: @escaping @Sendable () -> @Sendable (M.Params, RequestContext) async throws -> M.Result
    ) throws(RouterError) {
        try add(M.self, .toMake { Self.erase(M.self, make()) }, execution: execution)
    }

    private static func erase<M: RPCMethod>(
        _ method: M.Type, _ handler: @escaping @Sendable (M.Params, RequestContext) async throws -> M.Result
    ) -> Route.Handler {
        .asynchronous { rawParams, id, context in
            let params = try ParamsDecoding.decode(M.Params.self, from: rawParams)
            return try Self.success(id: id, result: try await handler(params, context))
        }
    }

    /// Registers a handler that never suspends. With `.immediate` it runs as a plain call on the
    /// thread that reads requests, which is the cheapest way to answer; with `.concurrent` it
    /// runs on the pool like any other.
    public mutating func register<M: RPCMethod>(
        _ method: M.Type,
        execution: Execution = .concurrent,
        handler: @escaping @Sendable (M.Params, RequestContext) throws -> M.Result
    ) throws(RouterError) {
        try add(
            M.self,
            .made(
                .synchronous { rawParams, id, context in
                    let params = try ParamsDecoding.decode(M.Params.self, from: rawParams)
                    return try Self.success(id: id, result: try handler(params, context))
                }), execution: execution)
    }

    /// Registers `handler` for `M`, described as `M`, with the params as they came: for a host
    /// that passes them on to the process that reads them as `M.Params` (the shipped host, to
    /// the agent), so that they are read once, there. The handler is made by `make` on the
    /// method's first call.
    package mutating func registerForwarding<M: RPCMethod>(
        _ method: M.Type,
        makingHandler make: @escaping @Sendable () -> @Sendable (JSONValue?, RequestContext) async throws -> JSONValue
    ) throws(RouterError) {
        try add(
            M.self,
            .toMake {
                let handler = make()
                return .asynchronous { rawParams, id, context in
                    try Self.success(id: id, result: try await handler(rawParams, context))
                }
            }, execution: .concurrent)
    }

    private mutating func add<M: RPCMethod>(_ method: M.Type, _ source: Route.Source, execution: Execution)
        throws(RouterError)
    {
        let name = M.name
        guard !name.hasPrefix("rpc.") else { throw .reservedName(name) }
        // Bound, not compared with nil: that comparison is generic and copied the route through
        // its type's metadata, which the runtime then made on every start.
        if lookUp(name) != nil { throw .duplicateMethod(name) }
        routes = Route(
            name, source, execution: execution, asksThePerson: M.asksThePerson, describe: { OpenRPC.method(M.self) },
            next: routes)
    }

    /// The route registered as `name`, if any. Names of another length are passed over on
    /// their length alone.
    private func lookUp(_ name: String) -> Route? {
        let length = name.utf8.count
        var next = routes
        while let route = next {
            if route.name.utf8.count == length, route.name == name { return route }
            next = route.next
        }
        return nil
    }

    /// The success response for `id`, or nil for a notification. The result is encoded straight
    /// after the response's opening, not copied into it afterwards: a signed batch is a megabyte.
    private static func success(id: RequestID?, result: some Encodable) throws -> [UInt8]? {
        guard let id else { return nil }
        return try Response.success(id: id) { out in try ResultEncoder.encode(result, into: &out) }
    }

    /// Registers GetAccounts and SignPayloads, answered by `wallet`. SignPayloads always runs
    /// on the pool; GetAccounts where the wallet says (`WalletBackend.getAccountsExecution`).
    public mutating func registerWallet(_ wallet: some WalletBackend) throws(RouterError) {
        try register(GetAccounts.self, execution: wallet.getAccountsExecution) { _, context in
            try await wallet.getAccounts(context: context)
        }
        try registerSignPayloads(wallet)
    }

    /// `registerWallet` for a wallet that has its accounts at hand: GetAccounts is a plain call
    /// when the wallet says `.immediate`.
    public mutating func registerWallet(_ wallet: some AccountsAtHand) throws(RouterError) {
        try add(
            GetAccounts.self,
            .made(
                .synchronous { rawParams, id, context in
                    _ = try ParamsDecoding.decode(NoParams.self, from: rawParams)
                    return try Self.success(id: id, result: try wallet.accountsAtHand(context: context))
                }), execution: wallet.getAccountsExecution)
        try registerSignPayloads(wallet)
    }

    /// `registerWallet` for a wallet whose accounts are usually at hand: GetAccounts is a plain
    /// call when the wallet says `.immediate`, and when `accountsAtHand` says `.askOffThread` the
    /// call is answered by `getAccounts` on the pool instead (the wallet must ask first).
    public mutating func registerWallet(_ wallet: some AccountsUsuallyAtHand) throws(RouterError) {
        try add(
            GetAccounts.self,
            .made(
                .quick(
                    { rawParams, id, context in
                        _ = try ParamsDecoding.decode(NoParams.self, from: rawParams)
                        switch try wallet.accountsAtHand(context: context) {
                        case .answer(let accounts): return .answered(try Self.success(id: id, result: accounts))
                        case .askOffThread: return .deferred
                        }
                    },
                    fallback: { rawParams, id, context in
                        _ = try ParamsDecoding.decode(NoParams.self, from: rawParams)
                        return try Self.success(id: id, result: try await wallet.getAccounts(context: context))
                    })), execution: wallet.getAccountsExecution)
        try registerSignPayloads(wallet)
    }

    private mutating func registerSignPayloads(_ wallet: some WalletBackend) throws(RouterError) {
        try register(
            SignPayloads.self,
            makingHandler: {
                { params, context in
                    try Self.refuseUselessSigning(params, context: context)
                    return try await wallet.signPayloads(params, context: context)
                }
            })
    }

    /// Refuses, before the wallet asks anyone, a signature nobody could receive: one whose reply
    /// is bound to be over the size the browsers accept. Approving it would be consent thrown
    /// away. (A SignPayloads sent as a notification never gets here: `ignoresNotification`
    /// turns away every method that asks the person.)
    static func refuseUselessSigning(_ params: SignPayloadsParams, context: RequestContext) throws(RPCError) {
        let id = context.requestID ?? .null
        let bytes = SignPayloadsResult.replyBytes(id: id, payloads: params.payloads)
        guard bytes <= context.maxReplyBytes else {
            Log.warning(
                "\(SignPayloads.name) refused before asking: its reply would be \(bytes) bytes, over the \(context.maxReplyBytes) browsers accept"
            )
            throw .responseTooLarge(bytes: bytes, limit: context.maxReplyBytes)
        }
    }

    /// The registered method called `name`, if any; `rpc.discover` is every router's own.
    func route(named name: String) -> Route? {
        if let route = lookUp(name) { return route }
        guard name == OpenRPC.discoverMethod else { return nil }
        return Route(
            name,
            .made(
                .synchronous { [self] rawParams, id, _ in
                    _ = try ParamsDecoding.decode(NoParams.self, from: rawParams)
                    return try Self.success(id: id, result: openRPCDocument)
                }), execution: .concurrent, describe: { [:] })
    }

    /// The OpenRPC document that `rpc.discover` answers: every registered method, with the
    /// JSON Schemas of its params and result and its errors (see `OpenRPC`).
    public var openRPCDocument: JSONValue {
        let refusals = authorizationRefusals()
        return OpenRPC.document(info: info, methods: allRoutes.map { OpenRPC.adding(refusals, to: $0.describe()) })
    }

    /// The name the host was started by, for `info.title`.
    static var executableName: String {
        let path = CommandLine.arguments.first ?? "host"
        return path.split(separator: "/").last.map(String.init) ?? path
    }

    /// Runs the request's handler and returns the response body, or nil for a notification.
    public func respond(to request: Request, context: RequestContext) async -> [UInt8]? {
        await respond(to: request, via: route(named: request.method), context: context, skippingQuickHalf: false)
    }

    /// `respond(to:context:)` with the method already looked up, so the server that chose
    /// where to run the call does not look it up twice.
    /// `skippingQuickHalf`: the server already ran a quick handler's synchronous half, which
    /// deferred; only its fallback runs.
    nonisolated(nonsending) func respond(
        to request: Request, via route: Route?, context: RequestContext, skippingQuickHalf: Bool
    ) async -> [UInt8]? {
        if Self.ignoresNotification(request, via: route) { return nil }
        if let refusal = refusal(of: context) { return failure(refusal, answering: request) }
        let handler: ErasedHandler
        switch route?.handler {
        case .asynchronous(let asynchronous)?:
            handler = asynchronous
        case .quick(_, let fallback)?:
            if !skippingQuickHalf,
                case .answered(let body) = answerWithoutSuspending(request, via: route, context: context)
            {
                return body
            }
            handler = fallback
        default:
            guard case .answered(let body) = answerWithoutSuspending(request, via: route, context: context) else {
                return nil
            }
            return body
        }
        do {
            return try await handler(request.params, request.id, context)
        } catch {
            return failure(error, answering: request)
        }
    }

    /// True for a notification (no `id`) of a method that may ask the person: it is not run
    /// at all. Its answer could not be returned, and nobody is asked for an answer that goes
    /// nowhere (a signature, a session nobody hears of). Every other notification runs.
    static func ignoresNotification(_ request: Request, via route: Route?) -> Bool {
        guard request.id == nil, route?.asksThePerson == true else { return false }
        Log.warning(
            "\(request.method) sent as a notification (no id) is ignored: it asks the person, and the answer could not be returned, so nobody is asked"
        )
        return true
    }

    /// The answer when no handler needs to suspend: a refused caller, an unknown method or a
    /// synchronous handler (`Route.isPlainCall`).
    func respondNow(to request: Request, via route: Route?, context: RequestContext) -> ImmediateAnswer {
        if Self.ignoresNotification(request, via: route) { return .answered(nil) }
        if let refusal = refusal(of: context) { return .answered(failure(refusal, answering: request)) }
        return answerWithoutSuspending(request, via: route, context: context)
    }

    private func answerWithoutSuspending(_ request: Request, via route: Route?, context: RequestContext)
        -> ImmediateAnswer
    {
        switch route?.handler {
        case .synchronous(let handler)?:
            do {
                return .answered(try handler(request.params, request.id, context))
            } catch {
                return .answered(failure(error, answering: request))
            }
        case .quick(let handler, _)?:
            do {
                return try handler(request.params, request.id, context)
            } catch {
                return .answered(failure(error, answering: request))
            }
        case .asynchronous?:
            preconditionFailure("an asynchronous handler cannot answer without suspending")
        case nil:
            return .answered(
                failure(
                    RPCError(.methodNotFound, detail: "no method named \"\(request.method.prefix(128))\""),
                    answering: request))
        }
    }

    /// The error response to `request` for what a handler threw, or nil for a notification.
    private func failure(_ error: any Error, answering request: Request) -> [UInt8]? {
        let rpcError: RPCError
        switch error {
        case let error as RPCError:
            rpcError = error
        case is CancellationError:
            rpcError = RPCError(.requestCancelled)
        default:
            // The detail may hold anything (paths, key material in a careless message), so
            // only the error's type reaches the log, and nothing reaches the wire.
            Log.error("\(request.method) failed with \(String(reflecting: type(of: error)))")
            rpcError = RPCError(.internalError)
        }
        return request.id.map { Response.failure(id: $0, error: rpcError) }
    }

    private func refusal(of context: RequestContext) -> RPCError? {
        guard let authorization else { return nil }
        do throws(RPCError) {
            try authorization(context)
            return nil
        } catch {
            return error
        }
    }
}

/// Params arrive as a `JSONValue`; a method wants its own `Decodable` type.
enum ParamsDecoding {
    static func decode<P: Decodable>(_ type: P.Type, from raw: JSONValue?) throws -> P {
        if P.self == NoParams.self {
            // Fast path for the common no-params call (GetAccounts on every cold start).
            switch raw {
            case nil, .object([:])?, .array([])?: return NoParams() as! P
            default: throw RPCError(.invalidParams, data: problem("this method takes no parameters", at: []))
            }
        }
        let value: JSONValue
        if let raw {
            value = raw
        } else if let optional = P.self as? any OptionalDecodable.Type {
            // `Params = Inner?`: "params may be left out", and left out they are.
            return optional.absent as! P
        } else {
            // A missing `params` decodes like `{}`, so a struct whose fields are all optional works.
            value = .object([:])
        }
        do {
            return try JSONValueDecoder().decodeParams(P.self, from: value)
        } catch let error as DecodingError {
            throw RPCError(.invalidParams, data: describe(error))
        }
    }

    /// Which field was wrong and what was expected, without echoing the value itself. The
    /// wording is ours, never a `DecodingError`'s own text (the standard library's English,
    /// which may quote the value): only a `paramsProblem` says its words, so the fixtures that
    /// pin them hold across toolchains.
    static func describe(_ error: DecodingError) -> JSONValue {
        switch error {
        case .typeMismatch(let type, let context):
            return problem("expected \(typeName(type))", at: context.codingPath)
        case .valueNotFound(let type, let context):
            return problem("expected \(typeName(type)), found null or nothing", at: context.codingPath)
        case .keyNotFound(let key, let context):
            return problem("required field is missing", at: context.codingPath + [key])
        case .dataCorrupted(let context) where context.underlyingError is ParamsProblem:
            return problem(context.debugDescription, at: context.codingPath)
        case .dataCorrupted(let context):
            // The standard library's or Foundation's text ("Cannot initialize Mode from invalid
            // String value admin", "Attempted to decode UUID from invalid UUID string."), or a
            // hand-written decoder's that did not say it was for the reply: not ours to send.
            return problem(
                context.codingPath.isEmpty ? "not params this method accepts" : "not a value this field accepts",
                at: context.codingPath)
        @unknown default:
            return problem("params do not match the method's parameters", at: [])
        }
    }

    /// `{"field": "payloads[1]", "problem": "…"}`; `field` is left out for the params as a whole.
    static func problem(_ text: String, at codingPath: [any CodingKey]) -> JSONValue {
        var field = ""
        for key in codingPath {
            if let index = key.intValue {
                field += "[\(index)]"
            } else {
                field += field.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        var members: [String: JSONValue] = ["problem": .string(text)]
        if !field.isEmpty { members["field"] = .string(field) }
        return .object(members)
    }

    /// JSON's names for the Swift types params usually hold, so a JS developer reads
    /// "expected string", not "expected String".
    static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type, is Character.Type: "string"
        case is Bool.Type: "boolean"
        case is any BinaryInteger.Type: "integer"
        case is any BinaryFloatingPoint.Type: "number"
        default:
            String(describing: type).hasPrefix("Array<") ? "array" : "object"
        }
    }
}
