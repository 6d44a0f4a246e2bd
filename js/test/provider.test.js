// wallet-bridge/provider end to end in Node: pages (fake windows) with the page providers, their
// content scripts, the background and a wallet host that keeps sessions per site, wired as the
// browsers wire them. What a site sees, what the wallet is asked, and what another site or a
// forger can never do.
import assert from 'node:assert/strict';
import { afterEach, test } from 'node:test';
import { base58Decode, base58Encode } from '../src/index.js';
import { base64Encode } from '../src/base64.js';
import { ProviderErrorCode, ProviderRpcError, installPageProviders, startContentScript, startWalletBackground } from '../src/provider/index.js';
import {
  CHANNEL, ETH_ADDRESS, EXTENSION_ID, FakeBrowser, FakeWindow, HOST, INFO, MAINNET, METADATA, SITE_A, SITE_B, SOL_ADDRESS,
  createSiteWallet, settle,
} from './provider-fakes.js';

/** @type {Array<() => void>} */
const cleanups = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function setup() {
  const wallet = createSiteWallet();
  const browser = new FakeBrowser(wallet.host);
  const background = startWalletBackground({ hostName: HOST, metadata: METADATA, runtime: browser.background, onWarning: () => {} });
  cleanups.push(() => background.stop());
  let nextTab = 1;
  /**
   * A tab with a page of `origin`, the content script and the page providers in it.
   * @param {string} origin
   * @param {{ url?: string }} [options] a sender without `origin` (Firefox) gives its url
   */
  const tab = (origin, options = {}) => {
    const tabId = nextTab++;
    const win = new FakeWindow(origin);
    const where = options.url === undefined ? { tabId, origin } : { tabId, url: options.url };
    const content = startContentScript({ channel: CHANNEL, pageScriptUrl: `chrome-extension://${EXTENSION_ID}/page.js`, window: win, runtime: browser.contentRuntime(where) });
    cleanups.push(() => content.stop());
    const { ethereum, solana } = installPageProviders({ channel: CHANNEL, info: INFO, id: content.id, window: win });
    /** @type {Array<[string, unknown]>} */
    const events = [];
    for (const name of ['connect', 'disconnect', 'accountsChanged', 'chainChanged']) ethereum.on(name, (data) => events.push([name, data]));
    return { tabId, win, content, ethereum, solana, events };
  };
  return { wallet, browser, tab };
}

/** @param {any} feature */
const feature = (feature) => feature;

test('a site connects: session_connect names the site from the port, and the accounts come back', async () => {
  const { wallet, tab } = setup();
  const page = tab(SITE_A);
  await settle();
  assert.equal(await page.ethereum.request({ method: 'eth_chainId' }), '0x1');
  assert.deepEqual(await page.ethereum.request({ method: 'eth_accounts' }), []);
  assert.deepEqual(await page.ethereum.request({ method: 'eth_requestAccounts' }), [ETH_ADDRESS]);
  const connect = wallet.requests.find((request) => request.method === 'session_connect');
  assert.equal(connect.params.origin, SITE_A);
  assert.deepEqual(connect.params.metadata, METADATA);
  assert.deepEqual(Object.keys(connect.params.optionalNamespaces), ['eip155', 'solana']);
  assert.ok(connect.params.optionalNamespaces.eip155.methods.includes('personal_sign'));
  assert.ok(connect.params.optionalNamespaces.solana.methods.includes('solana_signIn'));
  assert.equal(connect.params.requiredNamespaces, undefined);
  await settle();
  assert.deepEqual(page.events, [['connect', { chainId: '0x1' }], ['accountsChanged', [ETH_ADDRESS]]]);
  // Every session call carries the site, but the one that starts the events (the client's).
  assert.deepEqual(wallet.requests[0].params, {});
  for (const request of wallet.requests.slice(1)) assert.equal(request.params.origin, SITE_A, request.method);
});

test('a port without sender.origin is refused: the site is never taken from sender.url', async () => {
  const { wallet, tab } = setup();
  const page = tab(SITE_B, { url: `${SITE_B}/some/page.html?q=1#frag` });
  await assert.rejects(page.ethereum.request({ method: 'eth_requestAccounts' }), { code: 4900 });
  assert.equal(wallet.requests.find((request) => request.method === 'session_connect'), undefined);
});

test('signing goes through the site\'s session on the chosen chain; switching among the session\'s chains, 4902 for others', async () => {
  const { wallet, tab } = setup();
  const page = tab(SITE_A);
  await page.ethereum.request({ method: 'eth_requestAccounts' });
  assert.equal(await page.ethereum.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: '0x89' }] }), null);
  await settle();
  assert.deepEqual(page.events.at(-1), ['chainChanged', '0x89']);
  assert.equal(await page.ethereum.request({ method: 'eth_chainId' }), '0x89');
  const signature = await page.ethereum.request({ method: 'personal_sign', params: ['0x6869', ETH_ADDRESS] });
  assert.equal(signature, `0x${'ab'.repeat(64)}1b`);
  const sent = wallet.requests.at(-1).params;
  assert.deepEqual(sent.request, { method: 'personal_sign', params: ['0x6869', ETH_ADDRESS] });
  assert.equal(sent.chainId, 'eip155:137');
  assert.equal(sent.origin, SITE_A);
  assert.equal(sent.topic, [...wallet.sessions.keys()][0]);
  await assert.rejects(page.ethereum.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: '0x5' }] }), { code: 4902 });
  await assert.rejects(page.ethereum.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: 137 }] }), { code: -32602 });
  await assert.rejects(page.ethereum.request({ method: 'eth_sendTransaction', params: [{}] }), { code: 4200 });
  await assert.rejects(page.ethereum.request({ method: 'eth_getBalance', params: [] }), { code: 4200 });
});

test('before connecting: signing is 4100, switching is 4100, and nothing reaches the wallet but one session_list', async () => {
  const { wallet, tab } = setup();
  const page = tab(SITE_A);
  await assert.rejects(page.ethereum.request({ method: 'personal_sign', params: ['0x6869', ETH_ADDRESS] }), (error) => error instanceof ProviderRpcError && error.code === 4100);
  await assert.rejects(page.ethereum.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: '0x89' }] }), { code: 4100 });
  assert.deepEqual([...new Set(wallet.requests.map((request) => request.method))], ['session_list']);
  // The site's sessions were asked for once: sessions of a site are made only through this background.
  await page.ethereum.request({ method: 'eth_accounts' });
  await page.ethereum.request({ method: 'eth_chainId' });
  assert.equal(wallet.requests.filter((request) => request.params.origin === SITE_A).length, 1);
});

test('the wallet\'s refusals arrive with EIP-1193 codes: rejected 4001, a bad param -32602, an unknown topic 4100 and the site forgotten', async () => {
  const { wallet, tab } = setup();
  const page = tab(SITE_A);
  wallet.rejectNext = true;
  await assert.rejects(page.ethereum.request({ method: 'eth_requestAccounts' }), (error) => error.code === ProviderErrorCode.userRejectedRequest && error.data.walletCode === 5000);
  await page.ethereum.request({ method: 'eth_requestAccounts' });
  wallet.answers.personal_sign = () => ({ error: { code: 4001, message: 'User rejected the request' } });
  await assert.rejects(page.ethereum.request({ method: 'personal_sign', params: ['0x6869', ETH_ADDRESS] }), { code: 4001 });
  wallet.answers.personal_sign = () => ({ error: { code: -3, message: 'Not signed', data: { reason: 'no_prompt' } } });
  await assert.rejects(page.ethereum.request({ method: 'personal_sign', params: ['0x6869', ETH_ADDRESS] }), { code: 4001 });
  // Checked by the client before anything is sent: -32602 with its words.
  await assert.rejects(page.ethereum.request({ method: 'personal_sign', params: ['', ETH_ADDRESS] }), (error) => error.code === -32602 && /at least one byte/.test(error.message));
  wallet.answers.eth_signTypedData_v4 = () => ({ error: { code: 3001, message: 'Unauthorized method' } });
  wallet.sessions.clear();
  await assert.rejects(page.ethereum.request({ method: 'personal_sign', params: ['0x6869', ETH_ADDRESS] }), { code: 4100 });
  await settle();
  assert.deepEqual(page.events.at(-1), ['accountsChanged', []]);
});

test('two sites, two sessions; events of one reach only its pages; a site never uses another\'s session', async () => {
  const { wallet, tab } = setup();
  const a1 = tab(SITE_A);
  const a2 = tab(SITE_A);
  const b = tab(SITE_B);
  await a1.ethereum.request({ method: 'eth_requestAccounts' });
  await b.ethereum.request({ method: 'eth_requestAccounts' });
  await settle();
  assert.equal(wallet.sessions.size, 2);
  const [topicA, topicB] = [...wallet.sessions.keys()];
  assert.equal(wallet.sessions.get(topicA).origin, SITE_A);
  assert.equal(wallet.sessions.get(topicB).origin, SITE_B);
  // The other tab of the same site shares its session.
  assert.deepEqual(a2.events.at(-1), ['accountsChanged', [ETH_ADDRESS]]);
  // Notifications naming site B's topic with site A's origin change nothing for either.
  wallet.notify('session_delete', { topic: topicB, reason: { code: 6000, message: 'x' }, origin: SITE_A });
  const emptied = { eip155: { chains: ['eip155:1'], accounts: [], methods: [], events: [] } };
  wallet.notify('session_update', { topic: topicB, namespaces: emptied, expiry: Math.floor(Date.now() / 1000) + 600, origin: SITE_A });
  wallet.notify('session_event', { topic: topicB, chainId: 'eip155:1', event: { name: 'accountsChanged', data: [] }, origin: SITE_A });
  await settle();
  assert.deepEqual(a1.events.at(-1), ['accountsChanged', [ETH_ADDRESS]]);
  assert.deepEqual(await a1.ethereum.request({ method: 'eth_accounts' }), [ETH_ADDRESS]);
  // Revoked from outside (the CLI): only site A's pages hear it.
  const before = b.events.length;
  wallet.sessions.delete(topicA);
  wallet.notify('session_delete', { topic: topicA, reason: { code: 6000, message: 'Revoked' }, origin: SITE_A });
  await settle();
  assert.deepEqual(a1.events.at(-1), ['accountsChanged', []]);
  assert.deepEqual(a2.events.at(-1), ['accountsChanged', []]);
  assert.equal(b.events.length, before);
  assert.deepEqual(await b.ethereum.request({ method: 'eth_accounts' }), [ETH_ADDRESS]);
  // Site B signs in its own session only.
  await b.ethereum.request({ method: 'personal_sign', params: ['0x01', ETH_ADDRESS] });
  assert.equal(wallet.requests.at(-1).params.topic, topicB);
  assert.equal(wallet.requests.at(-1).params.origin, SITE_B);
});

test('a page cannot name a site, a topic or a chain of its own: what it puts in a request is not used', async () => {
  const { wallet, tab } = setup();
  const b = tab(SITE_B);
  await b.ethereum.request({ method: 'eth_requestAccounts' });
  const a = tab(SITE_A);
  const topicB = [...wallet.sessions.keys()][0];
  // Straight onto the channel, with its own id (the page's world can read it): extra members.
  a.win.postMessage({ channel: CHANNEL, id: a.content.id, type: 'request', rid: 77, call: 'eth_request', args: { method: 'personal_sign', params: ['0x01', ETH_ADDRESS], origin: SITE_B, topic: topicB }, origin: SITE_B, topic: topicB });
  await settle();
  const reply = a.win.delivered.find((message) => message.type === 'reply' && message.rid === 77);
  assert.equal(reply.error.code, 4100);
  assert.ok(wallet.requests.every((request) => request.method !== 'session_request' || request.params.origin === SITE_B));
});

test('a forger gets nothing: another id, another channel, or a frame of another site posting into the page', async () => {
  const { wallet, tab } = setup();
  const a = tab(SITE_A);
  await a.ethereum.request({ method: 'eth_requestAccounts' });
  const count = wallet.requests.length;
  const forged = { channel: CHANNEL, type: 'request', rid: 5, call: 'eth_request', args: { method: 'personal_sign', params: ['0x01', ETH_ADDRESS] } };
  a.win.postMessage({ ...forged, id: 'f'.repeat(32) });
  a.win.postMessage({ ...forged, id: a.content.id, channel: 'another' });
  // A frame (another origin) that learned the id posts into the parent: its source is not the page.
  a.win.receive({ ...forged, id: a.content.id }, { frame: true }, SITE_B);
  // Nor can a frame speak for the content script to the page: a state or a reply from it is not heard.
  const events = a.events.length;
  a.win.receive({ channel: CHANNEL, id: a.content.id, type: 'event', event: 'state', data: { chainId: '0x5', accounts: [], solana: { accounts: [], chains: [] } } }, { frame: true }, SITE_B);
  await settle();
  assert.equal(a.events.length, events);
  assert.equal(await a.ethereum.request({ method: 'eth_chainId' }), '0x1');
  assert.equal(wallet.requests.length, count);
  assert.equal(a.win.delivered.filter((message) => message.type === 'reply' && message.rid === 5).length, 0);
});

test('replies go to the page that asked, never to another tab', async () => {
  const { tab, browser } = setup();
  const a1 = tab(SITE_A);
  const a2 = tab(SITE_A);
  await a1.ethereum.request({ method: 'eth_requestAccounts' });
  await a1.ethereum.request({ method: 'personal_sign', params: ['0x01', ETH_ADDRESS] });
  await settle();
  const replies = a2.win.delivered.filter((message) => message.type === 'reply');
  assert.ok(replies.every((reply) => reply.result !== `0x${'ab'.repeat(64)}1b`), 'the other tab saw the signature');
  assert.ok(a1.win.delivered.some((message) => message.type === 'reply' && message.result === `0x${'ab'.repeat(64)}1b`));
  // The background itself posted it on the asking page's port only (the content script would drop a stray one too).
  const [first, second] = browser.backgroundPorts;
  assert.ok(first.posted.some((message) => /** @type {any} */ (message).result === `0x${'ab'.repeat(64)}1b`));
  assert.ok(second.posted.every((message) => /** @type {any} */ (message).result !== `0x${'ab'.repeat(64)}1b`));
});

test('ports the background must not serve are closed: a frame, a page without a tab, another extension, a non-web origin', async () => {
  const { wallet, browser } = setup();
  const wheres = [
    { tabId: 9, origin: SITE_A, frameId: 3 },
    { tabId: 9, origin: SITE_A, withoutTab: true },
    { tabId: 9, origin: SITE_A, id: 'abcdefghijklmnopabcdefghijklmnop' },
    { tabId: 9, url: 'file:///home/me/page.html' },
    { tabId: 9, url: 'not a url' },
  ];
  for (const where of wheres) {
    const port = browser.contentRuntime(where).connect({ name: 'wallet-bridge/provider' });
    /** @type {boolean[]} */
    const closed = [];
    port.onDisconnect.addListener(() => closed.push(true));
    await settle();
    assert.deepEqual(closed, [true], JSON.stringify(where));
    assert.throws(() => port.postMessage({ rid: 1, call: 'state', args: {} }));
  }
  assert.ok(wallet.requests.every((request) => request.method === 'session_list' && request.params.origin === undefined));
});

test('a tab that closes is forgotten, and a site with no pages left too (its session is found again by session_list)', async () => {
  const { wallet, tab } = setup();
  const a = tab(SITE_A);
  await a.ethereum.request({ method: 'eth_requestAccounts' });
  a.content.stop();
  await settle();
  const lists = () => wallet.requests.filter((request) => request.method === 'session_list' && request.params.origin === SITE_A).length;
  const before = lists();
  const again = tab(SITE_A);
  await again.ethereum.request({ method: 'eth_accounts' });
  assert.equal(lists(), before + 1);
});

test('the content script answers 4900 when the background goes away, tells the page, and reconnects on the next request', async () => {
  const { tab, browser } = setup();
  const a = tab(SITE_A);
  await a.ethereum.request({ method: 'eth_requestAccounts' });
  await settle();
  const waiting = a.ethereum.request({ method: 'personal_sign', params: ['0x01', ETH_ADDRESS] });
  browser.backgroundPorts.at(-1).disconnect();
  await assert.rejects(waiting, { code: 4900 });
  await settle(40);
  // EIP-1193's disconnect, then the content script's new port asks the site's state again: connect.
  const names = a.events.map(([name]) => name);
  assert.deepEqual(names.slice(names.indexOf('disconnect')), ['disconnect', 'connect']);
  assert.equal(/** @type {any} */ (a.events[names.indexOf('disconnect')][1]).code, 4900);
  assert.equal(browser.backgroundPorts.length, 2);
  assert.deepEqual(await a.ethereum.request({ method: 'eth_accounts' }), [ETH_ADDRESS]);
  assert.equal(browser.backgroundPorts.length, 2);
});

test('Solana: standard:connect, signMessage, signTransaction and signIn through the site\'s session', async () => {
  const { wallet, tab } = setup();
  const a = tab(SITE_A);
  const wallets = /** @type {any[]} */ ([]);
  a.win.dispatchEvent({ type: 'wallet-standard:app-ready', detail: { register: (/** @type {any} */ w) => wallets.push(w) } });
  assert.equal(wallets[0], a.solana);
  const solana = a.solana;
  assert.deepEqual(solana.chains, ['solana:mainnet', 'solana:devnet', 'solana:testnet']);
  /** @type {any[]} */
  const changes = [];
  feature(solana.features['standard:events']).on('change', (/** @type {any} */ change) => changes.push(change));
  const { accounts } = await feature(solana.features['standard:connect']).connect();
  assert.equal(accounts.length, 1);
  assert.equal(accounts[0].address, SOL_ADDRESS);
  assert.deepEqual(accounts[0].publicKey, base58Decode(SOL_ADDRESS));
  assert.deepEqual(accounts[0].chains, ['solana:mainnet']);
  assert.deepEqual(solana.chains, ['solana:mainnet']);
  assert.equal(changes.length, 1);
  assert.deepEqual(changes[0].accounts, accounts);

  wallet.answers.solana_signMessage = () => ({ signature: '1'.repeat(64) });
  const [signed] = await feature(solana.features['solana:signMessage']).signMessage({ account: accounts[0], message: new Uint8Array([1, 2, 3]) });
  assert.deepEqual(signed.signedMessage, new Uint8Array([1, 2, 3]));
  assert.deepEqual(signed.signature, new Uint8Array(64));
  assert.deepEqual(wallet.requests.at(-1).params.request, { method: 'solana_signMessage', params: { message: 'Ldp', pubkey: SOL_ADDRESS } });
  assert.equal(wallet.requests.at(-1).params.chainId, MAINNET);

  // A legacy transaction: one signature slot, header 1 0 1, two keys, a blockhash, no instructions.
  const transaction = new Uint8Array([1, ...new Uint8Array(64), 1, 0, 1, 2, ...base58Decode(SOL_ADDRESS), ...new Uint8Array(32).fill(5), ...new Uint8Array(32).fill(9), 0]);
  const signedTransaction = new Uint8Array(transaction);
  signedTransaction.fill(7, 1, 65);
  wallet.answers.solana_signTransaction = () => ({ signature: base58Encode(new Uint8Array(64).fill(7)), transaction: base64Encode(signedTransaction) });
  const [out] = await feature(solana.features['solana:signTransaction']).signTransaction({ account: accounts[0], transaction, chain: 'solana:mainnet' });
  assert.deepEqual(out.signedTransaction, signedTransaction);
  assert.deepEqual(wallet.requests.at(-1).params.request, { method: 'solana_signTransaction', params: { transaction: base64Encode(transaction), pubkey: SOL_ADDRESS } });
  await assert.rejects(feature(solana.features['solana:signTransaction']).signTransaction({ account: accounts[0], transaction, chain: 'solana:nowhere' }), { code: -32602 });

  const message = `127.0.0.1:8123 wants you to sign in with your Solana account:\n${SOL_ADDRESS}\n\nNonce: abcdefgh`;
  wallet.answers.solana_signIn = () => ({ address: SOL_ADDRESS, message, signature: '1'.repeat(64) });
  const [signIn] = await feature(solana.features['solana:signIn']).signIn({ nonce: 'abcdefgh', statement: undefined });
  assert.equal(signIn.account, accounts[0]);
  assert.deepEqual(signIn.signedMessage, new TextEncoder().encode(message));
  assert.equal(signIn.signatureType, 'ed25519');
  assert.deepEqual(wallet.requests.at(-1).params.request, { method: 'solana_signIn', params: { nonce: 'abcdefgh' } });
  assert.equal(wallet.requests.at(-1).params.origin, SITE_A);

  await feature(solana.features['standard:disconnect']).disconnect();
  await settle();
  assert.equal(wallet.sessions.size, 0);
  assert.deepEqual(solana.accounts, []);
  assert.deepEqual(changes.at(-1).accounts, []);
});

test('solana:signIn connects first when the site has no session (one proposal), as the standard has it', async () => {
  const { wallet, tab } = setup();
  const a = tab(SITE_A);
  wallet.answers.solana_signIn = () => ({ address: SOL_ADDRESS, message: `x wants you to sign in with your Solana account:\n${SOL_ADDRESS}`, signature: '1'.repeat(64) });
  const [out] = await feature(a.solana.features['solana:signIn']).signIn({});
  assert.equal(out.account.address, SOL_ADDRESS);
  assert.deepEqual(wallet.requests.filter((r) => r.method !== 'session_list').map((r) => r.method), ['session_connect', 'session_request']);
});

test('two requests at once for accounts make one proposal', async () => {
  const { wallet, tab } = setup();
  const a = tab(SITE_A);
  const b = tab(SITE_A);
  await Promise.all([a.ethereum.request({ method: 'eth_requestAccounts' }), b.ethereum.request({ method: 'eth_requestAccounts' })]);
  assert.equal(wallet.requests.filter((request) => request.method === 'session_connect').length, 1);
});

test('the popup: its tab\'s site and sessions, and Disconnect; a content script cannot ask', async () => {
  const { wallet, tab, browser } = setup();
  const a = tab(SITE_A);
  const b = tab(SITE_B);
  await a.ethereum.request({ method: 'eth_requestAccounts' });
  await b.ethereum.request({ method: 'eth_requestAccounts' });
  const popup = { id: EXTENSION_ID, url: `chrome-extension://${EXTENSION_ID}/popup.html` };
  const listed = /** @type {any} */ (await browser.sendMessage({ type: 'wallet-bridge/site-sessions', tabId: a.tabId }, popup));
  assert.equal(listed.origin, SITE_A);
  assert.deepEqual(listed.sessions.map((/** @type {any} */ s) => s.origin), [SITE_A]);
  assert.equal(await browser.sendMessage({ type: 'wallet-bridge/site-sessions', tabId: a.tabId }, { ...popup, tab: { id: b.tabId } }), undefined);
  assert.equal(await browser.sendMessage({ type: 'wallet-bridge/site-sessions', tabId: a.tabId }, { ...popup, id: 'other' }), undefined);
  const after = /** @type {any} */ (await browser.sendMessage({ type: 'wallet-bridge/site-disconnect', tabId: a.tabId, topic: listed.sessions[0].topic }, popup));
  assert.deepEqual(after, { origin: SITE_A, sessions: [] });
  await settle();
  assert.deepEqual(a.events.at(-1), ['accountsChanged', []]);
  assert.deepEqual(await b.ethereum.request({ method: 'eth_accounts' }), [ETH_ADDRESS]);
  // Site B's topic through site A's tab: the wallet refuses it (7001), site B keeps it.
  const [topicB] = wallet.sessions.keys();
  const refused = /** @type {any} */ (await browser.sendMessage({ type: 'wallet-bridge/site-disconnect', tabId: a.tabId, topic: topicB }, popup));
  assert.match(refused.error, /No session for topic/);
  assert.equal(wallet.sessions.size, 1);
  assert.deepEqual(await browser.sendMessage({ type: 'wallet-bridge/site-sessions', tabId: 99 }, popup), { origin: null, sessions: [] });
});

test('a port that fails to post is dropped at once: 4900, the page told, the next request on a new port', async () => {
  const win = new FakeWindow(SITE_A);
  /** @type {any[]} */
  const ports = [];
  const runtime = {
    connect: () => {
      const broken = ports.length === 0;
      const port = {
        posted: /** @type {unknown[]} */ ([]),
        postMessage(/** @type {unknown} */ message) {
          if (broken) throw new Error('Attempt to postMessage on disconnected port');
          port.posted.push(message);
        },
        disconnect() {},
        onMessage: { addListener() {} },
        onDisconnect: { addListener() {} },
      };
      ports.push(port);
      return port;
    },
  };
  const content = startContentScript({ channel: CHANNEL, pageScriptUrl: 'chrome-extension://x/page.js', window: win, runtime });
  cleanups.push(() => content.stop());
  win.postMessage({ channel: CHANNEL, id: content.id, type: 'request', rid: 1, call: 'state', args: {} });
  await settle();
  assert.deepEqual(win.delivered.filter((m) => m.type !== 'request').map((m) => [m.type, m.rid ?? m.event, m.error?.code]), [['reply', 1, 4900], ['event', 'disconnected', undefined]]);
  win.postMessage({ channel: CHANNEL, id: content.id, type: 'request', rid: 2, call: 'state', args: {} });
  await settle();
  assert.equal(ports.length, 2);
  assert.deepEqual(ports[1].posted, [{ rid: 2, call: 'state', args: {} }]);
});

test('the content script injects the page script as a module with a fresh random id, and removes the element once loaded', () => {
  const ids = new Set();
  for (let index = 0; index < 3; index += 1) {
    const win = new FakeWindow(SITE_A);
    const runtime = { connect: () => ({ postMessage() {}, disconnect() {}, onMessage: { addListener() {} }, onDisconnect: { addListener() {} } }) };
    const content = startContentScript({ channel: CHANNEL, pageScriptUrl: 'chrome-extension://x/page.js', window: win, runtime });
    cleanups.push(() => content.stop());
    assert.match(content.id, /^[0-9a-f]{32}$/);
    assert.equal(win.scripts.length, 1);
    assert.equal(win.scripts[0].type, 'module');
    assert.equal(win.scripts[0].src, `chrome-extension://x/page.js#${content.id}`);
    win.scripts[0].fire('load');
    assert.equal(win.scripts[0].removed, true);
    ids.add(content.id);
  }
  assert.equal(ids.size, 3);
  assert.throws(() => startContentScript({ channel: CHANNEL, pageScriptUrl: 'x#y' }), /without a #/);
  assert.throws(() => startContentScript({ channel: 'a b', pageScriptUrl: 'x' }), /channel must be/);
});

test('EIP-6963: announced at once and on every eip6963:requestProvider; the Wallet Standard wallet registered by its event', () => {
  const win = new FakeWindow(SITE_A);
  /** @type {any[]} */
  const announced = [];
  /** @type {any[]} */
  const registered = [];
  win.addEventListener('eip6963:announceProvider', (/** @type {any} */ event) => announced.push(event.detail));
  win.addEventListener('wallet-standard:register-wallet', (/** @type {any} */ event) => event.detail({ register: (/** @type {any} */ w) => registered.push(w) }));
  const { ethereum, solana } = installPageProviders({ channel: CHANNEL, info: INFO, id: 'a'.repeat(32), window: win });
  assert.equal(announced.length, 1);
  assert.deepEqual(announced[0].info, INFO);
  assert.equal(announced[0].provider, ethereum);
  assert.ok(Object.isFrozen(announced[0]) && Object.isFrozen(announced[0].info));
  win.dispatchEvent({ type: 'eip6963:requestProvider' });
  assert.equal(announced.length, 2);
  assert.deepEqual(registered, [solana]);
  assert.equal(solana.version, '1.0.0');
  assert.equal(solana.icon, INFO.icon);
  assert.deepEqual(Object.keys(solana.features).sort(), ['solana:signIn', 'solana:signMessage', 'solana:signTransaction', 'standard:connect', 'standard:disconnect', 'standard:events']);
  assert.deepEqual(/** @type {any} */ (solana.features['solana:signTransaction']).supportedTransactionVersions, ['legacy', 0]);
});

test('installPageProviders refuses a bad channel, info or id; request refuses a malformed call with EIP-1474 codes', async () => {
  const win = new FakeWindow(SITE_A);
  const base = { channel: CHANNEL, info: INFO, id: 'a'.repeat(32), window: win };
  assert.throws(() => installPageProviders({ ...base, info: { ...INFO, icon: 'https://example.org/icon.png' } }), /data: URI/);
  assert.throws(() => installPageProviders({ ...base, info: { ...INFO, uuid: 'x' } }), /version 4 UUID/);
  assert.throws(() => installPageProviders({ ...base, info: { ...INFO, rdns: 'wallet' } }), /reverse DNS/);
  assert.throws(() => installPageProviders({ ...base, id: undefined }), /id must be the page's id/);
  const { ethereum } = installPageProviders(base);
  await assert.rejects(ethereum.request(/** @type {any} */ ({})), { code: -32600 });
  await assert.rejects(ethereum.request({ method: 'eth_chainId', params: /** @type {any} */ ('x') }), { code: -32602 });
  await assert.rejects(ethereum.request({ method: 'personal_sign', params: [10n] }), (error) => error.code === -32602 && /JSON/.test(error.message));
});

test('a page may have at most 64 requests waiting: more is -32005, in the content script and in the background', async () => {
  const { wallet, tab, browser } = setup();
  const a = tab(SITE_A);
  await a.ethereum.request({ method: 'eth_requestAccounts' });
  wallet.answers.personal_sign = () => new Promise(() => {});
  for (let rid = 100; rid < 165; rid += 1) a.win.postMessage({ channel: CHANNEL, id: a.content.id, type: 'request', rid, call: 'eth_request', args: { method: 'personal_sign', params: ['0x01', ETH_ADDRESS] } });
  await settle();
  const refused = a.win.delivered.filter((message) => message.type === 'reply' && message.error?.code === -32005).map((message) => message.rid);
  assert.deepEqual(refused, [164]);
  // The content script refused it itself: it never went to the background.
  const sent = /** @type {any[]} */ (browser.backgroundPorts[0].peer?.posted ?? []);
  assert.equal(sent.filter((message) => message.rid >= 100).length, 64);
  // The background holds its own count per port, whatever the content script does (calls that
  // prompt are one per site at a time: these wait on a slow session_list instead).
  wallet.hang.add('session_list');
  const port = browser.contentRuntime({ tabId: 50, origin: SITE_B }).connect({ name: 'wallet-bridge/provider' });
  /** @type {any[]} */
  const replies = [];
  port.onMessage.addListener((/** @type {any} */ message) => replies.push(message));
  await settle();
  for (let rid = 1; rid <= 65; rid += 1) port.postMessage({ rid, call: 'eth_request', args: { method: 'eth_accounts' } });
  await settle(40);
  assert.deepEqual(replies.filter((reply) => reply.rid !== undefined).map((reply) => [reply.rid, reply.error?.code]), [[65, -32005]]);
});
