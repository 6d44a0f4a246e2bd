/**
 * The background's half of wallet-bridge/provider: one native port to the wallet (the
 * package's client on the port transport), one runtime port per page from the content
 * scripts, and per site (web origin) its session and chosen EVM chain.
 *
 * The site is taken from the port's sender, as the browser reports it (`sender.origin`; a port
 * without one, or from an incognito tab, is refused), never from a message; every session call names it, so
 * the wallet itself keeps each site to its own sessions. Replies go to the port that asked;
 * a session's notifications go to the ports of the site named in them; a port's disconnect
 * (its tab closed or navigated) forgets it, and a site with no pages left is forgotten too.
 */
import { createNativeClient } from '../client.js';
import { NativeProtocolError, NativeRpcError, NativeTransportError } from '../errors.js';
import { describe, isPlainObject } from '../protocol.js';
import {
  EIP155_CHAINS,
  EIP155_NAMESPACE,
  ETH_ACCOUNTS_CHANGED_EVENT,
  SESSION_EVENT_NAMES,
  SOLANA_CHAINS,
  SOLANA_NAMESPACE,
  SOLANA_SIGN_ALL_TRANSACTIONS_METHOD,
  SOLANA_SIGN_IN_METHOD,
  SOLANA_SIGN_MESSAGE_METHOD,
  SOLANA_SIGN_TRANSACTION_METHOD,
  checkOrigin,
  parseAccountId,
  parseChainId,
} from '../sessions.js';
import {
  CALLS,
  MAX_ARGS_BYTES,
  MAX_PENDING_PER_PAGE,
  PORT_NAME,
  ProviderErrorCode,
  ProviderRpcError,
  STATE_EVENT,
  TOO_LARGE,
  argsBytes,
  caipSolanaChain,
  standardSolanaChain,
} from './wire.js';

/**
 * @typedef {import('../index.js').Session} Session
 * @typedef {import('../index.js').Namespaces} Namespaces
 * @typedef {import('../index.js').PeerMetadata} PeerMetadata
 * @typedef {import('../index.js').NativeClient} NativeClient
 * @typedef {import('./index.js').SiteState} SiteState
 * @typedef {import('./index.js').SiteSessionsReply} SiteSessionsReply
 * @typedef {{ postMessage(message: unknown): void, disconnect(): void, name?: string,
 *   sender?: { id?: string, url?: string, origin?: string, frameId?: number, tab?: { id?: number, incognito?: boolean } },
 *   onMessage: { addListener(listener: (message: any) => void): void },
 *   onDisconnect: { addListener(listener: () => void): void } }} PagePort
 * @typedef {{ id?: string, connectNative(application: string): any, lastError?: { message?: string },
 *   onConnect: { addListener(listener: (port: PagePort) => void): void,
 *     removeListener(listener: (port: PagePort) => void): void },
 *   onMessage: { addListener(listener: MessageListener): void, removeListener(listener: MessageListener): void } }} BackgroundRuntime
 * @typedef {(message: any, sender: any, sendResponse: (response: unknown) => void) => unknown} MessageListener
 * @typedef {object} Site what the background keeps for one web origin
 * @property {string} origin
 * @property {Set<PagePort>} ports its pages
 * @property {Session | null} session its session (the newest the wallet lists, or the one made here)
 * @property {string | null} chainId the EVM chain its pages use (CAIP-2), one of the session's
 * @property {boolean} loaded whether the wallet was asked for the site's sessions since the last one ended
 * @property {Promise<void> | null} loading that session_list, while it runs
 * @property {Promise<Session> | null} connecting the session_connect under way, shared
 * @property {string | null} prompt the prompting call of the site's pages in flight (at most one), by name
 */

/** The message types the extension's own pages (its popup) send with runtime.sendMessage. */
export const SITE_SESSIONS_MESSAGE = 'wallet-bridge/site-sessions';
export const SITE_DISCONNECT_MESSAGE = 'wallet-bridge/site-disconnect';

/** The methods a session is asked for, per namespace (what the wallet offers, sending excluded). */
const EIP155_METHODS = Object.freeze([
  'eth_accounts', 'eth_chainId', 'personal_sign', 'eth_signTypedData_v4', 'eth_signTransaction',
]);
const SOLANA_METHODS = Object.freeze([
  'solana_signMessage', 'solana_signTransaction', 'solana_signAllTransactions', 'solana_signIn', 'solana_getAccounts',
  'solana_requestAccounts',
]);
/** The EVM chains asked for unless the extension names its own: the well-known ones. */
const DEFAULT_EIP155_CHAINS = Object.freeze(Object.values(EIP155_CHAINS));
/** The chain a page is on before any session: Ethereum mainnet. */
const DEFAULT_CHAIN = EIP155_CHAINS.mainnet;
/** A hex chain id as wallet_switchEthereumChain takes it. */
const HEX_CHAIN_ID = /^0x[1-9a-f][0-9a-f]{0,15}$/i;
/**
 * Wallet errors as a page hears them: EIP-1193's and EIP-1474's codes for the wallet's
 * (docs/wallet.md, docs/sessions.md). 5000-5003 and -3 (not signed: declined, refused without
 * asking, no pinentry), 8000 (the proposal expired unanswered): the person said no or could not
 * be asked. 5100 (unsupported chains) is the chain's; 5101-5104 (methods, events, accounts,
 * namespaces) the method's. -1 (the policy refuses this caller) and 7001 (no such session) are
 * not authorized; -2 and -6 are the page's params. -32004 (over the wallet's request cap) is
 * EIP-1474's limit; -32002 (the host shutting down) is a disconnect.
 */
const WALLET_ERRORS = /** @type {ReadonlyMap<number, number>} */ (new Map([
  [5000, ProviderErrorCode.userRejectedRequest],
  [5001, ProviderErrorCode.userRejectedRequest],
  [5002, ProviderErrorCode.userRejectedRequest],
  [5003, ProviderErrorCode.userRejectedRequest],
  [4001, ProviderErrorCode.userRejectedRequest],
  [-3, ProviderErrorCode.userRejectedRequest],
  [8000, ProviderErrorCode.userRejectedRequest],
  [5100, ProviderErrorCode.chainDisconnected],
  [5101, ProviderErrorCode.unsupportedMethod],
  [5102, ProviderErrorCode.unsupportedMethod],
  [5103, ProviderErrorCode.unsupportedMethod],
  [5104, ProviderErrorCode.unsupportedMethod],
  [3001, ProviderErrorCode.unsupportedMethod],
  [-32601, ProviderErrorCode.unsupportedMethod],
  [-1, ProviderErrorCode.unauthorized],
  [4100, ProviderErrorCode.unauthorized],
  [7001, ProviderErrorCode.unauthorized],
  [3005, ProviderErrorCode.chainDisconnected],
  [-2, ProviderErrorCode.invalidParams],
  [-6, ProviderErrorCode.invalidParams],
  [-32602, ProviderErrorCode.invalidParams],
  [-32004, ProviderErrorCode.limitExceeded],
  [-32002, ProviderErrorCode.disconnected],
]));
/** What a page hears of a failure in this code itself: a fixed message, nothing of its internals. */
const INTERNAL_ERROR = Object.freeze({ code: ProviderErrorCode.internalError, message: 'Internal error' });

/**
 * Starts the background: listens for the content scripts' ports and the popup's messages, and
 * opens the one native port.
 * @param {{ hostName: string, metadata: PeerMetadata, runtime?: any, eip155Chains?: readonly string[],
 *   onWarning?: (warning: unknown) => void }} options `eip155Chains`: the EVM chains a session asks
 *   for (CAIP-2; default: Ethereum, Sepolia, Polygon, Optimism, Arbitrum, Base); `runtime`: for
 *   tests (default: the extension's own).
 * @returns {{ stop(): void }}
 */
export function startWalletBackground(options) {
  if (!isPlainObject(options)) throw new TypeError(`startWalletBackground takes { hostName, metadata }, not ${describe(options)}`);
  const { hostName, metadata } = options;
  /** @type {BackgroundRuntime} */
  const runtime = options.runtime ?? findRuntime();
  const eip155Chains = options.eip155Chains ?? DEFAULT_EIP155_CHAINS;
  const notEip155 = (/** @type {unknown} */ chain) => typeof chain !== 'string' || !chain.startsWith(`${EIP155_NAMESPACE}:`);
  if (!Array.isArray(eip155Chains) || eip155Chains.length === 0 || eip155Chains.some(notEip155)) {
    throw new TypeError('eip155Chains must be a non-empty list of eip155 chain ids, e.g. ["eip155:1", "eip155:137"]');
  }
  const warn = options.onWarning ?? ((/** @type {unknown} */ warning) => console.warn('wallet-bridge/provider:', warning));
  /** @type {Background | null} */
  let started = null;
  /** @param {any} warning */
  const onWarning = (warning) => {
    // The native port dropped: the wallet's events stopped, so nothing cached of it can be trusted.
    if (isPlainObject(warning) && warning.kind === 'port-disconnected') started?.nativeLost();
    warn(warning);
  };
  const client = createNativeClient({ application: hostName, transport: 'port', runtime, onWarning });
  const namespaces = {
    [EIP155_NAMESPACE]: { chains: [...eip155Chains], methods: [...EIP155_METHODS], events: ['accountsChanged', 'chainChanged'] },
    [SOLANA_NAMESPACE]: { chains: Object.values(SOLANA_CHAINS), methods: [...SOLANA_METHODS], events: ['accountsChanged'] },
  };
  const background = new Background(client, runtime, metadata, namespaces, eip155Chains[0]);
  started = background;
  return { stop: () => background.stop() };
}

class Background {
  #client;
  #runtime;
  #metadata;
  #namespaces;
  #defaultChain;
  /** @type {Map<string, Site>} */
  #sites = new Map();
  /** @type {Map<PagePort, { site: Site, tabId: number | undefined, pending: number }>} */
  #ports = new Map();
  /** @type {Array<() => void>} */
  #unsubscribe = [];
  #onConnect;
  #onMessage;

  /**
   * @param {NativeClient} client
   * @param {BackgroundRuntime} runtime
   * @param {PeerMetadata} metadata
   * @param {Namespaces} namespaces
   * @param {string} defaultChain
   */
  constructor(client, runtime, metadata, namespaces, defaultChain) {
    this.#client = client;
    this.#runtime = runtime;
    this.#metadata = metadata;
    this.#namespaces = namespaces;
    this.#defaultChain = defaultChain ?? DEFAULT_CHAIN;
    this.#onConnect = (/** @type {PagePort} */ port) => this.#accept(port);
    /** @type {MessageListener} */
    this.#onMessage = (message, sender, sendResponse) => this.#popup(message, sender, sendResponse);
    runtime.onConnect.addListener(this.#onConnect);
    runtime.onMessage.addListener(this.#onMessage);
    for (const name of SESSION_EVENT_NAMES) {
      this.#unsubscribe.push(client.on(name, (/** @type {any} */ params) => this.#notification(name, params)));
    }
  }

  stop() {
    this.#runtime.onConnect.removeListener(this.#onConnect);
    this.#runtime.onMessage.removeListener(this.#onMessage);
    for (const unsubscribe of this.#unsubscribe) unsubscribe();
    for (const port of this.#ports.keys()) quietly(() => port.disconnect());
    this.#ports.clear();
    this.#sites.clear();
    this.#client.close();
  }

  /**
   * The native port dropped (the host ended, the browser closed it): its events are lost, so
   * every site's session is forgotten until the wallet is asked again (the next request reopens
   * the port and lists the site's sessions), and the pages hear it: accountsChanged [] and the
   * Wallet Standard's change. Not EIP-1193's disconnect: the provider still answers, and the
   * next request reaches the wallet again.
   */
  nativeLost() {
    for (const site of this.#sites.values()) {
      const had = site.session !== null;
      site.session = null;
      site.loaded = false;
      if (had) this.#broadcast(site);
    }
  }

  /**
   * A content script's port: its site from the sender (a tab's top frame, of this extension, on
   * a web origin), or it is closed.
   * @param {PagePort} port
   */
  #accept(port) {
    if (port.name !== PORT_NAME) return;
    const origin = senderOrigin(port.sender, this.#runtime.id);
    if (origin === null) {
      quietly(() => port.disconnect());
      return;
    }
    let site = this.#sites.get(origin);
    if (!site) {
      site = { origin, ports: new Set(), session: null, chainId: null, loaded: false, loading: null, connecting: null, prompt: null };
      this.#sites.set(origin, site);
    }
    site.ports.add(port);
    const entry = { site, tabId: port.sender?.tab?.id, pending: 0 };
    this.#ports.set(port, entry);
    port.onMessage.addListener((message) => this.#request(port, entry, message));
    port.onDisconnect.addListener(() => {
      this.#ports.delete(port);
      entry.site.ports.delete(port);
      this.#release(entry.site);
    });
  }

  /**
   * Forgets a site with no pages left, once nothing of it is in flight: its prompt still holds
   * the site's one turn, so a new page of the site cannot open a second dialog meanwhile.
   * @param {Site} site
   */
  #release(site) {
    if (site.ports.size > 0 || site.prompt !== null || site.connecting !== null) return;
    if (this.#sites.get(site.origin) === site) this.#sites.delete(site.origin);
  }

  /**
   * One request from a page: answered on its own port only.
   * @param {PagePort} port
   * @param {{ site: Site, pending: number }} entry
   * @param {unknown} message
   */
  async #request(port, entry, message) {
    if (!isPlainObject(message) || typeof message.rid !== 'number' || !Number.isSafeInteger(message.rid)) return;
    const { rid, call } = message;
    const args = isPlainObject(message.args) ? message.args : {};
    /** @param {Record<string, unknown>} reply */
    const answer = (reply) => quietly(() => port.postMessage({ rid, ...reply }));
    if (entry.pending >= MAX_PENDING_PER_PAGE) {
      const message = `More than ${MAX_PENDING_PER_PAGE} requests are waiting: wait for their answers`;
      answer({ error: { code: ProviderErrorCode.limitExceeded, message } });
      return;
    }
    // Checked again here: a content script is the page's neighbour, not the wallet's guard.
    if (argsBytes(args) > MAX_ARGS_BYTES) {
      answer({ error: { code: ProviderErrorCode.limitExceeded, message: TOO_LARGE } });
      return;
    }
    entry.pending += 1;
    try {
      answer({ result: await this.#call(entry.site, typeof call === 'string' ? call : '', args) });
    } catch (error) {
      answer({ error: this.#providerError(entry.site, error) });
    } finally {
      entry.pending -= 1;
    }
  }

  /**
   * @param {Site} site
   * @param {string} call
   * @param {Record<string, unknown>} args
   * @returns {Promise<unknown>}
   */
  async #call(site, call, args) {
    if (!CALLS.includes(call)) throw new ProviderRpcError(ProviderErrorCode.unsupportedMethod, 'The wallet does not offer this call');
    switch (call) {
      case 'state':
        await this.#load(site);
        return this.#state(site);
      case 'eth_request':
        return this.#eth(site, args.method, args.params);
      case 'solana_connect':
        await this.#ensureSession(site);
        return this.#state(site);
      case 'disconnect':
        await this.#disconnect(site);
        return null;
      case 'solana_signMessage':
        return this.#solana(site, 'solana:signMessage', SOLANA_SIGN_MESSAGE_METHOD, undefined, { message: args.message, pubkey: args.pubkey });
      case 'solana_signTransaction': {
        /** @type {Record<string, unknown>} */
        const params = { transaction: args.transaction };
        if (args.pubkey !== undefined) params.pubkey = args.pubkey;
        return this.#solana(site, 'solana:signTransaction', SOLANA_SIGN_TRANSACTION_METHOD, args.chain, params);
      }
      case 'solana_signAllTransactions': {
        /** @type {Record<string, unknown>} */
        const params = { transactions: args.transactions };
        if (args.pubkey !== undefined) params.pubkey = args.pubkey;
        return this.#solana(site, 'solana:signTransaction', SOLANA_SIGN_ALL_TRANSACTIONS_METHOD, args.chain, params);
      }
      case 'solana_signIn':
        // Connecting (when the site has no session) and signing are one turn of the site's.
        return this.#prompting(site, 'solana:signIn', async () => {
          await this.#ensureSession(site, true);
          const input = isPlainObject(args.input) ? args.input : {};
          const result = /** @type {Record<string, unknown>} */ (await this.#solanaRequest(site, SOLANA_SIGN_IN_METHOD, undefined, input));
          return { ...result, state: this.#state(site) };
        });
      default:
        throw new ProviderRpcError(ProviderErrorCode.unsupportedMethod, 'The wallet does not offer this call');
    }
  }

  /**
   * EIP-1193's request, for the methods the wallet offers.
   * @param {Site} site
   * @param {unknown} method
   * @param {unknown} params
   */
  async #eth(site, method, params) {
    switch (method) {
      case 'eth_requestAccounts':
        await this.#ensureSession(site);
        this.#requireEthereum(/** @type {Session} */ (site.session));
        return this.#ethAccounts(site);
      case 'eth_accounts':
        await this.#load(site);
        return this.#ethAccounts(site);
      case 'eth_chainId':
        await this.#load(site);
        return hexChain(this.#chain(site));
      case 'net_version':
        await this.#load(site);
        return parseChainId(this.#chain(site)).reference;
      case 'wallet_switchEthereumChain':
        return this.#switchChain(site, params);
      case 'personal_sign':
      case 'eth_signTypedData_v4':
      case 'eth_signTransaction': {
        const session = this.#requireEthereum(await this.#requireSession(site));
        if (params !== undefined && !Array.isArray(params)) {
          throw new ProviderRpcError(ProviderErrorCode.invalidParams, `${method}'s params are an array`);
        }
        const request = { method, params: /** @type {any} */ (params ?? []) };
        const chainId = this.#chain(site);
        return this.#prompting(site, method, () => this.#ask(() => this.#client.sessionRequest({ topic: session.topic, chainId, request, origin: site.origin })));
      }
      case 'eth_sendTransaction':
        throw new ProviderRpcError(ProviderErrorCode.unsupportedMethod, 'The wallet has no network and sends nothing: '
          + 'sign with eth_signTransaction, then send with eth_sendRawTransaction through your own node');
      default:
        throw new ProviderRpcError(ProviderErrorCode.unsupportedMethod,
          `The wallet does not offer ${typeof method === 'string' ? method.slice(0, 60) : 'that method'}`);
    }
  }

  /**
   * wallet_switchEthereumChain: among the session's eip155 chains (4902 for another).
   * @param {Site} site
   * @param {unknown} params
   */
  async #switchChain(site, params) {
    const target = Array.isArray(params) && isPlainObject(params[0]) ? params[0].chainId : undefined;
    if (typeof target !== 'string' || !HEX_CHAIN_ID.test(target)) {
      throw new ProviderRpcError(ProviderErrorCode.invalidParams,
        'wallet_switchEthereumChain takes [{ chainId }], the chain id as 0x and hex digits (e.g. "0x89")');
    }
    const session = await this.#requireSession(site);
    const chainId = `${EIP155_NAMESPACE}:${BigInt(target)}`;
    if (!chainsOf(session, EIP155_NAMESPACE).includes(chainId)) {
      throw new ProviderRpcError(ProviderErrorCode.unrecognizedChain,
        `The session does not hold the chain ${target} (${chainId}): connect again asking for it`);
    }
    if (site.chainId !== chainId) {
      site.chainId = chainId;
      this.#broadcast(site);
    }
    return null;
  }

  /**
   * A Solana signing request of a page: the site's one prompting call (see #prompting).
   * @param {Site} site
   * @param {string} name the Wallet Standard feature, as a refusal names it
   * @param {string} method
   * @param {unknown} chain
   * @param {Record<string, unknown>} params
   */
  async #solana(site, name, method, chain, params) {
    await this.#requireSession(site);
    return this.#prompting(site, name, () => this.#solanaRequest(site, method, chain, params));
  }

  /**
   * A Solana request on the session: the chain a page names (the Wallet Standard's name or
   * CAIP-2), or the session's first Solana chain.
   * @param {Site} site
   * @param {string} method
   * @param {unknown} chain
   * @param {Record<string, unknown>} params
   */
  async #solanaRequest(site, method, chain, params) {
    const session = await this.#requireSession(site);
    const held = chainsOf(session, SOLANA_NAMESPACE);
    const chainId = chain === undefined ? held[0] : caipSolanaChain(chain);
    if (chainId === undefined) {
      throw new ProviderRpcError(chain === undefined ? ProviderErrorCode.unauthorized : ProviderErrorCode.invalidParams,
        chain === undefined ? 'The session holds no Solana chain' : 'chain must be solana:mainnet, solana:devnet or solana:testnet');
    }
    return this.#ask(() => this.#client.sessionRequest({ topic: session.topic, chainId, request: { method, params }, origin: site.origin }));
  }

  /**
   * Runs a call that asks the person as the site's only one in flight: another while it runs is
   * -32002 at once, as MetaMask answers, so that one site cannot fill the wallet's queue of
   * dialogs (8 waiting per extension, shared by every site) and starve the others.
   * @template T
   * @param {Site} site
   * @param {string} name the call, as the refusal names it
   * @param {() => Promise<T>} work
   * @returns {Promise<T>}
   */
  async #prompting(site, name, work) {
    this.#claimTurn(site);
    site.prompt = name;
    try {
      return await work();
    } finally {
      site.prompt = null;
      this.#release(site);
    }
  }

  /**
   * Refuses when the site already has a prompting call in flight (a signature or a connect).
   * @param {Site} site
   */
  #claimTurn(site) {
    const busy = site.prompt ?? (site.connecting === null ? null : 'eth_requestAccounts');
    if (busy === null) return;
    throw new ProviderRpcError(ProviderErrorCode.resourceUnavailable,
      `Request of type '${busy}' already pending for ${site.origin}: wait for its answer`);
  }

  /**
   * Calls the client, whose checks of the page's params (before anything is sent) are TypeError
   * or RangeError: those are the page's -32602, with the client's words. Any other such error is
   * this code's own, and a page hears only "Internal error" of it.
   * @template T
   * @param {() => Promise<T>} call
   * @returns {Promise<T>}
   */
  async #ask(call) {
    try {
      return await call();
    } catch (error) {
      if (error instanceof TypeError || error instanceof RangeError) {
        throw new ProviderRpcError(ProviderErrorCode.invalidParams, error.message);
      }
      throw error;
    }
  }

  /**
   * Finds the site's session the wallet already has (the newest): once, and again after a
   * session ended (an older one may be left). Sessions of the site are made only here, so in
   * between nothing is missed.
   * @param {Site} site
   */
  async #load(site) {
    // A session past its expiry is over even if its session_expire was missed.
    if (site.session !== null && site.session.expiry * 1000 <= Date.now()) this.#forget(site, site.session.topic);
    if (site.session !== null || site.loaded) return;
    site.loading ??= this.#client.listSessions({ origin: site.origin }).then((listed) => {
      site.loaded = true;
      const newest = listed.sessions.at(-1);
      if (newest && site.session === null) this.#adopt(site, newest);
    }).finally(() => { site.loading = null; });
    await site.loading;
  }

  /**
   * The site's session, asking the person for one when it has none (one proposal at a time,
   * shared by every connect of the site meanwhile; it is the site's prompting call, so a
   * signature asked meanwhile is -32002).
   * @param {Site} site
   * @param {boolean} [held] whether the caller already holds the site's turn (solana:signIn)
   * @returns {Promise<Session>}
   */
  async #ensureSession(site, held = false) {
    await this.#load(site);
    if (site.session !== null) return site.session;
    if (site.connecting !== null) return site.connecting;
    if (!held && site.prompt !== null) this.#claimTurn(site);
    const proposal = { optionalNamespaces: this.#namespaces, metadata: this.#metadata, origin: site.origin };
    site.connecting = this.#ask(() => this.#client.connect(proposal))
      .then((session) => {
        this.#adopt(site, session);
        this.#broadcast(site);
        return session;
      })
      .finally(() => {
        site.connecting = null;
        this.#release(site);
      });
    return site.connecting;
  }

  /**
   * @param {Site} site
   * @returns {Promise<Session>}
   */
  async #requireSession(site) {
    await this.#load(site);
    if (site.session === null) {
      throw new ProviderRpcError(ProviderErrorCode.unauthorized,
        'The site is not connected: ask for the accounts first (eth_requestAccounts, or standard:connect)');
    }
    return site.session;
  }

  /**
   * A session the person approved without the eip155 namespace (the wallet has no Ethereum key,
   * so the optional namespace was left out): EIP-1193's account calls cannot be served, and
   * the page hears why (4100) rather than an empty account list or a chain error.
   * @param {Session} session
   * @returns {Session}
   */
  #requireEthereum(session) {
    if (chainsOf(session, EIP155_NAMESPACE).length === 0) {
      throw new ProviderRpcError(ProviderErrorCode.unauthorized,
        'The wallet has no Ethereum key, so the site\'s session holds none: `wallet-bridge keys create --type ethereum` makes one');
    }
    return session;
  }

  /**
   * @param {Site} site
   * @param {Session} session
   */
  #adopt(site, session) {
    site.session = session;
    const chains = chainsOf(session, EIP155_NAMESPACE);
    if (site.chainId === null || !chains.includes(site.chainId)) site.chainId = chains[0] ?? null;
  }

  /** @param {Site} site */
  async #disconnect(site) {
    await this.#load(site);
    const session = site.session;
    if (session === null) return;
    this.#forget(site, session.topic);
    await this.#client.disconnect(session.topic, undefined, { origin: site.origin });
  }

  /**
   * Drops the site's session if it is `topic`, and tells its pages.
   * @param {Site} site
   * @param {string} topic
   */
  #forget(site, topic) {
    if (site.session?.topic !== topic) return;
    site.session = null;
    site.loaded = false;
    this.#broadcast(site);
  }

  /** @param {Site} site */
  #chain(site) {
    return site.chainId ?? this.#defaultChain;
  }

  /** @param {Site} site */
  #ethAccounts(site) {
    if (site.session === null) return [];
    return accountsOn(site.session, this.#chain(site));
  }

  /**
   * What the site's pages see: the chain, its accounts, the Solana accounts and chains.
   * @param {Site} site
   * @returns {SiteState}
   */
  #state(site) {
    const session = site.session;
    /** @type {Map<string, string[]>} */
    const solana = new Map();
    const solanaChains = session === null ? [] : chainsOf(session, SOLANA_NAMESPACE);
    if (session !== null) {
      for (const account of allAccounts(session)) {
        const { namespace, chainId, address } = parseAccountId(account);
        if (namespace !== SOLANA_NAMESPACE) continue;
        const on = solana.get(address) ?? [];
        on.push(standardSolanaChain(chainId));
        solana.set(address, on);
      }
    }
    return {
      chainId: hexChain(this.#chain(site)),
      accounts: this.#ethAccounts(site),
      solana: {
        accounts: [...solana].map(([address, chains]) => ({ address, chains })),
        chains: solanaChains.map(standardSolanaChain),
      },
    };
  }

  /**
   * Sends the site's state to its pages, and to no other.
   * @param {Site} site
   */
  #broadcast(site) {
    const data = this.#state(site);
    for (const port of site.ports) quietly(() => port.postMessage({ event: STATE_EVENT, data }));
  }

  /**
   * A session notification: to the site it names, when the site has pages and the session is
   * the one they use. One without a site is the extension's own business, not a page's.
   * @param {string} name
   * @param {any} params
   */
  #notification(name, params) {
    const site = typeof params.origin === 'string' ? this.#sites.get(params.origin) : undefined;
    const session = site?.session;
    if (!site || !session || session.topic !== params.topic) return;
    if (name === 'session_delete' || name === 'session_expire') {
      this.#forget(site, params.topic);
    } else if (name === 'session_update') {
      this.#adopt(site, { ...session, namespaces: params.namespaces, expiry: params.expiry });
      this.#broadcast(site);
    } else if (name === 'session_event' && params.event?.name === ETH_ACCOUNTS_CHANGED_EVENT) {
      this.#adopt(site, withAccounts(session, params.chainId, params.event.data));
      this.#broadcast(site);
    }
  }

  /**
   * The popup's questions about the tab it was opened on: that tab's site as its content script's
   * port reported it, its sessions, and ending one of them.
   * @param {any} message
   * @param {any} sender
   * @param {(response: unknown) => void} sendResponse
   */
  #popup(message, sender, sendResponse) {
    if (!isPlainObject(message)) return undefined;
    if (message.type !== SITE_SESSIONS_MESSAGE && message.type !== SITE_DISCONNECT_MESSAGE) return undefined;
    // Only the extension's own pages: a content script (which a page drives) has a tab.
    if (!isPlainObject(sender) || sender.tab !== undefined) return undefined;
    if (this.#runtime.id !== undefined && sender.id !== this.#runtime.id) return undefined;
    const origin = this.#originOfTab(message.tabId);
    const work = (async () => {
      if (origin === null) return { origin: null, sessions: [] };
      if (message.type === SITE_DISCONNECT_MESSAGE) {
        const site = this.#sites.get(origin);
        if (site && typeof message.topic === 'string') this.#forget(site, message.topic);
        await this.#client.disconnect(/** @type {string} */ (message.topic), undefined, { origin });
      }
      const { sessions } = await this.#client.listSessions({ origin });
      return { origin, sessions };
    })();
    work.then(sendResponse, (error) => sendResponse({ origin, sessions: [], error: String(error?.message ?? error) }));
    return true;
  }

  /**
   * The site of a tab's page, from its port.
   * @param {unknown} tabId
   * @returns {string | null}
   */
  #originOfTab(tabId) {
    if (typeof tabId !== 'number') return null;
    // The newest port of the tab: a navigation within it leaves the old page's port a moment longer.
    /** @type {string | null} */
    let origin = null;
    for (const entry of this.#ports.values()) if (entry.tabId === tabId) origin = entry.site.origin;
    return origin;
  }

  /**
   * What a page hears of a failure: EIP-1193's and EIP-1474's codes, the wallet's words.
   * @param {Site} site
   * @param {unknown} error
   */
  #providerError(site, error) {
    if (error instanceof ProviderRpcError) return error.toJSON();
    if (error instanceof NativeRpcError) {
      if (error.code === 7001 && site.session !== null) this.#forget(site, site.session.topic);
      return walletError(error);
    }
    if (error instanceof NativeTransportError) {
      return { code: ProviderErrorCode.disconnected, message: `The wallet cannot be reached: ${error.message}` };
    }
    if (error instanceof NativeProtocolError) return { code: ProviderErrorCode.internalError, message: error.message };
    // Anything else (a TypeError of this code's own among them) says nothing of its internals.
    return { ...INTERNAL_ERROR };
  }
}

/**
 * A wallet's error as a page hears it (see WALLET_ERRORS): the wallet's words, its code in
 * `data.walletCode`; a -32602 keeps the wallet's data (the field and the problem).
 * @param {NativeRpcError} error
 * @returns {{ code: number, message: string, data?: unknown }}
 */
function walletError(error) {
  const { code, message } = error;
  const mapped = WALLET_ERRORS.get(code) ?? ProviderErrorCode.internalError;
  if (mapped === ProviderErrorCode.userRejectedRequest) {
    return { code: mapped, message: `User rejected the request (${message})`, data: { walletCode: code } };
  }
  if (code === -32602) return error.data === undefined ? { code, message } : { code, message, data: error.data };
  return { code: mapped, message, data: { walletCode: code } };
}

/**
 * The site of a port: the origin the browser reports (`sender.origin`, which Chromium and
 * Firefox 126 and later set) for a content script in a tab's top frame of this extension, if it
 * is a web origin and the tab is not incognito (a private window must not share the site's
 * normal session); else null. There is no fallback to `sender.url`: the manifests require
 * browsers that set `origin`.
 * @param {PagePort['sender']} sender
 * @param {string | undefined} extensionId
 * @returns {string | null}
 */
function senderOrigin(sender, extensionId) {
  if (!sender || !sender.tab || (sender.frameId !== undefined && sender.frameId !== 0)) return null;
  if (sender.tab.incognito === true) return null;
  if (extensionId !== undefined && sender.id !== extensionId) return null;
  const origin = sender.origin;
  if (typeof origin !== 'string') return null;
  try {
    checkOrigin(origin);
  } catch {
    return null;
  }
  return origin;
}

/**
 * The CAIP-10 accounts of every namespace of a session.
 * @param {Session} session
 */
function allAccounts(session) {
  return Object.values(session.namespaces).flatMap((namespace) => namespace.accounts);
}

/**
 * The chains a session holds in a namespace, whether keyed by the namespace or by chain id.
 * @param {Session} session
 * @param {string} namespace
 * @returns {string[]}
 */
function chainsOf(session, namespace) {
  /** @type {string[]} */
  const chains = [];
  for (const [key, value] of Object.entries(session.namespaces)) {
    const held = key.includes(':') ? [key] : (value.chains ?? []);
    for (const chain of held) if (chain.startsWith(`${namespace}:`) && !chains.includes(chain)) chains.push(chain);
  }
  return chains;
}

/**
 * The addresses of a session's accounts on one chain, in order.
 * @param {Session} session
 * @param {string} chainId
 */
function accountsOn(session, chainId) {
  return allAccounts(session).map(parseAccountId)
    .filter((account) => account.chainId === chainId)
    .map((account) => account.address);
}

/**
 * The session with one chain's accounts replaced (an accountsChanged event's data).
 * @param {Session} session
 * @param {string} chainId
 * @param {string[]} accounts CAIP-10, on that chain (checked by the client)
 * @returns {Session}
 */
function withAccounts(session, chainId, accounts) {
  /** @type {Session['namespaces']} */
  const namespaces = {};
  for (const [key, value] of Object.entries(session.namespaces)) {
    const held = key.includes(':') ? [key] : (value.chains ?? []);
    if (!held.includes(chainId)) {
      namespaces[key] = value;
      continue;
    }
    const others = value.accounts.filter((account) => !account.startsWith(`${chainId}:`));
    namespaces[key] = { ...value, accounts: [...others, ...accounts] };
  }
  return { ...session, namespaces };
}

/**
 * `eip155:137` as EIP-1193's chain id, `0x89`.
 * @param {string} chainId
 */
function hexChain(chainId) {
  return `0x${BigInt(parseChainId(chainId).reference).toString(16)}`;
}

/** @param {() => void} action */
function quietly(action) {
  try {
    action();
  } catch {
    // A port that went away meanwhile: nothing to tell it.
  }
}

/** @returns {BackgroundRuntime} */
function findRuntime() {
  const scope = /** @type {{ browser?: { runtime?: BackgroundRuntime }, chrome?: { runtime?: BackgroundRuntime } }} */ (globalThis);
  const runtime = scope.browser?.runtime ?? scope.chrome?.runtime;
  if (!runtime) {
    throw new TypeError('no browser.runtime or chrome.runtime here: call startWalletBackground in the extension\'s background, '
      + 'or pass options.runtime');
  }
  return runtime;
}
