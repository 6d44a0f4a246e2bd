/**
 * The two ways an extension reaches a native host, behind one small interface:
 * `send(message, options)` resolves with the raw reply (no validation here; the client does
 * that) and `close()` rejects whatever is pending. Every pending request owns a timer, cleared
 * on settle, on close and on disconnect, so nothing waits forever.
 */
import { NativeConfigurationError, NativeTransportError, transportErrorFromBrowser } from './errors.js';
import { idKey, isPlainObject } from './protocol.js';

/**
 * @typedef {import('./index.js').NativeRpcId} NativeRpcId
 * @typedef {import('./index.js').NativeMessagingRuntime} NativeMessagingRuntime
 * @typedef {import('./index.js').NativeMessagingPort} NativeMessagingPort
 * @typedef {import('./index.js').NativeClientWarning} NativeClientWarning
 *
 * @typedef {object} SendOptions
 * @property {number} timeoutMs
 * @property {boolean} expectsReply false for notifications (and batches of only notifications)
 * @property {NativeRpcId[]} ids the ids a reply may carry; how the port finds the request
 * @property {NativeRpcId | null} id reported in errors (null for batches and raw messages)
 * @property {string} [method] reported in errors
 *
 * @typedef {object} Transport
 * @property {'message' | 'port'} kind
 * @property {(message: unknown, options: SendOptions) => Promise<unknown>} send
 * @property {() => void} close
 * @property {() => boolean} [listen] Port only: opens the port now if none is open, and says
 *   whether it did. Throws the browser's error as a NativeTransportError if connectNative throws.
 *
 * @typedef {object} Pending
 * @property {SendOptions} options
 * @property {(reply: unknown) => void} resolve
 * @property {(error: Error) => void} reject
 */

/**
 * Starts a pending request: a promise whose settle functions clear its timer and run `forget`
 * exactly once, whichever comes first (reply, failure, timeout, close).
 * @param {SendOptions} options
 * @param {string} application
 * @param {(pending: Pending) => void} forget removes it from the transport's table
 * @returns {{ pending: Pending, promise: Promise<unknown> }}
 */
function startPending(options, application, forget) {
  /** @type {Pending} */
  let pending = /** @type {any} */ (undefined);
  const promise = new Promise((resolve, reject) => {
    let settled = false;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    let timer;
    /** @template T @param {(value: T) => void} settle @returns {(value: T) => void} */
    const once = (settle) => (value) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      forget(pending);
      settle(value);
    };
    pending = { options, resolve: once(resolve), reject: once(reject) };
    timer = setTimeout(() => {
      const what = options.method === undefined ? 'the message' : options.method;
      pending.reject(new NativeTransportError({
        kind: 'timeout',
        message: `No reply from native host "${application}" to ${what} within ${options.timeoutMs} ms`,
        id: options.id,
        method: options.method,
      }));
    }, options.timeoutMs);
  });
  return { pending, promise };
}

/**
 * @param {Pending} pending
 * @param {string} why
 */
function rejectClosed(pending, why) {
  pending.reject(new NativeTransportError({ kind: 'closed', message: why, id: pending.options.id, method: pending.options.method }));
}

/**
 * @typedef {Required<Pick<NativeMessagingRuntime, 'sendNativeMessage'>> & NativeMessagingRuntime} MessageRuntime
 *
 * @typedef {object} MessageState what one message transport keeps between calls
 * @property {MessageRuntime} runtime
 * @property {string} application
 * @property {Map<Pending, () => void>} inFlight In flight, each with what stops it early (the one-shot port, if any).
 */

/**
 * `runtime.sendNativeMessage`: the browser starts one host process per message and hands back
 * its first reply. Stateless, so it suits a service worker that may be stopped at any moment.
 *
 * Chrome's sendNativeMessage takes only an object ("No matching signature" for an array), so a
 * batch, or any raw message that is not an object, goes over a port opened for that one message
 * and closed after its reply: still one host process per message, and the same first-reply
 * rule, in both browsers.
 * @param {{ runtime: NativeMessagingRuntime, application: string }} config
 * @returns {Transport}
 */
export function createMessageTransport({ runtime: anyRuntime, application }) {
  const runtime = /** @type {MessageRuntime} */ (anyRuntime);
  if (typeof runtime.sendNativeMessage !== 'function') {
    throw new NativeConfigurationError('runtime.sendNativeMessage is not available: add "nativeMessaging" to the extension manifest\'s permissions');
  }
  /** @type {MessageState} */
  const state = { runtime, application, inFlight: new Map() };

  return {
    kind: 'message',
    send(message, options) {
      if (!options.expectsReply) {
        // The browser waits for a first reply that a notification never gets.
        return Promise.reject(new TypeError('notifications need the "port" transport: sendNativeMessage waits for a reply the host never sends'));
      }
      const { pending, promise } = startInFlight(state, options);
      if (isPlainObject(message)) sendMessage(state, message, pending);
      else sendOverOneShotPort(state, message, pending);
      return promise;
    },
    close() {
      for (const pending of [...state.inFlight.keys()]) rejectClosed(pending, 'The native client was closed before the reply arrived');
    },
  };
}

/**
 * Starts a pending request of the message transport and records it as in flight; settling it
 * forgets it and runs whatever stops it early.
 * @param {MessageState} state
 * @param {SendOptions} options
 * @returns {{ pending: Pending, promise: Promise<unknown> }}
 */
function startInFlight(state, options) {
  const { pending, promise } = startPending(options, state.application, (done) => {
    const stop = state.inFlight.get(done);
    state.inFlight.delete(done);
    stop?.();
  });
  state.inFlight.set(pending, () => {});
  return { pending, promise };
}

/**
 * @param {MessageState} state
 * @param {unknown} message
 * @param {Pending} pending
 */
function sendMessage({ runtime, application }, message, pending) {
  const context = { id: pending.options.id, method: pending.options.method };
  /** @type {unknown} */
  let reply;
  try {
    reply = runtime.sendNativeMessage(application, message);
  } catch (error) {
    return pending.reject(transportErrorFromBrowser(error, context));
  }
  if (!isThenable(reply)) {
    return pending.reject(new NativeConfigurationError('runtime.sendNativeMessage did not return a promise: use browser.runtime in Firefox, and Manifest V3 in Chrome'));
  }
  reply.then(pending.resolve, (error) => pending.reject(transportErrorFromBrowser(error, context)));
}

/**
 * @param {MessageState} state
 * @param {unknown} message
 * @param {Pending} pending
 */
function sendOverOneShotPort({ runtime, application, inFlight }, message, pending) {
  const context = { id: pending.options.id, method: pending.options.method };
  if (typeof runtime.connectNative !== 'function') {
    return pending.reject(new NativeConfigurationError('runtime.connectNative is not available, and Chrome\'s sendNativeMessage cannot carry a batch'));
  }
  /** @type {NativeMessagingPort} */
  let port;
  try {
    port = runtime.connectNative(application);
  } catch (error) {
    return pending.reject(transportErrorFromBrowser(error, context));
  }
  // Settling by any path (reply, timeout, close) ends the port, and with it the host.
  inFlight.set(pending, () => disconnectQuietly(port));
  port.onMessage.addListener((reply) => pending.resolve(reply));
  port.onDisconnect.addListener((eventPort) => {
    pending.reject(transportErrorFromBrowser(runtime.lastError ?? eventPort?.error ?? port.error ?? null, context));
  });
  try {
    port.postMessage(message);
  } catch (error) {
    pending.reject(transportErrorFromBrowser(error, context));
  }
}

/**
 * @typedef {NativeMessagingRuntime & Required<Pick<NativeMessagingRuntime, 'connectNative'>>} PortRuntime
 *
 * @typedef {object} PortState what one port transport keeps between calls
 * @property {PortRuntime} runtime
 * @property {string} application
 * @property {(warning: NativeClientWarning) => void} onWarning
 * @property {((notification: { jsonrpc: '2.0', method: string, params?: unknown }) => void) | undefined} onNotification
 *   Receives every JSON-RPC notification (an object with a method and no id); without it they
 *   are reported as unmatched replies, as before sessions had events.
 * @property {(() => boolean) | undefined} hasEventHandlers When it says yes, a dropped port is
 *   reported to onWarning, since events stop until a new port opens.
 * @property {NativeMessagingPort | null} current
 * @property {Set<Pending>} pendings Every pending request, oldest first, held batches included.
 * @property {Map<string, Pending>} byId The same requests by each id they wait for.
 * @property {Pending | null} batchOnWire The one batch posted and not yet answered. The host
 *   refuses a batch as a whole with a single error object carrying id null (-32600 too many
 *   entries, at once; -32000 the joined reply over 1 MiB, once every entry has run, so at any
 *   later moment). Nothing in that reply names the batch, so batches go out one at a time: the
 *   refusal then belongs to the batch on the wire.
 * @property {Map<Pending, unknown>} heldBatches Batches waiting for the one on the wire to
 *   settle, oldest first.
 */

/**
 * `runtime.connectNative`: one long-lived host process shared by every request. Replies come
 * back in whatever order the host finishes and are matched by id; a reply nobody waits for
 * (late after a timeout, or an id never sent) goes to `onWarning` instead of breaking anything.
 * Notifications from the host (session events) go to `onNotification`. When the port drops,
 * everything pending fails with the browser's reason, and the next request (or `listen()`)
 * opens a new port.
 * @param {{ runtime: NativeMessagingRuntime, application: string, onWarning: (warning: NativeClientWarning) => void,
 *   onNotification?: (notification: { jsonrpc: '2.0', method: string, params?: unknown }) => void, hasEventHandlers?: () => boolean }} config
 * @returns {Transport}
 */
export function createPortTransport({ runtime: anyRuntime, application, onWarning, onNotification, hasEventHandlers }) {
  const runtime = /** @type {PortRuntime} */ (anyRuntime);
  if (typeof runtime.connectNative !== 'function') {
    throw new NativeConfigurationError('runtime.connectNative is not available: add "nativeMessaging" to the extension manifest\'s permissions');
  }
  /** @type {PortState} */
  const state = {
    runtime,
    application,
    onWarning,
    onNotification,
    hasEventHandlers,
    current: null,
    pendings: new Set(),
    byId: new Map(),
    batchOnWire: null,
    heldBatches: new Map(),
  };
  return {
    kind: 'port',
    send(message, options) {
      return sendOverPort(state, message, options);
    },
    close() {
      closePort(state);
    },
    listen() {
      if (state.current) return false;
      try {
        state.current = openPort(state);
      } catch (error) {
        throw transportErrorFromBrowser(error);
      }
      return true;
    },
  };
}

/**
 * The port transport's `send`: refuses an id already waiting, connects if need be, then posts
 * a notification or starts a request.
 * @param {PortState} state
 * @param {unknown} message
 * @param {SendOptions} options
 * @returns {Promise<unknown>}
 */
function sendOverPort(state, message, options) {
  for (const id of options.ids) {
    if (state.byId.has(idKey(id))) {
      return Promise.reject(new TypeError(`id ${JSON.stringify(id)} is already waiting for a reply on this port; ids must be unique`));
    }
  }
  /** @type {NativeMessagingPort} */
  let port;
  try {
    port = state.current ?? (state.current = openPort(state));
  } catch (error) {
    return Promise.reject(transportErrorFromBrowser(error, { id: options.id, method: options.method }));
  }
  if (!options.expectsReply) return postNotification(state, port, message, options);
  return startPortRequest(state, port, message, options);
}

/**
 * @param {PortState} state
 * @param {NativeMessagingPort} port
 * @param {unknown} message
 * @param {SendOptions} options
 * @returns {Promise<undefined>}
 */
function postNotification(state, port, message, options) {
  try {
    port.postMessage(message);
  } catch (error) {
    dropPort(state, port, error);
    return Promise.reject(transportErrorFromBrowser(error, { id: options.id, method: options.method }));
  }
  return Promise.resolve(undefined);
}

/**
 * Records a request that expects a reply under each of its ids, then posts it, or holds it if
 * it is a batch and another batch is on the wire.
 * @param {PortState} state
 * @param {NativeMessagingPort} port
 * @param {unknown} message
 * @param {SendOptions} options
 * @returns {Promise<unknown>}
 */
function startPortRequest(state, port, message, options) {
  const { pending, promise } = startPending(options, state.application, (done) => forgetPending(state, done));
  state.pendings.add(pending);
  for (const id of options.ids) state.byId.set(idKey(id), pending);
  // A batch waits its turn behind the one on the wire; its timer already runs, so a batch
  // that times out while held is never sent.
  if (Array.isArray(message) && state.batchOnWire !== null) state.heldBatches.set(pending, message);
  else postRequest(state, port, pending, message);
  return promise;
}

/** @param {PortState} state */
function closePort(state) {
  const port = state.current;
  state.current = null;
  if (port) disconnectQuietly(port);
  for (const pending of [...state.pendings]) rejectClosed(pending, 'The native port was closed before the reply arrived');
}

/**
 * Removes a settled request from the port's tables; if it was the batch on the wire, the next
 * held batch goes out.
 * @param {PortState} state
 * @param {Pending} pending
 */
function forgetPending(state, pending) {
  state.pendings.delete(pending);
  state.heldBatches.delete(pending);
  for (const id of pending.options.ids) {
    if (state.byId.get(idKey(id)) === pending) state.byId.delete(idKey(id));
  }
  if (pending === state.batchOnWire) {
    state.batchOnWire = null;
    releaseHeldBatch(state);
  }
}

/**
 * Posts the oldest held batch, if the port is still up (a drop or close rejects them all).
 * @param {PortState} state
 */
function releaseHeldBatch(state) {
  const port = state.current;
  if (port === null) return;
  const next = state.heldBatches.entries().next();
  if (next.done) return;
  const [pending, message] = next.value;
  state.heldBatches.delete(pending);
  postRequest(state, port, pending, message);
}

/**
 * @param {PortState} state
 * @param {NativeMessagingPort} port
 * @param {Pending} pending
 * @param {unknown} message
 */
function postRequest(state, port, pending, message) {
  if (Array.isArray(message)) state.batchOnWire = pending;
  try {
    port.postMessage(message);
  } catch (error) {
    // "Attempt to postMessage on disconnected port": the port is gone even if its
    // onDisconnect has not run yet. Fail everything on it; the next send reconnects.
    dropPort(state, port, error);
    disconnectQuietly(port);
  }
}

/**
 * @param {PortState} state
 * @param {NativeClientWarning} warning
 */
function reportWarning(state, warning) {
  try {
    state.onWarning(warning);
  } catch {
    // A faulty hook must not take the transport down with it.
  }
}

/**
 * @param {PortState} state
 * @returns {NativeMessagingPort}
 */
function openPort(state) {
  const { runtime } = state;
  const port = runtime.connectNative(state.application);
  port.onMessage.addListener((reply) => receiveReply(state, port, reply));
  port.onDisconnect.addListener((eventPort) => {
    if (port !== state.current) return;  // closed on purpose, or replaced already
    // Chrome puts the reason in runtime.lastError, readable only inside this listener (and
    // logs "Unchecked runtime.lastError" if nobody reads it); Firefox puts it in port.error.
    const failure = runtime.lastError ?? eventPort?.error ?? port.error ?? null;
    dropPort(state, port, failure);
  });
  return port;
}

/**
 * @param {PortState} state
 * @param {NativeMessagingPort} port
 * @param {unknown} failure
 */
function dropPort(state, port, failure) {
  if (port !== state.current) return;
  state.current = null;
  for (const pending of [...state.pendings]) {
    pending.reject(transportErrorFromBrowser(failure, { id: pending.options.id, method: pending.options.method }));
  }
  if (state.hasEventHandlers?.()) {
    const error = transportErrorFromBrowser(failure);
    reportWarning(state, {
      kind: 'port-disconnected',
      message: `the port to "${state.application}" disconnected (${error.message}): session events stop until the next request or on() opens a new port`,
      reply: undefined,
      error,
    });
  }
}

/**
 * @param {PortState} state
 * @param {NativeMessagingPort} port
 * @param {unknown} reply
 */
function receiveReply(state, port, reply) {
  if (port !== state.current) return;
  if (state.onNotification && isNotification(reply)) {
    try {
      state.onNotification(reply);
    } catch {
      // The client's dispatcher reports its own failures; nothing may take the port down.
    }
    return;
  }
  const target = matchReply(state, reply);
  if (target) {
    target.resolve(reply);
  } else {
    reportWarning(state, { kind: 'unmatched-reply', message: `ignored a reply from "${state.application}" that no pending request is waiting for`, reply });
  }
}

/**
 * A JSON-RPC 2.0 notification: an object with a method and no id member at all (a reply the
 * host could not give an id has `id: null`, and stays a reply).
 * @param {unknown} message
 * @returns {message is { jsonrpc: '2.0', method: string, params?: unknown }}
 */
function isNotification(message) {
  return isPlainObject(message) && message.jsonrpc === '2.0' && typeof message.method === 'string' && !('id' in message);
}

/**
 * By id when the reply has one (for a batch reply, the first entry with an id). A reply with
 * id null names no request, so:
 * - a whole-batch refusal (one error object, code -32600 or -32000) goes to the batch on the
 *   wire: a request this client builds always has an id the host can read, so only a batch
 *   is refused that way;
 * - any other (-32700 a frame the host could not parse, -32004 a frame over its cap, after
 *   which it exits) goes to the request that was sent, if exactly one was; otherwise it is
 *   reported, and the host's exit or the timeouts end the wait.
 * @param {PortState} state
 * @param {unknown} reply
 * @returns {Pending | undefined}
 */
function matchReply({ byId, batchOnWire, pendings, heldBatches }, reply) {
  for (const id of idsOfReply(reply)) {
    const pending = byId.get(idKey(id));
    if (pending) return pending;
  }
  if (batchOnWire && isWholeBatchRefusal(reply)) return batchOnWire;
  if (hasOnlyNullIds(reply) && pendings.size - heldBatches.size === 1) {
    for (const pending of pendings) if (!heldBatches.has(pending)) return pending;
  }
  return undefined;
}

/**
 * The ids a reply carries: its own, or its entries' for a batch reply.
 * @param {unknown} reply
 * @returns {NativeRpcId[]}
 */
function idsOfReply(reply) {
  const elements = Array.isArray(reply) ? reply : [reply];
  /** @type {NativeRpcId[]} */
  const ids = [];
  for (const element of elements) {
    if (isPlainObject(element) && (typeof element.id === 'string' || typeof element.id === 'number')) ids.push(element.id);
  }
  return ids;
}

/**
 * True for what the host sends when it could not read an id: an object with `id: null`, or a
 * batch reply made only of those.
 * @param {unknown} reply
 */
function hasOnlyNullIds(reply) {
  const elements = Array.isArray(reply) ? reply : [reply];
  return elements.length > 0 && elements.every((element) => isPlainObject(element) && element.id === null);
}

/**
 * The host's answer to a batch it refused as a whole: one error object, id null, code -32600
 * (more entries than its limit) or -32000 (the joined reply over 1 MiB).
 * @param {unknown} reply
 */
function isWholeBatchRefusal(reply) {
  return isPlainObject(reply) && reply.id === null && isPlainObject(reply.error)
    && (reply.error.code === -32600 || reply.error.code === -32000);
}

/** @param {NativeMessagingPort} port */
function disconnectQuietly(port) {
  try {
    port.disconnect();
  } catch {
    // Already disconnected: the goal is reached.
  }
}

/**
 * @param {unknown} value
 * @returns {value is PromiseLike<unknown>}
 */
function isThenable(value) {
  return typeof value === 'object' && value !== null && typeof (/** @type {any} */ (value).then) === 'function';
}
