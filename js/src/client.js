/**
 * The client: builds requests, sends them over a transport, checks the replies. Also the
 * module-level functions with walletlib's names, which use a default client the extension
 * configures once, because the native application's name is the extension's to choose
 * (walletlib on Safari had no name to configure).
 */
import { NativeConfigurationError } from './errors.js';
import { checkGetAccountsResult, checkSignPayloadsParams, checkSignPayloadsResult, NATIVE_GET_ACCOUNTS_METHOD, NATIVE_SIGN_PAYLOADS_METHOD } from './models.js';
import { buildBatch, buildNotification, buildRequest, decodeBatchResponse, decodeResponse, describe, validateResponse } from './protocol.js';
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
 * @typedef {import('./transports.js').Transport} Transport
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
  const transport = transportKind === 'port'
    ? createPortTransport({ runtime, application, onWarning })
    : createMessageTransport({ runtime, application });
  return new Client(application, transport, timeoutMs);
}

/**
 * Firefox's `browser` first: its `chrome` alias exists too, but `browser` is the promise API.
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

  /**
   * @param {string} application
   * @param {Transport} transport
   * @param {number} timeoutMs
   */
  constructor(application, transport, timeoutMs) {
    /** @readonly */
    this.application = application;
    /** @readonly */
    this.transport = transport.kind;
    /** @readonly */
    this.timeoutMs = timeoutMs;
    this.#transport = transport;
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

  close() {
    this.#transport.close();
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
