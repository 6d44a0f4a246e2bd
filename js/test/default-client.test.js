// The module-level functions (walletlib's names) and their default client; runtime discovery.
import assert from 'node:assert/strict';
import { afterEach, test } from 'node:test';
import {
  DEFAULT_TIMEOUTS,
  NativeConfigurationError,
  NativeTransportError,
  configureNativeClient,
  createNativeClient,
  getNativeClient,
  resetNativeClient,
  sendNativeGetAccountsRequest,
  sendNativeRpcBatch,
  sendNativeRpcRequest,
  sendNativeSignPayloadsRequest,
} from '../src/index.js';
import { FAKE_ADDRESSES, fakeChrome, fakeFirefox, fakeWalletHost } from './fakes.js';

const APP = 'com.example.wallet_bridge';
const scope = /** @type {any} */ (globalThis);

afterEach(() => {
  resetNativeClient();
  delete scope.browser;
  delete scope.chrome;
});

test('the module-level functions fail clearly until configured', async () => {
  for (const call of [
    () => sendNativeRpcRequest({ method: 'x' }),
    () => sendNativeGetAccountsRequest(),
    () => sendNativeSignPayloadsRequest({ address: 'a', payloads: [] }),
    () => sendNativeRpcBatch([{ method: 'x' }]),
  ]) {
    await assert.rejects(call(), (error) => error instanceof NativeConfigurationError && /configureNativeClient\(\{ application/.test(error.message));
  }
  assert.throws(() => getNativeClient(), NativeConfigurationError);
});

test('Firefox: browser.runtime is found at run time and preferred over its chrome alias', async () => {
  const firefox = fakeFirefox({ [APP]: fakeWalletHost });
  const alias = fakeChrome({});
  scope.browser = { runtime: firefox };
  scope.chrome = { runtime: alias };
  configureNativeClient({ application: APP });
  assert.deepEqual(await sendNativeGetAccountsRequest(), { addresses: FAKE_ADDRESSES });
  assert.equal(firefox.sent.length, 1);
  assert.equal(alias.sent.length, 0);
});

test('Chrome: chrome.runtime is found when there is no browser global', async () => {
  const chrome = fakeChrome({ [APP]: fakeWalletHost });
  scope.chrome = { runtime: chrome };
  configureNativeClient({ application: APP, transport: 'port' });
  const signed = await sendNativeSignPayloadsRequest({ address: FAKE_ADDRESSES[0], payloads: ['AQ=='] });
  assert.deepEqual(signed, { signed_payloads: ['AQ==+sig'] });
  assert.equal(await sendNativeRpcRequest({ method: 'subtract', params: [1, 3] }), -2);
  assert.equal(chrome.ports.length, 1);
});

test('Chromium with a browser global too (an alias of chrome, as in Chromium 156): used the same way, a port\'s lastError still read', async () => {
  const chromium = fakeChrome({ [APP]: fakeWalletHost });
  scope.chrome = { runtime: chromium };
  scope.browser = scope.chrome;
  for (const transport of /** @type {const} */ (['message', 'port'])) {
    configureNativeClient({ application: APP, transport });
    assert.equal(await sendNativeRpcRequest({ method: 'subtract', params: [5, 3] }), 2);
    // Chrome's reason for a dropped port is in runtime.lastError, whichever global found it.
    configureNativeClient({ application: 'com.example.not_installed', transport });
    await assert.rejects(sendNativeRpcRequest({ method: 'sum', params: [1] }), (error) =>
      error instanceof NativeTransportError && error.kind === 'host-not-found' && /not found/.test(error.message));
  }
});

test('no runtime anywhere is a NativeConfigurationError naming the fix', () => {
  assert.throws(() => createNativeClient({ application: APP }), (error) => error instanceof NativeConfigurationError && /options\.runtime/.test(error.message));
});

test('configuring again replaces the default client and closes the previous one', async () => {
  const first = fakeChrome({ [APP]: fakeWalletHost });
  const second = fakeFirefox({ [APP]: fakeWalletHost });
  const client = configureNativeClient({ application: APP, transport: 'port', runtime: first });
  assert.equal(await sendNativeRpcRequest({ method: 'sum', params: [1, 2] }), 3);
  configureNativeClient(createNativeClient({ application: APP, runtime: second }));
  assert.ok(first.port.disconnectedByExtension, 'the old port is closed');
  assert.notEqual(getNativeClient(), client);
  assert.equal(await sendNativeRpcRequest({ method: 'sum', params: [2, 2] }), 4);
  assert.equal(second.sent.length, 1);
});

test('createNativeClient checks its options', () => {
  const runtime = fakeChrome({});
  assert.throws(() => createNativeClient(/** @type {any} */ ({ runtime })), /application must be/);
  assert.throws(() => createNativeClient({ application: APP, runtime, transport: /** @type {any} */ ('websocket') }), /"message" or "port"/);
  for (const timeoutMs of [0, -1, NaN, Infinity, 2 ** 31, /** @type {any} */ ('100')]) {
    assert.throws(() => createNativeClient({ application: APP, runtime, timeoutMs }), RangeError, String(timeoutMs));
  }
  const client = createNativeClient({ application: APP, runtime });
  assert.equal(client.transport, 'message');
  assert.equal(client.timeoutMs, DEFAULT_TIMEOUTS.requestMs);
  assert.ok(Object.isFrozen(DEFAULT_TIMEOUTS));
  // Longer than the host's own 300 s request timeout, so the host's -32001 answer arrives first.
  assert.ok(DEFAULT_TIMEOUTS.requestMs > 300_000);
  assert.equal(client.application, APP);
});

test('sendNativeGetAccountsRequest takes walletlib 0.2.0\'s positional id, or the options object', async () => {
  const runtime = fakeFirefox({ [APP]: fakeWalletHost });
  configureNativeClient({ application: APP, runtime });
  assert.deepEqual(await sendNativeGetAccountsRequest('my-id'), { addresses: FAKE_ADDRESSES });
  assert.deepEqual(await sendNativeGetAccountsRequest(7), { addresses: FAKE_ADDRESSES });
  await sendNativeGetAccountsRequest({ id: 'from-options' });
  await getNativeClient().getAccounts('client-id');
  assert.deepEqual(runtime.sent.map((message) => /** @type {any} */ (message).id), ['my-id', 7, 'from-options', 'client-id']);
  // Anything else is a mistake, said at once, never sent.
  for (const wrong of [null, true, NaN, [], () => 'id']) {
    await assert.rejects(sendNativeGetAccountsRequest(/** @type {any} */ (wrong)), TypeError, String(wrong));
    await assert.rejects(getNativeClient().getAccounts(/** @type {any} */ (wrong)), TypeError, String(wrong));
  }
  assert.equal(runtime.sent.length, 4);
});
