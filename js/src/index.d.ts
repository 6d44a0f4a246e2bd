// Types of the wallet-bridge package. Hand-written and kept honest by `tsc -p js/tsconfig.json`,
// which checks the JSDoc-typed implementation (checkJs) and js/test/types-check.ts, where every
// export of the implementation is assigned to the type declared here.

// ---- JSON-RPC 2.0 on the wire -------------------------------------------------------------

/** Any JSON value. Params and results are real JSON, never JSON inside a string. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** A request id. Null is legal in JSON-RPC but not sent by this package (see buildRequest). */
export type NativeRpcId = string | number;

/** `params`: by position or by name. Leave it out for a method that takes none. */
export type NativeRpcParams = JsonValue[] | { [key: string]: JsonValue };

export interface NativeRpcRequest<Params extends NativeRpcParams = NativeRpcParams> {
  jsonrpc: '2.0';
  id: NativeRpcId;
  method: string;
  params?: Params;
}

/** A request without an id: the host runs it and never answers. */
export interface NativeRpcNotification<Params extends NativeRpcParams = NativeRpcParams> {
  jsonrpc: '2.0';
  method: string;
  params?: Params;
}

export interface NativeRpcErrorObject {
  code: number;
  message: string;
  data?: JsonValue;
}

export interface NativeRpcSuccessResponse<Result = JsonValue> {
  jsonrpc: '2.0';
  id: NativeRpcId;
  result: Result;
}

export interface NativeRpcErrorResponse {
  jsonrpc: '2.0';
  /** Null when the host could not read the request's id. */
  id: NativeRpcId | null;
  error: NativeRpcErrorObject;
}

/** A response object, validated: exactly one of `result` and `error`. */
export type NativeRpcResponse<Result = JsonValue> = NativeRpcSuccessResponse<Result> | NativeRpcErrorResponse;

// ---- Built-in wallet methods (Sources/WalletBridge/Protocol/WalletMethods.swift) -----------

export const NATIVE_GET_ACCOUNTS_METHOD: 'NATIVE_GET_ACCOUNTS_METHOD';
export const NATIVE_SIGN_PAYLOADS_METHOD: 'NATIVE_SIGN_PAYLOADS_METHOD';
/** safari-extension-walletlib's name for NATIVE_GET_ACCOUNTS_METHOD (same string). */
export const NATIVE_GET_ACCOUNTS_RPC_METHOD: 'NATIVE_GET_ACCOUNTS_METHOD';
/** safari-extension-walletlib's name for NATIVE_SIGN_PAYLOADS_METHOD (same string). */
export const NATIVE_SIGN_PAYLOADS_RPC_METHOD: 'NATIVE_SIGN_PAYLOADS_METHOD';

/** Swift `GetAccountsResult`. */
export interface NativeGetAccountsResult {
  /** Each account's 32-byte Ed25519 public key, standard base64. */
  addresses: string[];
}

/** Swift `SignPayloadsParams`. */
export interface NativeSignPayloadsParams {
  /** A base64 public key, as NATIVE_GET_ACCOUNTS_METHOD returned it. */
  address: string;
  /** Base64 byte strings to sign. */
  payloads: string[];
}

/** Swift `SignPayloadsResult`. */
export interface NativeSignPayloadsResult {
  /** For each payload in order: base64 of the payload followed by its 64-byte Ed25519 signature. */
  signed_payloads: string[];
}

/** Throws NativeProtocolError (kind "invalid-result") unless `result` has the GetAccounts shape. */
export function checkGetAccountsResult(result: unknown, context?: { id?: NativeRpcId | null }): NativeGetAccountsResult;
/** Throws NativeProtocolError (kind "invalid-result") unless `result` has the SignPayloads shape and one entry per payload. */
export function checkSignPayloadsResult(result: unknown, params: NativeSignPayloadsParams, context?: { id?: NativeRpcId | null }): NativeSignPayloadsResult;

// ---- Errors ---------------------------------------------------------------------------------

/** The host's error catalogue (Sources/WalletBridge/Protocol/ErrorCode.swift), same names. */
export const NativeRpcErrorCode: Readonly<{
  parseError: -32700;
  invalidRequest: -32600;
  methodNotFound: -32601;
  invalidParams: -32602;
  internalError: -32603;
  responseTooLarge: -32000;
  requestTimedOut: -32001;
  requestCancelled: -32002;
  overloaded: -32003;
  requestTooLarge: -32004;
  authorizationFailed: -1;
  invalidPayloads: -2;
  notSigned: -3;
  tooManyPayloads: -6;
}>;

/** The fixed message the host sends with each catalogue code. */
export const NATIVE_RPC_ERROR_MESSAGES: Readonly<Record<number, string>>;

/** Base class of every error the package produces on purpose. */
export class WalletBridgeError extends Error {
  constructor(message: string, options?: { cause?: unknown });
}

/** The host answered with a JSON-RPC error object; its fields are the host's, unchanged. */
export class NativeRpcError extends WalletBridgeError {
  constructor(fields: { code: number; message: string; data?: JsonValue; id?: NativeRpcId | null; method?: string });
  code: number;
  /** Undefined when the host sent no `data`. */
  data: JsonValue | undefined;
  /** The id of the request it answers (null only when that is unknown). */
  id: NativeRpcId | null;
  method: string | undefined;
  /** The plain error object, which survives runtime.sendMessage where an Error's fields do not. */
  toJSON(): NativeRpcErrorObject;
}

/**
 * - `host-not-found`: no manifest for this name (or the name is invalid), or this extension is
 *   not allowed by it (Firefox reports that as not found too).
 * - `forbidden`: Chrome refused this extension (`allowed_origins`).
 * - `start-failed`: the browser found the host but could not start it.
 * - `disconnected`: the host exited or the browser dropped the connection (e.g. a reply over 1 MiB).
 * - `timeout`: no reply within the timeout.
 * - `closed`: close() was called while the request was pending.
 */
export type NativeTransportErrorKind = 'host-not-found' | 'forbidden' | 'start-failed' | 'disconnected' | 'timeout' | 'closed';

/** Native messaging failed. `message` is the browser's own text whenever there was one. */
export class NativeTransportError extends WalletBridgeError {
  constructor(fields: {
    kind: NativeTransportErrorKind;
    message: string;
    browserMessage?: string | null;
    id?: NativeRpcId | null;
    method?: string;
    cause?: unknown;
  });
  kind: NativeTransportErrorKind;
  /** The browser's text, verbatim, or null when the failure was not the browser's (timeout, close). */
  browserMessage: string | null;
  /** The request's id; null for batches and raw messages. */
  id: NativeRpcId | null;
  method: string | undefined;
}

/**
 * - `not-json-rpc`: `jsonrpc` is not "2.0".
 * - `invalid-response`: not an object, fields missing or mistyped, both or neither of result and error.
 * - `wrong-id`: answers another request (or a batch reply that does not match the batch).
 * - `invalid-result`: a built-in method's result does not have the model's shape.
 */
export type NativeProtocolErrorKind = 'not-json-rpc' | 'invalid-response' | 'wrong-id' | 'invalid-result';

/** The reply broke the contract. `response` keeps what arrived. */
export class NativeProtocolError extends WalletBridgeError {
  constructor(fields: { kind: NativeProtocolErrorKind; message: string; response?: unknown; id?: NativeRpcId | null; method?: string });
  kind: NativeProtocolErrorKind;
  response: unknown;
  id: NativeRpcId | null;
  method: string | undefined;
}

/** Used wrongly: not configured, no runtime, no native messaging permission. */
export class NativeConfigurationError extends WalletBridgeError {
  constructor(message: string);
}

// ---- Browser runtime (the subset used) -------------------------------------------------------

export interface NativeMessagingEvent<Listener extends (...args: any[]) => void> {
  addListener(listener: Listener): void;
  removeListener?(listener: Listener): void;
}

/** `runtime.Port` as returned by connectNative, in Firefox and Chrome. */
export interface NativeMessagingPort {
  name?: string;
  /** Firefox: why the port disconnected. */
  error?: { message?: string } | null;
  onMessage: NativeMessagingEvent<(message: any, port: NativeMessagingPort) => void>;
  onDisconnect: NativeMessagingEvent<(port: NativeMessagingPort) => void>;
  postMessage(message: unknown): void;
  disconnect(): void;
}

/** `browser.runtime` (Firefox) or `chrome.runtime` (Chromium, Manifest V3), the subset used. */
export interface NativeMessagingRuntime {
  sendNativeMessage?(application: string, message: unknown): Promise<any> | unknown;
  connectNative?(application: string): NativeMessagingPort;
  /** Chrome: why the port disconnected, readable inside onDisconnect. */
  lastError?: { message?: string } | null;
}

// ---- Client ------------------------------------------------------------------------------------

/** Something the port transport noticed but that does not fail a request. */
export interface NativeClientWarning {
  kind: 'unmatched-reply';
  message: string;
  reply: unknown;
}

export interface NativeClientOptions {
  /** The native messaging host's name, as in its manifest (and the manifest's file name). */
  application: string;
  /**
   * `"message"` (default): runtime.sendNativeMessage, one host process per request (a batch
   *   goes over a one-shot connectNative port, since Chrome's sendNativeMessage takes only objects).
   * `"port"`: one runtime.connectNative port shared by all requests, reopened after a disconnect.
   */
  transport?: 'message' | 'port';
  /** Per-request timeout; default DEFAULT_TIMEOUTS.requestMs. */
  timeoutMs?: number;
  /** Default: globalThis.browser?.runtime ?? globalThis.chrome?.runtime, at creation. */
  runtime?: NativeMessagingRuntime;
  /** Port transport: called for replies no pending request waits for. Default: ignore them. */
  onWarning?: (warning: NativeClientWarning) => void;
}

export interface NativeRequestOptions {
  /** Generated with crypto.randomUUID() when left out. */
  id?: NativeRpcId;
  /** Overrides the client's timeout for this call. */
  timeoutMs?: number;
}

export interface NativeRpcRequestArgs<Params extends NativeRpcParams = NativeRpcParams> extends NativeRequestOptions {
  method: string;
  params?: Params;
}

/** One request of a batch; `notification: true` sends it without an id, and it gets no entry. */
export interface NativeRpcBatchItem {
  method: string;
  params?: NativeRpcParams;
  id?: NativeRpcId;
  notification?: boolean;
}

/** The outcome of one batch request: `result`, or `error` (never both). */
export type NativeRpcBatchEntry =
  | { id: NativeRpcId; method: string; result: JsonValue; error?: undefined }
  | { id: NativeRpcId; method: string; error: NativeRpcError; result?: undefined };

export interface NativeClient {
  readonly application: string;
  readonly transport: 'message' | 'port';
  readonly timeoutMs: number;
  /** Resolves to `result`; rejects with NativeRpcError, NativeTransportError or NativeProtocolError. */
  request<Result = any>(request: NativeRpcRequestArgs): Promise<Result>;
  /** The validated response object, an error response included (not thrown). */
  requestResponse(request: NativeRpcRequestArgs): Promise<NativeRpcResponse>;
  /** Port transport only: posts a notification; resolves once posted. */
  notify(notification: { method: string; params?: NativeRpcParams; timeoutMs?: number }): Promise<void>;
  /**
   * Sends one array and maps the array reply back by id: one entry per request, in the order
   * given (notifications have none). A single error for the whole batch rejects with NativeRpcError.
   * On the port transport batches go out one at a time (a later one is held until the earlier
   * settles), so that whole-batch refusal, which carries id null, is known to be this batch's.
   */
  batch(items: ReadonlyArray<NativeRpcBatchItem>, options?: { timeoutMs?: number }): Promise<NativeRpcBatchEntry[]>;
  /** Sends any JSON value as is and resolves with the raw reply, unchecked. For tests and tools. */
  sendRaw(message: unknown, options?: { timeoutMs?: number; expectsReply?: boolean }): Promise<unknown>;
  /** Takes `{ id?, timeoutMs? }`, or a bare id (walletlib 0.2.0's form); anything else is a TypeError. */
  getAccounts(idOrOptions?: NativeRpcId | NativeRequestOptions): Promise<NativeGetAccountsResult>;
  signPayloads(request: NativeSignPayloadsParams & NativeRequestOptions): Promise<NativeSignPayloadsResult>;
  /** Disconnects the port (if any) and rejects everything pending with kind "closed". Later requests reconnect. */
  close(): void;
}

export const DEFAULT_TIMEOUTS: Readonly<{ requestMs: number }>;

export function createNativeClient(options: NativeClientOptions): NativeClient;
/** Sets the default client used by the module-level functions; closes the previous one. */
export function configureNativeClient(optionsOrClient: NativeClientOptions | NativeClient): NativeClient;
/** The default client; throws NativeConfigurationError when none is configured. */
export function getNativeClient(): NativeClient;
/** Closes and forgets the default client. */
export function resetNativeClient(): void;

/** Resolves to the `result`; an error response rejects with NativeRpcError. */
export function sendNativeRpcRequest<Result = any>(request: NativeRpcRequestArgs): Promise<Result>;
export function sendNativeRpcBatch(items: ReadonlyArray<NativeRpcBatchItem>, options?: { timeoutMs?: number }): Promise<NativeRpcBatchEntry[]>;
export function sendNativeNotification(notification: { method: string; params?: NativeRpcParams; timeoutMs?: number }): Promise<void>;
/** `sendNativeGetAccountsRequest('my-id')` (walletlib 0.2.0) or `sendNativeGetAccountsRequest({ id, timeoutMs })`. */
export function sendNativeGetAccountsRequest(idOrOptions?: NativeRpcId | NativeRequestOptions): Promise<NativeGetAccountsResult>;
export function sendNativeSignPayloadsRequest(request: NativeSignPayloadsParams & NativeRequestOptions): Promise<NativeSignPayloadsResult>;

// ---- Messages without I/O (what the fixtures check) ------------------------------------------

export function buildRequest<Params extends NativeRpcParams>(request: { method: string; params?: Params; id?: NativeRpcId }): NativeRpcRequest<Params>;
export function buildNotification<Params extends NativeRpcParams>(notification: { method: string; params?: Params }): NativeRpcNotification<Params>;
export function buildBatch(items: ReadonlyArray<NativeRpcBatchItem>): Array<NativeRpcRequest | NativeRpcNotification>;
/** Throws NativeProtocolError unless `response` is a valid response answering `expected.id`. */
export function validateResponse(response: unknown, expected?: { id?: NativeRpcId; method?: string }): NativeRpcResponse;
/** The `result`, or the `error` thrown as NativeRpcError. */
export function decodeResponse(response: unknown, expected?: { id?: NativeRpcId; method?: string }): JsonValue;
export function decodeBatchResponse(batch: ReadonlyArray<NativeRpcRequest | NativeRpcNotification>, reply: unknown): NativeRpcBatchEntry[];
