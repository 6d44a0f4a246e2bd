// wallet-bridge/provider: the page side of a wallet extension (EIP-1193 announced by EIP-6963,
// a Solana Wallet Standard wallet), the content script's relay, and the background that holds
// the one native port and each site's session. See js/README.md, "Web pages".

import type { PeerMetadata } from '../index.js';

/** EIP-6963's provider info: how a dApp lists the wallet. */
export interface ProviderInfo {
  /**
   * A version 4 UUID. EIP-6963 makes it the provider object's, so leave it out: each page then
   * gets its own (crypto.randomUUID()). A fixed one would let pages tell the same install apart.
   */
  uuid?: string;
  name: string;
  /** A data: URI of an image (`data:image/png;base64,…`), never a remote address. */
  icon: string;
  /** Reverse DNS, e.g. `dev.wallet-bridge`. */
  rdns: string;
}

/** EIP-1193's ProviderRpcError: what a page's promise rejects with. */
export class ProviderRpcError extends Error {
  constructor(code: number, message: string, data?: unknown);
  readonly code: number;
  readonly data?: unknown;
  toJSON(): { code: number; message: string; data?: unknown };
}

/** The codes a page sees: EIP-1193's and EIP-1474's. */
export const ProviderErrorCode: Readonly<{
  userRejectedRequest: 4001;
  unauthorized: 4100;
  unsupportedMethod: 4200;
  disconnected: 4900;
  chainDisconnected: 4901;
  unrecognizedChain: 4902;
  invalidInput: -32000;
  resourceUnavailable: -32002;
  limitExceeded: -32005;
  invalidRequest: -32600;
  methodNotFound: -32601;
  invalidParams: -32602;
  internalError: -32603;
}>;

/** What the background tells a site's pages: its chain and accounts, as the page providers expose them. */
export interface SiteState {
  /** The EVM chain the site is on, hex (`"0x89"`). */
  chainId: string;
  /** The session's addresses on that chain (none without a session). */
  accounts: string[];
  solana: {
    /** Each Solana account with the Wallet Standard names of its chains (`solana:mainnet`). */
    accounts: Array<{ address: string; chains: string[] }>;
    chains: string[];
  };
}

/** An EIP-1193 provider. */
export interface EthereumProvider {
  request(args: { method: string; params?: readonly unknown[] | Record<string, unknown> }): Promise<unknown>;
  on(event: 'connect' | 'disconnect' | 'accountsChanged' | 'chainChanged' | string, listener: (data: any) => void): EthereumProvider;
  removeListener(event: string, listener: (data: any) => void): EthereumProvider;
  off(event: string, listener: (data: any) => void): EthereumProvider;
  isConnected(): boolean;
}

/** A Wallet Standard account. */
export interface SolanaWalletAccount {
  readonly address: string;
  readonly publicKey: Uint8Array;
  readonly chains: readonly string[];
  readonly features: readonly string[];
}

/** A Wallet Standard wallet with the Solana features. */
export interface SolanaWallet {
  readonly version: '1.0.0';
  readonly name: string;
  readonly icon: `data:image/${string}`;
  /** The session's Solana chains by their Wallet Standard names, or all the wallet signs for before one. */
  readonly chains: readonly string[];
  readonly accounts: readonly SolanaWalletAccount[];
  readonly features: Readonly<Record<string, { readonly version: string; readonly [member: string]: unknown }>>;
}

/** The popup's answer about its tab's site (runtime.sendMessage of SITE_SESSIONS_MESSAGE or SITE_DISCONNECT_MESSAGE). */
export interface SiteSessionsReply {
  /** The tab's site as its content script's port reported it; null when the tab has no page of ours. */
  origin: string | null;
  sessions: import('../index.js').Session[];
  error?: string;
}

/**
 * The page's half, in the page's world (a module the content script injected): an EIP-1193
 * provider announced by EIP-6963 (`eip6963:announceProvider`, again on each
 * `eip6963:requestProvider`), and a Solana wallet registered by the Wallet Standard's events.
 * `id` is the page's id that startContentScript put after `#` in the page script's URL: a module
 * passes `new URL(import.meta.url).hash.slice(1)` (left out, a classic script's is read).
 */
export function installPageProviders(options: { channel: string; info: ProviderInfo; id?: string; window?: unknown }): {
  ethereum: EthereumProvider;
  solana: SolanaWallet;
};

/**
 * The content script's half: makes the page's random id, injects `pageScriptUrl#id` as a
 * module, and relays this window's own messages on `channel` with that id to the background
 * over one runtime port, and the answers back. `window`, `runtime`: for tests.
 */
export function startContentScript(options: { channel: string; pageScriptUrl: string; window?: unknown; runtime?: unknown }): {
  readonly id: string;
  stop(): void;
};

/**
 * The background's half: one native port to `hostName`, the content scripts' ports, per site its
 * session (asked for with `metadata`, and the site's origin as the browser reported it) and EVM
 * chain; answers the popup's SITE_SESSIONS_MESSAGE and SITE_DISCONNECT_MESSAGE.
 */
export function startWalletBackground(options: {
  hostName: string;
  metadata: PeerMetadata;
  /** The EVM chains a session asks for, CAIP-2 (default: Ethereum, Sepolia, Polygon, Optimism, Arbitrum, Base). */
  eip155Chains?: readonly string[];
  onWarning?: (warning: unknown) => void;
  /** For tests: the extension's own runtime by default. */
  runtime?: unknown;
}): { stop(): void };

/** `{ type: SITE_SESSIONS_MESSAGE, tabId }` → SiteSessionsReply. */
export const SITE_SESSIONS_MESSAGE: 'wallet-bridge/site-sessions';
/** `{ type: SITE_DISCONNECT_MESSAGE, tabId, topic }` → SiteSessionsReply after the session ended. */
export const SITE_DISCONNECT_MESSAGE: 'wallet-bridge/site-disconnect';
