// A TypeScript extension using the package, checked with `strict`. Each `@ts-expect-error` line
// must be refused by the types (tsc fails if it compiles); everything else must compile.
import {
  NATIVE_GET_ACCOUNTS_METHOD,
  NATIVE_SIGN_PAYLOADS_METHOD,
  NativeRpcErrorCode,
  SESSION_CONNECT_METHOD,
  SESSION_LIST_METHOD,
  SOLANA_CHAINS,
  SOLANA_GET_ACCOUNTS_METHOD,
  SOLANA_MAINNET_CHAIN_ID,
  SOLANA_SIGN_MESSAGE_METHOD,
  base58Decode,
  base58Encode,
  getNativeClient,
  parseAccountId,
  sendNativeSessionRequest,
  sendNativeSignMessageRequest,
  signMessage,
  type NativeClientWarning,
  type Namespaces,
  type Session,
  type SessionEventHandler,
  type SessionUpdateParams,
  createNativeClient,
  sendNativeGetAccountsRequest,
  sendNativeRpcBatch,
  sendNativeRpcRequest,
  sendNativeSignPayloadsRequest,
  type JsonValue,
  type NativeMethod,
  type NativeMethodParams,
  type NativeMethodResult,
  type NativeSignPayloadsParams,
  type NativeRpcBatchEntry,
  type NativeClient,
} from '../../src/index.js';

// ---- One declaration types a custom method end to end: name, params, result ----
interface MyCustomPingParams {
  pingParam1: string;
  pingParam2: readonly string[];
}
interface MyCustomPingResult {
  pong: string;
}
const MY_CUSTOM_PING_RPC_METHOD: NativeMethod<'MY_CUSTOM_PING_RPC_METHOD', MyCustomPingParams, MyCustomPingResult> = 'MY_CUSTOM_PING_RPC_METHOD';
/** A method that takes no params. */
const COUNT: NativeMethod<'count', undefined, { count: number }> = 'count';

// The name is still the string on the wire.
const wireName: 'MY_CUSTOM_PING_RPC_METHOD' = MY_CUSTOM_PING_RPC_METHOD;
const paramsOfPing: MyCustomPingParams = { pingParam1: 'a', pingParam2: [] } as NativeMethodParams<typeof MY_CUSTOM_PING_RPC_METHOD>;
const resultOfPing: NativeMethodResult<typeof MY_CUSTOM_PING_RPC_METHOD> = { pong: 'p' };

export async function correctUse(): Promise<void> {
  const client = createNativeClient({ application: 'com.example.wallet_bridge', transport: 'port' });

  // Params declared as an interface, with a readonly array and an `as const` tuple.
  const params: MyCustomPingParams = { pingParam1: 'ping', pingParam2: ['a', 'b'] as const };
  const { pong } = await sendNativeRpcRequest({ method: MY_CUSTOM_PING_RPC_METHOD, params });
  const pong2: string = (await client.request({ method: MY_CUSTOM_PING_RPC_METHOD, params, id: 1, timeoutMs: 5000 })).pong;
  const count: number = (await client.request({ method: COUNT })).count;
  const response = await client.requestResponse({ method: MY_CUSTOM_PING_RPC_METHOD, params });
  if ('result' in response) {
    const pong3: string = response.result.pong;
    void pong3;
  }

  // The package's own models as params, also through the generic call.
  const signParams: NativeSignPayloadsParams = { address: 'AAAA', payloads: ['aGVsbG8='] as const };
  const signed: string[] = (await sendNativeRpcRequest({ method: NATIVE_SIGN_PAYLOADS_METHOD, params: signParams })).signed_payloads;
  const signed2: string[] = (await sendNativeSignPayloadsRequest(signParams)).signed_payloads;
  const accounts: string[] = (await sendNativeRpcRequest({ method: NATIVE_GET_ACCOUNTS_METHOD })).addresses;
  const accounts2: string[] = (await sendNativeGetAccountsRequest('my-id')).addresses;

  // A method with no declaration: any object or array as params, a JsonValue as result.
  const difference: JsonValue = await sendNativeRpcRequest({ method: 'subtract', params: [42, 23] as const });
  const named: JsonValue = await client.request({ method: 'subtract', params: { minuend: 42, subtrahend: 23 } });
  if (typeof difference === 'number') void (difference + 1);

  // Batches: each entry typed by its item's method, notifications have no entry.
  const entries = await client.batch([
    { method: MY_CUSTOM_PING_RPC_METHOD, params },
    { method: 'notify_hello', params: [7], notification: true },
    { method: COUNT, id: 'count' },
    { method: 'sum', params: [1, 2] },
  ]);
  const [ping, counted, sum] = entries;
  if (!ping.error) {
    const p: string = ping.result.pong;
    void p;
  } else {
    const code: number = ping.error.code;
    void code;
  }
  if (counted.error === undefined) {
    const c: number = counted.result.count;
    void c;
  }
  if (!sum.error) {
    const s: JsonValue = sum.result;
    void s;
  }
  const three: 3 = entries.length;
  const fromModule = await sendNativeRpcBatch([{ method: COUNT }] as const);
  const items: ReadonlyArray<{ method: string; params?: readonly number[] }> = [{ method: 'sum', params: [1] }];
  const dynamic = await sendNativeRpcBatch(items);
  const first: JsonValue | undefined = dynamic[0]?.result;

  await client.notify({ method: MY_CUSTOM_PING_RPC_METHOD, params });

  void [pong, pong2, count, signed, signed2, accounts, accounts2, named, three, fromModule, first];
}

export async function wrongUse(): Promise<void> {
  const client = createNativeClient({ application: 'com.example.wallet_bridge' });
  const params: MyCustomPingParams = { pingParam1: 'ping', pingParam2: [] };

  // @ts-expect-error params of the wrong shape for the method
  await sendNativeRpcRequest({ method: MY_CUSTOM_PING_RPC_METHOD, params: { pingParam1: 1, pingParam2: [] } });
  // @ts-expect-error params left out for a method that needs them
  await client.request({ method: MY_CUSTOM_PING_RPC_METHOD });
  // @ts-expect-error params given to a method that takes none
  await client.request({ method: COUNT, params: [1] });
  // @ts-expect-error the result is the declared one, not anything
  const wrongResult: number = (await sendNativeRpcRequest({ method: MY_CUSTOM_PING_RPC_METHOD, params })).pong;
  // @ts-expect-error an undeclared method's result is a JsonValue, not `any`
  const notAny: number = await sendNativeRpcRequest({ method: 'subtract', params: [42, 23] });
  // @ts-expect-error params are real JSON, not a JSON string (walletlib sent strings)
  await sendNativeRpcRequest({ method: 'x', params: '{"a":1}' });
  // @ts-expect-error null params (leave them out instead)
  await sendNativeRpcRequest({ method: 'x', params: null });
  // @ts-expect-error sign params of the wrong shape through the generic call
  await sendNativeRpcRequest({ method: NATIVE_SIGN_PAYLOADS_METHOD, params: { address: 'a', payloads: 'AQID' } });
  // @ts-expect-error a batch item with params of the wrong shape for its method
  await client.batch([{ method: MY_CUSTOM_PING_RPC_METHOD, params: { pingParam1: 2, pingParam2: [] } }, { method: 'sum' }]);
  // @ts-expect-error a batch item without the params its method needs
  await sendNativeRpcBatch([{ method: 'sum' }, { method: MY_CUSTOM_PING_RPC_METHOD }]);
  const [entry] = await client.batch([{ method: COUNT }]);
  // @ts-expect-error a batch entry's result is its method's
  if (!entry.error) void (entry.result.count as string);
  // @ts-expect-error a name typed for one method cannot be declared with a different string
  const mismatched: NativeMethod<'a', undefined, number> = 'b';
  // @ts-expect-error the id is a string or a number
  await sendNativeGetAccountsRequest(true);
  void [wrongResult, notAny, mismatched];
}

void [wireName, paramsOfPing, resultOfPing];

// ---- Sessions ----
export async function sessionUse(): Promise<void> {
  const client = createNativeClient({ application: 'com.example.wallet_bridge', transport: 'port', onWarning: (warning: NativeClientWarning) => void warning.error });
  const required: Namespaces = { solana: { chains: [SOLANA_MAINNET_CHAIN_ID, SOLANA_CHAINS.devnet], methods: [SOLANA_SIGN_MESSAGE_METHOD], events: ['accountsChanged'] } as const };
  const session: Session = await client.connect({ requiredNamespaces: required, optionalNamespaces: { [SOLANA_CHAINS.testnet]: { methods: [], events: [] } }, metadata: { name: 'Example dApp', icons: ['https://example.org/icon.png'] }, timeoutMs: 300_000 });
  const { topic } = session;
  const accounts: string[] = session.namespaces['solana']?.accounts ?? [];
  const pubkey = parseAccountId(accounts[0] ?? '').address;
  const expiry: number = session.expiry + (await client.extend(topic)).expiry;

  // Inner methods typed by name: the Solana ones' params and results, anything else as JSON.
  const { signature } = await client.sessionRequest({ topic, chainId: SOLANA_MAINNET_CHAIN_ID, request: { method: 'solana_signMessage', params: { message: base58Encode(new Uint8Array([1])), pubkey } }, expiry: 1_795_000_600 });
  const signatureText: string = signature;
  const keys = await client.sessionRequest({ topic, chainId: SOLANA_MAINNET_CHAIN_ID, request: { method: SOLANA_GET_ACCOUNTS_METHOD } });
  const firstKey: string | undefined = keys[0]?.pubkey;
  const custom: JsonValue = await sendNativeSessionRequest({ topic, chainId: 'eip155:1', request: { method: 'eth_chainId' } });
  const signatureBytes: Uint8Array = await signMessage(client, { topic, chainId: SOLANA_MAINNET_CHAIN_ID, message: new TextEncoder().encode('hi'), pubkey });
  const viaDefault: Uint8Array = await sendNativeSignMessageRequest({ topic, chainId: SOLANA_MAINNET_CHAIN_ID, message: base58Decode('2g'), pubkey, id: 'sign-1' });
  const sessions: Session[] = (await getNativeClient().listSessions({ timeoutMs: 5000 })).sessions;
  const viaGeneric: Session = await client.request({ method: SESSION_CONNECT_METHOD, params: { metadata: { name: 'n' }, requiredNamespaces: required } });
  const listed: Session[] = (await client.request({ method: SESSION_LIST_METHOD, params: {} })).sessions;
  await client.disconnect(topic);
  await client.disconnect(topic, { code: NativeRpcErrorCode.userDisconnected, message: 'User disconnected' }, { id: 1 });

  // Events: each handler gets its notification's params.
  const unsubscribe: () => void = client.on('session_delete', ({ topic: deleted, reason }) => {
    const code: number = reason.code;
    void [deleted, code];
  });
  client.on('session_event', async (params) => {
    const name: string = params.event.name;
    void name;
  });
  const onUpdate: SessionEventHandler<'session_update'> = (params: SessionUpdateParams) => void params.namespaces;
  client.on('session_update', onUpdate);
  client.off('session_update', onUpdate);
  unsubscribe();
  const rejected: 5000 = NativeRpcErrorCode.userRejected;

  void [expiry, signatureText, firstKey, custom, signatureBytes, viaDefault, sessions, viaGeneric, listed, rejected];

  // @ts-expect-error solana_signMessage needs a pubkey
  await client.sessionRequest({ topic, chainId: SOLANA_MAINNET_CHAIN_ID, request: { method: 'solana_signMessage', params: { message: '2g' } } });
  // @ts-expect-error the result's signature is base58 text, not bytes (signMessage decodes it)
  const notBytes: Uint8Array = (await client.sessionRequest({ topic, chainId: SOLANA_MAINNET_CHAIN_ID, request: { method: 'solana_signMessage', params: { message: '2g', pubkey } } })).signature;
  // @ts-expect-error no such event
  client.on('session_ping', () => {});
  // @ts-expect-error session_delete's params have no namespaces
  client.on('session_delete', (params) => params.namespaces);
  // @ts-expect-error metadata is required
  await client.connect({ requiredNamespaces: required });
  // @ts-expect-error the message is bytes; encode text first
  await signMessage(client, { topic, chainId: SOLANA_MAINNET_CHAIN_ID, message: 'hello', pubkey });
  // @ts-expect-error a reason is { code, message }
  await client.disconnect(topic, 'bye');
  // @ts-expect-error methods are required in a namespace
  const incomplete: Namespaces = { solana: { chains: [SOLANA_MAINNET_CHAIN_ID], events: [] } };
  void [notBytes, incomplete];
}

// ---- Typed entries and generic wrappers, as users write them (issue 33, items 24 and 25) ----

// js/README.md says sendNativeRpcBatch returns NativeRpcBatchEntry[]: typed entries (an
// interface result, a declared method's name) must be assignable to that general type.
export async function batchAsTheGeneralType(): Promise<NativeRpcBatchEntry[]> {
  const entries: NativeRpcBatchEntry[] = await sendNativeRpcBatch([{ method: MY_CUSTOM_PING_RPC_METHOD, params: { pingParam1: 'a', pingParam2: [] } }, { method: 'sum', params: [1, 2] }]);
  for (const entry of entries) {
    if (entry.error) void entry.error.code;
    else void entry.result;
  }
  return entries;
}

// A user's own generic wrapper over a table of methods (the generated HostMethods, or their own).
interface Methods {
  subtract: { params: readonly [number, number]; result: number };
  echo: { params: { [key: string]: JsonValue }; result: JsonValue };
  count: { params: undefined; result: { count: number } };
}
export function call<M extends keyof Methods>(client: NativeClient, method: M, params: Methods[M]['params']) {
  return client.request({ method, params });
}
export async function callTheWrapper(client: NativeClient): Promise<void> {
  await call(client, 'subtract', [40, 2]);
  await call(client, 'count', undefined);
  // @ts-expect-error the wrapper's own table still types its params
  await call(client, 'subtract', { minuend: 40 });
}
// The same for notifications, generic over the method's name.
export function notify<M extends keyof Methods>(client: NativeClient, method: M, params: Methods[M]['params']) {
  return client.notify({ method, params });
}
// A generic method whose names declare types is still checked: its params cannot be any object.
export function unchecked<M extends typeof MY_CUSTOM_PING_RPC_METHOD | typeof COUNT>(client: NativeClient, method: M, params: { [key: string]: JsonValue }) {
  // @ts-expect-error a declared method's params are its own, not any object
  return client.request({ method, params });
}
