/**
 * JSON-RPC 2.0 messages as the extension builds and reads them. No I/O here: these functions
 * are what the shared fixtures check from the extension's side, and what the client runs on
 * every request and reply.
 */
import { NativeProtocolError, nativeRpcErrorFrom } from './errors.js';

/**
 * @typedef {import('./index.js').JsonValue} JsonValue
 * @typedef {import('./index.js').NativeRpcId} NativeRpcId
 * @typedef {import('./index.js').NativeRpcParams} NativeRpcParams
 * @typedef {import('./index.js').NativeRpcRequest} NativeRpcRequest
 * @typedef {import('./index.js').NativeRpcNotification} NativeRpcNotification
 * @typedef {import('./index.js').NativeRpcResponse} NativeRpcResponse
 * @typedef {import('./index.js').NativeRpcBatchEntry<string>} NativeRpcBatchEntry an entry of a method that declares nothing: its result a JsonValue
 * @typedef {import('./index.js').NativeRpcBatchItem} NativeRpcBatchItem
 */

/**
 * A request object with an id: generated with crypto.randomUUID() when left out, so replies can
 * be matched on a shared port and no two extension contexts collide.
 * @template {NativeRpcParams} Params
 * @param {{ method: string, params?: Params, id?: NativeRpcId }} request
 * @returns {import('./index.js').NativeRpcRequest<Params>}
 */
export function buildRequest({ method, params, id }) {
  const message = buildNotification({ method, params });
  const requestId = id === undefined ? globalThis.crypto.randomUUID() : checkId(id);
  /** @type {import('./index.js').NativeRpcRequest<Params>} */
  const request = { jsonrpc: '2.0', id: requestId, method: message.method };
  if (message.params !== undefined) request.params = message.params;
  return request;
}

/**
 * A request object without an id: the host runs it and never answers.
 * @template {NativeRpcParams} Params
 * @param {{ method: string, params?: Params }} notification
 * @returns {import('./index.js').NativeRpcNotification<Params>}
 */
export function buildNotification({ method, params }) {
  if (typeof method !== 'string') {
    // Any string: the host answers an unknown one (even "") with Method not found.
    throw new TypeError(`method must be a string, not ${describe(method)}`);
  }
  if (params === undefined) return { jsonrpc: '2.0', method };
  if (typeof params === 'string') {
    // The one mistake a port from safari-extension-walletlib makes: it sent JSON.stringify(params).
    throw new TypeError('params must be an object or an array, not a string: pass the value itself, not JSON.stringify of it');
  }
  if (params === null || typeof params !== 'object') {
    throw new TypeError(`params must be an object or an array (leave it out for none), not ${describe(params)}`);
  }
  return { jsonrpc: '2.0', method, params };
}

/**
 * @param {unknown} id
 * @returns {NativeRpcId}
 */
function checkId(id) {
  if (typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id))) return id;
  // null is legal in JSON-RPC but is also what the host uses when it could not read an id, so a
  // reply to it could not be told apart from a reply to nothing.
  throw new TypeError(`id must be a string or a finite number, not ${describe(id)}`);
}

/**
 * A key for an id that keeps `1` and `"1"` apart, as the wire does.
 * @param {NativeRpcId} id
 */
export function idKey(id) {
  return `${typeof id}:${id}`;
}

/**
 * Checks that `response` is a JSON-RPC 2.0 response object answering `expected.id`, and returns
 * it typed. An error response may carry id null (the host could not read the request); it is
 * accepted as the answer, since it can only be.
 * @param {unknown} response
 * @param {{ id?: NativeRpcId, method?: string }} [expected]
 * @returns {NativeRpcResponse}
 */
export function validateResponse(response, expected = {}) {
  const { id, method } = expected;
  /** @param {import('./index.js').NativeProtocolErrorKind} kind @param {string} message */
  const fail = (kind, message) => new NativeProtocolError({ kind, message, response, id: id ?? null, method });
  const subject = method === undefined ? 'reply' : `reply to ${method}`;

  if (!isPlainObject(response)) throw fail('invalid-response', `${subject} is not a JSON-RPC response object but ${describe(response)}`);
  if (response.jsonrpc !== '2.0') throw fail('not-json-rpc', `${subject} is not JSON-RPC 2.0 (jsonrpc is ${describe(response.jsonrpc)})`);
  if (!('id' in response)) throw fail('invalid-response', `${subject} has no id`);
  const responseId = response.id;
  if (responseId !== null && typeof responseId !== 'string' && typeof responseId !== 'number') {
    throw fail('invalid-response', `${subject} has an id of the wrong type: ${describe(responseId)}`);
  }
  const hasResult = 'result' in response;
  const hasError = 'error' in response;
  if (hasResult && hasError) throw fail('invalid-response', `${subject} has both result and error`);
  if (!hasResult && !hasError) throw fail('invalid-response', `${subject} has neither result nor error`);
  if (hasError) {
    const error = response.error;
    if (!isPlainObject(error)) throw fail('invalid-response', `${subject} has an error that is not an object but ${describe(error)}`);
    if (typeof error.code !== 'number' || !Number.isInteger(error.code)) {
      throw fail('invalid-response', `${subject} has an error code that is not an integer: ${describe(error.code)}`);
    }
    if (typeof error.message !== 'string') throw fail('invalid-response', `${subject} has an error message that is not a string`);
  }
  if (id !== undefined && !(responseId === id || (hasError && responseId === null))) {
    throw fail('wrong-id', `${subject} carries id ${JSON.stringify(responseId)}, expected ${JSON.stringify(id)}`);
  }
  return /** @type {NativeRpcResponse} */ (/** @type {unknown} */ (response));
}

/**
 * Validates a response and returns its `result`, or throws its `error` as a NativeRpcError.
 * @param {unknown} response
 * @param {{ id?: NativeRpcId, method?: string }} [expected]
 * @returns {JsonValue}
 */
export function decodeResponse(response, expected = {}) {
  const valid = validateResponse(response, expected);
  if ('error' in valid) throw rpcErrorFrom(valid, expected);
  return valid.result;
}

/**
 * @param {NativeRpcResponse & { error: import('./index.js').NativeRpcErrorObject }} response
 * @param {{ id?: NativeRpcId, method?: string }} expected
 */
function rpcErrorFrom(response, expected) {
  const { code, message } = response.error;
  const data = 'data' in response.error ? response.error.data : undefined;
  // A null id can only mean "the host could not read the request"; the caller knows which.
  const id = response.id ?? expected.id ?? null;
  // The class registered for the code (and method), if any: registerNativeRpcErrorClass.
  return nativeRpcErrorFrom({ code, message, data, id, method: expected.method });
}

/**
 * Maps a batch reply back to the batch's requests by id. Returns one entry per request in the
 * batch's order (notifications have none). A single error object instead of an array is the
 * host refusing the whole batch (too many entries, reply too large) and is thrown.
 * @param {ReadonlyArray<NativeRpcRequest | NativeRpcNotification>} batch the messages sent
 * @param {unknown} reply
 * @returns {NativeRpcBatchEntry[]}
 */
export function decodeBatchResponse(batch, reply) {
  const requests = /** @type {NativeRpcRequest[]} */ (batch.filter((message) => 'id' in message));
  if (!Array.isArray(reply)) {
    const whole = validateResponse(reply);
    if ('error' in whole) throw rpcErrorFrom(whole, {});
    throw new NativeProtocolError({ kind: 'invalid-response', message: 'reply to a batch is a single result, not an array', response: reply });
  }
  /** @type {Map<string, NativeRpcResponse>} */
  const byId = new Map();
  for (const element of reply) {
    const valid = validateResponse(element);
    if (valid.id === null) {
      // The host answers an entry it could not parse with id null; ours are always valid, so
      // this reply does not belong to this batch.
      throw new NativeProtocolError({ kind: 'wrong-id', message: 'batch reply holds an entry with id null', response: reply });
    }
    const key = idKey(valid.id);
    if (byId.has(key)) throw new NativeProtocolError({ kind: 'wrong-id', message: `batch reply answers id ${JSON.stringify(valid.id)} twice`, response: reply });
    byId.set(key, valid);
  }
  const entries = requests.map((request) => {
    const key = idKey(request.id);
    const answer = byId.get(key);
    if (answer === undefined) {
      throw new NativeProtocolError({ kind: 'wrong-id', message: `batch reply has no answer for id ${JSON.stringify(request.id)} (${request.method})`, response: reply, id: request.id, method: request.method });
    }
    byId.delete(key);
    /** @type {NativeRpcBatchEntry} */
    const entry = 'error' in answer
      ? { id: request.id, method: request.method, error: rpcErrorFrom(answer, { id: request.id, method: request.method }) }
      : { id: request.id, method: request.method, result: answer.result };
    return entry;
  });
  if (byId.size > 0) {
    const [extra] = byId.values();
    throw new NativeProtocolError({ kind: 'wrong-id', message: `batch reply answers id ${JSON.stringify(extra.id)}, which the batch did not send`, response: reply });
  }
  return entries;
}

/**
 * Builds the messages of a batch. Ids must be unique, since they are the only way back from a
 * reply to its request.
 * @param {ReadonlyArray<NativeRpcBatchItem>} items
 * @returns {Array<NativeRpcRequest | NativeRpcNotification>}
 */
export function buildBatch(items) {
  if (!Array.isArray(items) || items.length === 0) {
    throw new TypeError('a batch must be a non-empty array (the host answers an empty one with Invalid Request)');
  }
  const seen = new Set();
  return items.map((item) => {
    if (item.notification) return buildNotification(item);
    const request = buildRequest(item);
    const key = idKey(request.id);
    if (seen.has(key)) throw new TypeError(`batch ids must be unique; ${JSON.stringify(request.id)} appears twice`);
    seen.add(key);
    return request;
  });
}

/**
 * @param {unknown} value
 * @returns {value is Record<string, unknown>}
 */
export function isPlainObject(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A short description of a value's type for error messages, never the value itself (it may be
 * a key or a signature).
 * @param {unknown} value
 */
export function describe(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (value === undefined) return 'undefined';
  const type = typeof value;
  return type === 'object' ? 'an object' : `a ${type}`;
}
