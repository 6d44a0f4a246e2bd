// The "message" transport (runtime.sendNativeMessage) against fake Firefox and Chrome runtimes.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  NativeConfigurationError,
  NativeProtocolError,
  NativeRpcError,
  NativeTransportError,
  createNativeClient,
} from '../src/index.js';
import { BROWSER_MESSAGES, FAKE_ADDRESSES, fakeChrome, fakeFirefox, fakeWalletHost, flush } from './fakes.js';

const APP = 'com.example.wallet_bridge';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** Active timers, to prove a settled request leaves none behind. */
const activeTimers = () => process.getActiveResourcesInfo().filter((name) => name === 'Timeout').length;

for (const [flavor, makeRuntime] of /** @type {const} */ ([['firefox', fakeFirefox], ['chrome', fakeChrome]])) {
  const texts = BROWSER_MESSAGES[flavor];

  test(`${flavor} message: a request resolves to its result, sent as real JSON with a generated id`, async () => {
    const runtime = makeRuntime({ [APP]: fakeWalletHost });
    const client = createNativeClient({ application: APP, transport: 'message', runtime });
    assert.equal(await client.request({ method: 'subtract', params: [42, 23] }), 19);
    assert.equal(runtime.sent.length, 1);
    const sent = /** @type {any} */ (runtime.sent[0]);
    assert.match(sent.id, UUID);
    assert.deepEqual(sent, { jsonrpc: '2.0', id: sent.id, method: 'subtract', params: [42, 23] });
    assert.equal(await client.request({ method: 'test.echo', params: { a: [1, { b: null }] }, id: 7 }).then((r) => r.a[1].b), null);
    assert.equal(/** @type {any} */ (runtime.sent[1]).id, 7);
  });

  test(`${flavor} message: an error reply rejects with NativeRpcError carrying code, message, data and id`, async () => {
    const client = createNativeClient({ application: APP, runtime: makeRuntime({ [APP]: fakeWalletHost }) });
    await assert.rejects(client.request({ method: 'test.error', params: { code: -1, message: 'Authorization failed', data: { reason: 'locked' } }, id: 'req-1' }), (error) => {
      assert.ok(error instanceof NativeRpcError);
      assert.equal(error.code, -1);
      assert.equal(error.message, 'Authorization failed');
      assert.deepEqual(error.data, { reason: 'locked' });
      assert.equal(error.id, 'req-1');
      assert.equal(error.method, 'test.error');
      return true;
    });
  });

  test(`${flavor} message: requestResponse returns an error response instead of throwing`, async () => {
    const client = createNativeClient({ application: APP, runtime: makeRuntime({ [APP]: fakeWalletHost }) });
    const response = await client.requestResponse({ method: 'nope', id: 3 });
    assert.deepEqual(response, { jsonrpc: '2.0', id: 3, error: { code: -32601, message: 'Method not found', data: { problem: 'no method named "nope"' } } });
  });

  test(`${flavor} message: a missing host is a NativeTransportError with the browser's own message`, async () => {
    const client = createNativeClient({ application: 'com.example.missing', runtime: makeRuntime({}) });
    await assert.rejects(client.getAccounts(), (error) => {
      assert.ok(error instanceof NativeTransportError);
      assert.equal(error.kind, 'host-not-found');
      assert.equal(error.message, texts.notFound('com.example.missing'));
      assert.equal(error.browserMessage, error.message);
      assert.equal(error.method, 'NATIVE_GET_ACCOUNTS_METHOD');
      return true;
    });
  });

  test(`${flavor} message: a host that exits without replying is a disconnect with the browser's message`, async () => {
    const client = createNativeClient({ application: APP, runtime: makeRuntime({ [APP]: () => undefined }) });
    await assert.rejects(client.request({ method: 'x' }), (error) => error instanceof NativeTransportError && error.kind === 'disconnected' && error.message === texts.exited);
  });

  test(`${flavor} message: a reply with another id is a NativeProtocolError`, async () => {
    const client = createNativeClient({ application: APP, runtime: makeRuntime({ [APP]: (m) => ({ jsonrpc: '2.0', id: `${m.id}-other`, result: 1 }) }) });
    await assert.rejects(client.request({ method: 'x', id: 'mine' }), (error) => error instanceof NativeProtocolError && error.kind === 'wrong-id' && error.id === 'mine');
  });

  test(`${flavor} message: a reply missing fields is a NativeProtocolError`, async () => {
    const client = createNativeClient({ application: APP, runtime: makeRuntime({ [APP]: (m) => ({ id: m.id, result: 1 }) }) });
    await assert.rejects(client.request({ method: 'x' }), (error) => error instanceof NativeProtocolError && error.kind === 'not-json-rpc');
  });

  test(`${flavor} message: a host that never answers times out, and the timer is gone after`, async () => {
    const client = createNativeClient({ application: APP, timeoutMs: 30, runtime: makeRuntime({ [APP]: () => new Promise(() => {}) }) });
    const before = activeTimers();
    await assert.rejects(client.request({ method: 'test.hang', id: 9 }), (error) => {
      assert.ok(error instanceof NativeTransportError);
      assert.equal(error.kind, 'timeout');
      assert.equal(error.id, 9);
      assert.equal(error.browserMessage, null);
      assert.match(error.message, /within 30 ms/);
      return true;
    });
    assert.equal(activeTimers(), before);
    // A per-call timeout overrides the client's.
    await assert.rejects(client.request({ method: 'test.hang', timeoutMs: 5 }), /within 5 ms/);
  });

  test(`${flavor} message: a settled request clears its timer (no 310 s timer left behind)`, async () => {
    const client = createNativeClient({ application: APP, runtime: makeRuntime({ [APP]: fakeWalletHost }) });
    const before = activeTimers();
    await client.request({ method: 'sum', params: [1, 2] });
    await assert.rejects(client.request({ method: 'nope' }), NativeRpcError);
    assert.equal(activeTimers(), before);
  });

  test(`${flavor} message: close() rejects what is in flight with kind "closed"`, async () => {
    const client = createNativeClient({ application: APP, runtime: makeRuntime({ [APP]: () => new Promise(() => {}) }) });
    const pending = client.request({ method: 'test.hang' });
    client.close();
    await assert.rejects(pending, (error) => error instanceof NativeTransportError && error.kind === 'closed');
  });

  test(`${flavor} message: typed helpers return checked results`, async () => {
    const client = createNativeClient({ application: APP, runtime: makeRuntime({ [APP]: fakeWalletHost }) });
    assert.deepEqual(await client.getAccounts(), { addresses: FAKE_ADDRESSES });
    assert.deepEqual(await client.signPayloads({ address: FAKE_ADDRESSES[0], payloads: ['AQ==', 'Ag=='] }), { signed_payloads: ['AQ==+sig', 'Ag==+sig'] });
    await assert.rejects(client.signPayloads({ address: 'unknown', payloads: [] }), (error) => error instanceof NativeRpcError && error.code === -32602);
    await assert.rejects(client.signPayloads(/** @type {any} */ ({ address: FAKE_ADDRESSES[0], payloads: 'AQ==' })), TypeError);
  });

  test(`${flavor} message: malformed wallet results are rejected, not returned`, async () => {
    const host = (/** @type {any} */ m) => ({ jsonrpc: '2.0', id: m.id, result: m.method === 'NATIVE_GET_ACCOUNTS_METHOD' ? { addresses: 'AAAA' } : { signed_payloads: ['only one'] } });
    const client = createNativeClient({ application: APP, runtime: makeRuntime({ [APP]: host }) });
    await assert.rejects(client.getAccounts(), (error) => error instanceof NativeProtocolError && error.kind === 'invalid-result' && /addresses/.test(error.message));
    await assert.rejects(client.signPayloads({ address: 'a', payloads: ['AQ==', 'Ag=='] }), (error) => error instanceof NativeProtocolError && error.kind === 'invalid-result' && /1 entries for 2 payloads/.test(error.message));
  });

  test(`${flavor} message: a batch goes out as one array over a one-shot port and comes back mapped by id`, async () => {
    const runtime = makeRuntime({ [APP]: fakeWalletHost });
    const client = createNativeClient({ application: APP, runtime });
    const entries = await client.batch([
      { method: 'sum', params: [1, 2, 4] },
      { method: 'notify_hello', params: [7], notification: true },
      { method: 'subtract', params: [42, 23], id: 'sub' },
      { method: 'nope', id: 5 },
    ]);
    // Chrome's sendNativeMessage refuses arrays, so a batch takes a port of its own.
    assert.equal(runtime.sent.length, 0);
    assert.equal(runtime.ports.length, 1);
    const posted = runtime.port.posted;
    assert.ok(posted.length === 1 && Array.isArray(posted[0]) && posted[0].length === 4);
    assert.ok(runtime.port.disconnectedByExtension, 'the one-shot port is closed after its reply');
    assert.equal(entries.length, 3);
    assert.equal(entries[0].result, 7);
    assert.deepEqual(entries[1], { id: 'sub', method: 'subtract', result: 19 });
    assert.ok(entries[2].error instanceof NativeRpcError && entries[2].error.code === -32601 && entries[2].error.id === 5);
  });

  test(`${flavor} message: a one-shot port is closed on timeout and on close(), and reports a missing host`, async () => {
    const runtime = makeRuntime({ [APP]: () => undefined });
    const client = createNativeClient({ application: APP, runtime, timeoutMs: 30 });
    await assert.rejects(client.batch([{ method: 'a' }]), (error) => error instanceof NativeTransportError && error.kind === 'timeout');
    assert.ok(runtime.ports[0].disconnectedByExtension);
    const pending = client.sendRaw('not an object', { timeoutMs: 5000 });
    await flush();
    client.close();
    await assert.rejects(pending, (error) => error instanceof NativeTransportError && error.kind === 'closed');
    assert.ok(runtime.ports[1].disconnectedByExtension);
    const missing = createNativeClient({ application: 'com.example.missing', runtime });
    await assert.rejects(missing.batch([{ method: 'a' }]), (error) => error instanceof NativeTransportError && error.kind === 'host-not-found' && error.message === texts.notFound('com.example.missing'));
  });

  test(`${flavor} message: a host that exits before answering a batch is a disconnect with the browser's text`, async () => {
    const runtime = makeRuntime({ [APP]: () => undefined });
    const client = createNativeClient({ application: APP, runtime });
    const pending = client.batch([{ method: 'a' }]);
    await flush();
    runtime.port.hostDisconnect(texts.exited);
    await assert.rejects(pending, (error) => error instanceof NativeTransportError && error.kind === 'disconnected' && error.message === texts.exited);
  });

  test(`${flavor} message: notifications need a port and are refused before sending`, async () => {
    const runtime = makeRuntime({ [APP]: fakeWalletHost });
    const client = createNativeClient({ application: APP, runtime });
    await assert.rejects(client.notify({ method: 'update', params: [1] }), /port/);
    await assert.rejects(client.batch([{ method: 'update', params: [1], notification: true }]), /port/);
    assert.equal(runtime.sent.length, 0);
  });
}

test('message: a runtime without sendNativeMessage (no permission) is a NativeConfigurationError at creation', () => {
  assert.throws(() => createNativeClient({ application: APP, runtime: {} }), (error) => error instanceof NativeConfigurationError && /nativeMessaging/.test(error.message));
});

test('message: a callback-only sendNativeMessage (Chrome MV2) is reported, not awaited forever', async () => {
  const client = createNativeClient({ application: APP, runtime: { sendNativeMessage: () => undefined } });
  await assert.rejects(client.request({ method: 'x' }), (error) => error instanceof NativeConfigurationError && /Manifest V3/.test(error.message));
});

test('message: a sendNativeMessage that throws is a NativeTransportError keeping the text', async () => {
  const client = createNativeClient({
    application: APP,
    runtime: { sendNativeMessage: () => { throw new Error('Invalid native messaging host name specified.'); } },
  });
  await assert.rejects(client.request({ method: 'x' }), (error) => error instanceof NativeTransportError && error.kind === 'host-not-found' && error.message === 'Invalid native messaging host name specified.');
});
