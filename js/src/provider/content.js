/**
 * The content script's half of wallet-bridge/provider (the extension's isolated world): makes
 * the page's random id, injects the page script with it, and relays between the page
 * (window.postMessage on the channel) and the background (one runtime port for this page). It
 * takes only this window's own messages on its channel with its id, and adds nothing a page
 * could choose: the background learns the site and the tab from the port itself.
 */
import { describe, isPlainObject } from '../protocol.js';
import {
  CALLS, DISCONNECTED_EVENT, MAX_ARGS_BYTES, MAX_PENDING_PER_PAGE, PORT_NAME, ProviderErrorCode, STATE_EVENT, TOO_LARGE, argsBytes,
} from './wire.js';

/** The request number of the content script's own 'state' request after a reconnect (a page's are >= 0). */
const STATE_RID = -1;

/** A channel name: letters, digits and `:._/-`, 1 to 100 of them (as the page checks it). */
const CHANNEL = /^[\w:./-]{1,100}$/;

/**
 * @typedef {{ postMessage(message: unknown): void, disconnect(): void,
 *   onMessage: { addListener(listener: (message: any) => void): void },
 *   onDisconnect: { addListener(listener: () => void): void } }} RuntimePort
 * @typedef {{ connect(info: { name: string }): RuntimePort }} ContentRuntime
 */

/**
 * Starts the relay and injects the page script (`pageScriptUrl#<id>`, a module).
 * @param {{ channel: string, pageScriptUrl: string, window?: any, runtime?: any }} options
 *   `window` and `runtime`: for tests (default: the content script's own).
 * @returns {{ id: string, stop(): void }} the page's id, and a stop that ends the relay
 */
export function startContentScript(options) {
  if (!isPlainObject(options)) {
    throw new TypeError(`startContentScript takes { channel, pageScriptUrl }, not ${describe(options)}`);
  }
  const { channel, pageScriptUrl } = options;
  if (typeof channel !== 'string' || !CHANNEL.test(channel)) {
    throw new TypeError('channel must be 1 to 100 letters, digits or :._/- (the page\'s channel)');
  }
  if (typeof pageScriptUrl !== 'string' || pageScriptUrl.includes('#')) {
    throw new TypeError('pageScriptUrl must be the page script\'s URL, runtime.getURL("page.js"), without a #');
  }
  const win = options.window ?? globalThis.window;
  /** @type {ContentRuntime} */
  const runtime = options.runtime ?? findRuntime();
  const id = randomId(win);
  /** @type {RuntimePort | null} */
  let port = null;
  /** @type {Set<number>} requests sent on the current port, not yet answered */
  const pending = new Set();
  let stopped = false;
  const target = () => {
    const origin = win.location?.origin;
    return typeof origin === 'string' && origin !== 'null' ? origin : '*';
  };
  /** @param {Record<string, unknown>} message */
  const toPage = (message) => win.postMessage({ channel, id, ...message }, target());
  /**
   * @param {number} rid
   * @param {number} code
   * @param {string} message
   */
  const refuse = (rid, code, message) => toPage({ type: 'reply', rid, error: { code, message } });

  /** @type {WeakSet<RuntimePort>} ports the background answered on: it served them */
  const served = new WeakSet();

  /**
   * The port is gone (the background's service worker restarted, the extension reloaded): what
   * was asked on it will not be answered, and the page hears so. A port the background had served
   * is replaced at once, and the site's state asked for again (a new background knows nothing of
   * the old one's: the page hears its accounts as they are now); one it never served (it refused
   * the port) is not, so a refusal cannot become a loop. Otherwise the next request opens one.
   * @param {RuntimePort} lost
   */
  const lose = (lost) => {
    if (lost !== port) return;
    port = null;
    const why = 'The wallet extension\'s background went away before answering';
    for (const rid of pending) refuse(rid, ProviderErrorCode.disconnected, why);
    pending.clear();
    toPage({ type: 'event', event: DISCONNECTED_EVENT });
    if (stopped || !served.has(lost)) return;
    try {
      const current = (port = connect());
      current.postMessage({ rid: STATE_RID, call: 'state', args: {} });
    } catch {
      // The extension itself is gone (reloaded, removed): the next request tries again.
      port = null;
    }
  };

  const connect = () => {
    const opened = runtime.connect({ name: PORT_NAME });
    opened.onMessage.addListener((message) => {
      if (opened !== port || !isPlainObject(message)) return;
      served.add(opened);
      if (message.rid === STATE_RID) {
        if (isPlainObject(message.result)) toPage({ type: 'event', event: STATE_EVENT, data: message.result });
      } else if (typeof message.rid === 'number') {
        if (!pending.delete(message.rid)) return;
        const { rid } = message;
        toPage(isPlainObject(message.error) ? { type: 'reply', rid, error: message.error } : { type: 'reply', rid, result: message.result });
      } else if (typeof message.event === 'string') {
        toPage({ type: 'event', event: message.event, data: message.data });
      }
    });
    opened.onDisconnect.addListener(() => lose(opened));
    return opened;
  };

  /** @param {MessageEvent} event */
  const onMessage = (event) => {
    // Only this window's own scripts: a frame's (another site's) messages have another source.
    if (stopped || event.source !== win) return;
    const data = event.data;
    if (!isPlainObject(data) || data.channel !== channel || data.id !== id || data.type !== 'request') return;
    const { rid, call, args } = data;
    if (typeof rid !== 'number' || !Number.isSafeInteger(rid) || rid < 0 || pending.has(rid)) return;
    if (typeof call !== 'string' || !CALLS.includes(call)) {
      return refuse(rid, ProviderErrorCode.unsupportedMethod, `The wallet does not offer ${JSON.stringify(String(call).slice(0, 50))}`);
    }
    if (args !== undefined && !isPlainObject(args)) return refuse(rid, ProviderErrorCode.invalidParams, 'args must be an object');
    // Only JSON crosses to the background, and no more than the wallet takes (see MAX_ARGS_BYTES).
    const size = argsBytes(args ?? {});
    if (size < 0) return refuse(rid, ProviderErrorCode.invalidParams, 'args cannot be written as JSON');
    if (size > MAX_ARGS_BYTES) return refuse(rid, ProviderErrorCode.limitExceeded, TOO_LARGE);
    if (pending.size >= MAX_PENDING_PER_PAGE) {
      return refuse(rid, ProviderErrorCode.limitExceeded, `More than ${MAX_PENDING_PER_PAGE} requests are waiting: wait for their answers`);
    }
    /** @type {RuntimePort | null} */
    let current = null;
    try {
      current = port ??= connect();
      pending.add(rid);
      current.postMessage({ rid, call, args: args ?? {} });
    } catch (error) {
      // "Attempt to postMessage on disconnected port": gone before its onDisconnect ran.
      if (current !== null && pending.has(rid)) return lose(current);
      const why = /** @type {Error} */ (error)?.message ?? String(error);
      refuse(rid, ProviderErrorCode.disconnected, `The wallet extension's background cannot be reached: ${why}`);
    }
  };
  win.addEventListener('message', onMessage);
  port = connect();
  inject(win.document, `${pageScriptUrl}#${id}`);
  return {
    id,
    stop() {
      stopped = true;
      win.removeEventListener('message', onMessage);
      const current = port;
      port = null;
      try {
        current?.disconnect();
      } catch {
        // Already gone.
      }
    },
  };
}

/**
 * Adds the page script as a module, first in the document, and removes the element once loaded
 * (the module stays).
 * @param {any} doc
 * @param {string} src
 */
function inject(doc, src) {
  const script = doc.createElement('script');
  script.type = 'module';
  script.src = src;
  script.addEventListener('load', () => script.remove());
  (doc.head ?? doc.documentElement).append(script);
}

/**
 * 16 random bytes in hex.
 * @param {any} win
 */
function randomId(win) {
  const bytes = new Uint8Array(16);
  (win.crypto ?? globalThis.crypto).getRandomValues(bytes);
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** @returns {ContentRuntime} */
function findRuntime() {
  const scope = /** @type {{ browser?: { runtime?: ContentRuntime }, chrome?: { runtime?: ContentRuntime } }} */ (globalThis);
  const runtime = scope.browser?.runtime ?? scope.chrome?.runtime;
  if (!runtime) {
    throw new TypeError('no browser.runtime or chrome.runtime here: call startContentScript in a content script, or pass options.runtime');
  }
  return runtime;
}
