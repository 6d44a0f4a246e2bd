// The end-to-end test's sessions extension (scripts/e2e.py --sessions): it replaces the
// example's background script and talks to the shipped `wallet-bridge` host and its agent over
// one port, as a dApp-style extension would (docs/sessions.md). The test plays the person (a
// scripted pinentry) and the terminal (`wallet-bridge keys create`, `sessions revoke`); the
// extension reports each phase to the conformance host installed as `com.walletbridge.e2e_report`.
//
//   connected  it connected and signed a message within the session
//   accounts   it heard accountsChanged after the test made a key (the time it heard it)
//   revoked    it heard session_delete after the test revoked the session, and a request then failed
//   expired    a second session, with the short lifetime the test configured, expired and said so
import {
  NativeRpcError,
  SOLANA_MAINNET_CHAIN_ID,
  createNativeClient,
  parseAccountId,
  signMessage,
} from './wallet-bridge/index.js';

const WALLET = 'com.walletbridge.host';
const REPORT = 'com.walletbridge.e2e_report';
const BROWSER = navigator.userAgent.includes('Firefox') ? 'firefox' : 'chromium';
const PROPOSAL = {
  requiredNamespaces: { solana: { chains: [SOLANA_MAINNET_CHAIN_ID], methods: ['solana_signMessage'], events: ['accountsChanged'] } },
  metadata: { name: `e2e dApp in ${BROWSER}`, description: 'the sessions end-to-end test', url: 'https://example.org', icons: [] },
};

const report = createNativeClient({ application: REPORT, transport: 'message', timeoutMs: 20_000 });
const tell = (phase, value) => report.request({ method: 'test.report', params: { browser: BROWSER, phase, ...value } });

function describeError(error) {
  return {
    class: error?.constructor?.name ?? typeof error,
    code: error instanceof NativeRpcError ? error.code : undefined,
    message: String(error?.message ?? error),
  };
}

/** Resolves with the first event called `name` (heard at `heardAt`), or rejects after `ms`. */
function nextEvent(client, name, ms) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { off(); reject(new Error(`no ${name} within ${ms} ms`)); }, ms);
    const off = client.on(name, (params) => {
      clearTimeout(timer);
      off();
      resolve({ params, heardAt: Date.now() });
    });
  });
}

async function run() {
  const wallet = createNativeClient({ application: WALLET, transport: 'port', timeoutMs: 60_000 });
  // Listening first: the events below come from outside, while nothing is asked.
  const accountsChanged = nextEvent(wallet, 'session_event', 90_000);
  const deleted = nextEvent(wallet, 'session_delete', 120_000);
  const session = await wallet.connect(PROPOSAL);
  const account = parseAccountId(session.namespaces.solana.accounts[0]);
  const message = new TextEncoder().encode(`hello from ${BROWSER}`);
  const signature = await signMessage(wallet, { topic: session.topic, chainId: SOLANA_MAINNET_CHAIN_ID, message, pubkey: account.address });
  await tell('connected', { session, signature: Array.from(signature), pubkey: account.address });

  const changed = await accountsChanged;
  await tell('accounts', { event: changed.params, heardAt: changed.heardAt });

  const revoked = await deleted;
  let after;
  try {
    after = { ok: true, value: await wallet.extend(session.topic) };
  } catch (error) {
    after = { ok: false, error: describeError(error) };
  }
  await tell('revoked', { event: revoked.params, after });

  const expiring = nextEvent(wallet, 'session_expire', 60_000);
  const second = await wallet.connect(PROPOSAL);
  const expired = await expiring;
  await tell('expired', { topic: second.topic, expiry: second.expiry, event: expired.params, heardAt: expired.heardAt });
  wallet.close();
}

run().catch((error) => tell('failed', { error: describeError(error) }).catch(() => {}));
