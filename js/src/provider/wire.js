/**
 * What the three halves of wallet-bridge/provider (page, content script, background) say to
 * each other, and the errors a page sees. One place, so that the halves cannot disagree.
 *
 * Page -> content script (window.postMessage): `{ channel, id, type: 'request', rid, call, args }`.
 * Content script -> page: `{ channel, id, type: 'reply', rid, result }` or `{ …, error }`, and
 * `{ channel, id, type: 'event', event, data }`.
 * Content script <-> background (one runtime port per page): `{ rid, call, args }` one way,
 * `{ rid, result }`, `{ rid, error }` and `{ event, data }` the other. The background never takes
 * a site, a tab or a topic from these messages: it has them from the port's sender.
 */
import { SOLANA_CHAINS } from '../sessions.js';

/** The name of the content script's port to the background (other ports are left alone). */
export const PORT_NAME = 'wallet-bridge/provider';

/** What a page may ask the background, by name. Anything else is 4200. */
export const CALLS = Object.freeze([
  'state',
  'eth_request',
  'solana_connect',
  'disconnect',
  'solana_signMessage',
  'solana_signTransaction',
  'solana_signAllTransactions',
  'solana_signIn',
]);

/** The event that carries a site's state (accounts, chains) to its pages. */
export const STATE_EVENT = 'state';
/** The event the content script gives its page when the port to the background is gone. */
export const DISCONNECTED_EVENT = 'disconnected';

/** The most requests one page may have waiting: more is -32005 (EIP-1474's limit exceeded). */
export const MAX_PENDING_PER_PAGE = 64;

/**
 * The most a request's arguments may be, as UTF-8 JSON: the wallet's own request cap (1 MiB).
 * More is -32005 (EIP-1474's limit exceeded) from the content script and again from the
 * background, before it is posted on: a larger message could make the browser drop the one
 * native port all sites share (Chromium throws on a port message over 64 MiB; Firefox ends the
 * host), failing every other site's pending request.
 */
export const MAX_ARGS_BYTES = 1024 * 1024;

/**
 * The size of `args` as UTF-8 JSON, or -1 when it cannot be written as JSON (a BigInt, a cycle).
 * The string's length is checked first, so a huge one is never encoded.
 * @param {unknown} args
 */
export function argsBytes(args) {
  let text;
  try {
    text = JSON.stringify(args) ?? '';
  } catch {
    return -1;
  }
  // UTF-8 takes at least one byte per UTF-16 unit: longer than the cap in units is over it in bytes.
  if (text.length > MAX_ARGS_BYTES) return text.length;
  return new TextEncoder().encode(text).length;
}

/** The message of a request over MAX_ARGS_BYTES. */
export const TOO_LARGE = `The request is larger than ${MAX_ARGS_BYTES} bytes as JSON (1 MiB, the wallet's cap): send less at once`;

/**
 * The error codes a page sees: EIP-1193's provider codes and EIP-1474's JSON-RPC ones
 * (MetaMask's eth-rpc-errors uses the same numbers).
 */
export const ProviderErrorCode = Object.freeze({
  userRejectedRequest: 4001,
  unauthorized: 4100,
  unsupportedMethod: 4200,
  disconnected: 4900,
  chainDisconnected: 4901,
  unrecognizedChain: 4902,
  invalidInput: -32000,
  resourceUnavailable: -32002,
  limitExceeded: -32005,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
});

/**
 * An error a page's provider rejects with: EIP-1193's ProviderRpcError, `code`, `message` and
 * optional `data`.
 */
export class ProviderRpcError extends Error {
  /**
   * @param {number} code
   * @param {string} message
   * @param {unknown} [data]
   */
  constructor(code, message, data) {
    super(message);
    this.name = 'ProviderRpcError';
    /** @type {number} */
    this.code = code;
    if (data !== undefined) this.data = data;
  }

  /** The plain form that crosses ports and windows. */
  toJSON() {
    return this.data === undefined ? { code: this.code, message: this.message } : { code: this.code, message: this.message, data: this.data };
  }
}

/**
 * The Wallet Standard's names of the Solana clusters and their CAIP-2 ids, which the wallet's
 * sessions use. A page sees the first; the wallet the second.
 */
export const SOLANA_STANDARD_CHAINS = /** @type {Readonly<Record<string, string>>} */ (Object.freeze(
  Object.fromEntries(Object.entries(SOLANA_CHAINS).map(([cluster, id]) => [`solana:${cluster}`, id])),
));

/**
 * A CAIP-2 Solana chain id as the Wallet Standard names it, or the id as it is when it has no name.
 * @param {string} caip
 */
export function standardSolanaChain(caip) {
  for (const [name, id] of Object.entries(SOLANA_STANDARD_CHAINS)) if (id === caip) return name;
  return caip;
}

/**
 * A chain a page names (the Wallet Standard's `solana:devnet`, or a CAIP-2 id) as a CAIP-2 id,
 * or undefined when it is neither.
 * @param {unknown} chain
 * @returns {string | undefined}
 */
export function caipSolanaChain(chain) {
  if (typeof chain !== 'string') return undefined;
  if (Object.hasOwn(SOLANA_STANDARD_CHAINS, chain)) return SOLANA_STANDARD_CHAINS[chain];
  return Object.values(SOLANA_STANDARD_CHAINS).includes(chain) ? chain : undefined;
}

