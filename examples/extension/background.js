// The example extension's background script (a service worker in Chromium, an event page in
// Firefox). It calls the native host through the wallet-bridge JS package the way a wallet
// extension would: accounts, signing, a custom method, a batch, errors, and both transports.
//
// Every step's outcome is collected. If the host offers the test-only `test.report` method (the
// end-to-end test's host does), the outcomes are sent there so the test can check them; against
// a real wallet they are just logged to the extension's console.
import {
  NATIVE_GET_ACCOUNTS_METHOD,
  NativeRpcError,
  configureNativeClient,
  createNativeClient,
  sendNativeGetAccountsRequest,
  sendNativeRpcBatch,
  sendNativeRpcRequest,
  sendNativeSignPayloadsRequest,
} from './wallet-bridge/index.js';

const APPLICATION = 'com.walletbridge.host';
const TIMEOUT_MS = 20_000;
const BROWSER = navigator.userAgent.includes('Firefox') ? 'firefox' : 'chromium';

/** Standard base64 of bytes, as the protocol carries payloads. */
function toBase64(bytes) {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** Runs one step and records its result, or the error with everything a test needs to judge it. */
async function step(results, name, run) {
  const started = Date.now();
  try {
    const value = await run();
    results.push({ name, ok: true, value, ms: Date.now() - started });
    return value;
  } catch (error) {
    results.push({
      name,
      ok: false,
      ms: Date.now() - started,
      error: {
        class: error?.constructor?.name ?? typeof error,
        code: error instanceof NativeRpcError ? error.code : undefined,
        kind: error?.kind,
        message: String(error?.message ?? error),
        data: error instanceof NativeRpcError ? error.data : undefined,
      },
    });
    return undefined;
  }
}

async function runDemo() {
  const results = [];
  // One-shot messages: a new host process per request (runtime.sendNativeMessage).
  configureNativeClient({ application: APPLICATION, transport: 'message', timeoutMs: TIMEOUT_MS });

  const accounts = await step(results, 'getAccounts', () => sendNativeGetAccountsRequest());
  const address = accounts?.addresses?.[0];
  const payloads = [
    toBase64(new TextEncoder().encode(`hello from ${BROWSER}`)),
    toBase64(Uint8Array.from({ length: 256 }, (_, index) => index)),
  ];
  await step(results, 'signPayloads', async () => ({
    address,
    payloads,
    ...(await sendNativeSignPayloadsRequest({ address, payloads })),
  }));
  await step(results, 'customMethod', () => sendNativeRpcRequest({
    method: 'MY_CUSTOM_PING_RPC_METHOD',
    params: { pingParam1: 'ping', pingParam2: ['a', 'b'] },
  }));
  await step(results, 'batch', () => sendNativeRpcBatch([
    { method: NATIVE_GET_ACCOUNTS_METHOD, id: 'accounts' },
    { method: 'subtract', params: [42, 23], id: 'subtract' },
    { method: 'notify_hello', params: [7], notification: true },
    { method: 'no.such.method', id: 'missing' },
  ]));
  await step(results, 'unknownMethod', () => sendNativeRpcRequest({ method: 'no.such.method' }));
  await step(results, 'invalidPayloads', () => sendNativeSignPayloadsRequest({ address, payloads: [payloads[0], 'not base64!'] }));
  await step(results, 'largeReplyMessage', () => sendNativeRpcRequest({ method: 'test.large', params: { bytes: 2_000_000 } }));

  // One persistent port shared by concurrent requests (runtime.connectNative).
  const port = createNativeClient({ application: APPLICATION, transport: 'port', timeoutMs: TIMEOUT_MS });
  await step(results, 'portConcurrent', async () => {
    const finished = [];
    const track = (label, promise) => promise.then((value) => { finished.push(label); return value; });
    const [slow, medium, fast, accountsOnPort] = await Promise.all([
      track('slow', port.request({ method: 'test.sleep', params: { ms: 600 } })),
      track('medium', port.request({ method: 'test.sleep', params: { ms: 300 } })),
      track('fast', port.request({ method: 'subtract', params: [10, 4] })),
      track('accounts', port.getAccounts()),
    ]);
    return { finished, slow, medium, fast, accounts: accountsOnPort };
  });
  await step(results, 'largeReplyPort', () => port.request({ method: 'test.large', params: { bytes: 2_000_000 } }));
  await step(results, 'portAfterLargeReply', () => port.request({ method: 'subtract', params: [5, 3] }));
  port.close();

  console.log('wallet-bridge example results', results);
  try {
    await sendNativeRpcRequest({ method: 'test.report', params: { browser: BROWSER, results } });
  } catch (error) {
    if (!(error instanceof NativeRpcError && error.code === -32601)) console.error('could not report results', error);
  }
}

runDemo();
