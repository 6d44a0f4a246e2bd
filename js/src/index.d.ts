// Types of the wallet-bridge package. Hand-written and kept honest by `tsc -p js/tsconfig.json`,
// which checks the JSDoc-typed implementation (checkJs) and js/test/types-check.ts, where every
// export of the implementation is assigned to the type declared here.

// Only what is marked `export` is exported (a declaration file without this would export
// every top-level declaration, nativeMethodTypes included).
export {};

// ---- JSON-RPC 2.0 on the wire -------------------------------------------------------------

/** Any JSON value. Params and results are real JSON, never JSON inside a string. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** A request id. Null is legal in JSON-RPC but not sent by this package (see buildRequest). */
export type NativeRpcId = string | number;

/**
 * `params`: by position (an array, readonly arrays and `as const` tuples included) or by name
 * (an object, interfaces included), sent as JSON. Leave it out for a method that takes none.
 * Strings and null are refused: walletlib sent `JSON.stringify(params)`.
 */
export type NativeRpcParams = object;

// ---- Typed methods: one declaration for name, params and result ----------------------------

declare const nativeMethodTypes: unique symbol;

/**
 * A method name that carries its params and result types: the one declaration that types a
 * method end to end, for `sendNativeRpcRequest`, the client and batches. At run time it is
 * just the name.
 *
 *     const PING: NativeMethod<'MY_CUSTOM_PING_RPC_METHOD', PingParams, PingResult> = 'MY_CUSTOM_PING_RPC_METHOD';
 *     const { pong } = await sendNativeRpcRequest({ method: PING, params: { … } }); // checked both ways
 *
 * `Params` is `undefined` for a method that takes none (and `Params | undefined` for optional
 * ones). The types are the extension's promise, not a check: check the result's shape before
 * trusting it, as the built-in helpers do.
 */
export type NativeMethod<Name extends string = string, Params extends NativeRpcParams | undefined = NativeRpcParams | undefined, Result = JsonValue> =
  Name & { readonly [nativeMethodTypes]?: { params: Params; result: Result } };

/** The params a method takes: declared for a NativeMethod, any object or array otherwise. */
export type NativeMethodParams<Method extends string> =
  Method extends { readonly [nativeMethodTypes]?: { params: infer Params; result: unknown } } ? Params : NativeRpcParams | undefined;

/** What a method resolves to: declared for a NativeMethod, a JsonValue otherwise (never `any`). */
export type NativeMethodResult<Method extends string> =
  Method extends { readonly [nativeMethodTypes]?: { params: unknown; result: infer Result } } ? Result : JsonValue;

/** `params` required, optional or absent, as the method declares. */
export type NativeParamsField<Params> = undefined extends Params
  ? { params?: Exclude<Params, undefined> }
  : { params: Params };

/**
 * A method name that declares no types: a plain string, or a type parameter whose constraint
 * holds only plain strings (`M extends keyof Methods` in a wrapper of your own). A NativeMethod
 * is not one. Such a method takes any object or array as `params`, or none.
 */
export type NativeUndeclaredMethod = string & { readonly [nativeMethodTypes]?: undefined };

/**
 * The request fields for a method that declares no types, `params` any object or array. The
 * second way into NativeRpcRequestArgs, NativeRpcNotificationArgs and NativeRpcBatchItem: for a
 * generic method (a type parameter) TypeScript cannot evaluate NativeMethodParams, so without it
 * a wrapper generic over its method names could not call the client at all.
 */
export type NativeUndeclaredParamsField<Method extends string> = { method: Method & NativeUndeclaredMethod; params?: NativeRpcParams | undefined };

/**
 * Any method, for the general NativeRpcBatchEntry: its name a string, its result whatever the
 * method declares, so `unknown` (a declared result may be an interface or hold readonly arrays,
 * which TypeScript does not take as JsonValue). Every NativeMethod and every plain string is one.
 */
export type NativeAnyMethod = NativeMethod<string, NativeRpcParams | undefined, unknown>;

export interface NativeRpcRequest<Params extends NativeRpcParams = NativeRpcParams> {
  jsonrpc: '2.0';
  id: NativeRpcId;
  method: string;
  params?: Params;
}

/** A request without an id: the host runs it and never answers. */
export interface NativeRpcNotification<Params extends NativeRpcParams = NativeRpcParams> {
  jsonrpc: '2.0';
  method: string;
  params?: Params;
}

export interface NativeRpcErrorObject {
  code: number;
  message: string;
  data?: JsonValue;
}

export interface NativeRpcSuccessResponse<Result = JsonValue> {
  jsonrpc: '2.0';
  id: NativeRpcId;
  result: Result;
}

export interface NativeRpcErrorResponse {
  jsonrpc: '2.0';
  /** Null when the host could not read the request's id. */
  id: NativeRpcId | null;
  error: NativeRpcErrorObject;
}

/** A response object, validated: exactly one of `result` and `error`. */
export type NativeRpcResponse<Result = JsonValue> = NativeRpcSuccessResponse<Result> | NativeRpcErrorResponse;

// ---- Built-in wallet methods (Sources/WalletBridge/Protocol/WalletMethods.swift) -----------

/** GetAccounts: no params, NativeGetAccountsResult. */
export const NATIVE_GET_ACCOUNTS_METHOD: NativeMethod<'NATIVE_GET_ACCOUNTS_METHOD', undefined, NativeGetAccountsResult>;
/** SignPayloads: NativeSignPayloadsParams, NativeSignPayloadsResult. */
export const NATIVE_SIGN_PAYLOADS_METHOD: NativeMethod<'NATIVE_SIGN_PAYLOADS_METHOD', NativeSignPayloadsParams, NativeSignPayloadsResult>;
/** safari-extension-walletlib's name for NATIVE_GET_ACCOUNTS_METHOD (same string). */
export const NATIVE_GET_ACCOUNTS_RPC_METHOD: typeof NATIVE_GET_ACCOUNTS_METHOD;
/** safari-extension-walletlib's name for NATIVE_SIGN_PAYLOADS_METHOD (same string). */
export const NATIVE_SIGN_PAYLOADS_RPC_METHOD: typeof NATIVE_SIGN_PAYLOADS_METHOD;

/** Swift `GetAccountsResult`. */
export interface NativeGetAccountsResult {
  /** Each account's 32-byte Ed25519 public key, standard base64. */
  addresses: string[];
}

/** Swift `SignPayloadsParams`. */
export interface NativeSignPayloadsParams {
  /** A base64 public key, as NATIVE_GET_ACCOUNTS_METHOD returned it. */
  address: string;
  /** Base64 byte strings to sign (a readonly array or `as const` tuple is fine). */
  payloads: readonly string[];
}

/** Swift `SignPayloadsResult`. */
export interface NativeSignPayloadsResult {
  /** For each payload in order: base64 of the payload followed by its 64-byte Ed25519 signature. */
  signed_payloads: string[];
}

/** Throws NativeProtocolError (kind "invalid-result") unless `result` has the GetAccounts shape. */
export function checkGetAccountsResult(result: unknown, context?: { id?: NativeRpcId | null }): NativeGetAccountsResult;
/** Throws NativeProtocolError (kind "invalid-result") unless `result` has the SignPayloads shape and one entry per payload. */
export function checkSignPayloadsResult(result: unknown, params: NativeSignPayloadsParams, context?: { id?: NativeRpcId | null }): NativeSignPayloadsResult;

// ---- Sessions (docs/sessions.md) ------------------------------------------------------------
// WalletConnect Sign's model (CAIP-25 namespaces, CAIP-10 accounts) over native messaging. Chain
// ids, account ids and topics are plain strings here: parseChainId and parseAccountId split
// them, and every session call checks them before sending.

/**
 * What a proposal asks for under one key of its namespaces. Keyed by a CAIP-2 namespace
 * (`"solana"`), `chains` is required and non-empty, each chain of that namespace; keyed by a
 * whole chain id (`"solana:5eykt…"`), there is no `chains`: the key is the one chain.
 * Generated from the host's rpc.discover (session_connect's params).
 */
export type Namespace = Namespaces[string];

/** CAIP-25 namespaces: `{ solana: { chains, methods, events } }`. Generated, as `Namespace`. */
export type Namespaces = NonNullable<SessionConnectParams['requiredNamespaces']>;

/**
 * A session's namespace: what was approved, plus its `accounts`, CAIP-10 ids, `chain:address`,
 * every key of the keystore on every approved chain, so it changes when keys do (see
 * `session_update`). A Solana address is the base58 public key; an eip155 one 0x and 40 hex
 * digits, EIP-55 mixed case (`eip155:1:0x5aAe…`). May be empty when the keystore has no key.
 * Generated from the host's rpc.discover, as `Session`.
 */
export type SessionNamespace = SessionNamespaces[string];

export type SessionNamespaces = Session['namespaces'];

/**
 * What a side says about itself. The extension's is shown to the person marked as self-declared.
 * Generated from the host's rpc.discover (session_connect's `metadata`): `name` 1 to 100
 * characters (checked when proposing).
 */
export type PeerMetadata = SessionConnectParams['metadata'];


/**
 * The per-call options of session_list, session_extend and session_disconnect: the call options,
 * and the site whose sessions the call sees (left out: the extension's own, site-less ones).
 */
export interface SessionSiteOptions extends NativeRequestOptions {
  /**
   * A web origin, scheme, host and port only (`https://app.example.com`, `http://127.0.0.1:8123`),
   * as the browser told the extension (`sender.origin`): never
   * what a page says. A topic of another site is 7001, as an unknown one.
   */
  origin?: string;
}



/** A JSON-RPC-style error object: session_disconnect's `reason`, session_delete's. */
export interface SessionErrorReason {
  code: number;
  message: string;
}

// session_connect's, session_list's, session_extend's and session_disconnect's params and
// session_extend's result, generated from the host's rpc.discover
// (scripts/generate-session-types.sh); session_connect's params also give `Namespaces`, `Namespace`
// and `PeerMetadata` above. Together the namespaces must ask for at least one chain.
// An approved session (`Session`), as session_connect and session_list answer it, is generated too.
import type {
  Session, SessionConnectParams, SessionListParams, SessionListResult, SessionExtendParams, SessionExtendResult,
  SessionDisconnectParams,
} from './session-methods.js';
export type {
  Session, SessionConnectParams, SessionListParams, SessionListResult, SessionExtendParams, SessionExtendResult,
  SessionDisconnectParams,
};

/** `solana_signMessage`'s params: both base58. */
export interface SolanaSignMessageParams {
  /** The bytes to sign, base58. */
  message: string;
  /** One of the session's accounts: the address part of its CAIP-10 id. */
  pubkey: string;
}

export interface SolanaSignMessageResult {
  /** The 64-byte Ed25519 signature of the message bytes, base58 (checked). */
  signature: string;
}

/**
 * `solana_signIn`'s params: the Wallet Standard's SolanaSignInInput (Sign In With Solana), every
 * member optional. The wallet builds the message text from it in the published format.
 */
export interface SolanaSignInInput {
  /** Left out: the session's site, host[:port]. */
  domain?: string;
  /** A base58 key of the session's; left out: its first Solana account. */
  address?: string;
  statement?: string;
  uri?: string;
  version?: string;
  chainId?: string;
  nonce?: string;
  issuedAt?: string;
  expirationTime?: string;
  notBefore?: string;
  requestId?: string;
  resources?: readonly string[];
}

export interface SolanaSignInResult {
  /** The account that signed, base58 (checked: the one asked for, named on the message's second line). */
  address: string;
  /** The exact text signed (its UTF-8 bytes). */
  message: string;
  /** The 64-byte Ed25519 signature of the message, base58 (checked). */
  signature: string;
}

export interface SolanaAccount {
  /** A base58 32-byte public key (checked). */
  pubkey: string;
}

/** `solana_signTransaction`'s params (WalletConnect's "Solana RPC" shape). */
export interface SolanaSignTransactionParams {
  /**
   * The serialized transaction, legacy or version 0, at most 1232 bytes, in standard base64 with
   * padding (checked: its signature slots must agree with its message header). Signatures
   * already in it are kept.
   */
  transaction: string;
  /**
   * The key that signs, base58: one of the session's accounts (else 4100) and one of the
   * transaction's signers (checked). Left out: the first signer that is a key of the session.
   */
  pubkey?: string;
}

export interface SolanaSignTransactionResult {
  /** This key's 64-byte Ed25519 signature of the message, base58 (checked): the transaction's id when it is the fee payer's. */
  signature: string;
  /** The whole transaction with that signature in its slot, base64 (checked: the one sent, nothing else changed). */
  transaction: string;
}

/** `solana_signAllTransactions`' params: 1 to 16 transactions, one dialog for all of them. */
export interface SolanaSignAllTransactionsParams {
  /** Each as `SolanaSignTransactionParams.transaction`. */
  transactions: readonly string[];
  /** As for solana_signTransaction; a signer of every transaction (checked). */
  pubkey?: string;
}

export interface SolanaSignAllTransactionsResult {
  /** The signed transactions, base64, in the order sent (checked, each as for solana_signTransaction). */
  transactions: string[];
  /** Their signatures, base58, in the same order. */
  signatures: string[];
}

/** The methods a Solana session can hold, with their params and results. */
export interface SolanaSessionMethods {
  solana_signMessage: { params: SolanaSignMessageParams; result: SolanaSignMessageResult };
  solana_signIn: { params: SolanaSignInInput; result: SolanaSignInResult };
  solana_signTransaction: { params: SolanaSignTransactionParams; result: SolanaSignTransactionResult };
  solana_signAllTransactions: { params: SolanaSignAllTransactionsParams; result: SolanaSignAllTransactionsResult };
  solana_getAccounts: { params: undefined; result: SolanaAccount[] };
  solana_requestAccounts: { params: undefined; result: SolanaAccount[] };
}

// ---- Ethereum in a session (the eip155 namespace) ----

/** An Ethereum address: 0x and 40 hex digits. The wallet writes EIP-55 mixed case and takes any case. */
export type Eip155Address = `0x${string}`;

/** 0x and hex digits: bytes, or a quantity (eth_chainId's `"0x89"`). */
export type Hex = `0x${string}`;

/** A 65-byte secp256k1 signature r‖s‖v: 0x and 130 hex digits, v 0x1b or 0x1c (27 or 28) (checked). */
export type EthSignature = Hex;

/** One member of an EIP-712 struct type. */
export interface TypedDataField {
  name: string;
  /** A Solidity type (`"address"`, `"uint256"`, `"bytes32[]"`) or another struct's name. */
  type: string;
}

/** The EIP-712 domain; its members are those `types.EIP712Domain` lists. */
export interface TypedDataDomain {
  name?: string;
  version?: string;
  /** A number, or a string of decimal or 0x hex digits. */
  chainId?: number | string;
  /** 0x and 40 hex digits (checked). */
  verifyingContract?: string;
  /** 32 bytes: 0x and 64 hex digits (checked). */
  salt?: string;
}

/** EIP-712 typed data, as eth_signTypedData_v4 takes it (the object, or its JSON text). */
export interface TypedData {
  /**
   * The struct types by name. `EIP712Domain` is required (checked): without it wallets disagree
   * on the domain's hash. viem and ethers add it when they send; add it yourself here.
   */
  types: { EIP712Domain: readonly TypedDataField[]; [typeName: string]: readonly TypedDataField[] };
  /** The name of the type of `message`, one of `types` (checked). */
  primaryType: string;
  domain: TypedDataDomain;
  /**
   * The value to sign, of type `primaryType`: an object (interfaces fit; an array is refused
   * when checked). Its encoding is the wallet's to check.
   */
  message: object;
}

/**
 * `personal_sign`'s params (EIP-191), the message first. The message is 0x and hex digits for
 * bytes, or text, which the wallet signs as its UTF-8 bytes; the address is one of the session's
 * eip155 accounts, in any case (else 4100).
 */
export type PersonalSignParams = readonly [message: string, address: string];

/** `eth_signTypedData_v4`'s params (EIP-712), the address first; the typed data as an object or its JSON text (as MetaMask sends it). */
export type SignTypedDataV4Params = readonly [address: string, typedData: TypedData | string];

/** One entry of an EIP-2930 access list. */
export interface EthAccessListEntry {
  address: string;
  /** 32-byte keys, 0x and 64 hex digits each (checked). */
  storageKeys: readonly string[];
}

/** The fields of every kind of transaction; `Quantity` and `Bytes` are how its numbers and data are written. */
interface EthTransactionFields<Quantity, Bytes> {
  /** One of the session's eip155 addresses (else 4100), any case. */
  from: string;
  /** The recipient or contract called; absent or null creates a contract (a warning in the dialog). */
  to?: string | null;
  /** Wei; absent is 0. */
  value?: Quantity;
  /** Calldata; `input` is its other name (give one, or both the same). */
  data?: Bytes;
  input?: Bytes;
  /** Required: the wallet has no network to look it up. */
  nonce: Quantity;
  /** When given, the request's chain (checked); the request's chain is signed either way. */
  chainId?: Quantity;
  /** EIP-2930: with `gasPrice` it makes a type 0x1 transaction. */
  accessList?: readonly EthAccessListEntry[];
}

/** The gas limit, required, under either of its names. */
type EthGasField<Quantity> = { gas: Quantity; gasLimit?: Quantity } | { gasLimit: Quantity; gas?: Quantity };

/** Legacy or EIP-2930 fees (`gasPrice`), or EIP-1559's, never both (checked). */
type EthFeeFields<Quantity, LegacyType, DynamicType> =
  | { gasPrice: Quantity; maxFeePerGas?: never; maxPriorityFeePerGas?: never; type?: LegacyType }
  | { maxFeePerGas: Quantity; maxPriorityFeePerGas: Quantity; gasPrice?: never; type?: DynamicType };

/**
 * eth_signTransaction's transaction object as the wire takes it: quantities as Ethereum JSON-RPC
 * writes them, 0x and hex digits without leading zeros (`"0x0"` for zero; numbers are refused),
 * bytes as 0x and hex. Legacy (EIP-155), EIP-2930 (`accessList` or type 0x1) or EIP-1559
 * (`maxFeePerGas` and `maxPriorityFeePerGas`, type 0x2).
 */
export type EthTransactionRequest = EthTransactionFields<Hex, Hex> & EthGasField<Hex> & EthFeeFields<Hex, '0x0' | '0x1', '0x2'>;

/** A quantity as ethSignTransaction takes it: a hex quantity, a bigint, or a safe whole number. */
export type EthQuantityInput = Hex | bigint | number;

/** The transaction object ethSignTransaction takes: EthTransactionRequest with numbers, bigints and bytes allowed. */
export type EthTransactionInput = EthTransactionFields<EthQuantityInput, Hex | Uint8Array> & EthGasField<EthQuantityInput>
  & EthFeeFields<EthQuantityInput, '0x0' | '0x1' | 0 | 1, '0x2' | 2>;

/**
 * `eth_signTransaction`'s params: the object, or an unsigned serialized transaction in hex (its
 * chain must be the request's), and optionally the session's address that signs it (a serialized
 * transaction does not carry its sender; with an object it must be `from`).
 */
export type EthSignTransactionParams =
  | readonly [transaction: EthTransactionRequest | Hex]
  | readonly [transaction: EthTransactionRequest | Hex, address: Eip155Address];

/** The methods an eip155 session can hold, with their params and results. */
export interface Eip155SessionMethods {
  /** The session's addresses on the request's chain, EIP-55 (checked: 0x and 40 hex digits). */
  eth_accounts: { params: readonly [] | undefined; result: Eip155Address[] };
  /** The request's chain id as a hex quantity: `"0x1"` on eip155:1, `"0x89"` on eip155:137 (checked). */
  eth_chainId: { params: readonly [] | undefined; result: Hex };
  personal_sign: { params: PersonalSignParams; result: EthSignature };
  eth_signTypedData_v4: { params: SignTypedDataV4Params; result: EthSignature };
  /** The raw signed transaction, 0x and hex (checked: of the type sent), for eth_sendRawTransaction. */
  eth_signTransaction: { params: EthSignTransactionParams; result: Hex };
}

/** The params of a method inside a session: the Solana and eip155 ones' above, else as for NativeMethodParams. */
export type SessionMethodParams<Method extends string> =
  Method extends keyof SolanaSessionMethods ? SolanaSessionMethods[Method]['params']
  : Method extends keyof Eip155SessionMethods ? Eip155SessionMethods[Method]['params']
  : NativeMethodParams<Method>;

/** The result of a method inside a session: the Solana and eip155 ones' above, else as for NativeMethodResult. */
export type SessionMethodResult<Method extends string> =
  Method extends keyof SolanaSessionMethods ? SolanaSessionMethods[Method]['result']
  : Method extends keyof Eip155SessionMethods ? Eip155SessionMethods[Method]['result']
  : NativeMethodResult<Method>;

/** session_request's params. */
export interface SessionRequest<Method extends string = string> {
  /** A live session of this extension. */
  topic: string;
  /** CAIP-2; the session must hold it (else 3005). */
  chainId: string;
  /** The inner request; the session must allow its method on that chain (else 3001). */
  request: { method: Method } & NativeParamsField<SessionMethodParams<Method>>;
  /**
   * Whole seconds since the Unix epoch, 5 minutes to 7 days from now (the host checks the
   * window): when it passes while the person has not answered, the answer is 8000. Null reads
   * as left out.
   */
  expiry?: number | null;
  /** The site whose session `topic` is (see SessionSiteOptions.origin); null reads as left out. */
  origin?: string | null;
}

/** session_event: a key was created, imported, deleted or renamed. */
export interface SessionEventParams {
  topic: string;
  /** The session's site, when it has one: a background sends the event to that site's pages only. */
  origin?: string;
  chainId: string;
  event: {
    /** `accountsChanged` (Solana and eip155), or `chainChanged` (eip155: `chainId` is the chain). */
    name: string;
    /** For `accountsChanged`: the chain's CAIP-10 accounts (checked); for other events passed on unchecked. */
    data: JsonValue;
  };
}

/** session_update: the session was extended, or its accounts changed. */
export interface SessionUpdateParams {
  topic: string;
  /** The session's site, when it has one: a background sends the event to that site's pages only. */
  origin?: string;
  namespaces: SessionNamespaces;
  expiry: number;
}

/** session_delete: disconnected on another of the extension's ports, or revoked (6000). */
export interface SessionDeleteParams {
  topic: string;
  /** The session's site, when it has one: a background sends the event to that site's pages only. */
  origin?: string;
  reason: SessionErrorReason;
}

/** session_expire: the session's expiry passed. */
export interface SessionExpireParams {
  topic: string;
  /** The session's site, when it has one: a background sends the event to that site's pages only. */
  origin?: string;
}

/** Each session notification with its params. */
export interface SessionEventMap {
  session_event: SessionEventParams;
  session_update: SessionUpdateParams;
  session_delete: SessionDeleteParams;
  session_expire: SessionExpireParams;
}

export type SessionEventName = keyof SessionEventMap;

/** Called with the notification's params, checked. May be async; a throw or rejection is reported to onWarning. */
export type SessionEventHandler<Name extends SessionEventName = SessionEventName> = (params: SessionEventMap[Name]) => unknown;

/** signMessage's arguments: the message as bytes, the rest as for session_request. */
export interface SignMessageArgs extends NativeRequestOptions {
  topic: string;
  chainId: string;
  /** The bytes to sign (for text: `new TextEncoder().encode(text)`); at least one. */
  message: Uint8Array;
  /** The account's base58 public key (the address of its CAIP-10 id). */
  pubkey: string;
  expiry?: number;
  /** The site whose session `topic` is (see SessionSiteOptions.origin). */
  origin?: string;
}

/** personalSign's arguments: the message as text or bytes, the rest as for session_request. */
export interface PersonalSignArgs extends NativeRequestOptions {
  topic: string;
  /** An eip155 chain id the session holds, e.g. `"eip155:1"`. */
  chainId: string;
  /**
   * Text, signed as its UTF-8 bytes (always: `"0xff"` is four characters of text here), or the
   * bytes; at least one byte. Sent as 0x and hex digits.
   */
  message: string | Uint8Array;
  /** One of the session's eip155 addresses, any case (the address of its CAIP-10 id). */
  address: string;
  expiry?: number;
  /** The site whose session `topic` is (see SessionSiteOptions.origin). */
  origin?: string;
}

/** signTypedDataV4's arguments: the typed data as an object (sent as JSON text) or as JSON text. */
export interface SignTypedDataV4Args extends NativeRequestOptions {
  topic: string;
  /** An eip155 chain id the session holds, e.g. `"eip155:1"`. */
  chainId: string;
  /** One of the session's eip155 addresses, any case. */
  address: string;
  /** The object (BigInt values are written as decimal strings) or its JSON text, sent as it is. */
  typedData: TypedData | string;
  expiry?: number;
  /** The site whose session `topic` is (see SessionSiteOptions.origin). */
  origin?: string;
}

/** solanaSignTransaction's arguments: the transaction as bytes or base64, the rest as for session_request. */
export interface SolanaSignTransactionArgs extends NativeRequestOptions {
  topic: string;
  chainId: string;
  /** The serialized transaction (`transaction.serialize({ requireAllSignatures: false })` in @solana/web3.js), or its base64. */
  transaction: Uint8Array | string;
  /** The signing key, base58; left out, the first signer the session holds. */
  pubkey?: string;
  expiry?: number;
  /** The site whose session `topic` is (see SessionSiteOptions.origin). */
  origin?: string;
}

/** solanaSignAllTransactions' arguments: 1 to 16 transactions, each as for solanaSignTransaction. */
export interface SolanaSignAllTransactionsArgs extends NativeRequestOptions {
  topic: string;
  chainId: string;
  transactions: ReadonlyArray<Uint8Array | string>;
  pubkey?: string;
  expiry?: number;
  /** The site whose session `topic` is (see SessionSiteOptions.origin). */
  origin?: string;
}

/** solanaSignIn's arguments. */
export interface SolanaSignInArgs extends NativeRequestOptions {
  topic: string;
  /** A Solana chain the session holds. */
  chainId: string;
  /** What to sign in with; left out, everything the wallet fills in (domain: the site; address: the first account). */
  input?: SolanaSignInInput;
  expiry?: number;
  /** The site whose session `topic` is: the sign-in is checked against it. */
  origin?: string;
}

/** solanaSignIn's answer, decoded. */
export interface SolanaSignInOutput {
  /** The account that signed, base58. */
  address: string;
  /** The exact text signed. */
  message: string;
  /** Its UTF-8 bytes: what the signature is of. */
  signedMessage: Uint8Array;
  /** The 64-byte Ed25519 signature. */
  signature: Uint8Array;
}

/** A signed Solana transaction, decoded. */
export interface SolanaSignedTransaction {
  /** The key's 64-byte signature (`base58Encode(signature)` is the transaction's id when the key pays the fee). */
  signature: Uint8Array;
  /** The whole signed transaction, ready to send (`sendRawTransaction`). */
  transaction: Uint8Array;
}

/** ethSignTransaction's arguments. */
export interface EthSignTransactionArgs extends NativeRequestOptions {
  topic: string;
  /** An eip155 chain id the session holds: the chain signed for. */
  chainId: string;
  /** The object, or an unsigned serialized transaction (hex or bytes). */
  transaction: EthTransactionInput | Hex | Uint8Array;
  /**
   * The session's address that signs a serialized transaction (the session's first account when
   * left out); with an object it may be given too and must be its `from`.
   */
  address?: Eip155Address;
  expiry?: number;
  /** The site whose session `topic` is (see SessionSiteOptions.origin). */
  origin?: string;
}

export const SESSION_CONNECT_METHOD: NativeMethod<'session_connect', SessionConnectParams, Session>;
export const SESSION_LIST_METHOD: NativeMethod<'session_list', SessionListParams | undefined, SessionListResult>;
export const SESSION_REQUEST_METHOD: NativeMethod<'session_request', SessionRequest, JsonValue>;
export const SESSION_EXTEND_METHOD: NativeMethod<'session_extend', SessionExtendParams, SessionExtendResult>;
export const SESSION_DISCONNECT_METHOD: NativeMethod<'session_disconnect', SessionDisconnectParams, { [key: string]: never }>;
export const SESSION_EVENT_NOTIFICATION: 'session_event';
export const SESSION_UPDATE_NOTIFICATION: 'session_update';
export const SESSION_DELETE_NOTIFICATION: 'session_delete';
export const SESSION_EXPIRE_NOTIFICATION: 'session_expire';
/** The four notifications `client.on` delivers. */
export const SESSION_EVENT_NAMES: readonly ['session_event', 'session_update', 'session_delete', 'session_expire'];

export const SOLANA_NAMESPACE: 'solana';
export const SOLANA_MAINNET_CHAIN_ID: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp';
export const SOLANA_DEVNET_CHAIN_ID: 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1';
export const SOLANA_TESTNET_CHAIN_ID: 'solana:4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z';
export const SOLANA_CHAINS: Readonly<{
  mainnet: typeof SOLANA_MAINNET_CHAIN_ID;
  devnet: typeof SOLANA_DEVNET_CHAIN_ID;
  testnet: typeof SOLANA_TESTNET_CHAIN_ID;
}>;
export const SOLANA_SIGN_MESSAGE_METHOD: 'solana_signMessage';
/** Inner method (Sign In With Solana): SolanaSignInInput → `{ address, message, signature }`. */
export const SOLANA_SIGN_IN_METHOD: 'solana_signIn';
export const SOLANA_SIGN_TRANSACTION_METHOD: 'solana_signTransaction';
export const SOLANA_SIGN_ALL_TRANSACTIONS_METHOD: 'solana_signAllTransactions';
/** 1232: the most bytes of one Solana transaction (the network's packet data size). */
export const SOLANA_TRANSACTION_MAX_BYTES: 1232;
/** 16: the most transactions one solana_signAllTransactions signs. */
export const SOLANA_SIGN_ALL_MAX_TRANSACTIONS: 16;
export const SOLANA_GET_ACCOUNTS_METHOD: 'solana_getAccounts';
export const SOLANA_REQUEST_ACCOUNTS_METHOD: 'solana_requestAccounts';
export const SOLANA_ACCOUNTS_CHANGED_EVENT: 'accountsChanged';

export const EIP155_NAMESPACE: 'eip155';
/** A few well-known chains; the wallet signs for any `eip155:<decimal chain id>`. */
export const EIP155_CHAINS: Readonly<{
  mainnet: 'eip155:1';
  sepolia: 'eip155:11155111';
  polygon: 'eip155:137';
  optimism: 'eip155:10';
  arbitrum: 'eip155:42161';
  base: 'eip155:8453';
}>;
export const ETH_ACCOUNTS_METHOD: 'eth_accounts';
export const ETH_CHAIN_ID_METHOD: 'eth_chainId';
export const PERSONAL_SIGN_METHOD: 'personal_sign';
export const ETH_SIGN_TYPED_DATA_V4_METHOD: 'eth_signTypedData_v4';
export const ETH_SIGN_TRANSACTION_METHOD: 'eth_signTransaction';
export const ETH_ACCOUNTS_CHANGED_EVENT: 'accountsChanged';
export const ETH_CHAIN_CHANGED_EVENT: 'chainChanged';

/** Splits a CAIP-2 chain id; a TypeError for anything else. */
export function parseChainId(chainId: string): { namespace: string; reference: string };
/** Splits a CAIP-10 account id (for Solana, `address` is the base58 public key; for eip155, the 0x address); a TypeError for anything else. */
export function parseAccountId(accountId: string): { chainId: string; namespace: string; reference: string; address: string };
/** Throws NativeProtocolError (kind "invalid-result") unless `result` is a session, accounts consistent with chains. */
/**
 * Throws a TypeError naming `field` unless `origin` is undefined or a web origin as the browser
 * serializes it: http or https, a lowercase host, an optional port other than the default, nothing after.
 */
export function checkOrigin(origin: unknown, field?: string): asserts origin is string | undefined;
export function checkSession(result: unknown, context?: { id?: NativeRpcId | null; method?: string }): Session;

/**
 * Signs bytes through `client.sessionRequest` (solana_signMessage): base58-encodes the message
 * and resolves to the decoded 64-byte signature. Declined: NativeRpcError 4001.
 */
export function signMessage(client: NativeClient, args: SignMessageArgs): Promise<Uint8Array>;
/**
 * Sign In With Solana through `client.sessionRequest` (solana_signIn): the wallet builds the
 * message from the input, shows it as a sign-in checked against the session's site, and signs it.
 */
export function solanaSignIn(client: NativeClient, args: SolanaSignInArgs): Promise<SolanaSignInOutput>;

/**
 * Signs a message through `client.sessionRequest` (personal_sign, EIP-191): text as the hex of
 * its UTF-8 bytes, bytes as their hex; resolves to the 65-byte signature. Declined: NativeRpcError
 * 4001; an address outside the session: 4100.
 */
export function personalSign(client: NativeClient, args: PersonalSignArgs): Promise<EthSignature>;

/**
 * Signs EIP-712 typed data through `client.sessionRequest` (eth_signTypedData_v4): an object is
 * sent as its JSON text, a string as it is, both checked first; resolves to the 65-byte signature.
 */
export function signTypedDataV4(client: NativeClient, args: SignTypedDataV4Args): Promise<EthSignature>;

/**
 * Signs a Solana transaction (solana_signTransaction) after the person has seen it decoded: the
 * transaction as bytes or base64, checked first; resolves to the signature and the signed
 * transaction, decoded, checked to be the one sent with the signature in its slot. Declined:
 * NativeRpcError 4001; a pubkey outside the session 4100; a transaction refused -32602.
 */
export function solanaSignTransaction(client: NativeClient, args: SolanaSignTransactionArgs): Promise<SolanaSignedTransaction>;

/** Signs 1 to 16 Solana transactions in one dialog (solana_signAllTransactions), all or none; resolves in the order given. */
export function solanaSignAllTransactions(client: NativeClient, args: SolanaSignAllTransactionsArgs): Promise<SolanaSignedTransaction[]>;

/**
 * Signs an Ethereum transaction (eth_signTransaction) after the person has seen it decoded;
 * resolves to the raw signed transaction, 0x and hex, to broadcast with eth_sendRawTransaction
 * (the wallet has no network). Quantities may be bigints or numbers here; they go as hex.
 */
export function ethSignTransaction(client: NativeClient, args: EthSignTransactionArgs): Promise<Hex>;

/** Base58, Bitcoin alphabet (Solana's keys and signatures); leading zero bytes are leading "1"s. */
export function base58Encode(bytes: Uint8Array): string;
/** The bytes of a base58 string; a TypeError naming the first character outside the alphabet. */
export function base58Decode(text: string): Uint8Array;

// ---- Errors ---------------------------------------------------------------------------------

/** The host's error catalogue (Sources/WalletBridge/Protocol/ErrorCode.swift), same names. */
export const NativeRpcErrorCode: Readonly<{
  parseError: -32700;
  invalidRequest: -32600;
  methodNotFound: -32601;
  invalidParams: -32602;
  internalError: -32603;
  responseTooLarge: -32000;
  requestTimedOut: -32001;
  requestCancelled: -32002;
  overloaded: -32003;
  requestTooLarge: -32004;
  agentUnavailable: -32005;
  authorizationFailed: -1;
  invalidPayloads: -2;
  notSigned: -3;
  tooManyPayloads: -6;
  unauthorizedMethod: 3001;
  unauthorizedChain: 3005;
  userRejectedRequest: 4001;
  unauthorized: 4100;
  userRejected: 5000;
  userRejectedChains: 5001;
  userRejectedMethods: 5002;
  userRejectedEvents: 5003;
  unsupportedChains: 5100;
  unsupportedMethods: 5101;
  unsupportedEvents: 5102;
  unsupportedAccounts: 5103;
  unsupportedNamespaceKey: 5104;
  userDisconnected: 6000;
  noSessionForTopic: 7001;
  sessionRequestExpired: 8000;
}>;

/** The host's `data.reason` values (Sources/WalletBridgeProtocol/ErrorReason.swift), same names. */
export const NativeRpcErrorReason: Readonly<{
  declined: 'declined';
  wrongPassphrase: 'wrong_passphrase';
  noPassphrasePrompt: 'no_passphrase_prompt';
  tooManyWaiting: 'too_many_waiting';
  keyDamaged: 'key_damaged';
  unlockFailed: 'unlock_failed';
  keystoreWritableByOthers: 'keystore_writable_by_others';
  noPrompt: 'no_prompt';
  cannotStart: 'cannot_start';
  notResponding: 'not_responding';
  protocolMismatch: 'protocol_mismatch';
  otherKeystore: 'other_keystore';
  unsafeSocket: 'unsafe_socket';
  tooManyConnections: 'too_many_connections';
  wrongSocket: 'wrong_socket';
  notRunning: 'not_running';
}>;
/** One `data.reason` value the host sends: `error.data.reason` of a NativeRpcError, narrowed. */
export type NativeRpcErrorReason = (typeof NativeRpcErrorReason)[keyof typeof NativeRpcErrorReason];

/** The fixed message the host sends with each catalogue code. */
export const NATIVE_RPC_ERROR_MESSAGES: Readonly<Record<number, string>>;

/** Base class of every error the package produces on purpose. */
export class WalletBridgeError extends Error {
  constructor(message: string, options?: { cause?: unknown });
}

/** The host answered with a JSON-RPC error object; its fields are the host's, unchanged. */
export class NativeRpcError extends WalletBridgeError {
  constructor(fields: { code: number; message: string; data?: JsonValue; id?: NativeRpcId | null; method?: string });
  code: number;
  /** Undefined when the host sent no `data`. */
  data: JsonValue | undefined;
  /** The id of the request it answers (null only when that is unknown). */
  id: NativeRpcId | null;
  method: string | undefined;
  /** The plain error object, which survives runtime.sendMessage where an Error's fields do not. */
  toJSON(): NativeRpcErrorObject;
}

/** A subclass of NativeRpcError that replies with a registered code are thrown as. */
export type NativeRpcErrorClass = new (fields: { code: number; message: string; data?: JsonValue; id?: NativeRpcId | null; method?: string }) => NativeRpcError;

/**
 * Makes every error reply with `code` (to one of `options.methods`, or to any method when left
 * out) reject with `ErrorClass` in place of NativeRpcError. A class for the method wins over one
 * for any method. The same class again changes nothing; another class for a code (and method)
 * that has one throws a TypeError. The error module openrpc-to-ts writes (`--js`) calls it for
 * each error the host declares.
 */
export function registerNativeRpcErrorClass(code: number, ErrorClass: NativeRpcErrorClass, options?: { methods?: readonly string[] }): void;

/**
 * - `host-not-found`: no manifest for this name (or the name is invalid), or this extension is
 *   not allowed by it (Firefox reports that as not found too).
 * - `forbidden`: Chrome refused this extension (`allowed_origins`).
 * - `start-failed`: the browser found the host but could not start it.
 * - `disconnected`: the host exited or the browser dropped the connection (e.g. a reply over 1 MiB).
 * - `timeout`: no reply within the timeout.
 * - `closed`: close() was called while the request was pending.
 */
export type NativeTransportErrorKind = 'host-not-found' | 'forbidden' | 'start-failed' | 'disconnected' | 'timeout' | 'closed';

/** Native messaging failed. `message` is the browser's own text whenever there was one. */
export class NativeTransportError extends WalletBridgeError {
  constructor(fields: {
    kind: NativeTransportErrorKind;
    message: string;
    browserMessage?: string | null;
    id?: NativeRpcId | null;
    method?: string;
    cause?: unknown;
  });
  kind: NativeTransportErrorKind;
  /** The browser's text, verbatim, or null when the failure was not the browser's (timeout, close). */
  browserMessage: string | null;
  /** The request's id; null for batches and raw messages. */
  id: NativeRpcId | null;
  method: string | undefined;
}

/**
 * - `not-json-rpc`: `jsonrpc` is not "2.0".
 * - `invalid-response`: not an object, fields missing or mistyped, both or neither of result and error.
 * - `wrong-id`: answers another request (or a batch reply that does not match the batch).
 * - `invalid-result`: a built-in method's result does not have the model's shape.
 */
export type NativeProtocolErrorKind = 'not-json-rpc' | 'invalid-response' | 'wrong-id' | 'invalid-result';

/** The reply broke the contract. `response` keeps what arrived. */
export class NativeProtocolError extends WalletBridgeError {
  constructor(fields: { kind: NativeProtocolErrorKind; message: string; response?: unknown; id?: NativeRpcId | null; method?: string });
  kind: NativeProtocolErrorKind;
  response: unknown;
  id: NativeRpcId | null;
  method: string | undefined;
}

/** Used wrongly: not configured, no runtime, no native messaging permission. */
export class NativeConfigurationError extends WalletBridgeError {
  constructor(message: string);
}

// ---- Browser runtime (the subset used) -------------------------------------------------------

export interface NativeMessagingEvent<Listener extends (...args: any[]) => void> {
  addListener(listener: Listener): void;
  removeListener?(listener: Listener): void;
}

/** `runtime.Port` as returned by connectNative, in Firefox and Chrome. */
export interface NativeMessagingPort {
  name?: string;
  /** Firefox: why the port disconnected. */
  error?: { message?: string } | null;
  onMessage: NativeMessagingEvent<(message: any, port: NativeMessagingPort) => void>;
  onDisconnect: NativeMessagingEvent<(port: NativeMessagingPort) => void>;
  postMessage(message: unknown): void;
  disconnect(): void;
}

/** `browser.runtime` (Firefox) or `chrome.runtime` (Chromium, Manifest V3), the subset used. */
export interface NativeMessagingRuntime {
  sendNativeMessage?(application: string, message: unknown): Promise<any> | unknown;
  connectNative?(application: string): NativeMessagingPort;
  /** Chrome: why the port disconnected, readable inside onDisconnect. */
  lastError?: { message?: string } | null;
}

// ---- Client ------------------------------------------------------------------------------------

/**
 * - `unmatched-reply`: a reply no pending request waits for (late after a timeout, unknown id).
 * - `unknown-notification`: a notification that is not one of the four session events.
 * - `invalid-notification`: a session event whose params do not have the model's shape; not delivered.
 * - `event-handler-error`: an `on` handler threw or rejected (`event`, `error`); the others still ran.
 * - `port-disconnected`: the port dropped while `on` handlers were registered (`error`): events
 *   stop until the next request or `on` opens a new port.
 */
export type NativeClientWarningKind = 'unmatched-reply' | 'unknown-notification' | 'invalid-notification' | 'event-handler-error' | 'port-disconnected';

/** Something the port transport noticed but that does not fail a request. */
export interface NativeClientWarning {
  kind: NativeClientWarningKind;
  message: string;
  /** What arrived from the host (the reply or the notification); undefined for `port-disconnected`. */
  reply: unknown;
  /** `event-handler-error`: the notification being delivered. */
  event?: SessionEventName;
  /** `event-handler-error`: what the handler threw; `port-disconnected`: the NativeTransportError. */
  error?: unknown;
}

export interface NativeClientOptions {
  /** The native messaging host's name, as in its manifest (and the manifest's file name). */
  application: string;
  /**
   * `"message"` (default): runtime.sendNativeMessage, one host process per request (a batch
   *   goes over a one-shot connectNative port, since Chrome's sendNativeMessage takes only objects).
   * `"port"`: one runtime.connectNative port shared by all requests, reopened after a disconnect.
   */
  transport?: 'message' | 'port';
  /** Per-request timeout; default DEFAULT_TIMEOUTS.requestMs. */
  timeoutMs?: number;
  /** Default: globalThis.browser?.runtime ?? globalThis.chrome?.runtime, at creation. */
  runtime?: NativeMessagingRuntime;
  /**
   * Port transport: called for replies no pending request waits for, notifications that are
   * not session events or are malformed, event handlers that throw, and a port dropped under
   * event handlers. Default: ignore them.
   */
  onWarning?: (warning: NativeClientWarning) => void;
}

export interface NativeRequestOptions {
  /** Generated with crypto.randomUUID() when left out. */
  id?: NativeRpcId;
  /** Overrides the client's timeout for this call. */
  timeoutMs?: number;
}

/**
 * A request to `Method`, with the params it declares; a method that declares none (a plain
 * string, or a generic one whose names declare none) takes any object or array.
 */
export type NativeRpcRequestArgs<Method extends string = string> =
  | (NativeRequestOptions & NativeUndeclaredParamsField<Method>)
  | (NativeRequestOptions & { method: Method } & NativeParamsField<NativeMethodParams<Method>>);

/** A notification to `Method`, with the params it declares (as for NativeRpcRequestArgs). */
export type NativeRpcNotificationArgs<Method extends string = string> =
  | ({ timeoutMs?: number } & NativeUndeclaredParamsField<Method>)
  | ({ method: Method; timeoutMs?: number } & NativeParamsField<NativeMethodParams<Method>>);

/** One request of a batch; `notification: true` sends it without an id, and it gets no entry. */
export type NativeRpcBatchItem<Method extends string = string> = Method extends unknown
  ? | ({ id?: NativeRpcId; notification?: boolean } & NativeUndeclaredParamsField<Method>)
    | ({ method: Method; id?: NativeRpcId; notification?: boolean } & NativeParamsField<NativeMethodParams<Method>>)
  : never;

/**
 * The outcome of one batch request to `Method`: its `result`, or `error` (never both).
 * Without `Method`, any method's entry (NativeAnyMethod: `result` is `unknown`): what every
 * typed entry is assignable to, so `const entries: NativeRpcBatchEntry[] = await
 * sendNativeRpcBatch(…)` compiles. `NativeRpcBatchEntry<string>` is an entry of a method that
 * declares nothing, its `result` a JsonValue (what decodeBatchResponse returns).
 */
export type NativeRpcBatchEntry<Method extends string = NativeAnyMethod> = Method extends unknown
  ? | { id: NativeRpcId; method: Method; result: NativeMethodResult<Method>; error?: undefined }
    | { id: NativeRpcId; method: Method; error: NativeRpcError; result?: undefined }
  : never;

/** Each item checked against its own method's params. */
export type NativeRpcBatchChecked<Items extends ReadonlyArray<NativeRpcBatchItem>> = {
  readonly [Index in keyof Items]: Items[Index] extends { method: infer Method extends string } ? NativeRpcBatchItem<Method> : never;
};

/** The entries of a batch: one per request in order, typed by its method; notifications have none. */
export type NativeRpcBatchEntries<Items> =
  Items extends readonly [infer Head, ...infer Tail]
    ? Head extends { notification: true }
      ? NativeRpcBatchEntries<Tail>
      : [NativeRpcBatchEntry<Head extends { method: infer Method extends string } ? Method : string>, ...NativeRpcBatchEntries<Tail>]
    : Items extends readonly []
      ? []
      : Items extends ReadonlyArray<infer Item>
        ? Array<NativeRpcBatchEntry<Item extends { method: infer Method extends string } ? Method : string>>
        : never;

/**
 * The items a batch accepts: the array as written (so each entry's type follows its item),
 * provided every item's params match its method.
 */
export type NativeRpcBatchItems<Items extends ReadonlyArray<NativeRpcBatchItem>> =
  Items extends NativeRpcBatchChecked<Items> ? Items : NativeRpcBatchChecked<Items>;

export interface NativeClient {
  readonly application: string;
  readonly transport: 'message' | 'port';
  readonly timeoutMs: number;
  /** Resolves to `result`; rejects with NativeRpcError, NativeTransportError or NativeProtocolError. */
  request<Method extends string>(request: NativeRpcRequestArgs<Method>): Promise<NativeMethodResult<Method>>;
  /** The validated response object, an error response included (not thrown). */
  requestResponse<Method extends string>(request: NativeRpcRequestArgs<Method>): Promise<NativeRpcResponse<NativeMethodResult<Method>>>;
  /** Port transport only: posts a notification; resolves once posted. */
  notify<Method extends string>(notification: NativeRpcNotificationArgs<Method>): Promise<void>;
  /**
   * Sends one array and maps the array reply back by id: one entry per request, in the order
   * given (notifications have none). A single error for the whole batch rejects with NativeRpcError.
   * On the port transport batches go out one at a time (a later one is held until the earlier
   * settles), so that whole-batch refusal, which carries id null, is known to be this batch's.
   */
  batch<Items extends ReadonlyArray<NativeRpcBatchItem> | []>(items: NativeRpcBatchItems<Items>, options?: { timeoutMs?: number }): Promise<NativeRpcBatchEntries<Items>>;
  /** Sends any JSON value as is and resolves with the raw reply, unchecked. For tests and tools. */
  sendRaw(message: unknown, options?: { timeoutMs?: number; expectsReply?: boolean }): Promise<unknown>;
  /** Takes `{ id?, timeoutMs? }`, or a bare id (walletlib 0.2.0's form); anything else is a TypeError. */
  getAccounts(idOrOptions?: NativeRpcId | NativeRequestOptions): Promise<NativeGetAccountsResult>;
  signPayloads(request: NativeSignPayloadsParams & NativeRequestOptions): Promise<NativeSignPayloadsResult>;
  /** session_connect: proposes a session; resolves once the person approves (5000 rejected, 8000 unanswered in 5 minutes). */
  connect(params: SessionConnectParams & NativeRequestOptions): Promise<Session>;
  /** session_list: this extension's live sessions, oldest first. */
  listSessions(options?: SessionSiteOptions): Promise<SessionListResult>;
  /**
   * session_request: a request within a session, resolving to the inner method's result
   * (checked for the Solana and eip155 methods). Named apart from `request`, which sends any method.
   */
  sessionRequest<Method extends string>(request: SessionRequest<Method> & NativeRequestOptions): Promise<SessionMethodResult<Method>>;
  /** session_extend: the session now lasts its lifetime from now. */
  extend(topic: string, options?: SessionSiteOptions): Promise<SessionExtendResult>;
  /** session_disconnect: ends the session (the extension's other ports hear session_delete). Not `close()`, which ends the port. */
  disconnect(topic: string, reason?: SessionErrorReason, options?: SessionSiteOptions): Promise<void>;
  /**
   * Port transport only (the message transport throws NativeConfigurationError: its host ends
   * at each reply). Calls `handler` with each notification's params. Opens the port if none is
   * open, and then sends it one session_list (answer dropped), since the host sends events only
   * after its first reply. Returns a function that unsubscribes. A handler added twice is called once.
   */
  on<Name extends SessionEventName>(name: Name, handler: SessionEventHandler<Name>): () => void;
  /** Removes a handler added with `on`; one never added is ignored. */
  off<Name extends SessionEventName>(name: Name, handler: SessionEventHandler<Name>): void;
  /** Disconnects the port (if any) and rejects everything pending with kind "closed". Later requests reconnect. Event handlers stay. */
  close(): void;
}

export const DEFAULT_TIMEOUTS: Readonly<{ requestMs: number }>;

export function createNativeClient(options: NativeClientOptions): NativeClient;
/** Sets the default client used by the module-level functions; closes the previous one. */
export function configureNativeClient(optionsOrClient: NativeClientOptions | NativeClient): NativeClient;
/** The default client; throws NativeConfigurationError when none is configured. */
export function getNativeClient(): NativeClient;
/** Closes and forgets the default client. */
export function resetNativeClient(): void;

/** Resolves to the `result`, typed by the method (see NativeMethod); an error response rejects with NativeRpcError. */
export function sendNativeRpcRequest<Method extends string>(request: NativeRpcRequestArgs<Method>): Promise<NativeMethodResult<Method>>;
export function sendNativeRpcBatch<Items extends ReadonlyArray<NativeRpcBatchItem> | []>(items: NativeRpcBatchItems<Items>, options?: { timeoutMs?: number }): Promise<NativeRpcBatchEntries<Items>>;
export function sendNativeNotification<Method extends string>(notification: NativeRpcNotificationArgs<Method>): Promise<void>;
/** `sendNativeGetAccountsRequest('my-id')` (walletlib 0.2.0) or `sendNativeGetAccountsRequest({ id, timeoutMs })`. */
export function sendNativeGetAccountsRequest(idOrOptions?: NativeRpcId | NativeRequestOptions): Promise<NativeGetAccountsResult>;
export function sendNativeSignPayloadsRequest(request: NativeSignPayloadsParams & NativeRequestOptions): Promise<NativeSignPayloadsResult>;
export function sendNativeSessionConnectRequest(params: SessionConnectParams & NativeRequestOptions): Promise<Session>;
export function sendNativeSessionListRequest(options?: SessionSiteOptions): Promise<SessionListResult>;
export function sendNativeSessionRequest<Method extends string>(request: SessionRequest<Method> & NativeRequestOptions): Promise<SessionMethodResult<Method>>;
export function sendNativeSessionExtendRequest(topic: string, options?: SessionSiteOptions): Promise<SessionExtendResult>;
export function sendNativeSessionDisconnectRequest(topic: string, reason?: SessionErrorReason, options?: SessionSiteOptions): Promise<void>;
/** signMessage with the default client. */
export function sendNativeSignMessageRequest(args: SignMessageArgs): Promise<Uint8Array>;

// ---- Messages without I/O (what the fixtures check) ------------------------------------------

export function buildRequest<Params extends NativeRpcParams>(request: { method: string; params?: Params; id?: NativeRpcId }): NativeRpcRequest<Params>;
export function buildNotification<Params extends NativeRpcParams>(notification: { method: string; params?: Params }): NativeRpcNotification<Params>;
export function buildBatch(items: ReadonlyArray<NativeRpcBatchItem>): Array<NativeRpcRequest | NativeRpcNotification>;
/** Throws NativeProtocolError unless `response` is a valid response answering `expected.id`. */
export function validateResponse(response: unknown, expected?: { id?: NativeRpcId; method?: string }): NativeRpcResponse;
/** The `result`, or the `error` thrown as NativeRpcError. */
export function decodeResponse(response: unknown, expected?: { id?: NativeRpcId; method?: string }): JsonValue;
export function decodeBatchResponse(batch: ReadonlyArray<NativeRpcRequest | NativeRpcNotification>, reply: unknown): Array<NativeRpcBatchEntry<string>>;
