/**
 * Fakes for wallet-bridge/provider's tests: windows that deliver postMessage as the browsers do
 * (asynchronously, cloned, with the sending window as `source`), the extension's runtime ports
 * between content scripts and the background (each with the sender the browser gives it), and a
 * small wallet host that keeps sessions per (site) origin as docs/sessions.md says the wallet
 * does. Not a test file: it defines no tests.
 */
import { randomBytes } from 'node:crypto';
import { FakeEvent, FakeRuntime } from './fakes.js';
import { normalizedMetadata, normalizedNamespaces } from './session-fakes.js';

export const SITE_A = 'http://127.0.0.1:8123';
export const SITE_B = 'http://127.0.0.1:8124';
export const EXTENSION_ID = 'lomginbgokjlanbmjnnlmfopcncfonip';
export const HOST = 'com.walletbridge.host';
export const CHANNEL = 'wallet-bridge/test';
export const ETH_ADDRESS = '0x' + '11'.repeat(20);
export const SOL_ADDRESS = '11111111111111111111111111111112';
export const MAINNET = 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp';
export const INFO = Object.freeze({ uuid: '6f1f3c2e-8d1b-4b7a-9a55-3e0f2c9d4b61', name: 'Test wallet', icon: 'data:image/png;base64,iVBORw0KGgo=', rdns: 'dev.wallet-bridge' });
export const METADATA = Object.freeze({ name: 'Test wallet extension', url: 'https://example.org' });

/** A window: events, postMessage to itself (or from a frame), a document that records scripts. */
export class FakeWindow {
  /**
   * @param {string} origin
   */
  constructor(origin) {
    /** @type {Map<string, Set<Function>>} */
    this.listeners = new Map();
    this.location = { origin, href: `${origin}/index.html` };
    /** @type {any[]} every message posted to this window, as delivered */
    this.delivered = [];
    /** @type {any[]} scripts appended to the document */
    this.scripts = [];
    const scripts = this.scripts;
    this.document = {
      currentScript: null,
      head: { append: (/** @type {any} */ element) => scripts.push(element) },
      documentElement: { append: (/** @type {any} */ element) => scripts.push(element) },
      createElement: () => {
        const element = new FakeEventTarget();
        return Object.assign(element, { type: '', src: '', removed: false, remove() { this.removed = true; } });
      },
    };
    const win = this;
    this.CustomEvent = class {
      /** @param {string} type @param {{ detail?: unknown }} [init] */
      constructor(type, init = {}) {
        this.type = type;
        this.detail = init.detail;
      }
    };
    void win;
  }

  /** @param {string} type @param {Function} listener */
  addEventListener(type, listener) {
    let set = this.listeners.get(type);
    if (!set) this.listeners.set(type, (set = new Set()));
    set.add(listener);
  }

  /** @param {string} type @param {Function} listener */
  removeEventListener(type, listener) {
    this.listeners.get(type)?.delete(listener);
  }

  /** @param {{ type: string }} event */
  dispatchEvent(event) {
    for (const listener of [...(this.listeners.get(event.type) ?? [])]) listener(event);
    return true;
  }

  /**
   * This window's own scripts posting to it.
   * @param {unknown} message
   * @param {string} [targetOrigin]
   */
  postMessage(message, targetOrigin = '*') {
    this.receive(message, this, this.location.origin, targetOrigin);
  }

  /**
   * A message arriving from `source` (this window, or a frame), delivered later as browsers do.
   * @param {unknown} message
   * @param {unknown} source
   * @param {string} origin the sender's origin
   * @param {string} [targetOrigin]
   */
  receive(message, source, origin, targetOrigin = '*') {
    if (targetOrigin !== '*' && targetOrigin !== this.location.origin) return;
    const data = structuredClone(message);
    setImmediate(() => {
      this.delivered.push(data);
      this.dispatchEvent(/** @type {any} */ ({ type: 'message', data, source, origin }));
    });
  }
}

class FakeEventTarget {
  /** @type {Map<string, Function[]>} */
  #listeners = new Map();
  /** @param {string} type @param {Function} listener */
  addEventListener(type, listener) {
    this.#listeners.set(type, [...(this.#listeners.get(type) ?? []), listener]);
  }
  /** @param {string} type */
  fire(type) {
    for (const listener of this.#listeners.get(type) ?? []) listener({ type });
  }
}

/**
 * One end of a runtime port; `peer` is the other end. Messages go through JSON, as Chrome
 * serializes runtime messages.
 */
export class FakeRuntimePort {
  /**
   * @param {string} name
   * @param {any} [sender] what the background's end says of the other side
   */
  constructor(name, sender) {
    this.name = name;
    this.sender = sender;
    this.onMessage = new FakeEvent();
    this.onDisconnect = new FakeEvent();
    /** @type {FakeRuntimePort | null} */
    this.peer = null;
    this.connected = true;
    /** @type {unknown[]} */
    this.posted = [];
  }

  /** @param {unknown} message */
  postMessage(message) {
    if (!this.connected) throw new Error('Attempt to postMessage on disconnected port');
    this.posted.push(message);
    const copy = JSON.parse(JSON.stringify(message));
    const peer = this.peer;
    setImmediate(() => {
      if (peer && peer.connected) peer.onMessage.emit(copy, peer);
    });
  }

  /** This end closes: the other end hears onDisconnect (as in the browsers), this one does not. */
  disconnect() {
    if (!this.connected) return;
    this.connected = false;
    const peer = this.peer;
    if (peer && peer.connected) {
      peer.connected = false;
      setImmediate(() => peer.onDisconnect.emit(peer));
    }
  }
}

/**
 * The browser's extension messaging: the background's runtime (connectNative through
 * FakeRuntime, onConnect, onMessage, id) and, per tab, a content script runtime whose
 * `connect` opens a port pair with the sender the browser would give it.
 */
export class FakeBrowser {
  /**
   * @param {(message: any, port: any) => unknown} host the native host
   */
  constructor(host) {
    const native = new FakeRuntime({ flavor: 'chrome', hosts: { [HOST]: host } });
    this.native = native;
    this.onConnect = new FakeEvent();
    this.onMessage = new FakeEvent();
    const browser = this;
    /** The background's runtime. */
    this.background = {
      id: EXTENSION_ID,
      get lastError() { return native.lastError; },
      connectNative: (/** @type {string} */ application) => native.connectNative(application),
      onConnect: browser.onConnect,
      onMessage: browser.onMessage,
    };
    /** @type {FakeRuntimePort[]} the background's ends, in order */
    this.backgroundPorts = [];
  }

  /**
   * A content script's runtime in a tab whose page is at `origin` (or `url`).
   * @param {{ tabId: number, origin?: string, url?: string, frameId?: number, id?: string, withoutTab?: boolean,
   *   incognito?: boolean }} where
   */
  contentRuntime(where) {
    return {
      connect: (/** @type {{ name: string }} */ { name }) => {
        const sender = {
          id: where.id ?? EXTENSION_ID,
          url: where.url ?? `${where.origin}/index.html`,
          ...(where.origin === undefined ? {} : { origin: where.origin }),
          frameId: where.frameId ?? 0,
          ...(where.withoutTab ? {} : { tab: { id: where.tabId, incognito: where.incognito ?? false } }),
        };
        const contentEnd = new FakeRuntimePort(name);
        const backgroundEnd = new FakeRuntimePort(name, sender);
        contentEnd.peer = backgroundEnd;
        backgroundEnd.peer = contentEnd;
        this.backgroundPorts.push(backgroundEnd);
        setImmediate(() => this.onConnect.emit(backgroundEnd));
        return contentEnd;
      },
    };
  }

  /**
   * runtime.sendMessage from an extension page or a content script: resolves to the answer.
   * @param {unknown} message
   * @param {any} sender
   */
  sendMessage(message, sender) {
    return new Promise((resolve) => {
      let answered = false;
      for (const listener of this.onMessage.listeners) {
        const keep = listener(JSON.parse(JSON.stringify(message)), sender, (/** @type {unknown} */ response) => {
          answered = true;
          resolve(response);
        });
        if (keep === true) return;
      }
      if (!answered) resolve(undefined);
    });
  }
}

/**
 * A wallet host that keeps sessions per origin (a topic of another origin is 7001, as the
 * wallet answers it), signs nothing real, and sends session_delete with the origin. Every
 * request is recorded. `answers` overrides an inner method's answer.
 */
export function createSiteWallet() {
  /** @type {Map<string, any>} */
  const sessions = new Map();
  const wallet = {
    sessions,
    /** @type {any[]} */
    requests: [],
    /** @type {Record<string, (params: any) => any>} */
    answers: {},
    /** @type {any} the native port, to send notifications */
    port: null,
    rejectNext: false,
    /** The wallet has no Ethereum key: a session_connect leaves the optional eip155 namespace out. */
    noEthereumKey: false,
    /** @type {Set<string>} wallet methods left unanswered (a dialog that stays open, a slow host) */
    hang: new Set(),
    /**
     * @param {any} message
     * @param {any} port
     */
    host(message, port) {
      wallet.port = port;
      if (message.id === undefined) return undefined;
      wallet.requests.push(message);
      const { id, method, params = {} } = message;
      if (wallet.hang.has(method)) return new Promise(() => {});
      /** @param {unknown} result */
      const ok = (result) => ({ jsonrpc: '2.0', id, result });
      /** @param {number} code @param {string} text */
      const fail = (code, text) => ({ jsonrpc: '2.0', id, error: { code, message: text } });
      const mine = (/** @type {any} */ session) => session && session.origin === params.origin;
      switch (method) {
        case 'session_connect': {
          if (wallet.rejectNext) {
            wallet.rejectNext = false;
            return fail(5000, 'User rejected');
          }
          const topic = randomBytes(32).toString('hex');
          const session = {
            topic,
            namespaces: {
              eip155: { chains: ['eip155:1', 'eip155:137'], accounts: [`eip155:1:${ETH_ADDRESS}`, `eip155:137:${ETH_ADDRESS}`], methods: ['personal_sign', 'eth_signTypedData_v4', 'eth_signTransaction'], events: ['accountsChanged'] },
              solana: { chains: [MAINNET], accounts: [`${MAINNET}:${SOL_ADDRESS}`], methods: ['solana_signMessage', 'solana_signTransaction', 'solana_signIn'], events: ['accountsChanged'] },
            },
            requiredNamespaces: normalizedNamespaces(params.requiredNamespaces),
            optionalNamespaces: normalizedNamespaces(params.optionalNamespaces),
            expiry: Math.floor(Date.now() / 1000) + 3600,
            self: { metadata: normalizedMetadata(params.metadata) },
            peer: { metadata: normalizedMetadata({ name: 'wallet-bridge' }) },
            ...(params.origin === undefined ? {} : { origin: params.origin }),
          };
          if (wallet.noEthereumKey) delete session.namespaces.eip155;
          sessions.set(topic, session);
          return ok(session);
        }
        case 'session_list':
          return ok({ sessions: [...sessions.values()].filter(mine) });
        case 'session_request': {
          const session = sessions.get(params.topic);
          if (!mine(session)) return fail(7001, 'No session for topic');
          const inner = params.request.method;
          if (wallet.answers[inner]) {
            const answer = wallet.answers[inner](params);
            if (typeof answer?.then === 'function') return answer.then(ok);
            return answer?.error ? { jsonrpc: '2.0', id, error: answer.error } : ok(answer);
          }
          if (inner === 'personal_sign' || inner === 'eth_signTypedData_v4') return ok(`0x${'ab'.repeat(64)}1b`);
          return fail(3001, 'Unauthorized method');
        }
        case 'session_disconnect': {
          const session = sessions.get(params.topic);
          if (!mine(session)) return fail(7001, 'No session for topic');
          sessions.delete(params.topic);
          setImmediate(() => wallet.notify('session_delete', { topic: params.topic, reason: { code: 6000, message: 'User disconnected' }, origin: session.origin }));
          return ok({});
        }
        default:
          return fail(-32601, 'Method not found');
      }
    },
    /**
     * @param {string} method
     * @param {any} params
     */
    notify(method, params) {
      wallet.port.reply({ jsonrpc: '2.0', method, params });
    },
  };
  return wallet;
}

/** Lets every pending setImmediate chain run (messages hop window -> content -> background -> host and back). */
export async function settle(rounds = 20) {
  for (let index = 0; index < rounds; index += 1) await new Promise((resolve) => setImmediate(resolve));
}
