/**
 * The page's half of wallet-bridge/provider, run in the page's own world (a module the content
 * script injects): an EIP-1193 provider announced by EIP-6963, and a Solana Wallet Standard
 * wallet registered by the standard's events. Both only talk to the content script, through
 * window.postMessage on the channel with the page's id; every decision (which site, which
 * session, which chain) is the background's, which the page cannot reach otherwise.
 */
import { base58Decode, base58Encode, isUint8Array } from '../base58.js';
import { base64Decode, base64Encode } from '../base64.js';
import { describe, isPlainObject } from '../protocol.js';
import { SOLANA_SIGN_ALL_MAX_TRANSACTIONS } from '../solana-transaction.js';
import { DISCONNECTED_EVENT, ProviderErrorCode, ProviderRpcError, STATE_EVENT } from './wire.js';

/**
 * @typedef {import('./index.js').ProviderInfo} ProviderInfo
 * @typedef {import('./index.js').SiteState} SiteState
 * @typedef {import('./index.js').EthereumProvider} EthereumProvider
 * @typedef {import('./index.js').SolanaWallet} SolanaWallet
 * @typedef {import('./index.js').SolanaWalletAccount} SolanaWalletAccount
 * @typedef {(data: any) => void} Listener
 */

/** The Wallet Standard's version of each feature and of the wallet (1.0.0 throughout). */
const STANDARD_VERSION = /** @type {const} */ ('1.0.0');
/** A channel name: letters, digits and `:._/-`, 1 to 100 of them. */
const CHANNEL = /^[\w:./-]{1,100}$/;
/** The page's id as the content script makes it (hex of 16 random bytes). */
const PAGE_ID = /^[0-9a-f]{32}$/;
/** EIP-6963's rdns: reverse DNS, e.g. `dev.wallet-bridge`. */
const RDNS = /^[a-z0-9-]+(\.[a-z0-9-]+)+$/i;
/** EIP-6963's uuid: version 4. */
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
/** The features every account holds. */
const ACCOUNT_FEATURES = Object.freeze(['solana:signMessage', 'solana:signTransaction', 'solana:signIn']);
/** The clusters the wallet signs for, announced before any session narrows them. */
const ALL_SOLANA_CHAINS = Object.freeze(['solana:mainnet', 'solana:devnet', 'solana:testnet']);

/**
 * Installs the providers in this page and announces them.
 * @param {{ channel: string, info: ProviderInfo, id?: string, window?: any }} options `id`: the
 *   page's id, which the content script put after `#` in the page script's URL: a module passes
 *   `new URL(import.meta.url).hash.slice(1)`; left out, a classic script's is read from
 *   `document.currentScript`. `window`: for tests.
 * @returns {{ ethereum: EthereumProvider, solana: SolanaWallet }}
 */
export function installPageProviders(options) {
  if (!isPlainObject(options)) throw new TypeError(`installPageProviders takes { channel, info }, not ${describe(options)}`);
  const { channel, info } = options;
  const win = options.window ?? globalThis.window;
  if (typeof channel !== 'string' || !CHANNEL.test(channel)) {
    throw new TypeError('channel must be 1 to 100 letters, digits or :._/- (the content script\'s channel)');
  }
  // EIP-6963's uuid is the provider object's, so each page has its own unless the caller gives one.
  const uuid = isPlainObject(info) && info.uuid === undefined ? (win.crypto ?? globalThis.crypto).randomUUID() : info?.uuid;
  checkInfo(isPlainObject(info) ? { ...info, uuid } : info);
  const id = options.id ?? idFromScript(win);
  if (typeof id !== 'string' || !PAGE_ID.test(id)) {
    throw new TypeError('id must be the page\'s id, which startContentScript put after # in the page script\'s URL: '
      + 'pass new URL(import.meta.url).hash.slice(1)');
  }
  const bridge = new PageBridge(win, channel, id);
  const ethereum = new Ethereum(bridge);
  const solana = createSolanaWallet(bridge, info);
  announceEip6963(win, { ...info, uuid }, ethereum);
  registerWallet(win, solana);
  // The site's state as the background has it (no prompt): the accounts of a session made
  // earlier, the chosen chain. EIP-1193's `connect` follows once the background answers.
  bridge.call('state').then((state) => bridge.setState(/** @type {SiteState} */ (state)), () => {});
  return { ethereum, solana };
}

/**
 * @param {unknown} info
 * @returns {asserts info is ProviderInfo}
 */
function checkInfo(info) {
  if (!isPlainObject(info)) throw new TypeError(`info must be EIP-6963's { uuid, name, icon, rdns }, not ${describe(info)}`);
  if (typeof info.uuid !== 'string' || !UUID_V4.test(info.uuid)) throw new TypeError('info.uuid must be a version 4 UUID (crypto.randomUUID())');
  if (typeof info.name !== 'string' || info.name === '') throw new TypeError('info.name must be the wallet\'s name');
  if (typeof info.icon !== 'string' || !/^data:image\/(png|svg\+xml|webp|gif);/.test(info.icon)) {
    throw new TypeError('info.icon must be a data: URI of an image (data:image/png;base64,…), as EIP-6963 and the Wallet Standard ask');
  }
  if (typeof info.rdns !== 'string' || !RDNS.test(info.rdns)) throw new TypeError('info.rdns must be the wallet\'s reverse DNS name, e.g. "dev.wallet-bridge"');
}

/**
 * The id after `#` in the URL of the script being run, when it is a classic one.
 * @param {any} win
 * @returns {string | undefined}
 */
function idFromScript(win) {
  const src = win?.document?.currentScript?.src;
  return typeof src === 'string' && src.includes('#') ? src.slice(src.indexOf('#') + 1) : undefined;
}

/** The page's end of the channel: requests by number, replies and events from the content script. */
class PageBridge {
  #win;
  #channel;
  #id;
  #next = 1;
  /** @type {Map<number, { resolve: (value: unknown) => void, reject: (error: Error) => void }>} */
  #pending = new Map();
  /** @type {Set<(state: SiteState) => void>} */
  #stateListeners = new Set();
  /** @type {Set<() => void>} */
  #disconnectListeners = new Set();
  /** @type {SiteState | null} */
  state = null;

  /**
   * @param {any} win
   * @param {string} channel
   * @param {string} id
   */
  constructor(win, channel, id) {
    this.#win = win;
    this.#channel = channel;
    this.#id = id;
    win.addEventListener('message', (/** @type {MessageEvent} */ event) => this.#receive(event));
  }

  /**
   * @param {string} call
   * @param {Record<string, unknown>} [args]
   * @returns {Promise<unknown>}
   */
  call(call, args = {}) {
    const rid = this.#next++;
    return new Promise((resolve, reject) => {
      this.#pending.set(rid, { resolve, reject });
      try {
        this.#win.postMessage({ channel: this.#channel, id: this.#id, type: 'request', rid, call, args }, this.#target());
      } catch (error) {
        // A DataCloneError: the page gave something that is not plain data (a function, a Symbol).
        this.#pending.delete(rid);
        const why = /** @type {Error} */ (error)?.name ?? 'Error';
        reject(new ProviderRpcError(ProviderErrorCode.invalidParams, `The request holds something that is not plain data (${why}): `
          + 'only strings, numbers, booleans, arrays, objects and byte arrays can be sent'));
      }
    });
  }

  /** Only this window may hear it: its own origin, or `*` for an opaque one (`null`). */
  #target() {
    const origin = this.#win.location?.origin;
    return typeof origin === 'string' && origin !== 'null' ? origin : '*';
  }

  /** @param {MessageEvent} event */
  #receive(event) {
    if (event.source !== this.#win) return;
    const data = event.data;
    if (!isPlainObject(data) || data.channel !== this.#channel || data.id !== this.#id) return;
    if (data.type === 'reply' && typeof data.rid === 'number') {
      const pending = this.#pending.get(data.rid);
      if (!pending) return;
      this.#pending.delete(data.rid);
      if (isPlainObject(data.error)) pending.reject(providerError(data.error));
      else pending.resolve(data.result);
    } else if (data.type === 'event' && data.event === STATE_EVENT && isPlainObject(data.data)) {
      this.setState(/** @type {SiteState} */ (/** @type {unknown} */ (data.data)));
    } else if (data.type === 'event' && data.event === DISCONNECTED_EVENT) {
      for (const listener of [...this.#disconnectListeners]) listener();
    }
  }

  /** @param {SiteState} state */
  setState(state) {
    if (!isPlainObject(state)) return;
    this.state = state;
    for (const listener of [...this.#stateListeners]) listener(state);
  }

  /** @param {(state: SiteState) => void} listener */
  onState(listener) {
    this.#stateListeners.add(listener);
  }

  /** @param {() => void} listener */
  onDisconnect(listener) {
    this.#disconnectListeners.add(listener);
  }
}

/**
 * The error a page's promise rejects with, from its plain form.
 * @param {Record<string, unknown>} error
 */
function providerError(error) {
  const code = typeof error.code === 'number' ? error.code : ProviderErrorCode.internalError;
  const message = typeof error.message === 'string' ? error.message : 'Internal error';
  return new ProviderRpcError(code, message, error.data);
}

/**
 * Calls each listener; one that throws does not stop the others (a page's bug stays the page's).
 * @param {Map<string, Set<Listener>>} listeners
 * @param {string} name
 * @param {unknown} data
 */
function emit(listeners, name, data) {
  for (const listener of [...(listeners.get(name) ?? [])]) {
    try {
      listener(data);
    } catch (error) {
      queueMicrotask(() => { throw error; });
    }
  }
}

/**
 * @param {readonly unknown[]} a
 * @param {readonly unknown[]} b
 */
const sameList = (a, b) => a.length === b.length && a.every((value, index) => value === b[index]);

/** EIP-1193: `request`, the events, nothing else the page could use to reach past its site. */
class Ethereum {
  #bridge;
  /** @type {Map<string, Set<Listener>>} */
  #listeners = new Map();
  /** @type {string[]} */
  #accounts = [];
  /** @type {string | null} */
  #chainId = null;
  #connected = false;

  /** @param {PageBridge} bridge */
  constructor(bridge) {
    this.#bridge = bridge;
    bridge.onState((state) => this.#update(state));
    bridge.onDisconnect(() => {
      if (!this.#connected) return;
      this.#connected = false;
      const why = 'The wallet extension\'s background went away; the next request reconnects';
      emit(this.#listeners, 'disconnect', new ProviderRpcError(ProviderErrorCode.disconnected, why));
    });
  }

  /**
   * @param {{ method: string, params?: unknown[] | Record<string, unknown> }} args
   * @returns {Promise<unknown>}
   */
  async request(args) {
    if (!isPlainObject(args) || typeof args.method !== 'string' || args.method === '') {
      throw new ProviderRpcError(ProviderErrorCode.invalidRequest, 'request takes { method, params? }, the method a non-empty string');
    }
    if (args.params !== undefined && (args.params === null || typeof args.params !== 'object')) {
      throw new ProviderRpcError(ProviderErrorCode.invalidParams, 'params must be an array or an object (or left out)');
    }
    // Only JSON crosses to the background: a BigInt or a function in params is the page's mistake to hear of here.
    /** @type {unknown} */
    let params;
    try {
      params = args.params === undefined ? undefined : JSON.parse(JSON.stringify(args.params));
    } catch (error) {
      throw new ProviderRpcError(ProviderErrorCode.invalidParams, `params cannot be written as JSON: ${/** @type {Error} */ (error).message}`);
    }
    return this.#bridge.call('eth_request', params === undefined ? { method: args.method } : { method: args.method, params });
  }

  /**
   * @param {string} event
   * @param {Listener} listener
   */
  on(event, listener) {
    if (typeof listener !== 'function') throw new TypeError('the listener must be a function');
    let set = this.#listeners.get(event);
    if (!set) this.#listeners.set(event, (set = new Set()));
    set.add(listener);
    return this;
  }

  /**
   * @param {string} event
   * @param {Listener} listener
   */
  removeListener(event, listener) {
    this.#listeners.get(event)?.delete(listener);
    return this;
  }

  /**
   * @param {string} event
   * @param {Listener} listener
   */
  off(event, listener) {
    return this.removeListener(event, listener);
  }

  /** True once the background has answered, until it goes away. */
  isConnected() {
    return this.#connected;
  }

  /** @param {SiteState} state */
  #update(state) {
    const chainId = typeof state.chainId === 'string' ? state.chainId : null;
    const accounts = Array.isArray(state.accounts) ? state.accounts.filter((account) => typeof account === 'string') : [];
    if (!this.#connected && chainId !== null) {
      this.#connected = true;
      this.#chainId = chainId;
      emit(this.#listeners, 'connect', { chainId });
    }
    if (chainId !== null && chainId !== this.#chainId) {
      this.#chainId = chainId;
      emit(this.#listeners, 'chainChanged', chainId);
    }
    if (!sameList(accounts, this.#accounts)) {
      this.#accounts = accounts;
      emit(this.#listeners, 'accountsChanged', [...accounts]);
    }
  }
}

/**
 * EIP-6963: announces now, and again on every `eip6963:requestProvider`.
 * @param {any} win
 * @param {ProviderInfo} info
 * @param {EthereumProvider} provider
 */
function announceEip6963(win, info, provider) {
  const announced = Object.freeze({ uuid: info.uuid, name: info.name, icon: info.icon, rdns: info.rdns });
  const detail = Object.freeze({ info: announced, provider });
  const announce = () => win.dispatchEvent(new win.CustomEvent('eip6963:announceProvider', { detail }));
  win.addEventListener('eip6963:requestProvider', announce);
  announce();
}

/**
 * The Wallet Standard's registration: `wallet-standard:register-wallet` now, whose detail is a
 * callback taking the app's `{ register }`, and the same callback for every
 * `wallet-standard:app-ready` (an app that loads later).
 * @param {any} win
 * @param {SolanaWallet} wallet
 */
function registerWallet(win, wallet) {
  const callback = Object.freeze((/** @type {{ register: (wallet: SolanaWallet) => unknown }} */ api) => api.register(wallet));
  const init = { detail: callback, bubbles: false, cancelable: false, composed: false };
  win.dispatchEvent(new win.CustomEvent('wallet-standard:register-wallet', init));
  win.addEventListener('wallet-standard:app-ready', (/** @type {CustomEvent} */ event) => {
    if (event.detail && typeof event.detail.register === 'function') callback(event.detail);
  });
}

/**
 * The Solana wallet: its accounts and chains follow the site's session.
 * @param {PageBridge} bridge
 * @param {ProviderInfo} info
 * @returns {SolanaWallet}
 */
function createSolanaWallet(bridge, info) {
  /** @type {Map<string, SolanaWalletAccount>} stable objects, by address and chains */
  const known = new Map();
  /** @type {readonly SolanaWalletAccount[]} */
  let accounts = [];
  /** @type {readonly string[]} */
  let chains = ALL_SOLANA_CHAINS;
  /** @type {Set<(properties: { accounts?: readonly SolanaWalletAccount[], chains?: readonly string[] }) => void>} */
  const changeListeners = new Set();

  /**
   * @param {string} address
   * @param {readonly string[]} accountChains
   */
  const account = (address, accountChains) => {
    const key = `${address} ${accountChains.join(' ')}`;
    let existing = known.get(key);
    if (!existing) {
      const publicKey = base58Decode(address);
      existing = Object.freeze({ address, publicKey, chains: Object.freeze([...accountChains]), features: ACCOUNT_FEATURES });
      known.set(key, existing);
    }
    return existing;
  };

  bridge.onState((state) => {
    const listed = Array.isArray(state.solana?.accounts) ? state.solana.accounts : [];
    const next = Object.freeze(listed.map(({ address, chains: on }) => account(address, on)));
    const held = Array.isArray(state.solana?.chains) ? state.solana.chains : [];
    const nextChains = held.length > 0 ? Object.freeze([...held]) : ALL_SOLANA_CHAINS;
    /** @type {{ accounts?: readonly SolanaWalletAccount[], chains?: readonly string[] }} */
    const changed = {};
    if (!sameList(next, accounts)) changed.accounts = accounts = next;
    if (!sameList(nextChains, chains)) changed.chains = chains = nextChains;
    if (changed.accounts || changed.chains) {
      for (const listener of [...changeListeners]) {
        try {
          listener(changed);
        } catch (error) {
          queueMicrotask(() => { throw error; });
        }
      }
    }
  });

  /**
   * The account an input names: one of this wallet's (the standard hands them back as given).
   * @param {unknown} input
   * @param {string} feature
   */
  const accountOf = (input, feature) => {
    if (!isPlainObject(input) || !isPlainObject(input.account) || typeof input.account.address !== 'string') {
      throw new ProviderRpcError(ProviderErrorCode.invalidParams, `${feature} takes inputs with an account of this wallet`);
    }
    return input.account.address;
  };

  /** @param {unknown} bytes @param {string} what */
  const bytesOf = (bytes, what) => {
    if (!isUint8Array(bytes) || bytes.length === 0) throw new ProviderRpcError(ProviderErrorCode.invalidParams, `${what} must be a non-empty Uint8Array`);
    return bytes;
  };

  const features = Object.freeze({
    'standard:connect': Object.freeze({
      version: STANDARD_VERSION,
      /** @param {{ silent?: boolean }} [input] */
      async connect(input) {
        const state = await bridge.call(input?.silent ? 'state' : 'solana_connect');
        bridge.setState(/** @type {SiteState} */ (state));
        return { accounts };
      },
    }),
    'standard:disconnect': Object.freeze({
      version: STANDARD_VERSION,
      async disconnect() {
        await bridge.call('disconnect');
      },
    }),
    'standard:events': Object.freeze({
      version: STANDARD_VERSION,
      /**
       * @param {string} event
       * @param {(properties: { accounts?: readonly SolanaWalletAccount[], chains?: readonly string[] }) => void} listener
       */
      on(event, listener) {
        if (event !== 'change' || typeof listener !== 'function') return () => {};
        changeListeners.add(listener);
        return () => { changeListeners.delete(listener); };
      },
    }),
    'solana:signMessage': Object.freeze({
      version: STANDARD_VERSION,
      /** @param {...{ account: SolanaWalletAccount, message: Uint8Array }} inputs */
      async signMessage(...inputs) {
        const outputs = [];
        for (const input of inputs) {
          const pubkey = accountOf(input, 'solana:signMessage');
          const message = bytesOf(input.message, 'message');
          const args = { message: base58Encode(message), pubkey };
          const result = /** @type {{ signature: string }} */ (await bridge.call('solana_signMessage', args));
          const signature = base58Decode(result.signature);
          outputs.push({ signedMessage: message, signature, signatureType: /** @type {const} */ ('ed25519') });
        }
        return outputs;
      },
    }),
    'solana:signTransaction': Object.freeze({
      version: STANDARD_VERSION,
      supportedTransactionVersions: Object.freeze(['legacy', 0]),
      /**
       * One request, one dialog, for the inputs of one account and chain (solana_signAllTransactions,
       * up to the wallet's 16 at once); inputs of other accounts or chains are requests of their own.
       * @param {...{ account: SolanaWalletAccount, transaction: Uint8Array, chain?: string }} inputs
       */
      async signTransaction(...inputs) {
        /** @type {Map<string, { pubkey: string, chain: unknown, indexes: number[], transactions: string[] }>} */
        const groups = new Map();
        inputs.forEach((input, index) => {
          const pubkey = accountOf(input, 'solana:signTransaction');
          const transaction = base64Encode(bytesOf(input.transaction, 'transaction'));
          const key = JSON.stringify([pubkey, input.chain ?? null]);
          let group = groups.get(key);
          if (!group) groups.set(key, (group = { pubkey, chain: input.chain, indexes: [], transactions: [] }));
          group.indexes.push(index);
          group.transactions.push(transaction);
        });
        /** @type {Array<{ signedTransaction: Uint8Array }>} */
        const outputs = new Array(inputs.length);
        for (const { pubkey, chain, indexes, transactions } of groups.values()) {
          for (let start = 0; start < transactions.length; start += SOLANA_SIGN_ALL_MAX_TRANSACTIONS) {
            const batch = transactions.slice(start, start + SOLANA_SIGN_ALL_MAX_TRANSACTIONS);
            /** @type {Record<string, unknown>} */
            const args = batch.length === 1 ? { transaction: batch[0], pubkey } : { transactions: batch, pubkey };
            if (chain !== undefined) args.chain = chain;
            const signed = batch.length === 1
              ? [/** @type {{ transaction: string }} */ (await bridge.call('solana_signTransaction', args)).transaction]
              : /** @type {{ transactions: string[] }} */ (await bridge.call('solana_signAllTransactions', args)).transactions;
            if (!Array.isArray(signed) || signed.length !== batch.length) {
              throw new ProviderRpcError(ProviderErrorCode.internalError, 'The wallet answered another number of transactions');
            }
            signed.forEach((text, offset) => {
              outputs[indexes[start + offset]] = { signedTransaction: base64Decode(text, 'transaction') };
            });
          }
        }
        return outputs;
      },
    }),
    'solana:signIn': Object.freeze({
      version: STANDARD_VERSION,
      /** @param {...Record<string, unknown>} inputs */
      async signIn(...inputs) {
        const outputs = [];
        for (const input of inputs.length === 0 ? [{}] : inputs) {
          if (input !== undefined && !isPlainObject(input)) {
            throw new ProviderRpcError(ProviderErrorCode.invalidParams, 'solana:signIn takes SolanaSignInInput objects');
          }
          /** @type {Record<string, unknown>} */
          const clean = {};
          for (const [key, value] of Object.entries(input ?? {})) if (value !== undefined) clean[key] = value;
          /** @type {{ address: string, message: string, signature: string, state: SiteState }} */
          const result = /** @type {any} */ (await bridge.call('solana_signIn', { input: clean }));
          bridge.setState(result.state);
          const signer = accounts.find((candidate) => candidate.address === result.address) ?? account(result.address, chains);
          outputs.push({
            account: signer,
            signedMessage: new TextEncoder().encode(result.message),
            signature: base58Decode(result.signature),
            signatureType: /** @type {const} */ ('ed25519'),
          });
        }
        return outputs;
      },
    }),
  });

  return Object.freeze({
    get version() { return STANDARD_VERSION; },
    get name() { return info.name; },
    get icon() { return /** @type {`data:image/${string}`} */ (info.icon); },
    get chains() { return chains; },
    get accounts() { return accounts; },
    get features() { return features; },
  });
}
