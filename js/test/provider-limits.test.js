// wallet-bridge/provider's limits and failure paths: how big a request may be, one prompting call
// per site at a time, the ports the background refuses (no sender.origin, incognito), what the
// pages hear when the native port or the background goes away, the popup's tab, the wallet's
// errors as a page hears them, and the page side's own checks (what cannot be cloned, EIP-6963's
// uuid, several Solana transactions in one request).
import assert from 'node:assert/strict';
import { afterEach, test } from 'node:test';
import { base58Decode, base58Encode } from '../src/index.js';
import { base64Encode } from '../src/base64.js';
import { installPageProviders, startContentScript, startWalletBackground } from '../src/provider/index.js';
import {
  CHANNEL, ETH_ADDRESS, EXTENSION_ID, FakeBrowser, FakeWindow, HOST, INFO, METADATA, SITE_A, SITE_B, SOL_ADDRESS,
  createSiteWallet, settle,
} from './provider-fakes.js';

/** @type {Array<() => void>} */
const cleanups = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

const MIB = 1024 * 1024;
const PAGE_SCRIPT = `chrome-extension://${EXTENSION_ID}/page.js`;

function setup() {
  const wallet = createSiteWallet();
  const browser = new FakeBrowser(wallet.host);
  /** @type {any[]} */
  const warnings = [];
  const background = startWalletBackground({
    hostName: HOST, metadata: METADATA, runtime: browser.background, onWarning: (warning) => warnings.push(warning),
  });
  cleanups.push(() => background.stop());
  let nextTab = 1;
  /**
   * @param {string} origin
   * @param {{ tabId?: number, info?: any }} [options]
   */
  const tab = (origin, options = {}) => {
    const tabId = options.tabId ?? nextTab++;
    const win = new FakeWindow(origin);
    const content = startContentScript({ channel: CHANNEL, pageScriptUrl: PAGE_SCRIPT, window: win, runtime: browser.contentRuntime({ tabId, origin }) });
    cleanups.push(() => content.stop());
    const { ethereum, solana } = installPageProviders({ channel: CHANNEL, info: options.info ?? INFO, id: content.id, window: win });
    /** @type {Array<[string, unknown]>} */
    const events = [];
    for (const name of ['connect', 'disconnect', 'accountsChanged', 'chainChanged']) ethereum.on(name, (data) => events.push([name, data]));
    return { tabId, win, content, ethereum, solana, events };
  };
  /** The session_request calls the wallet got from a site. @param {string} origin */
  const signs = (origin) => wallet.requests.filter((request) => request.method === 'session_request' && request.params.origin === origin);
  return { wallet, browser, tab, signs, warnings };
}

/** @param {any} feature */
const feature = (feature) => feature;

test('a request over 1 MiB as JSON is -32005 in the content script, and again in the background; the shared native port never sees it', async () => {
  const { wallet, browser, tab, signs } = setup();
  const a = tab(SITE_A);
  const b = tab(SITE_B);
  await a.ethereum.request({ method: 'eth_requestAccounts' });
  await b.ethereum.request({ method: 'eth_requestAccounts' });
  /** @type {(value: unknown) => void} */
  let answerB = () => {};
  wallet.answers.personal_sign = () => new Promise((resolve) => { answerB = resolve; });
  const pendingB = b.ethereum.request({ method: 'personal_sign', params: ['0x6869', ETH_ADDRESS] });
  await settle();
  // Counted as UTF-8: 600 000 two-byte characters are 1.2 MB, though fewer than 1 Mi UTF-16 units.
  for (const text of ['x'.repeat(MIB), 'é'.repeat(600_000)]) {
    await assert.rejects(a.ethereum.request({ method: 'personal_sign', params: [text, ETH_ADDRESS] }), (error) => error.code === -32005 && /1048576 bytes/.test(error.message));
  }
  assert.ok(browser.backgroundPorts.every((port) => /** @type {any[]} */ (port.peer?.posted ?? []).every((message) => JSON.stringify(message).length < MIB)));
  // The background's own check, for a content script that does not make it.
  const port = browser.contentRuntime({ tabId: 40, origin: SITE_A }).connect({ name: 'wallet-bridge/provider' });
  /** @type {any[]} */
  const replies = [];
  port.onMessage.addListener((/** @type {any} */ message) => replies.push(message));
  await settle();
  port.postMessage({ rid: 1, call: 'eth_request', args: { method: 'personal_sign', params: ['x'.repeat(MIB), ETH_ADDRESS] } });
  await settle();
  assert.equal(replies.find((reply) => reply.rid === 1)?.error?.code, -32005);
  assert.equal(signs(SITE_A).length, 0);
  // Site B's request was never put at risk: it is answered as usual.
  answerB(`0x${'cd'.repeat(64)}1b`);
  assert.equal(await pendingB, `0x${'cd'.repeat(64)}1b`);
  // Just under the cap goes through.
  wallet.answers.personal_sign = () => `0x${'ab'.repeat(64)}1b`;
  const under = '0x' + '61'.repeat(400_000);
  assert.equal(await a.ethereum.request({ method: 'personal_sign', params: [under, ETH_ADDRESS] }), `0x${'ab'.repeat(64)}1b`);
});

test('args that cannot be written as JSON (a BigInt a page posts itself) are -32602, and the page keeps its port', async () => {
  const { browser, tab } = setup();
  const a = tab(SITE_A);
  await a.ethereum.request({ method: 'eth_requestAccounts' });
  a.win.postMessage({ channel: CHANNEL, id: a.content.id, type: 'request', rid: 500, call: 'eth_request', args: { method: 'eth_accounts', params: [1n] } });
  await settle();
  const reply = a.win.delivered.find((message) => message.type === 'reply' && message.rid === 500);
  assert.equal(reply?.error?.code, -32602);
  assert.ok(!a.events.some(([name]) => name === 'disconnect'));
  assert.deepEqual(await a.ethereum.request({ method: 'eth_accounts' }), [ETH_ADDRESS]);
  assert.equal(browser.backgroundPorts.length, 1);
});

test('one prompting call per site at a time: another is -32002 (as MetaMask), other sites and non-prompting calls go on', async () => {
  const { wallet, tab, signs } = setup();
  const a = tab(SITE_A);
  const a2 = tab(SITE_A);
  const b = tab(SITE_B);
  await a.ethereum.request({ method: 'eth_requestAccounts' });
  await b.ethereum.request({ method: 'eth_requestAccounts' });
  /** @type {Array<(value: unknown) => void>} */
  const open = [];
  wallet.answers.personal_sign = () => new Promise((resolve) => open.push(resolve));
  const first = a.ethereum.request({ method: 'personal_sign', params: ['0x01', ETH_ADDRESS] });
  await settle();
  const busy = (/** @type {any} */ error) => error.code === -32002 && /Request of type 'personal_sign' already pending/.test(error.message);
  // The same page, another page of the site, another kind of call: all wait their turn.
  await assert.rejects(a.ethereum.request({ method: 'personal_sign', params: ['0x02', ETH_ADDRESS] }), busy);
  await assert.rejects(a2.ethereum.request({ method: 'eth_signTypedData_v4', params: [ETH_ADDRESS, '{}'] }), busy);
  await assert.rejects(feature(a.solana.features['solana:signMessage']).signMessage({ account: { address: SOL_ADDRESS }, message: new Uint8Array([1]) }), busy);
  await assert.rejects(feature(a.solana.features['solana:signIn']).signIn({}), busy);
  // Calls that ask nobody are answered meanwhile.
  assert.deepEqual(await a.ethereum.request({ method: 'eth_accounts' }), [ETH_ADDRESS]);
  assert.deepEqual(await a.ethereum.request({ method: 'eth_requestAccounts' }), [ETH_ADDRESS]);
  assert.equal(await a.ethereum.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: '0x89' }] }), null);
  assert.equal(await a.ethereum.request({ method: 'eth_chainId' }), '0x89');
  // Another site has its own turn.
  const other = b.ethereum.request({ method: 'personal_sign', params: ['0x03', ETH_ADDRESS] });
  await settle();
  assert.equal(signs(SITE_A).length, 1);
  assert.equal(signs(SITE_B).length, 1);
  for (const resolve of open.splice(0)) resolve(`0x${'ab'.repeat(64)}1b`);
  await first;
  await other;
  // The turn is back once the first is answered.
  wallet.answers.personal_sign = () => `0x${'ab'.repeat(64)}1b`;
  assert.equal(await a2.ethereum.request({ method: 'personal_sign', params: ['0x04', ETH_ADDRESS] }), `0x${'ab'.repeat(64)}1b`);
});

test('a connect waiting for the person is the site\'s prompting call: a signature meanwhile is -32002, and the turn outlives the tab', async () => {
  const { wallet, tab } = setup();
  wallet.hang.add('session_connect');
  const a = tab(SITE_A);
  const connecting = a.ethereum.request({ method: 'eth_requestAccounts' });
  connecting.catch(() => {});
  await settle();
  await assert.rejects(feature(a.solana.features['solana:signIn']).signIn({}), { code: -32002 });
  // The tab closes with its dialog still open; a new tab of the site waits for that dialog too.
  a.content.stop();
  await settle();
  const again = tab(SITE_A);
  await assert.rejects(feature(again.solana.features['solana:signIn']).signIn({}), (error) => error.code === -32002 && /eth_requestAccounts/.test(error.message));
  assert.equal(wallet.requests.filter((request) => request.method === 'session_connect').length, 1);
});

test('ports from an incognito tab are refused: a private window never shares a site\'s session', async () => {
  const { wallet, browser } = setup();
  const port = browser.contentRuntime({ tabId: 7, origin: SITE_A, incognito: true }).connect({ name: 'wallet-bridge/provider' });
  /** @type {boolean[]} */
  const closed = [];
  port.onDisconnect.addListener(() => closed.push(true));
  await settle();
  assert.deepEqual(closed, [true]);
  assert.ok(wallet.requests.every((request) => request.params.origin === undefined));
  // And the content script does not keep reconnecting to a background that refuses it.
  const win = new FakeWindow(SITE_A);
  let connects = 0;
  const runtime = browser.contentRuntime({ tabId: 8, origin: SITE_A, incognito: true });
  const counted = { connect: (/** @type {any} */ info) => { connects += 1; return runtime.connect(info); } };
  const content = startContentScript({ channel: CHANNEL, pageScriptUrl: PAGE_SCRIPT, window: win, runtime: counted });
  cleanups.push(() => content.stop());
  await settle(40);
  assert.equal(connects, 1);
});

test('the native port drops: every connected site forgets its session, its pages hear accountsChanged [], and the next call asks the wallet again', async () => {
  const { wallet, browser, tab, warnings } = setup();
  const a = tab(SITE_A);
  const b = tab(SITE_B);
  await a.ethereum.request({ method: 'eth_requestAccounts' });
  /** @type {any[]} */
  const changes = [];
  feature(a.solana.features['standard:events']).on('change', (/** @type {any} */ change) => changes.push(change));
  await feature(a.solana.features['standard:connect']).connect({ silent: true });
  await settle();
  const lists = () => wallet.requests.filter((request) => request.method === 'session_list' && request.params.origin === SITE_A).length;
  const before = lists();
  browser.native.port.hostDisconnect('Native host has exited.');
  await settle();
  assert.ok(warnings.some((warning) => warning.kind === 'port-disconnected'));
  assert.deepEqual(a.events.at(-1), ['accountsChanged', []]);
  // Not EIP-1193's disconnect: the provider still answers (the next request reopens the native port).
  assert.ok(!a.events.some(([name]) => name === 'disconnect'));
  assert.deepEqual(changes.at(-1).accounts, []);
  // Site B had no session: it hears nothing.
  assert.ok(!b.events.some(([name]) => name === 'disconnect' || name === 'accountsChanged'));
  // The wallet still has the session: asked again (a new native port), it comes back.
  assert.deepEqual(await a.ethereum.request({ method: 'eth_accounts' }), [ETH_ADDRESS]);
  assert.equal(lists(), before + 1);
});

test('a cached session past its expiry is not trusted: the wallet is asked again', async () => {
  const { wallet, tab } = setup();
  const a = tab(SITE_A);
  await a.ethereum.request({ method: 'eth_requestAccounts' });
  const lists = () => wallet.requests.filter((request) => request.method === 'session_list' && request.params.origin === SITE_A).length;
  const before = lists();
  await a.ethereum.request({ method: 'eth_accounts' });
  assert.equal(lists(), before);
  wallet.sessions.clear();
  const realNow = Date.now;
  Date.now = () => realNow() + 2 * 3600 * 1000;
  try {
    assert.deepEqual(await a.ethereum.request({ method: 'eth_accounts' }), []);
  } finally {
    Date.now = realNow;
  }
  assert.equal(lists(), before + 1);
  await settle();
  assert.deepEqual(a.events.at(-1), ['accountsChanged', []]);
});

test('the popup asks about the newest page of its tab (a navigation leaves the old page\'s port a moment)', async () => {
  const { browser, tab } = setup();
  const old = tab(SITE_A, { tabId: 5 });
  await old.ethereum.request({ method: 'eth_requestAccounts' });
  const next = tab(SITE_B, { tabId: 5 });
  await next.ethereum.request({ method: 'eth_accounts' });
  const popup = { id: EXTENSION_ID, url: `chrome-extension://${EXTENSION_ID}/popup.html` };
  const listed = /** @type {any} */ (await browser.sendMessage({ type: 'wallet-bridge/site-sessions', tabId: 5 }, popup));
  assert.equal(listed.origin, SITE_B);
});

test('the wallet\'s errors as a page hears them (EIP-1193 / EIP-1474)', async () => {
  const { wallet, tab } = setup();
  const a = tab(SITE_A);
  await a.ethereum.request({ method: 'eth_requestAccounts' });
  /** @type {Array<[number, number]>} wallet code, page code */
  const table = [
    [5000, 4001], [5001, 4001], [5002, 4001], [5003, 4001], [-3, 4001], [8000, 4001], [4001, 4001],
    [5100, 4901], [5101, 4200], [5102, 4200], [5103, 4200], [5104, 4200], [3001, 4200], [-32601, 4200],
    [-1, 4100], [3005, 4901],
    [-2, -32602], [-6, -32602], [-32602, -32602],
    [-32004, -32005], [-32002, 4900],
    [-32603, -32603], [-32001, -32603], [1234, -32603],
  ];
  for (const [walletCode, pageCode] of table) {
    wallet.answers.personal_sign = () => ({ error: { code: walletCode, message: `wallet says ${walletCode}` } });
    await assert.rejects(a.ethereum.request({ method: 'personal_sign', params: ['0x01', ETH_ADDRESS] }), (/** @type {any} */ error) => {
      assert.equal(error.code, pageCode, `wallet ${walletCode}`);
      if (walletCode !== -32602) assert.equal(error.data.walletCode, walletCode);
      return true;
    });
  }
});

test('a TypeError of the background\'s own is -32603 "Internal error", never -32602 with its words', async () => {
  const { tab } = setup();
  const a = tab(SITE_A);
  await a.ethereum.request({ method: 'eth_requestAccounts' });
  const realNow = Date.now;
  // A fault inside the background (here: its clock) while it answers a plain call.
  Date.now = () => { throw new TypeError('internal detail: site.session.expiry'); };
  try {
    await assert.rejects(a.ethereum.request({ method: 'eth_accounts' }), (/** @type {any} */ error) => {
      assert.equal(error.code, -32603);
      assert.equal(error.message, 'Internal error');
      return true;
    });
  } finally {
    Date.now = realNow;
  }
  // The client's own checks of the page's params stay -32602 with their words.
  await assert.rejects(a.ethereum.request({ method: 'personal_sign', params: ['', ETH_ADDRESS] }), (/** @type {any} */ error) => error.code === -32602 && /at least one byte/.test(error.message));
});

test('solana:signIn with an input that cannot be cloned (a function, a Symbol) is -32602, and leaves nothing waiting', async () => {
  const { wallet, tab } = setup();
  const a = tab(SITE_A);
  await a.ethereum.request({ method: 'eth_requestAccounts' });
  const signIn = feature(a.solana.features['solana:signIn']);
  for (const statement of [() => 'hi', Symbol('hi')]) {
    await assert.rejects(signIn.signIn({ statement }), (/** @type {any} */ error) => error.code === -32602 && /not plain data/.test(error.message));
  }
  wallet.answers.solana_signIn = () => ({ address: SOL_ADDRESS, message: `x wants you to sign in with your Solana account:\n${SOL_ADDRESS}`, signature: '1'.repeat(64) });
  const [out] = await signIn.signIn({});
  assert.equal(out.account.address, SOL_ADDRESS);
});

test('EIP-6963: without a uuid in info, each page announces its own version 4 uuid', () => {
  const { tab } = setup();
  const { uuid, ...info } = INFO;
  void uuid;
  /** @type {string[]} */
  const uuids = [];
  for (const origin of [SITE_A, SITE_A]) {
    const page = tab(origin, { info });
    page.win.addEventListener('eip6963:announceProvider', (/** @type {any} */ event) => uuids.push(event.detail.info.uuid));
    page.win.dispatchEvent({ type: 'eip6963:requestProvider' });
  }
  assert.equal(uuids.length, 2);
  for (const announced of uuids) assert.match(announced, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.notEqual(uuids[0], uuids[1]);
});

test('solana:signTransaction with several inputs of one account is one solana_signAllTransactions (one dialog)', async () => {
  const { wallet, tab, signs } = setup();
  const a = tab(SITE_A);
  const { accounts } = await feature(a.solana.features['standard:connect']).connect();
  /** @param {number} fill a legacy transaction: one signature slot, two keys, a blockhash, no instructions */
  const transaction = (fill) => new Uint8Array([1, ...new Uint8Array(64), 1, 0, 1, 2, ...base58Decode(SOL_ADDRESS), ...new Uint8Array(32).fill(5), ...new Uint8Array(32).fill(fill), 0]);
  /** @param {Uint8Array} unsigned */
  const signed = (unsigned) => {
    const copy = new Uint8Array(unsigned);
    copy.fill(7, 1, 65);
    return copy;
  };
  const inputs = [transaction(9), transaction(10), transaction(11)];
  wallet.answers.solana_signAllTransactions = () => ({
    transactions: inputs.map((input) => base64Encode(signed(input))),
    signatures: inputs.map(() => base58Encode(new Uint8Array(64).fill(7))),
  });
  const before = signs(SITE_A).length;
  const outputs = await feature(a.solana.features['solana:signTransaction']).signTransaction(
    ...inputs.map((input) => ({ account: accounts[0], transaction: input, chain: 'solana:mainnet' })),
  );
  assert.equal(signs(SITE_A).length, before + 1);
  assert.deepEqual(signs(SITE_A).at(-1).params.request, {
    method: 'solana_signAllTransactions', params: { transactions: inputs.map((input) => base64Encode(input)), pubkey: SOL_ADDRESS },
  });
  assert.deepEqual(outputs.map((/** @type {any} */ output) => output.signedTransaction), inputs.map(signed));
});

test('a session without Ethereum (the wallet has no Ethereum key) answers eth_requestAccounts and EIP-1193 signing with 4100 naming the way out, not [] or a chain error', async () => {
  const { wallet, tab, signs } = setup();
  wallet.noEthereumKey = true;
  const a = tab(SITE_A);
  await assert.rejects(a.ethereum.request({ method: 'eth_requestAccounts' }),
    (error) => error.code === 4100 && /keys create --type ethereum/.test(error.message));
  await assert.rejects(a.ethereum.request({ method: 'personal_sign', params: ['0x68690a', ETH_ADDRESS] }),
    (error) => error.code === 4100 && /no Ethereum key/.test(error.message));
  assert.equal(signs(SITE_A).length, 0);
  // The session itself stands: Solana is served in it.
  const connected = await feature(a.solana.features['standard:connect']).connect();
  assert.equal(connected.accounts.length, 1);
});
