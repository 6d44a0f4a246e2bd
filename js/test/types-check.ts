// Type-level tests, run by `tsc -p js/tsconfig.json` (not by node). Part one: the implementation
// (typed by its JSDoc) must be assignable to what index.d.ts declares, export by export, so the
// hand-written declarations cannot drift from the code. Part two: the declared API accepts
// correct use and rejects wrong use (each @ts-expect-error fails the check if the line compiles).
// The full consumer, under its own strict tsconfig, is test/types/consumer.ts.
import type * as Declared from '../src/index.js';
import * as base58 from '../src/base58.js';
import * as client from '../src/client.js';
import * as errors from '../src/errors.js';
import * as models from '../src/models.js';
import * as protocol from '../src/protocol.js';
import * as sessions from '../src/sessions.js';
import type * as DeclaredTesting from '../src/testing.js';
import * as fixtureRunner from '../src/fixture-runner.js';

// ---- Part one: implementation against declaration ----
const implementation: typeof Declared = {
  ...client,
  ...errors,
  ...models,
  ...protocol,
  ...sessions,
  ...base58,
};
void implementation;

// wallet-bridge/testing: testing.js only re-exports fixture-runner.js (TypeScript reads
// testing.d.ts for it), so the implementation is checked through fixture-runner.js.
const testingImplementation: typeof DeclaredTesting = { ...fixtureRunner };
void testingImplementation;

// (That index.js exports exactly the names index.d.ts declares is checked at run time, by
// test/package.test.js: TypeScript always reads index.d.ts for '../src/index.js'.)

// ---- Part two: the declared API in use ----
import {
  createNativeClient,
  NativeRpcError,
  NativeRpcErrorCode,
  NativeRpcErrorReason,
  NativeTransportError,
  sendNativeRpcRequest,
  sendNativeSignPayloadsRequest,
  type NativeRpcBatchEntry,
  type NativeSignPayloadsResult,
} from '../src/index.js';

async function usage(): Promise<void> {
  const wallet = createNativeClient({ application: 'com.example.wallet_bridge', transport: 'port', timeoutMs: 5000 });
  const accounts = await wallet.getAccounts();
  const first: string | undefined = accounts.addresses[0];
  const signed: NativeSignPayloadsResult = await sendNativeSignPayloadsRequest({ address: first ?? '', payloads: ['AQID'] });
  const signatures: string[] = signed.signed_payloads;
  const SUBTRACT: Declared.NativeMethod<'subtract', readonly [number, number], number> = 'subtract';
  const difference = await sendNativeRpcRequest({ method: SUBTRACT, params: [42, 23] });
  const n: number = difference;
  // A batch of methods that declare nothing: NativeRpcBatchEntry<string>, results JsonValue
  // (NativeRpcBatchEntry without an argument is any method's entry, its result unknown).
  const entries: Array<NativeRpcBatchEntry<string>> = await wallet.batch([{ method: 'sum', params: [1, 2] }, { method: 'update', params: [1], notification: true }]);
  for (const entry of entries) {
    if (entry.error) {
      const code: number = entry.error.code;
      void code;
    } else {
      const value: Declared.JsonValue = entry.result;
      void value;
    }
  }
  try {
    await wallet.request({ method: 'x' });
  } catch (error) {
    if (error instanceof NativeRpcError && error.code === NativeRpcErrorCode.authorizationFailed) void error.data;
    if (error instanceof NativeTransportError && error.kind === 'host-not-found') void error.browserMessage;
  }
  void signatures;
  void n;

  // @ts-expect-error application is required
  createNativeClient({ transport: 'message' });
  // @ts-expect-error only two transports
  createNativeClient({ application: 'a', transport: 'websocket' });
  // @ts-expect-error params are real JSON, not a JSON string (walletlib sent strings)
  await sendNativeRpcRequest({ method: 'x', params: '{"a":1}' });
  // @ts-expect-error payloads is an array of strings
  await sendNativeSignPayloadsRequest({ address: 'a', payloads: 'AQID' });
  // @ts-expect-error the catalogue is read-only
  NativeRpcErrorCode.parseError = 1;
  // @ts-expect-error no such kind
  const kind: NativeTransportError['kind'] = 'exploded';
  void kind;
  // The reasons: constants, and their union.
  const declined: NativeRpcErrorReason = NativeRpcErrorReason.declined;
  const busy: 'too_many_connections' = NativeRpcErrorReason.tooManyConnections;
  // @ts-expect-error not a reason the host sends
  const unknownReason: NativeRpcErrorReason = 'refused';
  // @ts-expect-error the reasons are read-only
  NativeRpcErrorReason.declined = 'no';
  void [declined, busy, unknownReason];
}
void usage;

// wallet-bridge/testing in use.
import { checkFixtureCase, loadFixtureFile, runFixtureFile, type FixtureCase } from '../src/testing.js';

async function testingUsage(): Promise<void> {
  runFixtureFile(new URL('file:///fixtures/ping.json'), {
    methods: {
      MY_CUSTOM_PING_RPC_METHOD: (params, client) => client.request({ method: 'MY_CUSTOM_PING_RPC_METHOD', params }),
      MY_CUSTOM_RESET_RPC_METHOD: { call: () => sendNativeRpcRequest({ method: 'MY_CUSTOM_RESET_RPC_METHOD' }), compareResult: false },
    },
  });
  const file = loadFixtureFile('fixtures/ping.json');
  const first: FixtureCase | undefined = file.cases[0];
  const checks: string[] = first ? await checkFixtureCase(first, { file: file.path }) : [];
  void checks;
  // @ts-expect-error compareResult is a boolean
  runFixtureFile('ping.json', { methods: { ping: { call: () => null, compareResult: 'no' } } });
  // @ts-expect-error a method's entry is a function or { call, compareResult? }
  runFixtureFile('ping.json', { methods: { ping: 'sendPing' } });
}
void testingUsage;

// wallet-bridge/provider: each half's implementation against what provider/index.d.ts declares
// (TypeScript reads the .d.ts for provider/index.js, so the halves are checked one by one).
import type * as DeclaredProvider from '../src/provider/index.js';
import * as providerPage from '../src/provider/page.js';
import * as providerContent from '../src/provider/content.js';
import * as providerBackground from '../src/provider/background.js';
import * as providerWire from '../src/provider/wire.js';

const providerImplementation: Pick<typeof DeclaredProvider, 'installPageProviders' | 'startContentScript' | 'startWalletBackground'
  | 'SITE_SESSIONS_MESSAGE' | 'SITE_DISCONNECT_MESSAGE' | 'ProviderErrorCode'> = {
  installPageProviders: providerPage.installPageProviders,
  startContentScript: providerContent.startContentScript,
  startWalletBackground: providerBackground.startWalletBackground,
  SITE_SESSIONS_MESSAGE: providerBackground.SITE_SESSIONS_MESSAGE,
  SITE_DISCONNECT_MESSAGE: providerBackground.SITE_DISCONNECT_MESSAGE,
  ProviderErrorCode: providerWire.ProviderErrorCode,
};
void providerImplementation;
const declaredError: DeclaredProvider.ProviderRpcError = new providerWire.ProviderRpcError(4001, 'no');
void declaredError;

// wallet-bridge/provider in use.
import { installPageProviders, startContentScript, startWalletBackground, ProviderErrorCode, ProviderRpcError, type SiteState } from '../src/provider/index.js';
import { checkOrigin, solanaSignIn, type SolanaSignInOutput } from '../src/index.js';

async function providerUsage(): Promise<void> {
  const { stop } = startWalletBackground({ hostName: 'com.walletbridge.host', metadata: { name: 'w' } });
  stop();
  const relay = startContentScript({ channel: 'c', pageScriptUrl: 'chrome-extension://x/page.js' });
  const id: string = relay.id;
  const { ethereum, solana } = installPageProviders({ channel: 'c', info: { uuid: 'u', name: 'n', icon: 'data:image/png;base64,', rdns: 'a.b' }, id });
  const accounts = await ethereum.request({ method: 'eth_requestAccounts' });
  ethereum.on('accountsChanged', (list: string[]) => void list).removeListener('accountsChanged', () => {});
  const chains: readonly string[] = solana.chains;
  const code: 4001 = ProviderErrorCode.userRejectedRequest;
  const error = new ProviderRpcError(code, 'no');
  const state: SiteState = { chainId: '0x1', accounts: [], solana: { accounts: [{ address: 'a', chains: ['solana:mainnet'] }], chains: [] } };
  checkOrigin('https://a.example');
  const client = createNativeClient({ application: 'a', transport: 'port' });
  const signedIn: SolanaSignInOutput = await solanaSignIn(client, { topic: 't', chainId: 'solana:x', input: { nonce: 'n', resources: ['r'] }, origin: 'https://a.example' });
  await client.listSessions({ origin: 'https://a.example' });
  await client.disconnect('t', undefined, { origin: 'https://a.example' });
  void [accounts, chains, error, state, signedIn];
  // @ts-expect-error the channel is required
  startContentScript({ pageScriptUrl: 'x' });
  // @ts-expect-error info needs its icon
  installPageProviders({ channel: 'c', info: { uuid: 'u', name: 'n', rdns: 'a.b' } });
  // @ts-expect-error metadata is required
  startWalletBackground({ hostName: 'h' });
  // @ts-expect-error the input's members are strings
  await solanaSignIn(client, { topic: 't', chainId: 'c', input: { nonce: 5 } });
  // @ts-expect-error an origin is a string
  await client.listSessions({ origin: 5 });
}
void providerUsage;
