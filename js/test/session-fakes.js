/**
 * A fake wallet host that answers the session methods as docs/sessions.md describes them, with
 * real Ed25519 keys (node:crypto), so signatures can be verified. It plays the host behind
 * test/fakes.js's runtimes: pass `wallet.host` as the host function. Not a test file: it
 * defines no tests.
 */
import { generateKeyPairSync, randomBytes, sign, verify } from 'node:crypto';
import { NATIVE_RPC_ERROR_MESSAGES, base58Encode } from '../src/index.js';

export const MAINNET = 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp';
export const DEVNET = 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1';
export const TESTNET = 'solana:4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z';
const SUPPORTED = {
  chains: [MAINNET, DEVNET, TESTNET],
  methods: ['solana_signMessage', 'solana_getAccounts', 'solana_requestAccounts'],
  events: ['accountsChanged'],
};
export const LIFETIME = 604_800;
export const WALLET_METADATA = Object.freeze({ name: 'wallet-bridge', description: 'Keys in the keystore', url: 'https://example.org/wallet-bridge', icons: [] });
export const METADATA = Object.freeze({ name: 'Example dApp', description: 'Signs in with Solana', url: 'https://example.org', icons: ['https://example.org/icon.png'] });
export const PROPOSAL = Object.freeze({
  requiredNamespaces: { solana: { chains: [MAINNET], methods: ['solana_signMessage', 'solana_getAccounts'], events: ['accountsChanged'] } },
  optionalNamespaces: { solana: { chains: [DEVNET], methods: ['solana_signMessage'], events: [] } },
  metadata: METADATA,
});

/** An Ed25519 key pair, its public key as base58. */
export function makeKey() {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const raw = publicKey.export({ format: 'der', type: 'spki' }).subarray(-32);
  return { publicKey, privateKey, pubkey: base58Encode(new Uint8Array(raw)) };
}

/**
 * True when `signature` is the Ed25519 signature of `message` by the base58 `pubkey`'s key.
 * @param {Uint8Array} message
 * @param {Uint8Array} signature
 * @param {{ publicKey: import('node:crypto').KeyObject }} key
 */
export function verifies(message, signature, key) {
  return verify(null, message, key.publicKey, signature);
}

/** The current time in whole seconds. */
export const nowSeconds = () => Math.floor(Date.now() / 1000);

/**
 * @param {{ keys?: number }} [options]
 */
export function createFakeSessionWallet({ keys: keyCount = 2 } = {}) {
  const keys = Array.from({ length: keyCount }, makeKey);
  /** @type {Map<string, any>} by topic, oldest first */
  const sessions = new Map();
  const wallet = {
    keys,
    sessions,
    /** Answers the next proposal with 5000, as a person rejecting it. */
    rejectNext: false,
    /** Answers the next signMessage with 4001, as a person declining it. */
    declineNext: false,
    /** @type {import('./fakes.js').FakeRuntime | null} set to hear session_delete on other ports */
    runtime: /** @type {any} */ (null),
    /** @type {any[]} every request the wallet answered */
    requests: /** @type {any[]} */ ([]),
    /**
     * @param {any} message
     * @param {import('./fakes.js').FakePort} [port]
     */
    host(message, port) {
      if (message.id === undefined) return undefined;
      wallet.requests.push(message);
      const { id, method, params } = message;
      /** @param {unknown} result */
      const ok = (result) => ({ jsonrpc: '2.0', id, result });
      /** @param {number} code @param {unknown} [data] */
      const fail = (code, data) => ({ jsonrpc: '2.0', id, error: data === undefined ? { code, message: NATIVE_RPC_ERROR_MESSAGES[code] } : { code, message: NATIVE_RPC_ERROR_MESSAGES[code], data } });
      const session = params?.topic === undefined ? undefined : sessions.get(params.topic);
      switch (method) {
        case 'session_connect': {
          const required = withChains(params.requiredNamespaces);
          const unsupported = Object.values(required).flatMap((/** @type {any} */ ns) => ns.chains.filter((/** @type {string} */ c) => !SUPPORTED.chains.includes(c)));
          if (unsupported.length > 0) return fail(5100, { chains: unsupported });
          if (wallet.rejectNext) {
            wallet.rejectNext = false;
            return fail(5000);
          }
          const chains = new Set();
          const methods = new Set();
          const events = new Set();
          for (const ns of [...Object.values(required), ...Object.values(withChains(params.optionalNamespaces))]) {
            for (const chain of /** @type {any} */ (ns).chains) if (SUPPORTED.chains.includes(chain)) chains.add(chain);
            for (const m of /** @type {any} */ (ns).methods) if (SUPPORTED.methods.includes(m)) methods.add(m);
            for (const e of /** @type {any} */ (ns).events) if (SUPPORTED.events.includes(e)) events.add(e);
          }
          const topic = randomBytes(32).toString('hex');
          const created = {
            topic,
            namespaces: { solana: { chains: [...chains], accounts: [], methods: [...methods], events: [...events] } },
            requiredNamespaces: normalizedNamespaces(params.requiredNamespaces),
            optionalNamespaces: normalizedNamespaces(params.optionalNamespaces),
            expiry: nowSeconds() + LIFETIME,
            self: { metadata: normalizedMetadata(params.metadata) },
            peer: { metadata: WALLET_METADATA },
          };
          sessions.set(topic, created);
          return ok(wallet.session(topic));
        }
        case 'session_list':
          return ok({ sessions: [...sessions.keys()].map((topic) => wallet.session(topic)) });
        case 'session_request': {
          if (!session) return fail(7001);
          const ns = session.namespaces.solana;
          if (!ns.chains.includes(params.chainId)) return fail(3005);
          if (!ns.methods.includes(params.request.method)) return fail(3001);
          switch (params.request.method) {
            case 'solana_signMessage': {
              const key = keys.find((k) => k.pubkey === params.request.params.pubkey);
              if (!key) return fail(4100);
              if (wallet.declineNext) {
                wallet.declineNext = false;
                return fail(4001);
              }
              const bytes = decode58(params.request.params.message);
              return ok({ signature: base58Encode(new Uint8Array(sign(null, bytes, key.privateKey))) });
            }
            default:
              return ok(keys.map((k) => ({ pubkey: k.pubkey })));
          }
        }
        case 'session_extend':
          if (!session) return fail(7001);
          session.expiry = nowSeconds() + LIFETIME;
          return ok({ expiry: session.expiry });
        case 'session_disconnect': {
          if (!session) return fail(7001);
          sessions.delete(params.topic);
          const reason = params.reason ?? { code: 6000, message: 'User disconnected' };
          for (const other of wallet.runtime?.ports ?? []) {
            if (other !== port && other.connected) other.reply({ jsonrpc: '2.0', method: 'session_delete', params: { topic: params.topic, reason } });
          }
          return ok({});
        }
        default:
          return fail(-32601, { problem: `no method named "${method}"` });
      }
    },
    /**
     * A session as the host answers it: accounts are every key on every chain, worked out now.
     * @param {string} topic
     */
    session(topic) {
      const stored = sessions.get(topic);
      const ns = stored.namespaces.solana;
      return structuredClone({
        ...stored,
        namespaces: { solana: { ...ns, accounts: ns.chains.flatMap((/** @type {string} */ chain) => keys.map((k) => `${chain}:${k.pubkey}`)) } },
      });
    },
  };
  return wallet;
}

/**
 * Namespaces with every key's chains spelled out: a key that is a chain id stands for that chain.
 * @param {Record<string, any> | undefined} namespaces
 * @returns {Record<string, any>}
 */
function withChains(namespaces = {}) {
  return Object.fromEntries(Object.entries(namespaces).map(([key, ns]) => [key, key.includes(':') ? { ...ns, chains: [key] } : ns]));
}

/**
 * A proposal's namespaces as the host answers them in a session (docs/sessions.md): a chain-id
 * key merged into its namespace, each entry once, none for none.
 * @param {Record<string, any> | undefined} namespaces
 * @returns {Record<string, { chains: string[], methods: string[], events: string[] }>}
 */
export function normalizedNamespaces(namespaces = {}) {
  /** @type {Record<string, { chains: string[], methods: string[], events: string[] }>} */
  const merged = {};
  for (const [key, ns] of Object.entries(withChains(namespaces ?? {}))) {
    const into = (merged[key.split(':')[0]] ??= { chains: [], methods: [], events: [] });
    for (const member of /** @type {const} */ (['chains', 'methods', 'events'])) {
      for (const entry of ns[member] ?? []) if (!into[member].includes(entry)) into[member].push(entry);
    }
  }
  return merged;
}

/**
 * A proposal's metadata as the host answers it: every member there, "" and [] for those left out.
 * @param {{ name: string, description?: string, url?: string, icons?: string[] }} metadata
 */
export function normalizedMetadata(metadata) {
  return { name: metadata.name, description: metadata.description ?? '', url: metadata.url ?? '', icons: metadata.icons ?? [] };
}

/**
 * Base58 decoding done independently of the package (BigInt), so the fake does not just mirror
 * the code under test.
 * @param {string} text
 */
export function decode58(text) {
  const alphabet = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
  let value = 0n;
  for (const character of text) {
    const digit = alphabet.indexOf(character);
    if (digit < 0) throw new Error(`bad base58 character ${character}`);
    value = value * 58n + BigInt(digit);
  }
  const hex = value === 0n ? '' : value.toString(16);
  const body = Buffer.from(hex.length % 2 ? `0${hex}` : hex, 'hex');
  const ones = text.length - text.replace(/^1+/, '').length;
  return Buffer.concat([Buffer.alloc(ones), body]);
}

/**
 * A JSON-RPC notification as the host writes it.
 * @param {string} method
 * @param {unknown} params
 */
export const notification = (method, params) => ({ jsonrpc: '2.0', method, params });
