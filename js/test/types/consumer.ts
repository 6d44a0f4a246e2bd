// A TypeScript extension using the package, checked with `strict`. Each `@ts-expect-error` line
// must be refused by the types (tsc fails if it compiles); everything else must compile.
import {
  NATIVE_GET_ACCOUNTS_METHOD,
  NATIVE_SIGN_PAYLOADS_METHOD,
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
