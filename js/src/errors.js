/**
 * The one error hierarchy of the package. Every failure a caller can meet is a
 * WalletBridgeError subclass with a stable discriminant (`code` or `kind`), so an extension can
 * decide what to show without parsing message text. safari-extension-walletlib 0.2.0 threw a
 * plain `new Error('Error sending native message')` for every browser failure, losing the
 * browser's text; this file exists so that never happens again.
 */

/**
 * @typedef {import('./index.js').JsonValue} JsonValue
 * @typedef {import('./index.js').NativeRpcId} NativeRpcId
 * @typedef {import('./index.js').NativeTransportErrorKind} NativeTransportErrorKind
 * @typedef {import('./index.js').NativeProtocolErrorKind} NativeProtocolErrorKind
 */

/**
 * The host's error catalogue, mirrored from Sources/WalletBridgeProtocol/ErrorCode.swift with
 * the same names, so a developer reading either side finds the other. The test
 * js/test/errors.test.js parses the Swift file and fails if the two drift apart.
 */
export const NativeRpcErrorCode = Object.freeze({
  // JSON-RPC 2.0, section 5.1
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
  // Host codes (the implementation-defined range -32000 to -32099)
  responseTooLarge: -32000,
  requestTimedOut: -32001,
  requestCancelled: -32002,
  overloaded: -32003,
  requestTooLarge: -32004,
  agentUnavailable: -32005,
  // Wallet codes, numbered as in Mobile Wallet Adapter; safari-extension-walletlib 0.2.0 defines
  // only -3 of them
  authorizationFailed: -1,
  invalidPayloads: -2,
  notSigned: -3,
  tooManyPayloads: -6,
  // Session codes (docs/sessions.md): WalletConnect Sign's numbers, and EIP-1193's for a
  // request inside a session that the person declines or that names an account the session
  // does not hold
  unauthorizedMethod: 3001,
  unauthorizedChain: 3005,
  userRejectedRequest: 4001,
  unauthorized: 4100,
  userRejected: 5000,
  userRejectedChains: 5001,
  userRejectedMethods: 5002,
  userRejectedEvents: 5003,
  unsupportedChains: 5100,
  unsupportedMethods: 5101,
  unsupportedEvents: 5102,
  unsupportedAccounts: 5103,
  unsupportedNamespaceKey: 5104,
  userDisconnected: 6000,
  noSessionForTopic: 7001,
  sessionRequestExpired: 8000,
});

/**
 * The host's `data.reason` values, mirrored from Sources/WalletBridgeProtocol/ErrorReason.swift
 * with the same names: a word to act on without parsing `data.problem` (README.md,
 * "data.reason"). js/test/errors.test.js fails if the two drift apart.
 */
export const NativeRpcErrorReason = Object.freeze({
  // -3 Payload not signed (declined also with -1, when asked to connect)
  declined: 'declined',
  wrongPassphrase: 'wrong_passphrase',
  noPassphrasePrompt: 'no_passphrase_prompt',
  tooManyWaiting: 'too_many_waiting',
  keyDamaged: 'key_damaged',
  unlockFailed: 'unlock_failed',
  keystoreWritableByOthers: 'keystore_writable_by_others',
  // -1 Authorization failed: nobody can be asked to connect an extension
  noPrompt: 'no_prompt',
  // -32005 Agent unavailable
  cannotStart: 'cannot_start',
  notResponding: 'not_responding',
  protocolMismatch: 'protocol_mismatch',
  otherKeystore: 'other_keystore',
  unsafeSocket: 'unsafe_socket',
  tooManyConnections: 'too_many_connections',
  wrongSocket: 'wrong_socket',
  notRunning: 'not_running',
});

/**
 * The fixed message the host sends with each catalogue code. Useful to recognise a catalogue
 * error, and for fakes that must answer like the host does.
 * @type {Readonly<Record<number, string>>}
 */
export const NATIVE_RPC_ERROR_MESSAGES = Object.freeze({
  [-32700]: 'Parse error',
  [-32600]: 'Invalid Request',
  [-32601]: 'Method not found',
  [-32602]: 'Invalid params',
  [-32603]: 'Internal error',
  [-32000]: 'Response too large',
  [-32001]: 'Request timed out',
  [-32002]: 'Request cancelled',
  [-32003]: 'Host overloaded',
  [-32004]: 'Request too large',
  [-32005]: 'Agent unavailable',
  [-1]: 'Authorization failed',
  [-2]: 'Invalid payloads',
  [-3]: 'Payload not signed',
  [-6]: 'Too many payloads',
  3001: 'Unauthorized method',
  3005: 'Unauthorized chain',
  4001: 'User rejected the request',
  4100: 'Unauthorized',
  5000: 'User rejected',
  5001: 'User rejected chains',
  5002: 'User rejected methods',
  5003: 'User rejected events',
  5100: 'Unsupported chains',
  5101: 'Unsupported methods',
  5102: 'Unsupported events',
  5103: 'Unsupported accounts',
  5104: 'Unsupported namespace key',
  6000: 'User disconnected',
  7001: 'No session for topic',
  8000: 'Session request expired',
});

/**
 * Base class of every error this package produces on purpose, so that
 * `error instanceof WalletBridgeError` separates "the native side said no" from bugs.
 */
export class WalletBridgeError extends Error {
  /**
   * @param {string} message
   * @param {{ cause?: unknown }} [options]
   */
  constructor(message, options) {
    super(message, options);
    // Set explicitly: bundlers rename classes, and `name` is what shows in logs.
    this.name = 'WalletBridgeError';
  }
}

/**
 * The host answered with a JSON-RPC error object. `code`, `message` and `data` are the host's,
 * unchanged; `id` is the id of the request it answers.
 */
export class NativeRpcError extends WalletBridgeError {
  /**
   * @param {{ code: number, message: string, data?: JsonValue, id?: NativeRpcId | null, method?: string }} fields
   */
  constructor({ code, message, data, id = null, method }) {
    super(message);
    this.name = 'NativeRpcError';
    /** @type {number} */
    this.code = code;
    /** @type {JsonValue | undefined} absent when the host sent no `data` */
    this.data = data;
    /** @type {NativeRpcId | null} */
    this.id = id;
    /** @type {string | undefined} */
    this.method = method;
  }

  /**
   * The JSON-RPC error object again. Error objects lose their own fields when an extension
   * forwards them with runtime.sendMessage; this plain form survives.
   * @returns {{ code: number, message: string, data?: JsonValue }}
   */
  toJSON() {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }
}

/**
 * The classes that replies with a given error code are thrown as, in place of NativeRpcError:
 * for the replies of named methods, or of any method. Filled by registerNativeRpcErrorClass,
 * which the error module openrpc-to-ts writes calls for each error the host declares.
 * @type {Map<number, { any?: NativeRpcErrorClass, methods: Map<string, NativeRpcErrorClass> }>}
 */
const registeredClasses = new Map();

/**
 * @typedef {new (fields: { code: number, message: string, data?: JsonValue, id?: NativeRpcId | null, method?: string }) => NativeRpcError} NativeRpcErrorClass
 */

/**
 * Makes every error reply with `code` (to one of `options.methods`, or to any method when
 * left out) reject with `ErrorClass`, a subclass of NativeRpcError, in place of NativeRpcError
 * itself, so `error instanceof NoteNotFoundError` works. A class for the method wins over one
 * for any method. Registering the same class again changes nothing; another class for a code
 * (and method) that has one is a TypeError: two modules disagree about what the code means.
 * @param {number} code
 * @param {NativeRpcErrorClass} ErrorClass
 * @param {{ methods?: readonly string[] }} [options]
 */
export function registerNativeRpcErrorClass(code, ErrorClass, options = {}) {
  if (!Number.isInteger(code)) throw new TypeError(`an error code is an integer, not ${String(code)}`);
  if (typeof ErrorClass !== 'function' || !(ErrorClass.prototype instanceof NativeRpcError)) {
    throw new TypeError(`the class registered for ${code} must extend NativeRpcError`);
  }
  const { methods } = options;
  if (methods !== undefined && (!Array.isArray(methods) || methods.some((method) => typeof method !== 'string'))) {
    throw new TypeError('methods must be a list of method names');
  }
  /** @type {{ any?: NativeRpcErrorClass, methods: Map<string, NativeRpcErrorClass> }} */
  const entry = registeredClasses.get(code) ?? { methods: new Map() };
  /** @param {NativeRpcErrorClass | undefined} existing @param {string} where */
  const check = (existing, where) => {
    if (existing !== undefined && existing !== ErrorClass) {
      throw new TypeError(`error ${code}${where} is already ${existing.name}, not ${ErrorClass.name}`);
    }
  };
  // Checked in full before anything changes: a refused registration leaves none behind.
  if (methods === undefined) check(entry.any, '');
  else for (const method of methods) check(entry.methods.get(method), ` of ${method}`);
  if (methods === undefined) entry.any = ErrorClass;
  else for (const method of methods) entry.methods.set(method, ErrorClass);
  registeredClasses.set(code, entry);
}

/**
 * The error a reply's error object is thrown as: an instance of the class registered for its
 * code and method, or a NativeRpcError.
 * @param {{ code: number, message: string, data?: JsonValue, id?: NativeRpcId | null, method?: string }} fields
 * @returns {NativeRpcError}
 */
export function nativeRpcErrorFrom(fields) {
  const ErrorClass = nativeRpcErrorClass(fields.code, fields.method);
  return new ErrorClass(fields);
}

/**
 * The class an error reply with `code` to `method` is thrown as: the one registered for the
 * code and method, else for the code, else NativeRpcError.
 * @param {number} code
 * @param {string} [method]
 * @returns {NativeRpcErrorClass}
 */
export function nativeRpcErrorClass(code, method) {
  const entry = registeredClasses.get(code);
  return (method === undefined ? undefined : entry?.methods.get(method)) ?? entry?.any ?? NativeRpcError;
}

/**
 * Native messaging itself failed: the host is not installed, could not start, went away, did
 * not answer in time, or the client was closed. `message` is the browser's own text when there
 * was one (also kept in `browserMessage`), because that is the text users search for.
 */
export class NativeTransportError extends WalletBridgeError {
  /**
   * @param {{ kind: NativeTransportErrorKind, message: string, browserMessage?: string | null,
   *   id?: NativeRpcId | null, method?: string, cause?: unknown }} fields
   */
  constructor({ kind, message, browserMessage = null, id = null, method, cause }) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'NativeTransportError';
    /** @type {NativeTransportErrorKind} */
    this.kind = kind;
    /** @type {string | null} */
    this.browserMessage = browserMessage;
    /** @type {NativeRpcId | null} */
    this.id = id;
    /** @type {string | undefined} */
    this.method = method;
  }
}

/**
 * The reply broke the contract: not JSON-RPC 2.0, fields missing or mistyped, the wrong id, or
 * a result that does not match the method's model. `response` keeps what arrived.
 */
export class NativeProtocolError extends WalletBridgeError {
  /**
   * @param {{ kind: NativeProtocolErrorKind, message: string, response?: unknown,
   *   id?: NativeRpcId | null, method?: string }} fields
   */
  constructor({ kind, message, response, id = null, method }) {
    super(message);
    this.name = 'NativeProtocolError';
    /** @type {NativeProtocolErrorKind} */
    this.kind = kind;
    /** @type {unknown} */
    this.response = response;
    /** @type {NativeRpcId | null} */
    this.id = id;
    /** @type {string | undefined} */
    this.method = method;
  }
}

/**
 * The package is used wrongly in a way no retry fixes: no default client configured, no
 * runtime found, or a runtime without native messaging (missing permission).
 */
export class NativeConfigurationError extends WalletBridgeError {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = 'NativeConfigurationError';
  }
}

/**
 * The browsers' own messages, matched to a kind. Chrome's are fixed strings in
 * native_message_process_host.cc and message_service.cc; Firefox's come from
 * NativeMessaging.sys.mjs. Anything unrecognised is a disconnect: the message is kept either way.
 * @type {ReadonlyArray<[RegExp, NativeTransportErrorKind]>}
 */
const BROWSER_MESSAGE_KINDS = [
  [/Specified native messaging host not found|Invalid native messaging host name|No such native application/i, 'host-not-found'],
  [/Access to the specified native messaging host is forbidden/i, 'forbidden'],
  [/Failed to start native messaging host/i, 'start-failed'],
];

/**
 * Classifies a browser's native-messaging error text.
 * @param {string | null | undefined} browserMessage
 * @returns {NativeTransportErrorKind}
 */
export function transportErrorKind(browserMessage) {
  if (browserMessage) {
    for (const [pattern, kind] of BROWSER_MESSAGE_KINDS) {
      if (pattern.test(browserMessage)) return kind;
    }
  }
  return 'disconnected';
}

/**
 * Wraps whatever the browser threw or reported into a NativeTransportError that keeps the
 * browser's text verbatim.
 * @param {unknown} failure an Error, a `{ message }` object (Chrome's lastError, Firefox's
 *   port.error), a string, or nothing
 * @param {{ id?: NativeRpcId | null, method?: string }} [context]
 */
export function transportErrorFromBrowser(failure, context = {}) {
  const browserMessage = browserMessageOf(failure);
  return new NativeTransportError({
    kind: transportErrorKind(browserMessage),
    message: browserMessage ?? 'The native messaging host disconnected without an error message',
    browserMessage,
    id: context.id ?? null,
    method: context.method,
    cause: failure instanceof Error ? failure : undefined,
  });
}

/**
 * @param {unknown} failure
 * @returns {string | null}
 */
function browserMessageOf(failure) {
  if (typeof failure === 'string') return failure;
  if (failure && typeof failure === 'object' && 'message' in failure) {
    const message = /** @type {{ message: unknown }} */ (failure).message;
    if (typeof message === 'string' && message !== '') return message;
  }
  return null;
}
