/**
 * Plays the browser's side of native messaging in Node, so the package can talk to the real
 * Swift host: spawns the host binary with browser-like arguments, frames messages over its
 * stdin and stdout (4-byte native-endian length + UTF-8 JSON), and exposes a `runtime` with
 * sendNativeMessage (a new process per message) and connectNative (one process per port) that
 * behave like Chrome's or Firefox's, including their error texts and the 1 MiB reply limit.
 * Not a test file: it defines no tests.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { endianness } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BROWSER_MESSAGES, FakeEvent, emitDisconnect } from './fakes.js';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const HOST_PATH = process.env.WALLET_BRIDGE_CONFORMANCE_HOST ?? join(REPO_ROOT, '.build/debug/wallet-bridge-conformance-host');
export const APPLICATION = 'com.example.wallet_bridge';
/** Both browsers drop a host-to-browser message above this. */
export const BROWSER_MAX_REPLY_BYTES = 1_048_576;

const littleEndian = endianness() === 'LE';

/**
 * Fails (never skips) when the host binary is missing, saying how to build it.
 * @param {string} [path]
 */
export function requireHost(path = HOST_PATH) {
  if (!existsSync(path)) {
    throw new Error(`The conformance host is not built: ${path} does not exist. Run \`swift build\` in ${REPO_ROOT} `
      + '(or set WALLET_BRIDGE_CONFORMANCE_HOST to the binary), then run the tests again.');
  }
}

/** @param {unknown} value */
export function encodeFrame(value) {
  const body = Buffer.from(JSON.stringify(value), 'utf8');
  const header = Buffer.alloc(4);
  if (littleEndian) header.writeUInt32LE(body.length); else header.writeUInt32BE(body.length);
  return Buffer.concat([header, body]);
}

/** Splits a byte stream into frame bodies, however it is chunked; refuses oversize headers. */
export class FrameReader {
  /** @param {number} maxBytes */
  constructor(maxBytes) {
    this.maxBytes = maxBytes;
    this.buffer = Buffer.alloc(0);
  }

  /**
   * @param {Buffer} chunk
   * @returns {Buffer[]}
   * @throws {RangeError} when a header announces more than maxBytes
   */
  push(chunk) {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    const frames = [];
    while (this.buffer.length >= 4) {
      const length = littleEndian ? this.buffer.readUInt32LE(0) : this.buffer.readUInt32BE(0);
      if (length > this.maxBytes) throw new RangeError(`message of ${length} bytes exceeds the limit of ${this.maxBytes}`);
      if (this.buffer.length < 4 + length) break;
      frames.push(this.buffer.subarray(4, 4 + length));
      this.buffer = this.buffer.subarray(4 + length);
    }
    return frames;
  }
}

/**
 * @typedef {object} ShimOptions
 * @property {'chrome' | 'firefox'} [flavor] whose argv, error texts and error channels to mimic
 * @property {string} [application] the host name the "browser" knows; any other is not found
 * @property {string} [hostPath]
 * @property {string[]} [args] argv after argv[0]; default: what the flavor passes
 * @property {Record<string, string>} [env] extra environment for the host
 * @property {number} [maxReplyBytes] the browser's reply limit (lower it to play a host that breaks it)
 * @property {(reply: any) => any} [transformReply] rewrites each reply before the extension sees
 *   it: plays a hostile host on top of the real one
 */

export const CHROME_ORIGIN = 'chrome-extension://knldjmfmopnpolahpmmgbagdohdnhkik/';
export const FIREFOX_ADDON = 'wallet-bridge-tests@example.com';

/**
 * @param {ShimOptions} [options]
 */
export function createShimRuntime(options = {}) {
  const {
    flavor = 'chrome',
    application = APPLICATION,
    hostPath = HOST_PATH,
    env = {},
    maxReplyBytes = BROWSER_MAX_REPLY_BYTES,
    transformReply = (/** @type {any} */ reply) => reply,
  } = options;
  const args = options.args ?? (flavor === 'chrome' ? [CHROME_ORIGIN] : [`/home/user/.mozilla/native-messaging-hosts/${application}.json`, FIREFOX_ADDON]);
  const texts = BROWSER_MESSAGES[flavor];
  /** @type {Set<import('node:child_process').ChildProcessWithoutNullStreams>} */
  const live = new Set();
  /** @type {Array<{ pid: number | undefined, exit: Promise<number | null>, stderr: () => string }>} */
  const started = [];

  const start = () => {
    const child = spawn(hostPath, args, { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    live.add(child);
    let stderr = '';
    child.stderr.on('data', (chunk) => { stderr = (stderr + chunk).slice(-16_384); });
    // A host that exits early makes our writes fail with EPIPE; the exit is what matters.
    child.stdin.on('error', () => {});
    /** @type {Promise<number | null>} */
    const exit = new Promise((resolve) => {
      child.on('close', (code) => { live.delete(child); resolve(code); });
      child.on('error', () => { live.delete(child); resolve(null); });
    });
    started.push({ pid: child.pid, exit, stderr: () => stderr });
    return child;
  };

  const runtime = {
    /** Chrome: why the last port disconnected, set only while onDisconnect runs. @type {{ message: string } | undefined} */
    lastError: undefined,

    /**
     * @param {string} name
     * @param {unknown} message
     * @returns {Promise<unknown>}
     */
    sendNativeMessage(name, message) {
      if (flavor === 'chrome' && (typeof message !== 'object' || message === null || Array.isArray(message))) {
        throw new TypeError(BROWSER_MESSAGES.chrome.notAnObject);
      }
      if (name !== application) return Promise.reject(new Error(texts.notFound(name)));
      return new Promise((resolve, reject) => {
        const child = start();
        const reader = new FrameReader(maxReplyBytes);
        let done = false;
        /** @param {() => void} settle */
        const finish = (settle) => {
          if (done) return;
          done = true;
          child.stdin.end();  // as the browser does after the first reply
          settle();
        };
        child.on('error', () => finish(() => reject(new Error('Failed to start native messaging host.'))));
        child.stdout.on('data', (chunk) => {
          let frames;
          try {
            frames = reader.push(chunk);
          } catch {
            child.kill('SIGKILL');
            return finish(() => reject(new Error(texts.communication)));
          }
          if (frames.length === 0) return;
          let reply;
          try {
            reply = JSON.parse(frames[0].toString('utf8'));
          } catch {
            return finish(() => reject(new Error(texts.communication)));
          }
          finish(() => resolve(transformReply(reply)));
        });
        child.on('close', () => finish(() => reject(new Error(texts.exited))));
        child.stdin.write(encodeFrame(message));
      });
    },

    /** @param {string} name */
    connectNative(name) {
      return new ShimPort({ runtime, flavor, texts, known: name === application, name, start, maxReplyBytes, transformReply });
    },

    /** Every host process started so far, with its exit status once it has exited. */
    processes: started,

    /** Closes every host still running (stdin first, then SIGKILL after 3 s, as Firefox does). */
    async dispose() {
      const exits = [];
      for (const child of live) {
        child.stdin.end();
        const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
        exits.push(new Promise((resolve) => child.on('close', () => { clearTimeout(timer); resolve(undefined); })));
      }
      await Promise.all(exits);
    },
  };
  return runtime;
}

/** A connectNative port backed by one host process. */
class ShimPort {
  /**
   * @param {{ runtime: { lastError: { message: string } | undefined }, flavor: 'chrome' | 'firefox', texts: any, known: boolean,
   *   name: string, start: () => import('node:child_process').ChildProcessWithoutNullStreams, maxReplyBytes: number,
   *   transformReply: (reply: any) => any }} config
   */
  constructor({ runtime, flavor, texts, known, name, start, maxReplyBytes, transformReply }) {
    this.name = name;
    this.onMessage = new FakeEvent();
    this.onDisconnect = new FakeEvent();
    /** @type {Error | null} Firefox's channel for the disconnect reason */
    this.error = null;
    this.connected = true;
    this.runtime = runtime;
    this.flavor = flavor;
    /** @type {import('node:child_process').ChildProcessWithoutNullStreams | null} */
    this.child = null;
    if (!known) {
      setImmediate(() => this.#drop(texts.notFound(name)));
      return;
    }
    const child = start();
    this.child = child;
    const reader = new FrameReader(maxReplyBytes);
    child.on('error', () => this.#drop('Failed to start native messaging host.'));
    child.stdout.on('data', (chunk) => {
      if (!this.connected) return;
      let frames;
      try {
        frames = reader.push(chunk);
      } catch {
        child.kill('SIGKILL');
        return this.#drop(texts.communication);
      }
      for (const frame of frames) {
        let message;
        try {
          message = JSON.parse(frame.toString('utf8'));
        } catch {
          child.kill('SIGKILL');
          return this.#drop(texts.communication);
        }
        if (this.connected) this.onMessage.emit(transformReply(message), this);
      }
    });
    // Chrome reports every exit as "Native host has exited."; Firefox leaves port.error null
    // after a clean exit and reports the exit otherwise.
    child.on('close', (code) => this.#drop(flavor === 'firefox' && code === 0 ? null : texts.exited));
  }

  /** @param {unknown} message */
  postMessage(message) {
    if (!this.connected) throw new Error('Attempt to postMessage on disconnected port');
    // Until the browser reports a failed connect, the port looks open and takes messages.
    this.child?.stdin.write(encodeFrame(message));
  }

  disconnect() {
    if (!this.connected) return;
    this.connected = false;
    const child = this.child;
    if (child) {
      child.stdin.end();
      // Chrome kills the host 2 s after closing the port.
      const timer = setTimeout(() => child.kill('SIGKILL'), 2000);
      child.on('close', () => clearTimeout(timer));
    }
  }

  /** @param {string | null} message */
  #drop(message) {
    if (!this.connected) return;
    this.connected = false;
    emitDisconnect(this, this.runtime, this.flavor, message);
  }
}
