// The end-to-end test's second extension (scripts/e2e.py --together): it replaces the example's
// background script, in Chromium and Firefox at once, against the shipped `wallet-bridge` host and
// its agent. It asks for the accounts, then for several signatures at the same time, each through
// its own host process (runtime.sendNativeMessage), as a page that signs in a hurry would. The
// test holds the first dialog until both browsers' requests wait in the agent's one queue.
//
// The shipped host has no test method, so the outcomes go to a second native host, the
// conformance host installed as `com.walletbridge.e2e_report`, whose `test.report` writes them to
// a file for the test to check.
import {
  NativeRpcError,
  configureNativeClient,
  createNativeClient,
  sendNativeGetAccountsRequest,
  sendNativeSignPayloadsRequest,
} from './wallet-bridge/index.js';

const WALLET = 'com.walletbridge.host';
const REPORT = 'com.walletbridge.e2e_report';
const SIGNATURES = 3;
const BROWSER = navigator.userAgent.includes('Firefox') ? 'firefox' : 'chromium';

function toBase64(bytes) {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

async function outcome(name, run) {
  try {
    return { name, ok: true, value: await run() };
  } catch (error) {
    return {
      name,
      ok: false,
      error: {
        class: error?.constructor?.name ?? typeof error,
        code: error instanceof NativeRpcError ? error.code : undefined,
        message: String(error?.message ?? error),
        data: error instanceof NativeRpcError ? error.data : undefined,
      },
    };
  }
}

async function signTogether() {
  // Consent waits for the test to release the first dialog: far longer than a host's reply.
  configureNativeClient({ application: WALLET, transport: 'message', timeoutMs: 150_000 });
  const results = [await outcome('getAccounts', () => sendNativeGetAccountsRequest())];
  const address = results[0].value?.addresses?.[0];
  const signing = Array.from({ length: SIGNATURES }, (_, index) => {
    const payloads = [toBase64(new TextEncoder().encode(`${BROWSER} signature ${index + 1}`))];
    return outcome(`sign${index + 1}`, async () => ({
      address,
      payloads,
      ...(await sendNativeSignPayloadsRequest({ address, payloads })),
    }));
  });
  results.push(...(await Promise.all(signing)));

  const report = createNativeClient({ application: REPORT, transport: 'message', timeoutMs: 20_000 });
  await report.request({ method: 'test.report', params: { browser: BROWSER, results } });
}

signTogether().catch((error) => console.error('signing-together failed', error));
