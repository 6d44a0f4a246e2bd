/**
 * The client: builds requests, sends them over a transport, checks the replies. Also the
 * module-level functions with walletlib's names, which use a default client the extension
 * configures once, because the native application's name is the extension's to choose
 * (walletlib on Safari had no name to configure).
 */
import { NativeConfigurationError } from './errors.js';
import { checkGetAccountsResult, checkSignPayloadsParams, checkSignPayloadsResult, NATIVE_GET_ACCOUNTS_METHOD, NATIVE_SIGN_PAYLOADS_METHOD } from './models.js';
import { buildBatch, buildNotification, buildRequest, decodeBatchResponse, decodeResponse, describe, isPlainObject, validateResponse } from './protocol.js';
import {
  SESSION_CONNECT_METHOD,
  SESSION_DISCONNECT_METHOD,
  SESSION_EVENT_NAMES,
  SESSION_EXTEND_METHOD,
  SESSION_LIST_METHOD,
  SESSION_REQUEST_METHOD,
  checkConnectParams,
  checkReason,
  checkSession,
  checkSessionDisconnectResult,
  checkSessionExtendResult,
  checkSessionListResult,
  checkSessionParams,
  checkSessionRequestParams,
  checkSessionRequestResult,
  checkOrigin,
  checkTopic,
  isSessionEventName,
  sessionEventProblem,
  signMessage,
} from './sessions.js';
import { createMessageTransport, createPortTransport } from './transports.js';

/**
 * @typedef {import('./index.js').JsonValue} JsonValue
 * @typedef {import('./index.js').NativeRpcId} NativeRpcId
 * @typedef {import('./index.js').NativeRpcParams} NativeRpcParams
 * @typedef {import('./index.js').NativeClient} NativeClient
 * @typedef {import('./index.js').NativeClientOptions} NativeClientOptions
 * @typedef {import('./index.js').NativeMessagingRuntime} NativeMessagingRuntime
 * @typedef {import('./index.js').NativeRpcResponse} NativeRpcResponse
 * @typedef {import('./index.js').NativeRpcBatchItem} NativeRpcBatchItem
 * @typedef {import('./index.js').NativeRpcBatchEntry} NativeRpcBatchEntry
 * @typedef {import('./index.js').NativeGetAccountsResult} NativeGetAccountsResult
 * @typedef {import('./index.js').NativeSignPayloadsResult} NativeSignPayloadsResult
 * @typedef {import('./index.js').NativeRequestOptions} NativeRequestOptions
 * @typedef {import('./index.js').NativeClientWarning} NativeClientWarning
 * @typedef {import('./index.js').Session} Session
 * @typedef {import('./index.js').SessionConnectParams} SessionConnectParams
 * @typedef {import('./index.js').SessionListResult} SessionListResult
 * @typedef {import('./index.js').SessionExtendResult} SessionExtendResult
 * @typedef {import('./index.js').SessionErrorReason} SessionErrorReason
 * @typedef {import('./index.js').SessionEventName} SessionEventName
 * @typedef {import('./index.js').SignMessageArgs} SignMessageArgs
 * @typedef {import('./transports.js').Transport} Transport
 * @typedef {(params: any) => unknown} AnyEventHandler
 */

/**
 * Default timeouts, in one frozen place. The host answers a request still running after 300 s
 * with "Request timed out" (-32001) by itself; the client waits a little longer so that, when
 * the host is alive, its answer is the one the extension sees. 300 s is long enough for a
 * person to read a passphrase prompt and type.
 */
export const DEFAULT_TIMEOUTS = Object.freeze({
  /** Any request, batch or raw message. */
  requestMs: 310_000,
});

/** The largest delay setTimeout honours; above it the timer fires at once. */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/**
 * Creates a client for one native application.
 * @param {NativeClientOptions} options
 * @returns {NativeClient}
 */
export function createNativeClient(options) {
  if (options === null || typeof options !== 'object') throw new TypeError('createNativeClient needs an options object');
  const { application, transport: transportKind = 'message', timeoutMs = DEFAULT_TIMEOUTS.requestMs, onWarning = () => {} } = options;
  if (typeof application !== 'string' || application === '') {
    throw new TypeError('application must be the native messaging host\'s name, as in its manifest (e.g. "com.example.wallet_bridge")');
  }
  if (transportKind !== 'message' && transportKind !== 'port') throw new TypeError(`transport must be "message" or "port", not ${JSON.stringify(transportKind)}`);
  checkTimeout(timeoutMs);
  if (typeof onWarning !== 'function') throw new TypeError('onWarning must be a function');
  const runtime = options.runtime ?? findRuntime();
  /** @param {NativeClientWarning} warning */
  const warn = (warning) => {
    try {
      onWarning(warning);
    } catch {
      // A faulty hook must not take the client down with it.
    }
  };
  const events = new SessionEvents(application, warn);
  const transport = transportKind === 'port'
    ? createPortTransport({
      runtime,
      application,
      onWarning,
      onNotification: (notification) => events.dispatch(notification),
      hasEventHandlers: () => events.size > 0,
    })
    : createMessageTransport({ runtime, application });
  return new Client(application, transport, timeoutMs, events);
}

/** Why `on` throws on the message transport (docs/sessions.md, Events). */
const MESSAGE_TRANSPORT_HAS_NO_EVENTS = 'the message transport cannot receive events: runtime.sendNativeMessage starts the host for one message and ends it at the reply, '
  + 'so nothing can arrive later. Create the client with transport: "port" (runtime.connectNative) to hear '
  + `${SESSION_EVENT_NAMES.join(', ')}`;

/**
 * The handlers of the four session notifications, and their delivery: each notification's
 * params are checked first (a malformed one is reported, not delivered), then every handler
 * runs in the order added; one that throws or rejects is reported and the others still run.
 */
class SessionEvents {
  /** @type {Map<SessionEventName, Set<AnyEventHandler>>} */
  #handlers = new Map();
  #application;
  #warn;

  /**
   * @param {string} application
   * @param {(warning: NativeClientWarning) => void} warn never throws
   */
  constructor(application, warn) {
    this.#application = application;
    this.#warn = warn;
  }

  /** How many handlers are registered, over all names. */
  get size() {
    let count = 0;
    for (const handlers of this.#handlers.values()) count += handlers.size;
    return count;
  }

  /**
   * A handler added twice is registered once, as with addEventListener.
   * @param {SessionEventName} name
   * @param {AnyEventHandler} handler
   * @returns {() => void} removes it; calling it again does nothing
   */
  add(name, handler) {
    let handlers = this.#handlers.get(name);
    if (!handlers) this.#handlers.set(name, (handlers = new Set()));
    handlers.add(handler);
    return () => this.remove(name, handler);
  }

  /**
   * @param {SessionEventName} name
   * @param {AnyEventHandler} handler
   */
  remove(name, handler) {
    const handlers = this.#handlers.get(name);
    handlers?.delete(handler);
    if (handlers?.size === 0) this.#handlers.delete(name);
  }

  /**
   * @param {{ jsonrpc: '2.0', method: string, params?: unknown }} notification
   */
  dispatch(notification) {
    const { method: name, params } = notification;
    if (!isSessionEventName(name)) {
      this.#warn({ kind: 'unknown-notification', message: `ignored a notification "${name}" from "${this.#application}": not a session event`, reply: notification });
      return;
    }
    const problem = sessionEventProblem(name, params);
    if (problem !== null) {
      this.#warn({ kind: 'invalid-notification', message: `ignored a malformed ${name} from "${this.#application}": ${problem}`, reply: notification });
      return;
    }
    // A copy: a handler that unsubscribes (itself or another) does not change this delivery.
    for (const handler of [...(this.#handlers.get(name) ?? [])]) {
      /** @param {unknown} error */
      const report = (error) => this.#warn({
        kind: 'event-handler-error',
        message: `a ${name} handler failed: ${error instanceof Error ? error.message : String(error)}`,
        reply: notification,
        event: name,
        error,
      });
      try {
        const outcome = handler(params);
        if (outcome !== null && typeof outcome === 'object' && typeof (/** @type {any} */ (outcome).then) === 'function') {
          /** @type {PromiseLike<unknown>} */ (outcome).then(undefined, report);
        }
      } catch (error) {
        report(error);
      }
    }
  }
}

/**
 * @param {unknown} name
 * @param {unknown} handler
 * @param {string} what
 * @returns {asserts name is SessionEventName}
 */
function checkSubscription(name, handler, what) {
  if (!isSessionEventName(name)) {
    throw new TypeError(`${what} takes one of ${SESSION_EVENT_NAMES.map((event) => JSON.stringify(event)).join(', ')}, not ${typeof name === 'string' ? JSON.stringify(name) : describe(name)}`);
  }
  if (typeof handler !== 'function') throw new TypeError(`${what}'s handler must be a function, not ${describe(handler)}`);
}

/**
 * The per-call options of the session methods that take them apart from their params.
 * @param {unknown} options
 * @param {string} what
 * @returns {import('./index.js').SessionSiteOptions}
 */
function callOptions(options, what) {
  if (options === undefined) return {};
  if (!isPlainObject(options)) throw new TypeError(`${what}'s options must be { origin?, id?, timeoutMs? }, not ${describe(options)}`);
  checkOrigin(options.origin, `${what}'s options.origin`);
  return /** @type {import('./index.js').SessionSiteOptions} */ (options);
}

/**
 * The params of a call with the site's origin added when the options name one.
 * @template {Record<string, unknown>} Params
 * @param {Params} params
 * @param {import('./index.js').SessionSiteOptions} options
 * @returns {Params & { origin?: string }}
 */
function withOrigin(params, options) {
  return options.origin === undefined ? params : { ...params, origin: options.origin };
}

/**
 * `browser` first, then `chrome`. Firefox's `browser` is the promise API (its `chrome` alias is
 * not, for every call); Chromium has a `browser` too (an alias of `chrome`, in versions such as
 * 156), so its presence does not mean Firefox, and nothing reads it so: either object is used the
 * same way, and errors are read from both browsers' places (`lastError`, `port.error`).
 * @returns {NativeMessagingRuntime}
 */
function findRuntime() {
  const scope = /** @type {{ browser?: { runtime?: NativeMessagingRuntime }, chrome?: { runtime?: NativeMessagingRuntime } }} */ (globalThis);
  const runtime = scope.browser?.runtime ?? scope.chrome?.runtime;
  if (!runtime) {
    throw new NativeConfigurationError('no browser.runtime or chrome.runtime here: use wallet-bridge in an extension\'s background script or service worker, or pass options.runtime');
  }
  return runtime;
}

/** @param {unknown} timeoutMs */
function checkTimeout(timeoutMs) {
  if (typeof timeoutMs !== 'number' || !(timeoutMs > 0) || timeoutMs > MAX_TIMEOUT_MS) {
    throw new RangeError(`timeoutMs must be a number of milliseconds between 1 and ${MAX_TIMEOUT_MS}, not ${String(timeoutMs)}`);
  }
}

/** @implements {NativeClient} */
class Client {
  #transport;
  #events;

  /**
   * @param {string} application
   * @param {Transport} transport
   * @param {number} timeoutMs
   * @param {SessionEvents} events
   */
  constructor(application, transport, timeoutMs, events) {
    /** @readonly */
    this.application = application;
    /** @readonly */
    this.transport = transport.kind;
    /** @readonly */
    this.timeoutMs = timeoutMs;
    this.#transport = transport;
    this.#events = events;
  }

  /**
   * @param {number | undefined} timeoutMs
   */
  #timeout(timeoutMs) {
    if (timeoutMs === undefined) return this.timeoutMs;
    checkTimeout(timeoutMs);
    return timeoutMs;
  }

  /**
   * The result's type is the method's declared one (NativeMethod): a promise of the caller's,
   * checked by nothing here, so the decoded JSON is cast to it.
   * @template {string} Method
   * @param {import('./index.js').NativeRpcRequestArgs<Method>} request
   * @returns {Promise<import('./index.js').NativeMethodResult<Method>>}
   */
  async request(request) {
    const message = buildRequest(/** @type {{ method: string, params?: NativeRpcParams, id?: NativeRpcId }} */ (request));
    const reply = await this.#send(message, request.timeoutMs, [message.id], message.id, message.method);
    return /** @type {any} */ (decodeResponse(reply, { id: message.id, method: message.method }));
  }

  /**
   * @template {string} Method
   * @param {import('./index.js').NativeRpcRequestArgs<Method>} request
   * @returns {Promise<import('./index.js').NativeRpcResponse<import('./index.js').NativeMethodResult<Method>>>}
   */
  async requestResponse(request) {
    const message = buildRequest(/** @type {{ method: string, params?: NativeRpcParams, id?: NativeRpcId }} */ (request));
    const reply = await this.#send(message, request.timeoutMs, [message.id], message.id, message.method);
    return /** @type {any} */ (validateResponse(reply, { id: message.id, method: message.method }));
  }

  /**
   * @param {{ method: string, params?: NativeRpcParams, timeoutMs?: number }} notification
   * @returns {Promise<void>}
   */
  async notify(notification) {
    const message = buildNotification(notification);
    await this.#transport.send(message, { timeoutMs: this.#timeout(notification.timeoutMs), expectsReply: false, ids: [], id: null, method: message.method });
  }

  /**
   * Entries are typed by their items' methods (see index.d.ts); at run time they are what
   * decodeBatchResponse built.
   * @template {ReadonlyArray<NativeRpcBatchItem> | []} Items
   * @param {import('./index.js').NativeRpcBatchItems<Items>} items
   * @param {{ timeoutMs?: number }} [options]
   * @returns {Promise<import('./index.js').NativeRpcBatchEntries<Items>>}
   */
  async batch(items, options = {}) {
    return /** @type {any} */ (this.#batch(/** @type {ReadonlyArray<NativeRpcBatchItem>} */ (items), options));
  }

  /**
   * @param {ReadonlyArray<NativeRpcBatchItem>} items
   * @param {{ timeoutMs?: number }} options
   * @returns {Promise<NativeRpcBatchEntry[]>}
   */
  async #batch(items, options) {
    const messages = buildBatch(items);
    const ids = messages.flatMap((message) => ('id' in message ? [message.id] : []));
    const timeoutMs = this.#timeout(options.timeoutMs);
    if (ids.length === 0) {
      await this.#transport.send(messages, { timeoutMs, expectsReply: false, ids, id: null });
      return [];
    }
    const reply = await this.#transport.send(messages, { timeoutMs, expectsReply: true, ids, id: null, method: 'batch' });
    return decodeBatchResponse(messages, reply);
  }

  /**
   * @param {unknown} message
   * @param {{ timeoutMs?: number, expectsReply?: boolean }} [options]
   * @returns {Promise<unknown>}
   */
  async sendRaw(message, options = {}) {
    const elements = Array.isArray(message) ? message : [message];
    /** @type {NativeRpcId[]} */
    const ids = [];
    for (const element of elements) {
      const id = element !== null && typeof element === 'object' ? /** @type {{ id?: unknown }} */ (element).id : undefined;
      if (typeof id === 'string' || typeof id === 'number') ids.push(id);
    }
    return this.#transport.send(message, {
      timeoutMs: this.#timeout(options.timeoutMs),
      expectsReply: options.expectsReply ?? true,
      ids,
      id: !Array.isArray(message) && ids.length === 1 ? ids[0] : null,
    });
  }

  /**
   * @param {NativeRpcId | { id?: NativeRpcId, timeoutMs?: number }} [idOrOptions]
   * @returns {Promise<NativeGetAccountsResult>}
   */
  async getAccounts(idOrOptions) {
    const options = getAccountsOptions(idOrOptions);
    const message = buildRequest({ method: NATIVE_GET_ACCOUNTS_METHOD, id: options.id });
    const reply = await this.#send(message, options.timeoutMs, [message.id], message.id, message.method);
    return checkGetAccountsResult(decodeResponse(reply, { id: message.id, method: message.method }), { id: message.id });
  }

  /**
   * @param {{ address: string, payloads: readonly string[], id?: NativeRpcId, timeoutMs?: number }} request
   * @returns {Promise<NativeSignPayloadsResult>}
   */
  async signPayloads(request) {
    checkSignPayloadsParams(request);
    const params = { address: request.address, payloads: request.payloads };
    const message = buildRequest({ method: NATIVE_SIGN_PAYLOADS_METHOD, params, id: request.id });
    const reply = await this.#send(message, request.timeoutMs, [message.id], message.id, message.method);
    return checkSignPayloadsResult(decodeResponse(reply, { id: message.id, method: message.method }), params, { id: message.id });
  }

  /**
   * @param {SessionConnectParams & NativeRequestOptions} params
   * @returns {Promise<Session>}
   */
  async connect(params) {
    const wire = checkConnectParams(params);
    const { result, id } = await this.#call(SESSION_CONNECT_METHOD, wire, params);
    return checkSession(result, { id, method: SESSION_CONNECT_METHOD });
  }

  /**
   * @param {import('./index.js').SessionSiteOptions} [options]
   * @returns {Promise<SessionListResult>}
   */
  async listSessions(options) {
    const checked = callOptions(options, 'listSessions');
    const params = withOrigin({}, checked);
    checkSessionParams(SESSION_LIST_METHOD, params);
    const { result, id } = await this.#call(SESSION_LIST_METHOD, params, checked);
    return checkSessionListResult(result, { id });
  }

  /**
   * The inner method's result, checked for the Solana methods (see index.d.ts for its type).
   * @template {string} Method
   * @param {import('./index.js').SessionRequest<Method> & NativeRequestOptions} request
   * @returns {Promise<import('./index.js').SessionMethodResult<Method>>}
   */
  async sessionRequest(request) {
    const wire = checkSessionRequestParams(request);
    const { result, id } = await this.#call(SESSION_REQUEST_METHOD, wire, request);
    return /** @type {any} */ (checkSessionRequestResult(wire.request.method, result, { id, params: wire.request.params }));
  }

  /**
   * @param {string} topic
   * @param {import('./index.js').SessionSiteOptions} [options]
   * @returns {Promise<SessionExtendResult>}
   */
  async extend(topic, options) {
    checkTopic(topic);
    const checked = callOptions(options, 'extend');
    const params = withOrigin({ topic }, checked);
    checkSessionParams(SESSION_EXTEND_METHOD, params);
    const { result, id } = await this.#call(SESSION_EXTEND_METHOD, params, checked);
    return checkSessionExtendResult(result, { id });
  }

  /**
   * @param {string} topic
   * @param {SessionErrorReason} [reason] left out, the host's default: 6000 "User disconnected"
   * @param {import('./index.js').SessionSiteOptions} [options]
   * @returns {Promise<void>}
   */
  async disconnect(topic, reason, options) {
    checkTopic(topic);
    checkReason(reason);
    const checked = callOptions(options, 'disconnect');
    /** @type {Record<string, unknown>} */
    const params = reason === undefined ? { topic } : { topic, reason };
    const wire = withOrigin(params, checked);
    checkSessionParams(SESSION_DISCONNECT_METHOD, wire);
    const { result, id } = await this.#call(SESSION_DISCONNECT_METHOD, wire, checked);
    checkSessionDisconnectResult(result, { id });
  }

  /**
   * Port transport only: calls `handler` with the params of each such notification. Opens the
   * port if none is open, and then sends it one session_list, whose answer is dropped: the
   * host starts sending events only after its first reply (a host started for one message must
   * write nothing before that reply, and it cannot tell which kind it is).
   * @template {SessionEventName} Name
   * @param {Name} name
   * @param {import('./index.js').SessionEventHandler<Name>} handler
   * @returns {() => void} unsubscribes
   */
  on(name, handler) {
    if (!this.#transport.listen) throw new NativeConfigurationError(MESSAGE_TRANSPORT_HAS_NO_EVENTS);
    checkSubscription(name, handler, 'on');
    const unsubscribe = this.#events.add(name, handler);
    /** @type {boolean} */
    let opened;
    try {
      opened = this.#transport.listen();
    } catch (error) {
      unsubscribe();
      throw error;
    }
    // Any reply will do, an error too (-32601 from a host without the agent); a failure of the
    // port itself is reported by the port.
    if (opened) this.#call(SESSION_LIST_METHOD, {}, {}).catch(() => {});
    return unsubscribe;
  }

  /**
   * Removes a handler `on` added; one never added is ignored (so on the message transport this
   * does nothing).
   * @template {SessionEventName} Name
   * @param {Name} name
   * @param {import('./index.js').SessionEventHandler<Name>} handler
   */
  off(name, handler) {
    checkSubscription(name, handler, 'off');
    this.#events.remove(name, handler);
  }

  close() {
    this.#transport.close();
  }

  /**
   * Sends one built-in request and decodes its reply; the caller checks the result's shape.
   * @param {string} method
   * @param {import('./index.js').NativeRpcParams} params
   * @param {NativeRequestOptions} options
   * @returns {Promise<{ result: JsonValue, id: NativeRpcId }>}
   */
  async #call(method, params, options) {
    const message = buildRequest({ method, params, id: options.id });
    const reply = await this.#send(message, options.timeoutMs, [message.id], message.id, message.method);
    return { result: decodeResponse(reply, { id: message.id, method: message.method }), id: message.id };
  }

  /**
   * @param {unknown} message
   * @param {number | undefined} timeoutMs
   * @param {NativeRpcId[]} ids
   * @param {NativeRpcId} id
   * @param {string} method
   */
  #send(message, timeoutMs, ids, id, method) {
    return this.#transport.send(message, { timeoutMs: this.#timeout(timeoutMs), expectsReply: true, ids, id, method });
  }
}

/**
 * What getAccounts takes: the options object, or a bare id, which is walletlib 0.2.0's
 * signature (`sendNativeGetAccountsRequest(id)`). Anything else is refused rather than ignored,
 * so a ported call never sends a request without the id its caller chose.
 * @param {unknown} idOrOptions
 * @returns {{ id?: NativeRpcId, timeoutMs?: number }}
 */
function getAccountsOptions(idOrOptions) {
  if (idOrOptions === undefined) return {};
  if (typeof idOrOptions === 'string' || (typeof idOrOptions === 'number' && Number.isFinite(idOrOptions))) return { id: idOrOptions };
  if (idOrOptions !== null && typeof idOrOptions === 'object' && !Array.isArray(idOrOptions)) {
    return /** @type {{ id?: NativeRpcId, timeoutMs?: number }} */ (idOrOptions);
  }
  throw new TypeError(`getAccounts takes an id (a string or a finite number) or { id?, timeoutMs? }, not ${describe(idOrOptions)}`);
}

/** @type {NativeClient | null} */
let defaultClient = null;

/**
 * Sets the client the module-level functions use, once, at the top of the background script.
 * Accepts options (a client is created) or a client. A previous default client is closed.
 * @param {NativeClientOptions | NativeClient} optionsOrClient
 * @returns {NativeClient}
 */
export function configureNativeClient(optionsOrClient) {
  const client = isClient(optionsOrClient) ? optionsOrClient : createNativeClient(/** @type {NativeClientOptions} */ (optionsOrClient));
  const previous = defaultClient;
  defaultClient = client;
  if (previous && previous !== client) previous.close();
  return client;
}

/**
 * The default client, or a NativeConfigurationError saying how to set one.
 * @returns {NativeClient}
 */
export function getNativeClient() {
  if (!defaultClient) {
    throw new NativeConfigurationError('wallet-bridge is not configured: call configureNativeClient({ application: "<native host name>" }) once before sending requests');
  }
  return defaultClient;
}

/**
 * Closes and forgets the default client; mainly for tests and for extensions that switch hosts.
 */
export function resetNativeClient() {
  const previous = defaultClient;
  defaultClient = null;
  previous?.close();
}

/**
 * Runs `run` with `client` as the default client, then puts the previous one back as it was.
 * For wallet-bridge/testing, whose checks call code that uses the module-level functions:
 * configureNativeClient would close the previous client, and the extension's own setup (or
 * another test's) must survive a check. Not exported by index.js. Runs must not overlap.
 * @template T
 * @param {NativeClient} client
 * @param {() => T} run
 * @returns {Promise<Awaited<T>>}
 */
export async function withDefaultClient(client, run) {
  const previous = defaultClient;
  defaultClient = client;
  try {
    return await run();
  } finally {
    defaultClient = previous;
  }
}

/**
 * @param {unknown} value
 * @returns {value is NativeClient}
 */
function isClient(value) {
  return value instanceof Client || (value !== null && typeof value === 'object' && typeof (/** @type {any} */ (value).request) === 'function' && typeof (/** @type {any} */ (value).close) === 'function');
}

/**
 * Sends a request with the default client and resolves to its `result`; an error reply rejects
 * with NativeRpcError.
 * @template {string} Method
 * @param {import('./index.js').NativeRpcRequestArgs<Method>} request
 * @returns {Promise<import('./index.js').NativeMethodResult<Method>>}
 */
export async function sendNativeRpcRequest(request) {
  if (request === null || typeof request !== 'object') throw new TypeError(`sendNativeRpcRequest needs { method, params?, id? }, not ${describe(request)}`);
  return getNativeClient().request(request);
}

/**
 * Sends a batch with the default client. See NativeClient.batch.
 * @template {ReadonlyArray<NativeRpcBatchItem> | []} Items
 * @param {import('./index.js').NativeRpcBatchItems<Items>} items
 * @param {{ timeoutMs?: number }} [options]
 * @returns {Promise<import('./index.js').NativeRpcBatchEntries<Items>>}
 */
export async function sendNativeRpcBatch(items, options) {
  return getNativeClient().batch(items, options);
}

/**
 * Sends a notification with the default client (port transport only).
 * @param {{ method: string, params?: NativeRpcParams, timeoutMs?: number }} notification
 * @returns {Promise<void>}
 */
export async function sendNativeNotification(notification) {
  return getNativeClient().notify(notification);
}

/**
 * Lists the wallet's accounts with the default client; the result's shape is checked. Takes
 * walletlib 0.2.0's positional id as well as `{ id?, timeoutMs? }`.
 * @param {NativeRpcId | { id?: NativeRpcId, timeoutMs?: number }} [idOrOptions]
 * @returns {Promise<NativeGetAccountsResult>}
 */
export async function sendNativeGetAccountsRequest(idOrOptions) {
  return getNativeClient().getAccounts(idOrOptions);
}

/**
 * Signs payloads with the default client; the result's shape and length are checked.
 * @param {{ address: string, payloads: readonly string[], id?: NativeRpcId, timeoutMs?: number }} request
 * @returns {Promise<NativeSignPayloadsResult>}
 */
export async function sendNativeSignPayloadsRequest(request) {
  return getNativeClient().signPayloads(request);
}

/**
 * Proposes a session with the default client; resolves to the session, shape checked.
 * @param {SessionConnectParams & NativeRequestOptions} params
 * @returns {Promise<Session>}
 */
export async function sendNativeSessionConnectRequest(params) {
  return getNativeClient().connect(params);
}

/**
 * The calling extension's live sessions, with the default client.
 * @param {import('./index.js').SessionSiteOptions} [options]
 * @returns {Promise<SessionListResult>}
 */
export async function sendNativeSessionListRequest(options) {
  return getNativeClient().listSessions(options);
}

/**
 * A request within a session, with the default client; resolves to the inner method's result.
 * @template {string} Method
 * @param {import('./index.js').SessionRequest<Method> & NativeRequestOptions} request
 * @returns {Promise<import('./index.js').SessionMethodResult<Method>>}
 */
export async function sendNativeSessionRequest(request) {
  return getNativeClient().sessionRequest(request);
}

/**
 * Extends a session by its lifetime from now, with the default client.
 * @param {string} topic
 * @param {import('./index.js').SessionSiteOptions} [options]
 * @returns {Promise<SessionExtendResult>}
 */
export async function sendNativeSessionExtendRequest(topic, options) {
  return getNativeClient().extend(topic, options);
}

/**
 * Ends a session, with the default client.
 * @param {string} topic
 * @param {SessionErrorReason} [reason]
 * @param {import('./index.js').SessionSiteOptions} [options]
 * @returns {Promise<void>}
 */
export async function sendNativeSessionDisconnectRequest(topic, reason, options) {
  return getNativeClient().disconnect(topic, reason, options);
}

/**
 * signMessage with the default client: resolves to the 64-byte signature.
 * @param {SignMessageArgs} args
 * @returns {Promise<Uint8Array>}
 */
export async function sendNativeSignMessageRequest(args) {
  return signMessage(getNativeClient(), args);
}
