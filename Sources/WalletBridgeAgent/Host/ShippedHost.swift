#if canImport(Glibc)
import Glibc
#endif
import WalletBridge
import WalletBridgeWallet

/// The router of the shipped `wallet-bridge` binary: the caller policy from the configuration
/// file, and the wallet behind GetAccounts and SignPayloads: the agent (the default), or, with
/// `"agent": false`, the keystore wallet in the host itself, asking for the passphrase on
/// every signature.
///
/// Cheap on purpose (the browser may start a process per message): it reads the small
/// configuration file and nothing else. The agent is reached, or started, when a call needs it.
/// A GetAccounts that an earlier process answered from the files, and whose files have not
/// changed since, is answered before any of this is built (`answerBeforeRouting`).
public enum ShippedHost {
    /// - `arguments`: the host's arguments after argv[0] (the caller, as the browser gave it).
    /// - `browserProcess`: the process that started the host, whose profile names the extension.
    public static func makeRouter(arguments: [String], browserProcess: Int32) throws -> Router {
        // Every file an answer is worked out from is stamped before it is read (`AnswerCache`).
        let answers = AnswerCache.Recorder(answerCache(arguments: arguments)) {
            do throws(AgentPaths.Unsafe) {
                try AgentPaths.prepare(AgentPaths.folder())
                return true
            } catch {
                Log.debug("answer not kept: \(error)")
                return false
            }
        }
        answers.stamp(["/proc/self/exe"] + WalletConfig.filesLookedAt(path: WalletConfig.defaultPath))
        let config = WalletConfig.loadForHost()
        var router = Router()
        router.info = OpenRPC.Info(title: "wallet-bridge", version: WalletBridgeVersion.current)
        guard config.useAgent, let keystorePath = KeystoreLocation.resolve(configured: config.keystore) else {
            try router.installKeystoreWallet(config: config, browserProcess: browserProcess, keepingAnswersWith: answers)
            return router
        }
        answers.stamp([keystorePath, AtomicFile.split(keystorePath).folder, SessionStore.path(forKeystore: keystorePath)])
        let policy = config.policy
        router.authorize { context throws(RPCError) in try policy.check(context) }
        let client = AgentClient(
            keystorePath: keystorePath, agentProgram: Files.currentExecutable(), arguments: arguments, browserProcess: browserProcess)
        let wallet = AgentBackedWallet(client: client, connected: ConnectedAccounts(keystorePath: keystorePath), answers: answers)
        try router.registerWallet(wallet)
        try router.register(SessionService.Connect.self) { params, _ in
            try await wallet.forward(SessionService.Connect.self, params, asksThePerson: true)
        }
        try router.register(SessionService.Request.self) { params, _ in
            try await wallet.forward(SessionService.Request.self, params, asksThePerson: true)
        }
        try router.register(SessionService.List.self) { params, _ in
            try await wallet.forward(SessionService.List.self, params, asksThePerson: false)
        }
        try router.register(SessionService.Extend.self) { params, _ in
            try await wallet.forward(SessionService.Extend.self, params, asksThePerson: false)
        }
        try router.register(SessionService.Disconnect.self) { params, _ in
            try await wallet.forward(SessionService.Disconnect.self, params, asksThePerson: false)
        }
        router.addEventSource { notify in client.listen(deliver: notify) }
        return router
    }

    /// GetAccounts answered from the answer an earlier host kept (`AnswerCache`), before any
    /// router is built; nil for any other request, and when no kept answer holds, for the
    /// router to answer.
    package static func answerBeforeRouting(_ request: Request, arguments: [String]) -> [UInt8]? {
        guard request.method == GetAccounts.name, let id = request.id, takesNothing(request.params) else { return nil }
        do throws(AgentPaths.Unsafe) {
            try AgentPaths.check(AgentPaths.folder(), missingIsFine: false)
        } catch {
            Log.debug("no kept answer used: \(error)")
            return nil
        }
        let cache = answerCache(arguments: arguments)
        guard let result = cache.accounts(now: Int64(time(nil))) else { return nil }
        Log.debug("GetAccounts answered from \(cache.path)")
        return Response.success(id: id) { ResultEncoder.encode(result, into: &$0) }
    }

    private static func answerCache(arguments: [String]) -> AnswerCache {
        AnswerCache(folder: AgentPaths.folder(), key: AnswerCache.key(caller: Caller(arguments: arguments)))
    }

    /// What GetAccounts' `NoParams` accepts: no `params`, `{}` or `[]`.
    private static func takesNothing(_ params: JSONValue?) -> Bool {
        switch params {
        case nil: true
        case .object(let members)?: members.isEmpty
        case .array(let elements)?: elements.isEmpty
        default: false
        }
    }
}
