// Types of the wallet-bridge package. Hand-written and kept honest by `tsc -p js/tsconfig.json`,
// which checks the JSDoc-typed implementation (checkJs) and js/test/types-check.ts, where every
// export of the implementation is assigned to the type declared here.

// Only what is marked `export` is exported (a declaration file without this would export
// every top-level declaration, nativeMethodTypes included).
export {};

// ---- JSON-RPC 2.0 on the wire -------------------------------------------------------------

/** Any JSON value. Params and results are real JSON, never JSON inside a string. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** A request id. Null is legal in JSON-RPC but not sent by this package (see buildRequest). */
export type NativeRpcId = string | number;

/**
 * `params`: by position (an array, readonly arrays and `as const` tuples included) or by name
 * (an object, interfaces included), sent as JSON. Leave it out for a method that takes none.
 * Strings and null are refused: walletlib sent `JSON.stringify(params)`.
 */
export type NativeRpcParams = object;

// ---- Typed methods: one declaration for name, params and result ----------------------------

declare const nativeMethodTypes: unique symbol;

/**
 * A method name that carries its params and result types: the one declaration that types a
 * method end to end, for `sendNativeRpcRequest`, the client and batches. At run time it is
 * just the name.
 *
 *     const PING: NativeMethod<'MY_CUSTOM_PING_RPC_METHOD', PingParams, PingResult> = 'MY_CUSTOM_PING_RPC_METHOD';
 *     const { pong } = await sendNativeRpcRequest({ method: PING, params: { … } }); // checked both ways
 *
 * `Params` is `undefined` for a method that takes none (and `Params | undefined` for optional
 * ones). The types are the extension's promise, not a check: check the result's shape before
 * trusting it, as the built-in helpers do.
 */
export type NativeMethod<Name extends string = string, Params extends NativeRpcParams | undefined = NativeRpcParams | undefined, Result = JsonValue> =
  Name & { readonly [nativeMethodTypes]?: { params: Params; result: Result } };

/** The params a method takes: declared for a NativeMethod, any object or array otherwise. */
export type NativeMethodParams<Method extends string> =
  Method extends { readonly [nativeMethodTypes]?: { params: infer Params; result: unknown } } ? Params : NativeRpcParams | undefined;

/** What a method resolves to: declared for a NativeMethod, a JsonValue otherwise (never `any`). */
export type NativeMethodResult<Method extends string> =
  Method extends { readonly [nativeMethodTypes]?: { params: unknown; result: infer Result } } ? Result : JsonValue;

/** `params` required, optional or absent, as the method declares. */
export type NativeParamsField<Params> = undefined extends Params
  ? { params?: Exclude<Params, undefined> }
  : { params: Params };

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

/** GetAccounts: no params, NativeGetAccountsResult. */
export const NATIVE_GET_ACCOUNTS_METHOD: NativeMethod<'NATIVE_GET_ACCOUNTS_METHOD', undefined, NativeGetAccountsResult>;
/** SignPayloads: NativeSignPayloadsParams, NativeSignPayloadsResult. */
export const NATIVE_SIGN_PAYLOADS_METHOD: NativeMethod<'NATIVE_SIGN_PAYLOADS_METHOD', NativeSignPayloadsParams, NativeSignPayloadsResult>;
/** safari-extension-walletlib's name for NATIVE_GET_ACCOUNTS_METHOD (same string). */
export const NATIVE_GET_ACCOUNTS_RPC_METHOD: typeof NATIVE_GET_ACCOUNTS_METHOD;
/** safari-extension-walletlib's name for NATIVE_SIGN_PAYLOADS_METHOD (same string). */
export const NATIVE_SIGN_PAYLOADS_RPC_METHOD: typeof NATIVE_SIGN_PAYLOADS_METHOD;

/** Swift `GetAccountsResult`. */
export interface NativeGetAccountsResult {
  /** Each account's 32-byte Ed25519 public key, standard base64. */
  addresses: string[];
}

/** Swift `SignPayloadsParams`. */
export interface NativeSignPayloadsParams {
  /** A base64 public key, as NATIVE_GET_ACCOUNTS_METHOD returned it. */
  address: string;
  /** Base64 byte strings to sign (a readonly array or `as const` tuple is fine). */
  payloads: readonly string[];
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
  agentUnavailable: -32005;
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

/** A request to `Method`, with the params it declares. */
export type NativeRpcRequestArgs<Method extends string = string> =
  NativeRequestOptions & { method: Method } & NativeParamsField<NativeMethodParams<Method>>;

/** A notification to `Method`, with the params it declares. */
export type NativeRpcNotificationArgs<Method extends string = string> =
  { method: Method; timeoutMs?: number } & NativeParamsField<NativeMethodParams<Method>>;

/** One request of a batch; `notification: true` sends it without an id, and it gets no entry. */
export type NativeRpcBatchItem<Method extends string = string> = Method extends unknown
  ? { method: Method; id?: NativeRpcId; notification?: boolean } & NativeParamsField<NativeMethodParams<Method>>
  : never;

/** The outcome of one batch request to `Method`: its `result`, or `error` (never both). */
export type NativeRpcBatchEntry<Method extends string = string> = Method extends unknown
  ? | { id: NativeRpcId; method: Method; result: NativeMethodResult<Method>; error?: undefined }
    | { id: NativeRpcId; method: Method; error: NativeRpcError; result?: undefined }
  : never;

/** Each item checked against its own method's params. */
export type NativeRpcBatchChecked<Items extends ReadonlyArray<NativeRpcBatchItem>> = {
  readonly [Index in keyof Items]: Items[Index] extends { method: infer Method extends string } ? NativeRpcBatchItem<Method> : never;
};

/** The entries of a batch: one per request in order, typed by its method; notifications have none. */
export type NativeRpcBatchEntries<Items> =
  Items extends readonly [infer Head, ...infer Tail]
    ? Head extends { notification: true }
      ? NativeRpcBatchEntries<Tail>
      : [NativeRpcBatchEntry<Head extends { method: infer Method extends string } ? Method : string>, ...NativeRpcBatchEntries<Tail>]
    : Items extends readonly []
      ? []
      : Items extends ReadonlyArray<infer Item>
        ? Array<NativeRpcBatchEntry<Item extends { method: infer Method extends string } ? Method : string>>
        : never;

/**
 * The items a batch accepts: the array as written (so each entry's type follows its item),
 * provided every item's params match its method.
 */
export type NativeRpcBatchItems<Items extends ReadonlyArray<NativeRpcBatchItem>> =
  Items extends NativeRpcBatchChecked<Items> ? Items : NativeRpcBatchChecked<Items>;

export interface NativeClient {
  readonly application: string;
  readonly transport: 'message' | 'port';
  readonly timeoutMs: number;
  /** Resolves to `result`; rejects with NativeRpcError, NativeTransportError or NativeProtocolError. */
  request<Method extends string>(request: NativeRpcRequestArgs<Method>): Promise<NativeMethodResult<Method>>;
  /** The validated response object, an error response included (not thrown). */
  requestResponse<Method extends string>(request: NativeRpcRequestArgs<Method>): Promise<NativeRpcResponse<NativeMethodResult<Method>>>;
  /** Port transport only: posts a notification; resolves once posted. */
  notify<Method extends string>(notification: NativeRpcNotificationArgs<Method>): Promise<void>;
  /**
   * Sends one array and maps the array reply back by id: one entry per request, in the order
   * given (notifications have none). A single error for the whole batch rejects with NativeRpcError.
   * On the port transport batches go out one at a time (a later one is held until the earlier
   * settles), so that whole-batch refusal, which carries id null, is known to be this batch's.
   */
  batch<Items extends ReadonlyArray<NativeRpcBatchItem> | []>(items: NativeRpcBatchItems<Items>, options?: { timeoutMs?: number }): Promise<NativeRpcBatchEntries<Items>>;
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

/** Resolves to the `result`, typed by the method (see NativeMethod); an error response rejects with NativeRpcError. */
export function sendNativeRpcRequest<Method extends string>(request: NativeRpcRequestArgs<Method>): Promise<NativeMethodResult<Method>>;
export function sendNativeRpcBatch<Items extends ReadonlyArray<NativeRpcBatchItem> | []>(items: NativeRpcBatchItems<Items>, options?: { timeoutMs?: number }): Promise<NativeRpcBatchEntries<Items>>;
export function sendNativeNotification<Method extends string>(notification: NativeRpcNotificationArgs<Method>): Promise<void>;
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
