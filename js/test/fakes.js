/**
 * Small fakes of the two browsers' runtime objects, enough to drive both transports the way
 * Firefox and Chrome do: promise-returning sendNativeMessage, ports whose disconnect reason is
 * in chrome.runtime.lastError (readable only during onDisconnect) or in Firefox's port.error,
 * postMessage that throws once the port is gone, and messages cloned on the way (the browsers
 * serialise them). Not a test file: it defines no tests.
 */

/** The browsers' own texts, as the extension receives them. */
export const BROWSER_MESSAGES = Object.freeze({
  chrome: Object.freeze({
    notFound: () => 'Specified native messaging host not found.',
    exited: 'Native host has exited.',
    communication: 'Error when communicating with the native messaging host.',
    forbidden: 'Access to the specified native messaging host is forbidden.',
    /** Chrome validates sendNativeMessage's arguments: `message` must be an object. */
    notAnObject: 'Error in invocation of runtime.sendNativeMessage([string|runtime.NativeMessageTarget] application, object message, optional function callback): No matching signature.',
  }),
  firefox: Object.freeze({
    notFound: (/** @type {string} */ application) => `No such native application ${application}`,
    exited: 'An unexpected error occurred',
    communication: 'Native application tried to send a message of 1048577 bytes, which exceeds the limit of 1048576 bytes.',
    forbidden: 'No such native application (forbidden)',
  }),
});

export class FakeEvent {
  /** @type {Function[]} */
  listeners = [];
  /** @param {Function} listener */
  addListener(listener) { this.listeners.push(listener); }
  /** @param {Function} listener */
  removeListener(listener) { this.listeners = this.listeners.filter((l) => l !== listener); }
  /** @param {...unknown} args */
  emit(...args) { for (const listener of [...this.listeners]) listener(...args); }
}

/**
 * Fires a port's onDisconnect the way each browser does: Chrome sets runtime.lastError only
 * while the listeners run; Firefox puts an Error on port.error. `message` null is a clean close.
 * @param {{ onDisconnect: FakeEvent, error?: Error | null }} port
 * @param {{ lastError?: { message: string } }} runtime
 * @param {'chrome' | 'firefox'} flavor
 * @param {string | null} message
 */
export function emitDisconnect(port, runtime, flavor, message) {
  if (flavor === 'chrome') {
    runtime.lastError = message === null ? undefined : { message };
    try {
      port.onDisconnect.emit(port);
    } finally {
      runtime.lastError = undefined;
    }
  } else {
    port.error = message === null ? null : new Error(message);
    port.onDisconnect.emit(port);
  }
}

/** A connectNative port. The test plays the host through reply() and hostDisconnect(). */
export class FakePort {
  /**
   * @param {FakeRuntime} runtime
   * @param {string} name
   * @param {FakeHost | undefined} host answers each posted message, when given
   */
  constructor(runtime, name, host) {
    this.runtime = runtime;
    this.name = name;
    this.host = host;
    this.onMessage = new FakeEvent();
    this.onDisconnect = new FakeEvent();
    /** Firefox only: why the port disconnected. @type {{ message: string } | null} */
    this.error = null;
    /** @type {unknown[]} what the extension posted, cloned */
    this.posted = [];
    this.connected = true;
    this.disconnectedByExtension = false;
  }

  /** @param {unknown} message */
  postMessage(message) {
    if (!this.connected) throw new Error('Attempt to postMessage on disconnected port');
    const copy = structuredClone(message);
    this.posted.push(copy);
    if (this.host) {
      const host = this.host;
      Promise.resolve()
        .then(() => host(copy, this))
        .then((reply) => {
          if (reply !== undefined) this.reply(reply);
        });
    }
  }

  disconnect() {
    // As in both browsers: disconnecting your own end does not fire your onDisconnect.
    this.connected = false;
    this.disconnectedByExtension = true;
  }

  /**
   * The host writes a message; it arrives asynchronously, as in a browser.
   * @param {unknown} message
   */
  reply(message) {
    const copy = structuredClone(message);
    setImmediate(() => {
      if (this.connected) this.onMessage.emit(copy, this);
    });
  }

  /**
   * The host goes away (or the browser drops it) with the browser's message, or with none.
   * @param {string | null} message
   */
  hostDisconnect(message) {
    if (!this.connected) return;
    this.connected = false;
    emitDisconnect(this, this.runtime, this.runtime.flavor, message);
  }
}

/**
 * @typedef {(message: any, port?: FakePort) => unknown} FakeHost returns the reply, a promise of
 *   it, or undefined for no reply; may throw to make sendNativeMessage fail with that message
 */

export class FakeRuntime {
  /**
   * @param {{ flavor: 'chrome' | 'firefox', hosts?: Record<string, FakeHost | undefined> }} options
   */
  constructor({ flavor, hosts = {} }) {
    this.flavor = flavor;
    this.hosts = hosts;
    /** @type {{ message: string } | undefined} */
    this.lastError = undefined;
    /** @type {FakePort[]} */
    this.ports = [];
    /** @type {unknown[]} messages sent with sendNativeMessage, cloned */
    this.sent = [];
  }

  /**
   * @param {string} application
   * @param {unknown} message
   */
  sendNativeMessage(application, message) {
    if (this.flavor === 'chrome' && (typeof message !== 'object' || message === null || Array.isArray(message))) {
      throw new TypeError(BROWSER_MESSAGES.chrome.notAnObject);
    }
    const copy = structuredClone(message);
    this.sent.push(copy);
    const host = this.hosts[application];
    if (!host) return Promise.reject(new Error(BROWSER_MESSAGES[this.flavor].notFound(application)));
    return new Promise((resolve, reject) => {
      setImmediate(async () => {
        try {
          const reply = await host(copy);
          // A host that writes nothing and exits: the browser reports the exit.
          if (reply === undefined) reject(new Error(BROWSER_MESSAGES[this.flavor].exited));
          else resolve(structuredClone(reply));
        } catch (error) {
          reject(error);
        }
      });
    });
  }

  /** @param {string} application */
  connectNative(application) {
    const host = this.hosts[application];
    const port = new FakePort(this, application, host);
    this.ports.push(port);
    if (!host) {
      // Both browsers hand back a port and then disconnect it with the reason.
      setImmediate(() => port.hostDisconnect(BROWSER_MESSAGES[this.flavor].notFound(application)));
    }
    return port;
  }

  /** The port opened last. */
  get port() {
    return this.ports[this.ports.length - 1];
  }
}

/**
 * A runtime shaped like `browser.runtime` (Firefox) or `chrome.runtime` (Chrome MV3).
 * @param {Record<string, FakeHost | undefined>} [hosts]
 */
export const fakeFirefox = (hosts) => new FakeRuntime({ flavor: 'firefox', hosts });
/** @param {Record<string, FakeHost | undefined>} [hosts] */
export const fakeChrome = (hosts) => new FakeRuntime({ flavor: 'chrome', hosts });

/** Base64 public keys a fake wallet reports. Arbitrary bytes: the fakes sign nothing. */
export const FAKE_ADDRESSES = Object.freeze(['AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=']);

/**
 * A small JSON-RPC host for the fakes: answers like wallet-bridge for a few methods.
 * @param {any} message
 */
export function fakeWalletHost(message) {
  if (Array.isArray(message)) {
    const replies = message.map((entry) => fakeWalletHost(entry)).filter((reply) => reply !== undefined);
    return replies.length > 0 ? replies : undefined;
  }
  const { id, method, params } = message;
  if (id === undefined) return undefined;
  /** @param {unknown} result */
  const ok = (result) => ({ jsonrpc: '2.0', id, result });
  /** @param {number} code @param {string} text @param {unknown} [data] */
  const fail = (code, text, data) => ({ jsonrpc: '2.0', id, error: data === undefined ? { code, message: text } : { code, message: text, data } });
  switch (method) {
    case 'subtract': return ok(params[0] - params[1]);
    case 'sum': return ok(params.reduce((/** @type {number} */ a, /** @type {number} */ b) => a + b, 0));
    case 'test.echo': return ok(params);
    case 'NATIVE_GET_ACCOUNTS_METHOD': return ok({ addresses: [...FAKE_ADDRESSES] });
    case 'NATIVE_SIGN_PAYLOADS_METHOD':
      if (params.address !== FAKE_ADDRESSES[0]) return fail(-32602, 'Invalid params', { field: 'address', problem: 'no account with this address' });
      return ok({ signed_payloads: params.payloads.map((/** @type {string} */ p) => `${p}+sig`) });
    case 'test.error': return fail(params.code, params.message, params.data);
    default: return fail(-32601, 'Method not found', { problem: `no method named "${method}"` });
  }
}

/** Resolves after pending setImmediate callbacks (fake deliveries) have run. */
export function flush() {
  return new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
}
