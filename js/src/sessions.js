/**
 * Sessions (docs/sessions.md): the method and notification names, the Solana and Ethereum
 * (eip155) chains and methods, the CAIP-2 / CAIP-10 grammars, and the checks every session call
 * runs. Params are checked before anything is sent (TypeError or RangeError naming the field);
 * results and event params are checked before they reach the caller, as the walletlib methods'
 * are.
 */
import { base58Decode, base58Encode, isUint8Array } from './base58.js';
import { base64Decode, base64Encode } from './base64.js';
import { NativeProtocolError } from './errors.js';
import { schemaProblem } from './json-schema.js';
import { describe, isPlainObject } from './protocol.js';
import { SESSION_REQUEST_RESULTS, SESSION_SCHEMAS } from './session-schemas.js';
import {
  SOLANA_SIGN_ALL_MAX_TRANSACTIONS,
  SOLANA_TRANSACTION_MAX_BYTES,
  signedTransactionProblem,
  solanaTransactionLayout,
} from './solana-transaction.js';

export { SOLANA_SIGN_ALL_MAX_TRANSACTIONS, SOLANA_TRANSACTION_MAX_BYTES };

/**
 * @typedef {import('./index.js').JsonValue} JsonValue
 * @typedef {import('./index.js').NativeRpcId} NativeRpcId
 * @typedef {import('./index.js').NativeClient} NativeClient
 * @typedef {import('./index.js').Namespaces} Namespaces
 * @typedef {import('./index.js').PeerMetadata} PeerMetadata
 * @typedef {import('./index.js').Session} Session
 * @typedef {import('./index.js').SessionConnectParams} SessionConnectParams
 * @typedef {import('./index.js').SessionListResult} SessionListResult
 * @typedef {import('./index.js').SessionExtendResult} SessionExtendResult
 * @typedef {import('./index.js').SessionErrorReason} SessionErrorReason
 * @typedef {import('./index.js').SessionEventName} SessionEventName
 * @typedef {import('./index.js').SessionEventMap} SessionEventMap
 * @typedef {import('./index.js').SignMessageArgs} SignMessageArgs
 * @typedef {import('./index.js').PersonalSignArgs} PersonalSignArgs
 * @typedef {import('./index.js').SignTypedDataV4Args} SignTypedDataV4Args
 * @typedef {import('./index.js').EthSignature} EthSignature
 * @typedef {import('./index.js').SolanaSignTransactionArgs} SolanaSignTransactionArgs
 * @typedef {import('./index.js').SolanaSignAllTransactionsArgs} SolanaSignAllTransactionsArgs
 * @typedef {import('./index.js').SolanaSignedTransaction} SolanaSignedTransaction
 * @typedef {import('./index.js').EthSignTransactionArgs} EthSignTransactionArgs
 * @typedef {import('./index.js').EthTransactionRequest} EthTransactionRequest
 * @typedef {import('./index.js').Hex} Hex
 * @typedef {import('./solana-transaction.js').SolanaTransactionLayout} SolanaTransactionLayout
 */

// ---- Names ----------------------------------------------------------------------------------

/** Proposes a session: SessionConnectParams → Session. */
export const SESSION_CONNECT_METHOD = 'session_connect';
/** The caller's live sessions, oldest first: `{}` → SessionListResult. */
export const SESSION_LIST_METHOD = 'session_list';
/** A request within a session: SessionRequest → the inner method's result. */
export const SESSION_REQUEST_METHOD = 'session_request';
/** Restarts a session's lifetime from now: `{ topic }` → `{ expiry }`. */
export const SESSION_EXTEND_METHOD = 'session_extend';
/** Ends a session: `{ topic, reason? }` → `{}`. */
export const SESSION_DISCONNECT_METHOD = 'session_disconnect';

/** Notification: an event within a session (`accountsChanged`). */
export const SESSION_EVENT_NOTIFICATION = 'session_event';
/** Notification: the session was extended, or its accounts changed. */
export const SESSION_UPDATE_NOTIFICATION = 'session_update';
/** Notification: the session was disconnected (on another port) or revoked. */
export const SESSION_DELETE_NOTIFICATION = 'session_delete';
/** Notification: the session's expiry passed. */
export const SESSION_EXPIRE_NOTIFICATION = 'session_expire';
/** The four notifications a port delivers to `client.on` handlers. */
export const SESSION_EVENT_NAMES = /** @type {readonly ['session_event', 'session_update', 'session_delete', 'session_expire']} */ (
  Object.freeze([SESSION_EVENT_NOTIFICATION, SESSION_UPDATE_NOTIFICATION, SESSION_DELETE_NOTIFICATION, SESSION_EXPIRE_NOTIFICATION])
);

/** The CAIP-2 namespace of the chains the wallet supports. */
export const SOLANA_NAMESPACE = 'solana';
/** CAIP-2: `solana:` and the first 32 characters of the genesis hash. */
export const SOLANA_MAINNET_CHAIN_ID = 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp';
export const SOLANA_DEVNET_CHAIN_ID = 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1';
export const SOLANA_TESTNET_CHAIN_ID = 'solana:4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z';
/** The three chains by name. */
export const SOLANA_CHAINS = Object.freeze({
  mainnet: SOLANA_MAINNET_CHAIN_ID,
  devnet: SOLANA_DEVNET_CHAIN_ID,
  testnet: SOLANA_TESTNET_CHAIN_ID,
});

/** Inner method: `{ message, pubkey }` (base58) → `{ signature }` (base58, 64 bytes). */
export const SOLANA_SIGN_MESSAGE_METHOD = 'solana_signMessage';
/**
 * Inner method: `{ transaction, pubkey? }` (a serialized transaction in base64, a base58 key) →
 * `{ signature, transaction }` (base58 of this key's 64-byte signature, base64 of the transaction
 * with it in its slot).
 */
export const SOLANA_SIGN_TRANSACTION_METHOD = 'solana_signTransaction';
/** Inner method: `{ transactions, pubkey? }` (1 to 16) → `{ transactions, signatures }`, in order: one dialog for all. */
export const SOLANA_SIGN_ALL_TRANSACTIONS_METHOD = 'solana_signAllTransactions';
/** Inner method: no params → `[{ pubkey }]`. */
export const SOLANA_GET_ACCOUNTS_METHOD = 'solana_getAccounts';
/** Inner method: no params → `[{ pubkey }]`. */
export const SOLANA_REQUEST_ACCOUNTS_METHOD = 'solana_requestAccounts';
/**
 * Inner method (Sign In With Solana): the Wallet Standard's SolanaSignInInput, every member
 * optional → `{ address, message, signature }`: the account that signed, the exact text the
 * wallet built and signed, base58 of the 64-byte signature.
 */
export const SOLANA_SIGN_IN_METHOD = 'solana_signIn';
/** The one event a Solana session holds: `data` is the chain's CAIP-10 accounts. */
export const SOLANA_ACCOUNTS_CHANGED_EVENT = 'accountsChanged';

/** The CAIP-2 namespace of Ethereum and the EVM chains: `eip155:` and the decimal chain id. */
export const EIP155_NAMESPACE = 'eip155';
/**
 * A few well-known chains by name. The wallet signs for any `eip155:<decimal chain id>`: these
 * are for convenience, not a list of what it supports.
 */
export const EIP155_CHAINS = Object.freeze({
  mainnet: 'eip155:1',
  sepolia: 'eip155:11155111',
  polygon: 'eip155:137',
  optimism: 'eip155:10',
  arbitrum: 'eip155:42161',
  base: 'eip155:8453',
});

/** Inner method: `[]` or no params → the session's addresses, EIP-55 (checked: 0x and 40 hex digits). */
export const ETH_ACCOUNTS_METHOD = 'eth_accounts';
/** Inner method: `[]` or no params → the request's chain id as a hex quantity (`"0x89"` on eip155:137). */
export const ETH_CHAIN_ID_METHOD = 'eth_chainId';
/** Inner method (EIP-191): `[message, address]` → a 65-byte signature, 0x and 130 hex digits. */
export const PERSONAL_SIGN_METHOD = 'personal_sign';
/** Inner method (EIP-712): `[address, typedData]` (typed data an object or its JSON text) → a 65-byte signature. */
export const ETH_SIGN_TYPED_DATA_V4_METHOD = 'eth_signTypedData_v4';
/**
 * Inner method: `[transaction]`, an object (legacy, EIP-2930 or EIP-1559; `nonce`, `gas` and the
 * fees given, since the wallet has no network) or an unsigned serialized transaction in hex →
 * the raw signed transaction, 0x and hex, for eth_sendRawTransaction.
 */
export const ETH_SIGN_TRANSACTION_METHOD = 'eth_signTransaction';
/** An eip155 session's `accountsChanged`: `data` is the chain's CAIP-10 accounts (the same name as Solana's). */
export const ETH_ACCOUNTS_CHANGED_EVENT = 'accountsChanged';
/** An eip155 session's `chainChanged`: the event's `chainId` is the chain; `data` is passed on unchecked. */
export const ETH_CHAIN_CHANGED_EVENT = 'chainChanged';

// ---- Grammars ---------------------------------------------------------------------------------

/** CAIP-2 namespace: 3 to 8 of [-a-z0-9] (as ChainID.isNamespace in CAIP.swift). */
const NAMESPACE = /^[-a-z0-9]{3,8}$/;
/** CAIP-2 chain id: namespace, colon, reference of 1 to 32 of [-_a-zA-Z0-9]. */
const CHAIN_ID = /^([-a-z0-9]{3,8}):([-_a-zA-Z0-9]{1,32})$/;
/** CAIP-10 account id: chain id, colon, address of 1 to 128 of [-.%a-zA-Z0-9]. */
const ACCOUNT_ID = /^([-a-z0-9]{3,8}):([-_a-zA-Z0-9]{1,32}):([-.%a-zA-Z0-9]{1,128})$/;
/** A session's topic: 32 random bytes in lowercase hex, as WalletConnect's. */
const TOPIC = /^[0-9a-f]{64}$/;
/** Above this an "expiry in seconds" is almost surely milliseconds (1e11 s is the year 5138). */
const LARGEST_PLAUSIBLE_SECONDS = 1e11;
const METADATA_NAME_MAX = 100;
const EXAMPLE_CHAIN = `e.g. "${SOLANA_MAINNET_CHAIN_ID}"`;
/** An eip155 chain's reference: the chain id in decimal, no leading zero (CAIP-2 allows 32 characters). */
const EIP155_REFERENCE = /^[1-9][0-9]{0,31}$/;
/**
 * An Ethereum address in any case. A mixed-case one's EIP-55 checksum is the host's to check
 * (-32602): that needs Keccak-256, which this package does not carry.
 */
const ETH_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
/** A 65-byte signature r‖s‖v, v 27 or 28. */
const ETH_SIGNATURE = /^0x[0-9a-fA-F]{128}1[bcBC]$/;
/**
 * A web origin as the browser serializes it: http or https, a lowercase host (labels of
 * [a-z0-9_-], punycode included, or IPv4), or a bracketed IPv6 address, an optional port, nothing
 * after. The default port and the other rules are checked in originProblem; the wallet checks the
 * rest (an IPv6 address it can read, a numeric last label only in an IPv4 address).
 */
const ORIGIN = /^(https?):\/\/(\[[0-9a-f:.]+\]|[a-z0-9._-]+)(?::([0-9]+))?$/;
/** The longest origin the host takes, in bytes (all ASCII, so characters). */
const ORIGIN_MAX = 255;
/** What the host says of a malformed origin (-32602), said here too. */
const ORIGIN_EXPECTED = 'a web origin such as https://app.example.com (scheme, host and port only)';
/** The Sign-In-With-Solana input's text members, all optional. */
const SIGN_IN_TEXT_FIELDS = /** @type {const} */ (['domain', 'address', 'statement', 'uri', 'version', 'chainId', 'nonce', 'issuedAt', 'expirationTime', 'notBefore', 'requestId']);

/**
 * Splits a CAIP-2 chain id; throws a TypeError for anything else.
 * @param {string} chainId
 * @returns {{ namespace: string, reference: string }}
 */
export function parseChainId(chainId) {
  const match = typeof chainId === 'string' ? CHAIN_ID.exec(chainId) : null;
  if (!match) throw new TypeError(`${shown(chainId)} is not a CAIP-2 chain id (namespace:reference, ${EXAMPLE_CHAIN})`);
  return { namespace: match[1], reference: match[2] };
}

/**
 * Splits a CAIP-10 account id (`solana:5eykt…:7S3P…`); throws a TypeError for anything else.
 * For Solana the address is the account's base58 public key, the `pubkey` of solana_signMessage;
 * for eip155 it is the 0x address, the `address` of personal_sign and eth_signTypedData_v4.
 * @param {string} accountId
 * @returns {{ chainId: string, namespace: string, reference: string, address: string }}
 */
export function parseAccountId(accountId) {
  const match = typeof accountId === 'string' ? ACCOUNT_ID.exec(accountId) : null;
  if (!match) throw new TypeError(`${shown(accountId)} is not a CAIP-10 account id (namespace:reference:address)`);
  return { chainId: `${match[1]}:${match[2]}`, namespace: match[1], reference: match[2], address: match[3] };
}

/**
 * What is wrong with a CAIP-2 chain id beyond the CAIP-2 grammar, or null: an eip155 chain's
 * reference is its decimal chain id ("eip155:137"), and the hex form is a common slip. The text
 * starts with the chain id, to follow "chainId is" or "… has the key".
 * @param {string} chainId a CAIP-2 chain id
 * @returns {string | null}
 */
function chainReferenceProblem(chainId) {
  const [namespace, reference] = chainId.split(':');
  if (namespace !== EIP155_NAMESPACE || EIP155_REFERENCE.test(reference)) return null;
  const hex = /^0x[0-9a-fA-F]+$/.test(reference) ? `: the chain id goes in decimal, "${EIP155_NAMESPACE}:${BigInt(reference)}"` : '';
  return `${shown(chainId)}, not an eip155 chain id: its reference is the chain id in decimal digits, without leading zeros (e.g. "${EIP155_CHAINS.mainnet}", "${EIP155_CHAINS.polygon}")${hex}`;
}

/**
 * A value for an error message: chain ids and namespace keys are public names and worth
 * showing (shortened); anything else only by its type, as describe() does.
 * @param {unknown} value
 */
function shown(value) {
  if (typeof value !== 'string') return describe(value);
  return JSON.stringify(value.length > 80 ? `${value.slice(0, 77)}...` : value);
}

/**
 * `record.key` for a namespace-like key, `record["solana:…"]` for any other.
 * @param {string} record
 * @param {string} key
 */
function member(record, key) {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `${record}.${key}` : `${record}[${JSON.stringify(key)}]`;
}

// ---- Params: checked before sending (TypeError, RangeError) -----------------------------------

/**
 * @param {unknown} topic
 * @param {string} [field]
 * @returns {asserts topic is string}
 */
export function checkTopic(topic, field = 'topic') {
  if (typeof topic !== 'string') throw new TypeError(`${field} must be a session topic (64 lowercase hex digits), not ${describe(topic)}`);
  if (!TOPIC.test(topic)) {
    const hint = /^[0-9a-fA-F]{64}$/.test(topic) ? ': it has uppercase digits, and topics are lowercase' : `, not a string of ${topic.length} characters`;
    throw new TypeError(`${field} must be a session topic, 64 lowercase hex digits as session_connect returned it${hint}`);
  }
}

/**
 * What is wrong with a site's origin, or null: see ORIGIN. The text follows "origin is".
 * @param {unknown} origin
 * @returns {string | null}
 */
function originProblem(origin) {
  if (typeof origin !== 'string') return `${describe(origin)}, not ${ORIGIN_EXPECTED}`;
  const match = origin.length <= ORIGIN_MAX ? ORIGIN.exec(origin) : null;
  if (!match) {
    const hint = origin.length > ORIGIN_MAX ? `: it is longer than ${ORIGIN_MAX} characters`
      : /\/$/.test(origin) ? ': no trailing slash (new URL(url).origin has none)'
        : /[A-Z]/.test(origin) ? ': the host is lowercase' : '';
    return `${shown(origin)}, not ${ORIGIN_EXPECTED}${hint}`;
  }
  const [, scheme, host, port] = match;
  const labelsOk = host.startsWith('[')
    ? host.includes(':')
    : host.split('.').every((label) => label.length >= 1 && label.length <= 63 && !label.startsWith('-') && !label.endsWith('-'));
  if (!labelsOk) return `${shown(origin)}, not ${ORIGIN_EXPECTED}: its host is not a host name or an IP address`;
  if (port !== undefined) {
    const defaultPort = scheme === 'https' ? '443' : '80';
    if (port === defaultPort) return `${shown(origin)}, not ${ORIGIN_EXPECTED}: the browser leaves out the scheme's default port ${defaultPort}`;
    if (port.startsWith('0') || Number(port) > 65535) return `${shown(origin)}, not ${ORIGIN_EXPECTED}: its port is not 1 to 65535`;
  }
  return null;
}

/**
 * A site's origin, as the extension's background got it from the browser (`sender.origin`),
 * never from the page. Optional everywhere: undefined passes.
 * @param {unknown} origin
 * @param {string} [field]
 * @returns {asserts origin is string | undefined}
 */
export function checkOrigin(origin, field = 'origin') {
  if (origin === undefined) return;
  const problem = originProblem(origin);
  if (problem !== null) throw new TypeError(`${field} is ${problem}`);
}

/**
 * @param {unknown} chainId
 * @param {string} field
 * @returns {asserts chainId is string}
 */
function checkChainId(chainId, field) {
  if (typeof chainId !== 'string' || !CHAIN_ID.test(chainId)) {
    throw new TypeError(`${field} must be a CAIP-2 chain id (namespace:reference, ${EXAMPLE_CHAIN}), not ${shown(chainId)}`);
  }
  const problem = chainReferenceProblem(chainId);
  if (problem) throw new TypeError(`${field} is ${problem}`);
}

/**
 * @param {unknown} value
 * @param {string} field
 * @returns {asserts value is string[]}
 */
function checkStringArray(value, field) {
  if (!Array.isArray(value)) throw new TypeError(`${field} must be an array of strings, not ${describe(value)}`);
  value.forEach((element, index) => {
    if (typeof element !== 'string') throw new TypeError(`${field}[${index}] must be a string, not ${describe(element)}`);
  });
}

/**
 * A proposal's namespaces (CAIP-25): keys are CAIP-2 namespaces with a non-empty `chains` of
 * that namespace, or whole chain ids with no `chains`; each has `methods` and `events`. Whether
 * the wallet supports them is the host's to say (5100 to 5104), not checked here.
 * @param {unknown} namespaces
 * @param {string} field
 * @returns {number} how many chains they ask for
 */
function checkNamespaces(namespaces, field) {
  if (namespaces === undefined) return 0;
  if (!isPlainObject(namespaces)) {
    throw new TypeError(`${field} must be an object of namespaces (e.g. { solana: { chains: [...], methods: [...], events: [...] } }), not ${describe(namespaces)}`);
  }
  let chainCount = 0;
  for (const [key, namespace] of Object.entries(namespaces)) {
    const path = member(field, key);
    const keyIsChain = CHAIN_ID.test(key);
    if (!NAMESPACE.test(key) && !keyIsChain) {
      throw new TypeError(`${field} has the key ${shown(key)}, which is neither a CAIP-2 namespace (3 to 8 of [-a-z0-9], e.g. "solana") nor a CAIP-2 chain id (${EXAMPLE_CHAIN})`);
    }
    if (!isPlainObject(namespace)) throw new TypeError(`${path} must be an object ({ chains, methods, events }), not ${describe(namespace)}`);
    if (keyIsChain) {
      const problem = chainReferenceProblem(key);
      if (problem) throw new TypeError(`${field} has the key ${problem}`);
      if (namespace.chains !== undefined) {
        throw new TypeError(`${path} is keyed by a chain id, so it has no chains member: key it by its namespace (${JSON.stringify(key.split(':')[0])}) to list chains`);
      }
      chainCount += 1;
    } else {
      checkStringArray(namespace.chains, `${path}.chains`);
      if (namespace.chains.length === 0) throw new TypeError(`${path}.chains must not be empty`);
      namespace.chains.forEach((chain, index) => {
        checkChainId(chain, `${path}.chains[${index}]`);
        if (!chain.startsWith(`${key}:`)) throw new TypeError(`${path}.chains[${index}] is ${shown(chain)}, a chain outside the namespace ${JSON.stringify(key)}`);
      });
      chainCount += namespace.chains.length;
    }
    checkStringArray(namespace.methods, `${path}.methods`);
    checkStringArray(namespace.events, `${path}.events`);
  }
  return chainCount;
}

/**
 * @param {unknown} metadata
 * @param {string} field
 * @returns {asserts metadata is PeerMetadata}
 */
function checkMetadata(metadata, field) {
  if (!isPlainObject(metadata)) throw new TypeError(`${field} must be an object ({ name, description?, url?, icons? }), not ${describe(metadata)}`);
  if (typeof metadata.name !== 'string') throw new TypeError(`${field}.name must be a string, not ${describe(metadata.name)}`);
  // Characters as code points: "1 to 100 characters" (docs/sessions.md).
  const length = [...metadata.name].length;
  if (length < 1 || length > METADATA_NAME_MAX) {
    throw new RangeError(`${field}.name must be 1 to ${METADATA_NAME_MAX} characters, not ${length}`);
  }
  for (const key of /** @type {const} */ (['description', 'url'])) {
    if (metadata[key] !== undefined && typeof metadata[key] !== 'string') throw new TypeError(`${field}.${key} must be a string, not ${describe(metadata[key])}`);
  }
  if (metadata.icons !== undefined) checkStringArray(metadata.icons, `${field}.icons`);
  // The host shows only web addresses beside the extension's name (docs/sessions.md).
  const addresses = [['url', metadata.url], ...(metadata.icons ?? []).map((icon, index) => [`icons[${index}]`, icon])];
  for (const [name, value] of addresses) {
    if (value !== undefined && value !== '' && !/^https?:\/\//i.test(String(value))) {
      throw new RangeError(`${field}.${name} must be an https: or http: address, not ${describe(value)}`);
    }
  }
}

/**
 * session_connect's params, without the call options.
 * @param {unknown} params
 * @returns {SessionConnectParams}
 */
export function checkConnectParams(params) {
  if (!isPlainObject(params)) throw new TypeError(`connect takes { requiredNamespaces?, optionalNamespaces?, metadata }, not ${describe(params)}`);
  const chains = checkNamespaces(params.requiredNamespaces, 'requiredNamespaces') + checkNamespaces(params.optionalNamespaces, 'optionalNamespaces');
  if (chains === 0) throw new TypeError('requiredNamespaces and optionalNamespaces together must ask for at least one chain');
  checkMetadata(params.metadata, 'metadata');
  checkOrigin(params.origin);
  /** @type {SessionConnectParams} */
  const wire = { metadata: params.metadata };
  if (params.requiredNamespaces !== undefined) wire.requiredNamespaces = /** @type {Namespaces} */ (params.requiredNamespaces);
  if (params.optionalNamespaces !== undefined) wire.optionalNamespaces = /** @type {Namespaces} */ (params.optionalNamespaces);
  if (params.origin !== undefined) wire.origin = params.origin;
  checkSessionParams(SESSION_CONNECT_METHOD, wire);
  return wire;
}

/**
 * Throws a TypeError unless `params` validate against `method`'s params schema as the host
 * states it (session-schemas.js, generated from its rpc.discover): after the checks above, which
 * word the common mistakes, this holds the rest of what the host says it takes.
 * @param {string} method a session method
 * @param {unknown} params the whole params, as sent
 */
export function checkSessionParams(method, params) {
  const problem = schemaProblem(SESSION_SCHEMAS[/** @type {keyof typeof SESSION_SCHEMAS} */ (method)]?.params, params);
  if (problem !== null) throw new TypeError(`${method}'s params: ${problem}`);
}

/**
 * A whole number of seconds since the Unix epoch. Its window (5 minutes to 7 days from now) is
 * the host's to check, with its clock: from 5 minutes to 7 days from now.
 * @param {unknown} expiry
 * @param {string} [field]
 * @returns {asserts expiry is number}
 */
export function checkExpiry(expiry, field = 'expiry') {
  if (typeof expiry !== 'number') throw new TypeError(`${field} must be a number of seconds since the Unix epoch, not ${describe(expiry)}`);
  if (!Number.isInteger(expiry) || expiry <= 0) {
    throw new RangeError(`${field} must be a positive whole number of seconds since the Unix epoch, not ${expiry}`);
  }
  if (expiry > LARGEST_PLAUSIBLE_SECONDS) {
    throw new RangeError(`${field} is ${expiry}, which looks like milliseconds: it is in seconds since the Unix epoch (e.g. Math.floor(Date.now() / 1000) + 600)`);
  }
}

/**
 * @param {unknown} text
 * @param {string} field
 * @param {number} [length] the byte count it must decode to
 */
function checkBase58(text, field, length) {
  if (typeof text !== 'string') throw new TypeError(`${field} must be a base58 string, not ${describe(text)}`);
  /** @type {Uint8Array} */
  let bytes;
  try {
    bytes = base58Decode(text);
  } catch (error) {
    throw new TypeError(`${field}: ${/** @type {Error} */ (error).message}`);
  }
  if (length !== undefined && bytes.length !== length) throw new TypeError(`${field} must be base58 of ${length} bytes, not of ${bytes.length}`);
  if (length === undefined && bytes.length === 0) throw new TypeError(`${field} must not be empty`);
}

// ---- Ethereum params (eip155) ----------------------------------------------------------------

/**
 * @param {unknown} address
 * @param {string} field
 * @param {string} [hint] added to the message
 * @returns {asserts address is string}
 */
function checkEthAddress(address, field, hint = '') {
  if (typeof address !== 'string') throw new TypeError(`${field} must be an address (0x and 40 hex digits), not ${describe(address)}${hint}`);
  if (!ETH_ADDRESS.test(address)) {
    throw new TypeError(`${field} must be an address, 0x and 40 hex digits (any case), not a string of ${address.length} characters${hint}`);
  }
}

/**
 * personal_sign's message, as the host (and MetaMask) reads it: "0x" and one or more hex digits
 * are bytes (an odd count after a leading zero nibble: "0xabc" is 0x0a 0xbc), anything else is
 * text signed as its UTF-8 bytes ("0x" alone, "0x.org wants you to sign in…"). Only the empty
 * string is refused, as the host and MetaMask refuse it.
 * @param {unknown} message
 * @param {string} field
 * @param {string} [hint] added to the type error
 * @returns {asserts message is string}
 */
function checkPersonalSignMessage(message, field, hint = '') {
  if (typeof message !== 'string') throw new TypeError(`${field} must be a string (0x and hex digits for bytes, or text), not ${describe(message)}${hint}`);
  if (message === '') throw new RangeError(`${field} must hold at least one byte`);
}

/**
 * `[message, address]`. Swapped (eth_sign's order) is named as such.
 * @param {unknown} params
 */
function checkPersonalSignParams(params) {
  if (!Array.isArray(params) || params.length !== 2) {
    throw new TypeError(`request.params of ${PERSONAL_SIGN_METHOD} must be [message, address], not ${describe(params)}${Array.isArray(params) ? ` of ${params.length}` : ''}`);
  }
  const [message, address] = params;
  const swapped = typeof message === 'string' && ETH_ADDRESS.test(message) && !(typeof address === 'string' && ETH_ADDRESS.test(address))
    ? `: ${PERSONAL_SIGN_METHOD} takes [message, address], the message first (eth_sign's order is the other way round)`
    : '';
  checkPersonalSignMessage(message, 'request.params[0] (message)', swapped);
  checkEthAddress(address, 'request.params[1] (address)', swapped);
}

/**
 * `[address, typedData]`, typed data an object or its JSON text.
 * @param {unknown} params
 */
function checkSignTypedDataV4Params(params) {
  if (!Array.isArray(params) || params.length !== 2) {
    throw new TypeError(`request.params of ${ETH_SIGN_TYPED_DATA_V4_METHOD} must be [address, typedData], not ${describe(params)}${Array.isArray(params) ? ` of ${params.length}` : ''}`);
  }
  const [address, typedData] = params;
  const swapped = typeof typedData === 'string' && ETH_ADDRESS.test(typedData)
    ? `: ${ETH_SIGN_TYPED_DATA_V4_METHOD} takes [address, typedData], the address first`
    : '';
  checkEthAddress(address, 'request.params[0] (address)', swapped);
  checkTypedData(typeof typedData === 'string' ? parseTypedDataText(typedData, 'request.params[1] (typedData)') : typedData, 'request.params[1] (typedData)');
}

/**
 * @param {string} text
 * @param {string} field
 * @returns {unknown}
 */
function parseTypedDataText(text, field) {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new TypeError(`${field} is a string that is not JSON (${/** @type {Error} */ (error).message}): pass the typed data object, or JSON.stringify(typedData)`);
  }
}

/**
 * EIP-712 typed data as eth_signTypedData_v4 takes it: `{ types, primaryType, domain, message }`.
 * `types.EIP712Domain` is required: without it wallets disagree on the domain's hash (some take
 * it as empty, some derive it from `domain`), so a signature could verify nowhere. The encoding of
 * each value is the wallet's to check.
 * @param {unknown} typedData
 * @param {string} field
 */
function checkTypedData(typedData, field) {
  if (!isPlainObject(typedData)) throw new TypeError(`${field} must be EIP-712 typed data, { types, primaryType, domain, message } or its JSON text, not ${describe(typedData)}`);
  const { types, primaryType, domain, message } = typedData;
  if (!isPlainObject(types)) throw new TypeError(`${field}.types must be an object of struct types ({ EIP712Domain: [...], Mail: [...] }), not ${describe(types)}`);
  for (const [name, fields] of Object.entries(types)) {
    const path = member(`${field}.types`, name);
    if (!Array.isArray(fields)) throw new TypeError(`${path} must be an array of { name, type }, not ${describe(fields)}`);
    fields.forEach((entry, index) => {
      if (!isPlainObject(entry)) throw new TypeError(`${path}[${index}] must be { name, type }, not ${describe(entry)}`);
      for (const key of /** @type {const} */ (['name', 'type'])) {
        if (typeof entry[key] !== 'string' || entry[key] === '') throw new TypeError(`${path}[${index}].${key} must be a non-empty string, not ${describe(entry[key])}`);
      }
    });
  }
  if (!Array.isArray(types.EIP712Domain)) {
    throw new TypeError(`${field}.types.EIP712Domain is missing: list the domain's fields, e.g. [{ name: 'name', type: 'string' }, { name: 'chainId', type: 'uint256' }] (EIP-712; viem and ethers add it when they send typed data)`);
  }
  if (typeof primaryType !== 'string') throw new TypeError(`${field}.primaryType must be the name of one of its types, not ${describe(primaryType)}`);
  if (!Object.hasOwn(types, primaryType)) throw new TypeError(`${field}.primaryType is ${shown(primaryType)}, which ${field}.types does not define`);
  if (!isPlainObject(domain)) throw new TypeError(`${field}.domain must be an object ({ name?, version?, chainId?, verifyingContract?, salt? }), not ${describe(domain)}`);
  for (const key of /** @type {const} */ (['name', 'version'])) {
    if (domain[key] !== undefined && typeof domain[key] !== 'string') throw new TypeError(`${field}.domain.${key} must be a string, not ${describe(domain[key])}`);
  }
  const { chainId, verifyingContract, salt } = domain;
  if (chainId !== undefined) {
    const valid = typeof chainId === 'number'
      ? Number.isSafeInteger(chainId) && chainId > 0
      : typeof chainId === 'string' && /^(0x[0-9a-fA-F]+|[0-9]+)$/.test(chainId);
    if (!valid) throw new TypeError(`${field}.domain.chainId must be a positive whole number, or a string of decimal or 0x hex digits, not ${describe(chainId)}`);
  }
  if (verifyingContract !== undefined) checkEthAddress(verifyingContract, `${field}.domain.verifyingContract`);
  if (salt !== undefined && (typeof salt !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(salt))) {
    throw new TypeError(`${field}.domain.salt must be 32 bytes, 0x and 64 hex digits, not ${describe(salt)}`);
  }
  if (!isPlainObject(message)) throw new TypeError(`${field}.message must be an object (the ${shown(primaryType)} to sign), not ${describe(message)}`);
}

// ---- Transactions (solana_signTransaction, solana_signAllTransactions, eth_signTransaction) ----

/** The most base64 characters a transaction of SOLANA_TRANSACTION_MAX_BYTES takes: checked before decoding. */
const SOLANA_TRANSACTION_MAX_BASE64 = Math.ceil(SOLANA_TRANSACTION_MAX_BYTES / 3) * 4;

/**
 * A serialized Solana transaction's bytes, checked: 1 to 1232 bytes whose signature slots and
 * message header agree. The instructions are the wallet's to decode.
 * @param {Uint8Array} bytes
 * @param {string} field
 * @returns {SolanaTransactionLayout}
 */
function checkSolanaTransactionBytes(bytes, field) {
  if (bytes.length === 0) throw new RangeError(`${field} must hold a serialized transaction, not 0 bytes`);
  if (bytes.length > SOLANA_TRANSACTION_MAX_BYTES) {
    throw new RangeError(`${field} is ${bytes.length} bytes, over the ${SOLANA_TRANSACTION_MAX_BYTES} bytes Solana takes in one transaction`);
  }
  const layout = solanaTransactionLayout(bytes);
  if (typeof layout === 'string') throw new TypeError(`${field} is not a serialized Solana transaction: ${layout}`);
  return layout;
}

/**
 * A serialized Solana transaction in base64, checked; its length is bounded before it is decoded.
 * @param {unknown} text
 * @param {string} field
 * @returns {{ bytes: Uint8Array, layout: SolanaTransactionLayout }}
 */
function checkSolanaTransactionText(text, field) {
  if (typeof text !== 'string') {
    const hint = isUint8Array(text) ? ' (solanaSignTransaction and solanaSignAllTransactions take the bytes)' : '';
    throw new TypeError(`${field} must be a serialized transaction in base64, not ${describe(text)}${hint}`);
  }
  if (text.length > SOLANA_TRANSACTION_MAX_BASE64) {
    throw new RangeError(`${field} is ${text.length} characters of base64, more than a transaction of at most ${SOLANA_TRANSACTION_MAX_BYTES} bytes takes (${SOLANA_TRANSACTION_MAX_BASE64})`);
  }
  const bytes = base64Decode(text, field);
  return { bytes, layout: checkSolanaTransactionBytes(bytes, field) };
}

/**
 * The optional `pubkey` of the Solana transaction methods: when given, a 32-byte base58 key
 * among each transaction's signers (else the wallet takes the first signer the session holds).
 * @param {unknown} pubkey
 * @param {string} field
 * @param {Array<{ layout: SolanaTransactionLayout, field: string }>} transactions
 * @returns {Uint8Array | undefined}
 */
function checkSolanaSigner(pubkey, field, transactions) {
  if (pubkey === undefined) return undefined;
  checkBase58(pubkey, field, 32);
  const key = base58Decode(/** @type {string} */ (pubkey));
  for (const { layout, field: where } of transactions) {
    if (!layout.signers.some((signer) => signer.every((byte, index) => byte === key[index]))) {
      throw new TypeError(`${field} is not one of the signers of ${where}: the wallet signs only a transaction that asks for its key's signature`);
    }
  }
  return key;
}

/**
 * solana_signTransaction's params: `{ transaction, pubkey? }`.
 * @param {unknown} params
 */
function checkSolanaSignTransactionParams(params) {
  if (!isPlainObject(params)) throw new TypeError(`request.params of ${SOLANA_SIGN_TRANSACTION_METHOD} must be { transaction, pubkey? }, not ${describe(params)}`);
  const { layout } = checkSolanaTransactionText(params.transaction, 'request.params.transaction');
  checkSolanaSigner(params.pubkey, 'request.params.pubkey', [{ layout, field: 'request.params.transaction' }]);
}

/**
 * solana_signAllTransactions' params: `{ transactions, pubkey? }`, 1 to 16 transactions.
 * @param {unknown} params
 */
function checkSolanaSignAllTransactionsParams(params) {
  if (!isPlainObject(params)) throw new TypeError(`request.params of ${SOLANA_SIGN_ALL_TRANSACTIONS_METHOD} must be { transactions, pubkey? }, not ${describe(params)}`);
  const { transactions } = params;
  if (!Array.isArray(transactions)) throw new TypeError(`request.params.transactions must be an array of base64 transactions, not ${describe(transactions)}`);
  checkTransactionCount(transactions.length, 'request.params.transactions');
  const checked = transactions.map((text, index) => ({ field: `request.params.transactions[${index}]`, layout: checkSolanaTransactionText(text, `request.params.transactions[${index}]`).layout }));
  checkSolanaSigner(params.pubkey, 'request.params.pubkey', checked);
}

/**
 * @param {number} count
 * @param {string} field
 */
function checkTransactionCount(count, field) {
  if (count === 0 || count > SOLANA_SIGN_ALL_MAX_TRANSACTIONS) {
    throw new RangeError(`${field} must hold 1 to ${SOLANA_SIGN_ALL_MAX_TRANSACTIONS} transactions, not ${count}`);
  }
}

/** An Ethereum JSON-RPC quantity: 0x and hex digits without leading zeros ("0x0" for zero). */
const QUANTITY = /^0x(?:0|[1-9a-fA-F][0-9a-fA-F]*)$/;
/** 0x and whole bytes in hex. */
const HEX_BYTES = /^0x(?:[0-9a-fA-F]{2})*$/;
/** The quantities of an eth_signTransaction object. */
const ETH_TX_QUANTITIES = /** @type {const} */ (['value', 'nonce', 'gas', 'gasLimit', 'gasPrice', 'maxFeePerGas', 'maxPriorityFeePerGas', 'chainId', 'type']);
/** The transaction types signed: legacy, EIP-2930, EIP-1559. */
const ETH_TX_TYPES = ['0x0', '0x1', '0x2'];

/**
 * A quantity of at most 256 bits, as the Ethereum JSON-RPC writes them.
 * @param {unknown} value
 * @param {string} field
 * @returns {asserts value is string}
 */
function checkQuantity(value, field) {
  if (typeof value !== 'string') {
    const hint = typeof value === 'number' || typeof value === 'bigint' ? ' (ethSignTransaction converts numbers and bigints; sessionRequest sends quantities as written)' : '';
    throw new TypeError(`${field} must be a hex quantity, 0x and hex digits (e.g. "0x5208"), not ${describe(value)}${hint}`);
  }
  if (!QUANTITY.test(value)) {
    const why = /^0x0[0-9a-fA-F]+$/.test(value) ? ': it has leading zeros, which a quantity does not (write "0x" + value.toString(16))'
      : /^[0-9]+$/.test(value) ? ': decimal digits are not a quantity (write "0x" + BigInt(value).toString(16))' : '';
    throw new TypeError(`${field} is ${shown(value)}, not a hex quantity (0x and hex digits without leading zeros, "0x0" for zero)${why}`);
  }
  if (value.length > 66) throw new RangeError(`${field} has ${value.length - 2} hex digits, more than the 64 of a 256-bit quantity`);
}

/**
 * eth_signTransaction's transaction object (docs/sessions.md): `from` held by the session, `to`
 * (absent or null: a contract creation), `value`, `data` or `input`, `nonce` and `gas` (or
 * `gasLimit`) required since the wallet has no network to fill them, then either `gasPrice`
 * (legacy; with `accessList` or type 0x1, EIP-2930) or `maxFeePerGas` and
 * `maxPriorityFeePerGas` (EIP-1559), and `chainId`, which must be the request's.
 * @param {unknown} tx
 * @param {string} field
 * @param {string} chainId the request's CAIP-2 chain id
 */
function checkEthTransactionObject(tx, field, chainId) {
  if (!isPlainObject(tx)) throw new TypeError(`${field} must be a transaction object or an unsigned serialized transaction (0x and hex), not ${describe(tx)}`);
  checkEthAddress(tx.from, `${field}.from`);
  if (tx.to !== undefined && tx.to !== null) checkEthAddress(tx.to, `${field}.to`, ' (leave it out, or null, to create a contract)');
  for (const key of ETH_TX_QUANTITIES) if (tx[key] !== undefined) checkQuantity(tx[key], `${field}.${key}`);
  for (const key of /** @type {const} */ (['data', 'input'])) {
    const value = tx[key];
    if (value === undefined) continue;
    if (typeof value !== 'string' || !HEX_BYTES.test(value)) {
      throw new TypeError(`${field}.${key} must be bytes as 0x and an even number of hex digits, not ${typeof value === 'string' ? `a string of ${value.length} characters` : describe(value)}`);
    }
  }
  if (tx.data !== undefined && tx.input !== undefined && String(tx.data).toLowerCase() !== String(tx.input).toLowerCase()) {
    throw new TypeError(`${field}.data and ${field}.input differ: they are two names of the same field, give one`);
  }
  if (tx.nonce === undefined) throw new TypeError(`${field}.nonce is required: the wallet has no network to look it up (eth_getTransactionCount of ${field}.from, "pending")`);
  if (tx.gas === undefined && tx.gasLimit === undefined) throw new TypeError(`${field}.gas (or gasLimit) is required: the wallet has no network to estimate it (eth_estimateGas)`);
  if (tx.gas !== undefined && tx.gasLimit !== undefined && BigInt(String(tx.gas)) !== BigInt(String(tx.gasLimit))) {
    throw new TypeError(`${field}.gas and ${field}.gasLimit differ: they are two names of the same field, give one`);
  }
  const legacyFee = tx.gasPrice !== undefined;
  const dynamicFee = tx.maxFeePerGas !== undefined || tx.maxPriorityFeePerGas !== undefined;
  if (legacyFee && dynamicFee) throw new TypeError(`${field} has gasPrice and EIP-1559 fees (maxFeePerGas, maxPriorityFeePerGas): give one or the other`);
  if (!legacyFee && !dynamicFee) {
    throw new TypeError(`${field} has no fee: give gasPrice (legacy) or maxFeePerGas and maxPriorityFeePerGas (EIP-1559); the wallet has no network to fill them`);
  }
  for (const key of /** @type {const} */ (['maxFeePerGas', 'maxPriorityFeePerGas'])) {
    if (dynamicFee && tx[key] === undefined) throw new TypeError(`${field}.${key} is required with EIP-1559 fees`);
  }
  if (tx.type !== undefined) {
    const type = String(tx.type).toLowerCase();
    if (!ETH_TX_TYPES.includes(type)) {
      throw new RangeError(`${field}.type is ${shown(tx.type)}: the wallet signs legacy (0x0), EIP-2930 (0x1) and EIP-1559 (0x2) transactions`);
    }
    if (type === '0x2' && !dynamicFee) throw new TypeError(`${field}.type is 0x2 (EIP-1559), which takes maxFeePerGas and maxPriorityFeePerGas, not gasPrice`);
    if (type !== '0x2' && dynamicFee) throw new TypeError(`${field}.type is ${type}, which takes gasPrice, not maxFeePerGas and maxPriorityFeePerGas`);
    if (type === '0x0' && tx.accessList !== undefined) throw new TypeError(`${field}.type is 0x0 (legacy), which has no accessList (type 0x1 does)`);
  }
  if (tx.accessList !== undefined) checkAccessList(tx.accessList, `${field}.accessList`);
  if (tx.chainId !== undefined) {
    const reference = chainId.split(':')[1];
    if (chainId.startsWith(`${EIP155_NAMESPACE}:`) && BigInt(/** @type {string} */ (tx.chainId)) !== BigInt(reference)) {
      throw new TypeError(`${field}.chainId is ${tx.chainId} (${BigInt(/** @type {string} */ (tx.chainId))}), not the request's chain, ${chainId}: a transaction is signed for the chain the person is shown`);
    }
  }
}

/**
 * EIP-2930's access list: `[{ address, storageKeys: [32-byte hex, …] }, …]`.
 * @param {unknown} list
 * @param {string} field
 */
function checkAccessList(list, field) {
  if (!Array.isArray(list)) throw new TypeError(`${field} must be an array of { address, storageKeys }, not ${describe(list)}`);
  list.forEach((entry, index) => {
    if (!isPlainObject(entry)) throw new TypeError(`${field}[${index}] must be { address, storageKeys }, not ${describe(entry)}`);
    checkEthAddress(entry.address, `${field}[${index}].address`);
    if (!Array.isArray(entry.storageKeys)) throw new TypeError(`${field}[${index}].storageKeys must be an array of 32-byte keys, not ${describe(entry.storageKeys)}`);
    entry.storageKeys.forEach((key, keyIndex) => {
      if (typeof key !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(key)) {
        throw new TypeError(`${field}[${index}].storageKeys[${keyIndex}] must be 32 bytes, 0x and 64 hex digits, not ${describe(key)}`);
      }
    });
  });
}

/**
 * What kind of transaction an unsigned serialization is, by its first byte: 0x01 (EIP-2930),
 * 0x02 (EIP-1559), or an RLP list (0xc0 and up: legacy); null for anything else.
 * @param {number} first
 * @returns {'0x0' | '0x1' | '0x2' | null}
 */
function envelopeType(first) {
  if (first === 0x01) return '0x1';
  if (first === 0x02) return '0x2';
  return first >= 0xc0 ? '0x0' : null;
}

/**
 * An unsigned serialized transaction in hex: its RLP is the wallet's to read, its kind is checked here.
 * @param {string} text
 * @param {string} field
 */
function checkUnsignedEthTransaction(text, field) {
  if (!HEX_BYTES.test(text) || text.length < 4) {
    throw new TypeError(`${field} must be a transaction object, or an unsigned serialized transaction as 0x and an even number of hex digits, not a string of ${text.length} characters`);
  }
  const first = Number.parseInt(text.slice(2, 4), 16);
  if (envelopeType(first) === null) {
    throw new TypeError(`${field} starts with 0x${text.slice(2, 4)}: the wallet signs legacy (an RLP list), EIP-2930 (0x01) and EIP-1559 (0x02) transactions`);
  }
}

/**
 * eth_signTransaction's params: `[transaction]` or `[transaction, address]`, the transaction an
 * object or an unsigned serialization. A serialization does not carry its sender: `address` names
 * the session's account that signs it (the first when left out); with an object, `address` must
 * be its `from` (the account that signs is named once), as the wallet checks.
 * @param {unknown} params
 * @param {string} chainId
 */
function checkEthSignTransactionParams(params, chainId) {
  if (!Array.isArray(params) || params.length < 1 || params.length > 2) {
    throw new TypeError(`request.params of ${ETH_SIGN_TRANSACTION_METHOD} must be [transaction] or [transaction, address], not ${describe(params)}${Array.isArray(params) ? ` of ${params.length}` : ''}`);
  }
  const [transaction, address] = params;
  if (typeof transaction === 'string') checkUnsignedEthTransaction(transaction, 'request.params[0]');
  else checkEthTransactionObject(transaction, 'request.params[0]', chainId);
  if (params.length === 2) checkSigningAddress(address, 'request.params[1] (address)', transaction, 'request.params[0].from');
}

/**
 * The optional address that signs an eth_signTransaction: an address, and with a transaction
 * object, its `from` (any letter case: the same account).
 * @param {unknown} address
 * @param {string} field
 * @param {unknown} transaction the transaction, checked already
 * @param {string} fromField how `from` is named to the caller
 */
function checkSigningAddress(address, field, transaction, fromField) {
  checkEthAddress(address, field, `: ${ETH_SIGN_TRANSACTION_METHOD}'s params are [transaction, address]`);
  if (isPlainObject(transaction) && typeof transaction.from === 'string' && transaction.from.toLowerCase() !== address.toLowerCase()) {
    throw new TypeError(`${field} is ${address}, but ${fromField} is ${transaction.from}: the account that signs is named once (leave the address out with an object)`);
  }
}

/**
 * session_request's params, without the call options. The inner params of the Solana and
 * eip155 methods docs/sessions.md defines are checked too; other methods' inner params go as given.
 * @param {unknown} args
 * @returns {import('./index.js').SessionRequest}
 */
export function checkSessionRequestParams(args) {
  if (!isPlainObject(args)) throw new TypeError(`sessionRequest takes { topic, chainId, request: { method, params? }, expiry? }, not ${describe(args)}`);
  checkTopic(args.topic);
  checkChainId(args.chainId, 'chainId');
  const inner = args.request;
  if (!isPlainObject(inner)) throw new TypeError(`request must be { method, params? }, not ${describe(inner)}`);
  if (typeof inner.method !== 'string' || inner.method === '') throw new TypeError(`request.method must be a method name such as "${SOLANA_SIGN_MESSAGE_METHOD}", not ${describe(inner.method)}`);
  if (inner.params !== undefined && (inner.params === null || typeof inner.params !== 'object')) {
    throw new TypeError(`request.params must be an object or an array (leave it out for none), not ${describe(inner.params)}`);
  }
  if (inner.method === SOLANA_SIGN_IN_METHOD) {
    checkSignInInput(inner.params, 'request.params');
  } else if (inner.method === SOLANA_SIGN_MESSAGE_METHOD) {
    if (!isPlainObject(inner.params)) throw new TypeError(`request.params of ${SOLANA_SIGN_MESSAGE_METHOD} must be { message, pubkey }, not ${describe(inner.params)}`);
    checkBase58(inner.params.message, 'request.params.message');
    checkBase58(inner.params.pubkey, 'request.params.pubkey', 32);
  } else if (inner.method === ETH_ACCOUNTS_METHOD || inner.method === ETH_CHAIN_ID_METHOD) {
    if (inner.params !== undefined && !(Array.isArray(inner.params) && inner.params.length === 0)) {
      throw new TypeError(`request.params of ${inner.method} must be [] or left out, not ${describe(inner.params)}${Array.isArray(inner.params) ? ` of ${inner.params.length}` : ''}`);
    }
  } else if (inner.method === PERSONAL_SIGN_METHOD) {
    checkPersonalSignParams(inner.params);
  } else if (inner.method === ETH_SIGN_TYPED_DATA_V4_METHOD) {
    checkSignTypedDataV4Params(inner.params);
  } else if (inner.method === SOLANA_SIGN_TRANSACTION_METHOD) {
    checkSolanaSignTransactionParams(inner.params);
  } else if (inner.method === SOLANA_SIGN_ALL_TRANSACTIONS_METHOD) {
    checkSolanaSignAllTransactionsParams(inner.params);
  } else if (inner.method === ETH_SIGN_TRANSACTION_METHOD) {
    checkEthSignTransactionParams(inner.params, args.chainId);
  }
  if (args.expiry !== undefined) checkExpiry(args.expiry);
  checkOrigin(args.origin);
  /** @type {import('./index.js').SessionRequest} */
  const wire = {
    topic: args.topic,
    chainId: args.chainId,
    request: inner.params === undefined ? { method: inner.method } : { method: inner.method, params: /** @type {object} */ (inner.params) },
  };
  if (args.expiry !== undefined) wire.expiry = args.expiry;
  if (args.origin !== undefined) wire.origin = args.origin;
  checkSessionParams(SESSION_REQUEST_METHOD, wire);
  return wire;
}

/**
 * solana_signIn's params: the Wallet Standard's SolanaSignInInput, every member optional; left
 * out (undefined) or an object of strings, `resources` an array of strings, `address` a base58
 * 32-byte key. What the message says is the wallet's to build, show and check against the site.
 * @param {unknown} input
 * @param {string} field
 */
function checkSignInInput(input, field) {
  if (input === undefined) return;
  if (!isPlainObject(input)) {
    throw new TypeError(`${field} of ${SOLANA_SIGN_IN_METHOD} must be a SolanaSignInInput object ({ domain?, address?, statement?, uri?, nonce?, … }), not ${describe(input)}`);
  }
  for (const key of SIGN_IN_TEXT_FIELDS) {
    if (input[key] !== undefined && typeof input[key] !== 'string') throw new TypeError(`${field}.${key} must be a string, not ${describe(input[key])}`);
  }
  if (input.address !== undefined) checkBase58(input.address, `${field}.address`, 32);
  if (input.resources !== undefined) checkStringArray(input.resources, `${field}.resources`);
}

/**
 * session_disconnect's optional reason.
 * @param {unknown} reason
 * @returns {asserts reason is SessionErrorReason | undefined}
 */
export function checkReason(reason) {
  if (reason === undefined) return;
  if (!isPlainObject(reason)) throw new TypeError(`reason must be { code, message }, not ${describe(reason)}`);
  if (typeof reason.code !== 'number') throw new TypeError(`reason.code must be a number, not ${describe(reason.code)}`);
  if (!Number.isSafeInteger(reason.code)) throw new RangeError(`reason.code must be an integer, not ${reason.code}`);
  if (typeof reason.message !== 'string') throw new TypeError(`reason.message must be a string, not ${describe(reason.message)}`);
  // The host's limit (docs/sessions.md): refused here rather than answered with -32602.
  const bytes = new TextEncoder().encode(reason.message).length;
  if (bytes > MAX_REASON_MESSAGE_BYTES) throw new RangeError(`reason.message must be at most ${MAX_REASON_MESSAGE_BYTES} bytes of UTF-8, not ${bytes}`);
}

/** The longest `reason.message` the host accepts, in UTF-8 bytes. */
const MAX_REASON_MESSAGE_BYTES = 256;

// ---- Results and event params: checked on arrival (NativeProtocolError) -----------------------
// A result is held first to the schema the host states for it in its rpc.discover
// (session-schemas.js, generated; json-schema.js checks): its members, their types, patterns and
// bounds are the host's, not written again here. The checks after each schema are what a schema
// cannot state: how a result's members relate to each other or to the request that was sent, and
// how many bytes an encoding holds. Each *Problem function returns what is wrong, naming the
// field, or null.

/** What a reply's whole value is called in a message. */
const RESULT = 'the result';
/** A session as the host states it: session_connect's result, each of session_list's. */
const SESSION_SCHEMA = SESSION_SCHEMAS[SESSION_CONNECT_METHOD].result;

/**
 * @param {(() => void)} check a params check reused on a reply
 * @returns {string | null}
 */
function problemOf(check) {
  try {
    check();
    return null;
  } catch (error) {
    return /** @type {Error} */ (error).message;
  }
}

/**
 * @param {unknown} value
 * @param {string} field
 * @returns {string | null}
 */
function stringArrayProblem(value, field) {
  return problemOf(() => checkStringArray(value, field));
}

/**
 * @param {unknown} value
 * @param {string} field
 */
function topicProblem(value, field) {
  return typeof value === 'string' && TOPIC.test(value) ? null : `${field} is not a session topic (64 lowercase hex digits)`;
}

/**
 * What a session's namespaces (or the proposal's it echoes) hold that their schema cannot state,
 * once they validate against it: each namespace's chains are of that namespace (the key names it)
 * and an eip155 chain's reference is its decimal id; each account is on one of its namespace's
 * chains, with an address of that namespace's kind (see accountsProblem).
 * @param {Record<string, { chains: string[], accounts?: string[] }>} namespaces
 * @param {string} field
 * @returns {string | null}
 */
function namespacesRelationProblem(namespaces, field) {
  for (const [key, namespace] of Object.entries(namespaces)) {
    const path = member(field, key);
    const stray = namespace.chains.find((chain) => CHAIN_ID.exec(chain)?.[1] !== key);
    if (stray !== undefined) return `${path}.chains holds ${shown(stray)}, not a CAIP-2 chain id of the namespace ${JSON.stringify(key)}`;
    const badReference = namespace.chains.map(chainReferenceProblem).find((problem) => problem !== null);
    if (badReference) return `${path}.chains holds ${badReference}`;
    const problem = namespace.accounts === undefined ? null : accountsProblem(namespace.accounts, namespace.chains, `${path}.accounts`);
    if (problem) return problem;
  }
  return null;
}

/**
 * @param {readonly string[]} accounts
 * @param {readonly string[]} chains the chains they must be on
 * @param {string} field
 * @returns {string | null}
 */
function accountsProblem(accounts, chains, field) {
  for (const [index, account] of accounts.entries()) {
    const match = ACCOUNT_ID.exec(account);
    if (!match) return `${field}[${index}] is ${shown(account)}, not a CAIP-10 account id`;
    const chain = `${match[1]}:${match[2]}`;
    if (!chains.includes(chain)) return `${field}[${index}] is on ${shown(chain)}, which is not one of the namespace's chains`;
    if (match[1] === SOLANA_NAMESPACE && !isBase58OfLength(match[3], 32)) return `${field}[${index}] has an address that is not a base58 32-byte public key`;
    if (match[1] === EIP155_NAMESPACE && !ETH_ADDRESS.test(match[3])) return `${field}[${index}] has an address that is not 0x and 40 hex digits`;
  }
  return null;
}

/**
 * @param {string} text
 * @param {number} length
 */
function isBase58OfLength(text, length) {
  try {
    return base58Decode(text).length === length;
  } catch {
    return false;
  }
}

/**
 * What is wrong with a session, by its schema and then by what the schema cannot state: its
 * namespaces' relations (namespacesRelationProblem), and an origin as the browser serializes it
 * (a port of 1 to 65535 other than the scheme's default, host labels of 1 to 63 characters), of
 * which the host's pattern states only the characters.
 * @param {unknown} session
 * @param {string} field
 * @returns {string | null}
 */
function sessionProblem(session, field) {
  return schemaProblem(SESSION_SCHEMA, session, field) ?? sessionRelationProblem(/** @type {Session} */ (session), field);
}

/**
 * sessionProblem's checks after the schema, on a session that validates against it.
 * @param {Session} session
 * @param {string} field
 * @returns {string | null}
 */
function sessionRelationProblem(session, field) {
  return namespacesRelationProblem(session.namespaces, `${field}.namespaces`)
    ?? namespacesRelationProblem(session.requiredNamespaces ?? {}, `${field}.requiredNamespaces`)
    ?? namespacesRelationProblem(session.optionalNamespaces ?? {}, `${field}.optionalNamespaces`)
    ?? optionalOriginProblem(session.origin, `${field}.origin`);
}

/**
 * A session's or a notification's `origin`: absent (a session without a site), or a web origin.
 * @param {unknown} origin
 * @param {string} field
 * @returns {string | null}
 */
function optionalOriginProblem(origin, field) {
  if (origin === undefined) return null;
  const problem = originProblem(origin);
  return problem === null ? null : `${field} is ${problem}`;
}

/**
 * @param {string} method what the error names (the wire method, or "session_request (inner)")
 * @param {string | null} problem
 * @param {unknown} result
 * @param {{ id?: NativeRpcId | null, method?: string }} context
 */
function throwIfProblem(method, problem, result, context) {
  if (problem === null) return;
  throw new NativeProtocolError({
    kind: 'invalid-result',
    message: `${method} returned a malformed result: ${problem}`,
    response: result,
    id: context.id ?? null,
    method: context.method ?? method,
  });
}

/**
 * Throws NativeProtocolError (kind "invalid-result") unless `result` is a session as the host
 * states it (session_connect's result schema) whose CAIP-10 accounts are on their namespaces'
 * chains.
 * @param {unknown} result
 * @param {{ id?: NativeRpcId | null, method?: string }} [context]
 * @returns {Session}
 */
export function checkSession(result, context = {}) {
  throwIfProblem(context.method ?? SESSION_CONNECT_METHOD, sessionProblem(result, 'session'), result, context);
  return /** @type {Session} */ (result);
}

/**
 * @param {unknown} result
 * @param {{ id?: NativeRpcId | null }} context
 * @returns {SessionListResult}
 */
export function checkSessionListResult(result, context) {
  let problem = schemaProblem(SESSION_SCHEMAS[SESSION_LIST_METHOD].result, result, '', RESULT);
  if (problem === null) {
    for (const [index, session] of /** @type {SessionListResult} */ (result).sessions.entries()) problem ??= sessionRelationProblem(session, `sessions[${index}]`);
  }
  throwIfProblem(SESSION_LIST_METHOD, problem, result, { ...context, method: SESSION_LIST_METHOD });
  return /** @type {SessionListResult} */ (result);
}

/**
 * @param {unknown} result
 * @param {{ id?: NativeRpcId | null }} context
 * @returns {SessionExtendResult}
 */
export function checkSessionExtendResult(result, context) {
  const problem = schemaProblem(SESSION_SCHEMAS[SESSION_EXTEND_METHOD].result, result, '', RESULT);
  throwIfProblem(SESSION_EXTEND_METHOD, problem, result, { ...context, method: SESSION_EXTEND_METHOD });
  return /** @type {SessionExtendResult} */ (result);
}

/**
 * session_disconnect answers `{}`.
 * @param {unknown} result
 * @param {{ id?: NativeRpcId | null }} context
 */
export function checkSessionDisconnectResult(result, context) {
  const problem = schemaProblem(SESSION_SCHEMAS[SESSION_DISCONNECT_METHOD].result, result, '', RESULT);
  throwIfProblem(SESSION_DISCONNECT_METHOD, problem, result, { ...context, method: SESSION_DISCONNECT_METHOD });
}

/**
 * The inner result of session_request, held to the inner method's result schema as the host
 * states it (SESSION_REQUEST_RESULTS) and returned as is for a method the host does not serve.
 * With the inner params that were sent (as checked by checkSessionRequestParams), what a schema
 * cannot state is checked too (innerResultRelationProblem).
 * @param {string} method the inner method
 * @param {unknown} result
 * @param {{ id?: NativeRpcId | null, params?: unknown }} context
 * @returns {JsonValue}
 */
export function checkSessionRequestResult(method, result, context) {
  const { params, ...errorContext } = context;
  const schema = Object.hasOwn(SESSION_REQUEST_RESULTS, method) ? SESSION_REQUEST_RESULTS[/** @type {keyof typeof SESSION_REQUEST_RESULTS} */ (method)] : undefined;
  const problem = schema === undefined ? null : schemaProblem(schema, result, '', RESULT) ?? innerResultRelationProblem(method, result, params);
  throwIfProblem(`${SESSION_REQUEST_METHOD} (${method})`, problem, result, { ...errorContext, method: SESSION_REQUEST_METHOD });
  return /** @type {JsonValue} */ (result);
}

/**
 * What an inner result that validates against its schema holds that the schema cannot state:
 * - a base58 signature or key is of 64 or 32 bytes (a pattern bounds only its characters);
 * - a signed Solana transaction is one (its signature slots agree with its message header), and
 *   the one sent with the signature in its slot; solana_signAllTransactions answers one signature
 *   per transaction, as many as were sent;
 * - eth_signTransaction answers a transaction of the type sent;
 * - solana_signIn answers the address asked for, which its message names;
 * - an Ethereum signature's v is 27 or 28 (the host's schema states its length only).
 * @param {string} method
 * @param {unknown} result valid under the method's result schema
 * @param {unknown} params the inner params sent, if known
 * @returns {string | null}
 */
function innerResultRelationProblem(method, result, params) {
  const value = /** @type {any} */ (result);
  switch (method) {
    case SOLANA_SIGN_MESSAGE_METHOD:
      return signatureBytesProblem(value.signature, 'signature');
    case SOLANA_SIGN_TRANSACTION_METHOD:
      return solanaSignTransactionResultProblem(value, params);
    case SOLANA_SIGN_ALL_TRANSACTIONS_METHOD:
      return solanaSignAllTransactionsResultProblem(value, params);
    case SOLANA_SIGN_IN_METHOD:
      return signInResultProblem(value, params);
    case SOLANA_GET_ACCOUNTS_METHOD:
    case SOLANA_REQUEST_ACCOUNTS_METHOD: {
      const index = /** @type {Array<{ pubkey: string }>} */ (value).findIndex(({ pubkey }) => !isBase58OfLength(pubkey, 32));
      return index < 0 ? null : `[${index}].pubkey is not base58 of a 32-byte public key`;
    }
    case ETH_SIGN_TRANSACTION_METHOD:
      return ethSignTransactionResultProblem(value, params);
    case PERSONAL_SIGN_METHOD:
    case ETH_SIGN_TYPED_DATA_V4_METHOD:
      return ETH_SIGNATURE.test(value) ? null : `the signature's v is 0x${value.slice(-2)}, not 0x1b or 0x1c (27 or 28)`;
    default:
      return null;
  }
}

/**
 * @param {string} signature base58, as its schema's pattern has it
 * @param {string} field
 */
function signatureBytesProblem(signature, field) {
  return isBase58OfLength(signature, 64) ? null : `${field} is not base58 of 64 bytes (an Ed25519 signature)`;
}

/**
 * The transaction a request sent, decoded again, or undefined when it cannot be had (no params
 * given, or params the client did not check).
 * @param {unknown} text
 * @returns {{ bytes: Uint8Array, layout: SolanaTransactionLayout } | undefined}
 */
function sentSolanaTransaction(text) {
  try {
    return checkSolanaTransactionText(text, 'sent');
  } catch {
    return undefined;
  }
}

/**
 * What is wrong with one signed transaction and its signature as the wallet answered them, or
 * null: base58 of 64 bytes, base64 of a transaction, and, when the sent one is known, that one
 * with the signature in its slot and nothing else changed (see signedTransactionProblem).
 * @param {string} signature base58, as the schema has it
 * @param {string} transaction base64, as the schema has it
 * @param {{ bytes: Uint8Array, layout: SolanaTransactionLayout } | undefined} sent
 * @param {unknown} pubkey the pubkey the request named, if any
 * @param {{ signature: string, transaction: string }} fields how to name them
 * @returns {string | null}
 */
function signedSolanaProblem(signature, transaction, sent, pubkey, fields) {
  const bytes = signatureBytesProblem(signature, fields.signature);
  if (bytes !== null) return bytes;
  /** @type {{ bytes: Uint8Array, layout: SolanaTransactionLayout }} */
  let signed;
  try {
    signed = checkSolanaTransactionText(transaction, fields.transaction);
  } catch (error) {
    return /** @type {Error} */ (error).message;
  }
  if (sent === undefined) return null;
  const key = typeof pubkey === 'string' && isBase58OfLength(pubkey, 32) ? base58Decode(pubkey) : undefined;
  const problem = signedTransactionProblem(sent.bytes, sent.layout, signed.bytes, base58Decode(signature), key);
  return problem === null ? null : `${fields.transaction} is not the transaction sent, signed: ${problem}`;
}

/**
 * @param {{ signature: string, transaction: string }} result
 * @param {unknown} params the inner params sent, if known
 * @returns {string | null}
 */
function solanaSignTransactionResultProblem(result, params) {
  const sent = isPlainObject(params) ? sentSolanaTransaction(params.transaction) : undefined;
  const pubkey = isPlainObject(params) ? params.pubkey : undefined;
  return signedSolanaProblem(result.signature, result.transaction, sent, pubkey, { signature: 'signature', transaction: 'transaction' });
}

/**
 * @param {{ signatures: string[], transactions: string[] }} result
 * @param {unknown} params the inner params sent, if known
 * @returns {string | null}
 */
function solanaSignAllTransactionsResultProblem(result, params) {
  const { transactions, signatures } = result;
  if (transactions.length > SOLANA_SIGN_ALL_MAX_TRANSACTIONS) return `transactions holds ${transactions.length}, more than the ${SOLANA_SIGN_ALL_MAX_TRANSACTIONS} one request signs`;
  if (signatures.length !== transactions.length) return `signatures holds ${signatures.length} and transactions ${transactions.length}: one signature per transaction`;
  const sentTexts = isPlainObject(params) && Array.isArray(params.transactions) ? params.transactions : undefined;
  if (sentTexts !== undefined && sentTexts.length !== transactions.length) {
    return `transactions holds ${transactions.length} and ${sentTexts.length} were sent: one per transaction, in order`;
  }
  const pubkey = isPlainObject(params) ? params.pubkey : undefined;
  for (let index = 0; index < transactions.length; index += 1) {
    const sent = sentTexts === undefined ? undefined : sentSolanaTransaction(sentTexts[index]);
    const problem = signedSolanaProblem(signatures[index], transactions[index], sent, pubkey, { signature: `signatures[${index}]`, transaction: `transactions[${index}]` });
    if (problem !== null) return problem;
  }
  return null;
}

/**
 * What is wrong with eth_signTransaction's answer, or null: the hex of a signed transaction
 * (what eth_sendRawTransaction takes, as its schema has it) whose first byte is 0x01 (EIP-2930),
 * 0x02 (EIP-1559) or an RLP list (legacy), of the kind sent when that is known.
 * @param {string} result
 * @param {unknown} params the inner params sent, if known
 * @returns {string | null}
 */
function ethSignTransactionResultProblem(result, params) {
  const type = envelopeType(Number.parseInt(result.slice(2, 4), 16));
  if (type === null) return `the result starts with 0x${result.slice(2, 4)}, not 0x01, 0x02 or an RLP list (0xc0 and up)`;
  const sent = Array.isArray(params) ? params[0] : undefined;
  const expected = typeof sent === 'string' && HEX_BYTES.test(sent) && sent.length >= 4 ? envelopeType(Number.parseInt(sent.slice(2, 4), 16))
    : isPlainObject(sent) ? ethTransactionType(sent) : null;
  if (expected !== null && expected !== type) return `the result is a transaction of type ${type}, and the transaction sent was of type ${expected}`;
  return null;
}

/**
 * The type a transaction object asks for: as written, else EIP-1559 for its fee fields,
 * EIP-2930 for an access list, legacy otherwise.
 * @param {Record<string, unknown>} tx
 * @returns {'0x0' | '0x1' | '0x2' | null}
 */
function ethTransactionType(tx) {
  if (typeof tx.type === 'string') {
    const type = tx.type.toLowerCase();
    return type === '0x0' || type === '0x1' || type === '0x2' ? type : null;
  }
  if (tx.maxFeePerGas !== undefined || tx.maxPriorityFeePerGas !== undefined) return '0x2';
  return tx.accessList !== undefined ? '0x1' : '0x0';
}

/**
 * What is wrong with solana_signIn's answer beyond its schema, or null: the address a 32-byte
 * key (the one asked for, when the input named one) that the message's second line names, as the
 * Sign In With Solana text has it ("… wants you to sign in with your Solana account:\n<address>"),
 * and the signature base58 of 64 bytes. Whether the signature is the address's is for the site to
 * verify (this package carries no Ed25519).
 * @param {{ address: string, message: string, signature: string }} result
 * @param {unknown} params the input sent, if known
 * @returns {string | null}
 */
function signInResultProblem(result, params) {
  const { address, message, signature } = result;
  if (!isBase58OfLength(address, 32)) return 'address is not base58 of a 32-byte public key';
  if (isPlainObject(params) && params.address !== undefined && params.address !== address) return `address is ${address}, not the address asked for, ${shown(params.address)}`;
  if (message.split('\n')[1] !== address) return 'message does not name address on its second line, as a Sign In With Solana message does';
  return signatureBytesProblem(signature, 'signature');
}

/**
 * What is wrong with a session notification's params, or null. `accountsChanged` data must be
 * CAIP-10 accounts on the event's chain; other events' data is passed on as is. session_update's
 * namespaces and expiry are a session's (its schema's, and its namespaces' relations).
 * @param {SessionEventName} name
 * @param {unknown} params
 * @returns {string | null}
 */
export function sessionEventProblem(name, params) {
  if (!isPlainObject(params)) return `${name} params are ${describe(params)}, not an object`;
  const topic = topicProblem(params.topic, `${name} params.topic`) ?? optionalOriginProblem(params.origin, `${name} params.origin`);
  if (topic) return topic;
  switch (name) {
    case SESSION_EVENT_NOTIFICATION: {
      if (typeof params.chainId !== 'string' || !CHAIN_ID.test(params.chainId)) return `${name} params.chainId is ${shown(params.chainId)}, not a CAIP-2 chain id`;
      const { event } = params;
      if (!isPlainObject(event)) return `${name} params.event is ${describe(event)}, not an object`;
      if (typeof event.name !== 'string') return `${name} params.event.name is ${describe(event.name)}, not a string`;
      if (!('data' in event)) return `${name} params.event has no data`;
      if (event.name !== SOLANA_ACCOUNTS_CHANGED_EVENT) return null;
      return stringArrayProblem(event.data, `${name} params.event.data`)
        ?? accountsProblem(/** @type {string[]} */ (event.data), [params.chainId], `${name} params.event.data`);
    }
    case SESSION_UPDATE_NOTIFICATION: {
      const { namespaces, expiry } = SESSION_SCHEMA.properties;
      return schemaProblem(namespaces, params.namespaces, `${name} params.namespaces`)
        ?? namespacesRelationProblem(/** @type {Session['namespaces']} */ (params.namespaces), `${name} params.namespaces`)
        ?? schemaProblem(expiry, params.expiry, `${name} params.expiry`);
    }
    case SESSION_DELETE_NOTIFICATION: {
      const { reason } = params;
      if (!isPlainObject(reason)) return `${name} params.reason is ${describe(reason)}, not an object`;
      if (typeof reason.code !== 'number' || !Number.isSafeInteger(reason.code)) return `${name} params.reason.code is ${describe(reason.code)}, not an integer`;
      return typeof reason.message === 'string' ? null : `${name} params.reason.message is ${describe(reason.message)}, not a string`;
    }
    case SESSION_EXPIRE_NOTIFICATION:
      return null;
    default:
      return `${String(name)} is not a session notification`;
  }
}

/**
 * @param {unknown} name
 * @returns {name is SessionEventName}
 */
export function isSessionEventName(name) {
  return typeof name === 'string' && /** @type {readonly string[]} */ (SESSION_EVENT_NAMES).includes(name);
}

// ---- solana_signMessage -------------------------------------------------------------------------

/**
 * Signs bytes with one of a session's accounts: base58-encodes `message`, sends
 * solana_signMessage through `client.sessionRequest`, and resolves to the 64-byte Ed25519
 * signature, decoded. The person is asked first; declining rejects with NativeRpcError 4001.
 * @param {NativeClient} client
 * @param {SignMessageArgs} args
 * @returns {Promise<Uint8Array>}
 */
export async function signMessage(client, args) {
  checkClient(client, 'signMessage');
  if (!isPlainObject(args)) throw new TypeError(`signMessage takes { topic, chainId, message, pubkey, expiry? }, not ${describe(args)}`);
  const { topic, chainId, message, pubkey, expiry, id, timeoutMs } = /** @type {SignMessageArgs} */ (args);
  if (!isUint8Array(message)) {
    const hint = typeof message === 'string' ? ': for text, pass new TextEncoder().encode(text)' : '';
    throw new TypeError(`message must be a Uint8Array of the bytes to sign, not ${describe(message)}${hint}`);
  }
  if (message.length === 0) throw new RangeError('message must hold at least one byte');
  checkBase58(pubkey, 'pubkey', 32);
  /** @type {import('./index.js').SessionRequest<'solana_signMessage'> & import('./index.js').NativeRequestOptions} */
  const request = { topic, chainId, request: { method: SOLANA_SIGN_MESSAGE_METHOD, params: { message: base58Encode(message), pubkey } } };
  if (expiry !== undefined) request.expiry = expiry;
  if (args.origin !== undefined) request.origin = args.origin;
  if (id !== undefined) request.id = id;
  if (timeoutMs !== undefined) request.timeoutMs = timeoutMs;
  const { signature } = await client.sessionRequest(request);
  return base58Decode(signature);
}

// ---- solana_signIn ------------------------------------------------------------------------------

/**
 * Signs in with Solana (solana_signIn): the wallet builds the message from `input` (the Wallet
 * Standard's SolanaSignInInput; a missing `domain` is the session's site, a missing `address`
 * the session's first Solana account), shows it as a sign-in, checked against the site, and
 * signs it. Resolves to the account, the exact text signed and its bytes (UTF-8), and the
 * 64-byte signature, decoded; verify it against the address before trusting the sign-in.
 * Declined: NativeRpcError 4001.
 * @param {NativeClient} client
 * @param {import('./index.js').SolanaSignInArgs} args
 * @returns {Promise<import('./index.js').SolanaSignInOutput>}
 */
export async function solanaSignIn(client, args) {
  checkClient(client, 'solanaSignIn');
  if (!isPlainObject(args)) throw new TypeError(`solanaSignIn takes { topic, chainId, input?, origin?, expiry? }, not ${describe(args)}`);
  const { topic, chainId, input } = /** @type {import('./index.js').SolanaSignInArgs} */ (args);
  checkSignInInput(input, 'input');
  /** @type {import('./index.js').SolanaSignInInput} */
  const params = {};
  for (const [key, value] of Object.entries(input ?? {})) if (value !== undefined) /** @type {any} */ (params)[key] = value;
  /** @type {import('./index.js').SessionRequest<'solana_signIn'> & import('./index.js').NativeRequestOptions} */
  const request = withOptions(args, { topic, chainId, request: { method: SOLANA_SIGN_IN_METHOD, params } });
  const result = await client.sessionRequest(request);
  return {
    address: result.address,
    message: result.message,
    signedMessage: new TextEncoder().encode(result.message),
    signature: base58Decode(result.signature),
  };
}

// ---- personal_sign and eth_signTypedData_v4 ---------------------------------------------------

/**
 * @param {unknown} client
 * @param {string} helper
 * @returns {asserts client is NativeClient}
 */
function checkClient(client, helper) {
  if (client === null || typeof client !== 'object' || typeof /** @type {any} */ (client).sessionRequest !== 'function') {
    throw new TypeError(`${helper} needs a client from createNativeClient as its first argument, not ${describe(client)}`);
  }
}

/**
 * "0x" and two lowercase hex digits per byte.
 * @param {Uint8Array} bytes
 */
function toHex(bytes) {
  let hex = '0x';
  for (const byte of bytes) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

/**
 * Signs a message with one of a session's Ethereum accounts (EIP-191, personal_sign): text is
 * sent as the hex of its UTF-8 bytes (always, even text that looks like hex), bytes as their
 * hex, and the promise resolves to the 65-byte signature, 0x and 130 hex digits. The person is
 * asked first; declining rejects with NativeRpcError 4001, an address outside the session 4100.
 * @param {NativeClient} client
 * @param {PersonalSignArgs} args
 * @returns {Promise<EthSignature>}
 */
export async function personalSign(client, args) {
  checkClient(client, 'personalSign');
  if (!isPlainObject(args)) throw new TypeError(`personalSign takes { topic, chainId, message, address, expiry? }, not ${describe(args)}`);
  const { topic, chainId, message, address, expiry, id, timeoutMs } = /** @type {PersonalSignArgs} */ (args);
  /** @type {Uint8Array} */
  let bytes;
  if (typeof message === 'string') bytes = new TextEncoder().encode(message);
  else if (isUint8Array(message)) bytes = message;
  else throw new TypeError(`message must be text (signed as its UTF-8 bytes) or a Uint8Array of the bytes to sign, not ${describe(message)}`);
  if (bytes.length === 0) throw new RangeError('message must hold at least one byte');
  checkEthAddress(address, 'address');
  /** @type {import('./index.js').SessionRequest<'personal_sign'> & import('./index.js').NativeRequestOptions} */
  const request = { topic, chainId, request: { method: PERSONAL_SIGN_METHOD, params: [toHex(bytes), address] } };
  if (expiry !== undefined) request.expiry = expiry;
  if (args.origin !== undefined) request.origin = args.origin;
  if (id !== undefined) request.id = id;
  if (timeoutMs !== undefined) request.timeoutMs = timeoutMs;
  return client.sessionRequest(request);
}

/**
 * Signs EIP-712 typed data with one of a session's Ethereum accounts (eth_signTypedData_v4).
 * An object is sent as its JSON text, as MetaMask sends it, with BigInt values written as
 * decimal strings (JSON has no BigInt); a string is sent as it is. Either is checked first
 * (`types.EIP712Domain` required). Resolves to the 65-byte signature, 0x and 130 hex digits.
 * @param {NativeClient} client
 * @param {SignTypedDataV4Args} args
 * @returns {Promise<EthSignature>}
 */
export async function signTypedDataV4(client, args) {
  checkClient(client, 'signTypedDataV4');
  if (!isPlainObject(args)) throw new TypeError(`signTypedDataV4 takes { topic, chainId, address, typedData, expiry? }, not ${describe(args)}`);
  const { topic, chainId, address, typedData, expiry, id, timeoutMs } = /** @type {SignTypedDataV4Args} */ (args);
  checkEthAddress(address, 'address');
  /** @type {string} */
  let text;
  if (typeof typedData === 'string') {
    text = typedData;
  } else if (isPlainObject(typedData)) {
    try {
      text = JSON.stringify(typedData, (_key, value) => (typeof value === 'bigint' ? value.toString() : value));
    } catch (error) {
      throw new TypeError(`typedData cannot be written as JSON: ${/** @type {Error} */ (error).message}`);
    }
  } else {
    throw new TypeError(`typedData must be EIP-712 typed data, { types, primaryType, domain, message } or its JSON text, not ${describe(typedData)}`);
  }
  checkTypedData(parseTypedDataText(text, 'typedData'), 'typedData');
  /** @type {import('./index.js').SessionRequest<'eth_signTypedData_v4'> & import('./index.js').NativeRequestOptions} */
  const request = { topic, chainId, request: { method: ETH_SIGN_TYPED_DATA_V4_METHOD, params: [address, text] } };
  if (expiry !== undefined) request.expiry = expiry;
  if (args.origin !== undefined) request.origin = args.origin;
  if (id !== undefined) request.id = id;
  if (timeoutMs !== undefined) request.timeoutMs = timeoutMs;
  return client.sessionRequest(request);
}

// ---- solana_signTransaction, solana_signAllTransactions and eth_signTransaction -----------------

/**
 * A transaction as the Solana helpers take it: its bytes (as @solana/web3.js's `serialize()`
 * returns them), or their base64, checked either way; its base64 for the wire, and its layout.
 * @param {unknown} transaction
 * @param {string} field
 * @returns {{ text: string, layout: SolanaTransactionLayout, field: string }}
 */
function solanaTransactionArgument(transaction, field) {
  if (isUint8Array(transaction)) return { text: base64Encode(transaction), layout: checkSolanaTransactionBytes(transaction, field), field };
  if (typeof transaction === 'string') return { text: transaction, layout: checkSolanaTransactionText(transaction, field).layout, field };
  const hint = isPlainObject(transaction) || (typeof transaction === 'object' && transaction !== null && typeof /** @type {any} */ (transaction).serialize === 'function')
    ? ': for a @solana/web3.js Transaction pass transaction.serialize({ requireAllSignatures: false }), for a VersionedTransaction its serialize()'
    : '';
  throw new TypeError(`${field} must be a serialized transaction, a Uint8Array or its base64, not ${describe(transaction)}${hint}`);
}

/**
 * The request fields every helper passes on as given.
 * @param {{ expiry?: number, origin?: string, id?: NativeRpcId, timeoutMs?: number }} args
 * @param {any} request
 */
function withOptions(args, request) {
  if (args.expiry !== undefined) request.expiry = args.expiry;
  if (args.origin !== undefined) request.origin = args.origin;
  if (args.id !== undefined) request.id = args.id;
  if (args.timeoutMs !== undefined) request.timeoutMs = args.timeoutMs;
  return request;
}

/**
 * Signs a Solana transaction (legacy or version 0) with one of a session's keys, after the
 * person has seen it decoded (solana_signTransaction). `transaction` is the serialized
 * transaction, bytes or base64, checked first (at most 1232 bytes, signature slots agreeing with
 * the message header, `pubkey` among its signers); other signatures already in it are kept.
 * Resolves to the 64-byte signature and the whole signed transaction, both decoded, once the
 * answer is checked to be the transaction sent with the signature in its slot. Declined:
 * NativeRpcError 4001; a `pubkey` outside the session 4100; a transaction the wallet cannot
 * read, or whose signers hold no key of the session, -32602 with `data: { field, problem }`.
 * @param {NativeClient} client
 * @param {SolanaSignTransactionArgs} args
 * @returns {Promise<SolanaSignedTransaction>}
 */
export async function solanaSignTransaction(client, args) {
  checkClient(client, 'solanaSignTransaction');
  if (!isPlainObject(args)) throw new TypeError(`solanaSignTransaction takes { topic, chainId, transaction, pubkey?, expiry? }, not ${describe(args)}`);
  const { topic, chainId, transaction, pubkey } = /** @type {SolanaSignTransactionArgs} */ (args);
  const checked = solanaTransactionArgument(transaction, 'transaction');
  /** @type {import('./index.js').SolanaSignTransactionParams} */
  const params = { transaction: checked.text };
  if (pubkey !== undefined) {
    checkSolanaSigner(pubkey, 'pubkey', [checked]);
    params.pubkey = pubkey;
  }
  /** @type {import('./index.js').SessionRequest<'solana_signTransaction'> & import('./index.js').NativeRequestOptions} */
  const request = withOptions(args, { topic, chainId, request: { method: SOLANA_SIGN_TRANSACTION_METHOD, params } });
  const result = await client.sessionRequest(request);
  return { signature: base58Decode(result.signature), transaction: base64Decode(result.transaction, 'transaction') };
}

/**
 * Signs 1 to 16 Solana transactions in one dialog that lists each (solana_signAllTransactions):
 * all or none, all by one key (`pubkey`, or the first signer of the first transaction that the
 * session holds; a transaction that key does not sign is refused). Each is taken and checked as
 * solanaSignTransaction takes one; resolves to
 * `{ signature, transaction }` for each, in the order given.
 * @param {NativeClient} client
 * @param {SolanaSignAllTransactionsArgs} args
 * @returns {Promise<SolanaSignedTransaction[]>}
 */
export async function solanaSignAllTransactions(client, args) {
  checkClient(client, 'solanaSignAllTransactions');
  if (!isPlainObject(args)) throw new TypeError(`solanaSignAllTransactions takes { topic, chainId, transactions, pubkey?, expiry? }, not ${describe(args)}`);
  const { topic, chainId, transactions, pubkey } = /** @type {SolanaSignAllTransactionsArgs} */ (args);
  if (!Array.isArray(transactions)) throw new TypeError(`transactions must be an array of serialized transactions (Uint8Array or base64), not ${describe(transactions)}`);
  checkTransactionCount(transactions.length, 'transactions');
  const checked = transactions.map((transaction, index) => solanaTransactionArgument(transaction, `transactions[${index}]`));
  /** @type {import('./index.js').SolanaSignAllTransactionsParams} */
  const params = { transactions: checked.map(({ text }) => text) };
  if (pubkey !== undefined) {
    checkSolanaSigner(pubkey, 'pubkey', checked);
    params.pubkey = pubkey;
  }
  /** @type {import('./index.js').SessionRequest<'solana_signAllTransactions'> & import('./index.js').NativeRequestOptions} */
  const request = withOptions(args, { topic, chainId, request: { method: SOLANA_SIGN_ALL_TRANSACTIONS_METHOD, params } });
  const result = await client.sessionRequest(request);
  return result.transactions.map((signed, index) => ({
    signature: base58Decode(result.signatures[index]),
    transaction: base64Decode(signed, `transactions[${index}]`),
  }));
}

/**
 * A quantity as ethSignTransaction takes it: a hex quantity as written, or a bigint or a safe
 * whole number, written as one.
 * @param {unknown} value
 * @param {string} field
 * @returns {unknown} the wire value (checked with the rest of the object afterwards)
 */
function quantityArgument(value, field) {
  if (typeof value === 'bigint' || typeof value === 'number') {
    if (typeof value === 'number' && !Number.isSafeInteger(value)) {
      throw new RangeError(`${field} must be a whole number no larger than Number.MAX_SAFE_INTEGER (use a bigint or a hex string above it), not ${value}`);
    }
    if (value < 0) throw new RangeError(`${field} must not be negative, not ${value}`);
    return `0x${value.toString(16)}`;
  }
  return value;
}

/**
 * Signs an Ethereum transaction with one of a session's accounts, after the person has seen it
 * decoded (eth_signTransaction), and resolves to the raw signed transaction, 0x and hex: send it
 * with eth_sendRawTransaction through your own provider (the wallet has no network, and
 * eth_sendTransaction is refused). `transaction` is an object (quantities as hex strings, bigints
 * or safe numbers; `data` or `input` as hex or a Uint8Array; `nonce`, `gas` and the fees
 * required), or an unsigned serialized transaction (hex or bytes); a `chainId` in it must be the
 * request's. `address`, optional, names the session's account that signs a serialized transaction
 * (the session's first account when left out); with an object it must be `from`. Checked before sending. Declined: NativeRpcError 4001; `from` outside the session
 * 4100; anything the wallet refuses -32602 with `data: { field, problem }`.
 * @param {NativeClient} client
 * @param {EthSignTransactionArgs} args
 * @returns {Promise<Hex>}
 */
export async function ethSignTransaction(client, args) {
  checkClient(client, 'ethSignTransaction');
  if (!isPlainObject(args)) throw new TypeError(`ethSignTransaction takes { topic, chainId, transaction, address?, expiry? }, not ${describe(args)}`);
  const { topic, chainId, transaction, address } = /** @type {EthSignTransactionArgs} */ (args);
  checkChainId(chainId, 'chainId');
  /** @type {EthTransactionRequest | Hex} */
  let wire;
  if (isUint8Array(transaction)) {
    wire = /** @type {Hex} */ (toHex(transaction));
    checkUnsignedEthTransaction(wire, 'transaction');
  } else if (typeof transaction === 'string') {
    checkUnsignedEthTransaction(transaction, 'transaction');
    wire = /** @type {Hex} */ (transaction);
  } else if (isPlainObject(transaction)) {
    /** @type {Record<string, unknown>} */
    const converted = { ...transaction };
    for (const key of ETH_TX_QUANTITIES) if (converted[key] !== undefined) converted[key] = quantityArgument(converted[key], `transaction.${key}`);
    for (const key of ['data', 'input']) if (isUint8Array(converted[key])) converted[key] = toHex(/** @type {Uint8Array} */ (converted[key]));
    checkEthTransactionObject(converted, 'transaction', chainId);
    wire = /** @type {EthTransactionRequest} */ (/** @type {unknown} */ (converted));
  } else {
    throw new TypeError(`transaction must be a transaction object, or an unsigned serialized transaction (0x and hex, or a Uint8Array), not ${describe(transaction)}`);
  }
  if (address !== undefined) checkSigningAddress(address, 'address', wire, 'transaction.from');
  /** @type {import('./index.js').EthSignTransactionParams} */
  const params = address === undefined ? [wire] : [wire, address];
  /** @type {import('./index.js').SessionRequest<'eth_signTransaction'> & import('./index.js').NativeRequestOptions} */
  const request = withOptions(args, { topic, chainId, request: { method: ETH_SIGN_TRANSACTION_METHOD, params } });
  return client.sessionRequest(request);
}
