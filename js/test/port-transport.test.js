// The "port" transport (one runtime.connectNative port shared by many requests) against fake
// Firefox and Chrome runtimes. In these tests the test plays the host by hand: it reads what the
// extension posted and answers when and in what order it likes.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { NativeRpcError, NativeTransportError, createNativeClient } from '../src/index.js';
import { BROWSER_MESSAGES, fakeChrome, fakeFirefox, fakeWalletHost, flush } from './fakes.js';

const APP = 'com.example.wallet_bridge';
const activeTimers = () => process.getActiveResourcesInfo().filter((name) => name === 'Timeout').length;

/**
 * A port client whose host never answers on its own, plus the warnings it reports.
 * @param {ReturnType<typeof fakeChrome>} runtime
 * @param {{ timeoutMs?: number }} [options]
 */
function manualPortClient(runtime, options = {}) {
  /** @type {import('../src/index.js').NativeClientWarning[]} */
  const warnings = [];
  const client = createNativeClient({ application: APP, transport: 'port', runtime, onWarning: (w) => warnings.push(w), ...options });
  return { client, warnings };
}

/** @param {any} message @param {unknown} result */
const answer = (message, result) => ({ jsonrpc: '2.0', id: message.id, result });

for (const [flavor, makeRuntime] of /** @type {const} */ ([['firefox', fakeFirefox], ['chrome', fakeChrome]])) {
  const texts = BROWSER_MESSAGES[flavor];

  test(`${flavor} port: replies in any order reach their own requests, over one shared port`, async () => {
    const runtime = makeRuntime({ [APP]: () => undefined });
    const { client, warnings } = manualPortClient(runtime);
    const first = client.request({ method: 'test.sleep', params: { ms: 300 } });
    const second = client.request({ method: 'sum', params: [1, 2] });
    const third = client.request({ method: 'subtract', params: [9, 4] });
    await flush();
    assert.equal(runtime.ports.length, 1, 'one port for all requests');
    const [m1, m2, m3] = /** @type {any[]} */ (runtime.port.posted);
    assert.deepEqual([m1.method, m2.method, m3.method], ['test.sleep', 'sum', 'subtract']);
    runtime.port.reply(answer(m3, 5));
    runtime.port.reply(answer(m1, { slept: 300 }));
    runtime.port.reply(answer(m2, 3));
    assert.deepEqual(await Promise.all([first, second, third]), [{ slept: 300 }, 3, 5]);
    assert.deepEqual(warnings, []);
    client.close();
  });

  test(`${flavor} port: a disconnect rejects everything pending with the browser's reason`, async () => {
    const runtime = makeRuntime({ [APP]: () => undefined });
    const { client } = manualPortClient(runtime);
    const pending = [client.request({ method: 'a' }), client.request({ method: 'b', id: 2 }), client.getAccounts()];
    await flush();
    runtime.port.hostDisconnect(texts.communication);
    const results = await Promise.allSettled(pending);
    for (const result of results) {
      assert.equal(result.status, 'rejected');
      const error = /** @type {PromiseRejectedResult} */ (result).reason;
      assert.ok(error instanceof NativeTransportError);
      assert.equal(error.kind, 'disconnected');
      assert.equal(error.message, texts.communication);
      assert.equal(error.browserMessage, texts.communication);
    }
    assert.equal(/** @type {any} */ (results[1]).reason.id, 2);
    assert.equal(/** @type {any} */ (results[2]).reason.method, 'NATIVE_GET_ACCOUNTS_METHOD');
    if (flavor === 'chrome') assert.equal(runtime.lastError, undefined, 'lastError only lives inside onDisconnect');
  });

  test(`${flavor} port: a host that exits is reported with the browser's exit message`, async () => {
    const runtime = makeRuntime({ [APP]: () => undefined });
    const { client } = manualPortClient(runtime);
    const pending = client.request({ method: 'a' });
    await flush();
    runtime.port.hostDisconnect(texts.exited);
    await assert.rejects(pending, (error) => error instanceof NativeTransportError && error.kind === 'disconnected' && error.message === texts.exited);
  });

  test(`${flavor} port: a disconnect without any reason still rejects, with browserMessage null`, async () => {
    const runtime = makeRuntime({ [APP]: () => undefined });
    const { client } = manualPortClient(runtime);
    const pending = client.request({ method: 'a' });
    await flush();
    runtime.port.hostDisconnect(null);
    await assert.rejects(pending, (error) => error instanceof NativeTransportError && error.kind === 'disconnected' && error.browserMessage === null);
  });

  test(`${flavor} port: the next request after a disconnect opens a new port`, async () => {
    const runtime = makeRuntime({ [APP]: fakeWalletHost });
    const { client } = manualPortClient(runtime);
    assert.equal(await client.request({ method: 'sum', params: [1, 1] }), 2);
    runtime.port.hostDisconnect(texts.exited);
    assert.equal(await client.request({ method: 'sum', params: [2, 2] }), 4);
    assert.equal(runtime.ports.length, 2);
    assert.equal(runtime.ports[0].posted.length, 1);
    assert.equal(runtime.ports[1].posted.length, 1);
    client.close();
  });

  test(`${flavor} port: a missing host rejects with host-not-found and the browser's text`, async () => {
    const runtime = makeRuntime({});
    const { client } = manualPortClient(runtime);
    await assert.rejects(client.request({ method: 'a' }), (error) => error instanceof NativeTransportError && error.kind === 'host-not-found' && error.message === texts.notFound(APP));
  });

  test(`${flavor} port: each request has its own timeout; a late reply is reported, not fatal`, async () => {
    const runtime = makeRuntime({ [APP]: () => undefined });
    const { client, warnings } = manualPortClient(runtime, { timeoutMs: 40 });
    const slow = client.request({ method: 'slow', id: 'slow' });
    const fast = client.request({ method: 'fast', id: 'fast', timeoutMs: 5000 });
    await assert.rejects(slow, (error) => error instanceof NativeTransportError && error.kind === 'timeout' && error.id === 'slow');
    const [mSlow, mFast] = /** @type {any[]} */ (runtime.port.posted);
    runtime.port.reply(answer(mSlow, 'too late'));
    runtime.port.reply(answer(mFast, 'on time'));
    assert.equal(await fast, 'on time');
    assert.equal(warnings.length, 1);
    assert.equal(warnings[0].kind, 'unmatched-reply');
    assert.deepEqual(warnings[0].reply, { jsonrpc: '2.0', id: 'slow', result: 'too late' });
    assert.ok(runtime.port.connected, 'a timeout does not drop the port');
    client.close();
  });

  test(`${flavor} port: replies with unknown ids are ignored and reported`, async () => {
    const runtime = makeRuntime({ [APP]: () => undefined });
    const { client, warnings } = manualPortClient(runtime);
    const pending = client.request({ method: 'a', id: 1 });
    await flush();
    runtime.port.reply({ jsonrpc: '2.0', id: 999, result: 'stray' });
    runtime.port.reply({ jsonrpc: '2.0', id: '1', result: 'a string id is another id' });
    runtime.port.reply('not even an object');
    await flush();
    assert.equal(warnings.length, 3);
    runtime.port.reply({ jsonrpc: '2.0', id: 1, result: 'mine' });
    assert.equal(await pending, 'mine');
    client.close();
  });

  test(`${flavor} port: close() disconnects, rejects pending, and a later request reconnects`, async () => {
    const runtime = makeRuntime({ [APP]: () => undefined });
    const { client } = manualPortClient(runtime);
    const pending = [client.request({ method: 'a' }), client.request({ method: 'b' })];
    await flush();
    const before = activeTimers();
    client.close();
    assert.ok(runtime.ports[0].disconnectedByExtension);
    for (const result of await Promise.allSettled(pending)) {
      assert.ok(result.status === 'rejected' && result.reason instanceof NativeTransportError && result.reason.kind === 'closed');
    }
    assert.equal(activeTimers(), before - 2, 'close() clears the pending timers');
    const again = client.request({ method: 'sum', params: [3] });
    await flush();
    assert.equal(runtime.ports.length, 2);
    runtime.port.reply(answer(runtime.port.posted[0], 3));
    assert.equal(await again, 3);
    client.close();
  });

  test(`${flavor} port: postMessage on a port that is gone fails the request and the next one reconnects`, async () => {
    const runtime = makeRuntime({ [APP]: fakeWalletHost });
    const { client } = manualPortClient(runtime);
    assert.equal(await client.request({ method: 'sum', params: [1] }), 1);
    runtime.port.connected = false;  // gone, and onDisconnect not delivered yet
    await assert.rejects(client.request({ method: 'sum', params: [2] }), (error) => error instanceof NativeTransportError && error.message === 'Attempt to postMessage on disconnected port');
    assert.equal(await client.request({ method: 'sum', params: [3] }), 3);
    assert.equal(runtime.ports.length, 2);
    client.close();
  });

  test(`${flavor} port: batches and notifications`, async () => {
    const runtime = makeRuntime({ [APP]: fakeWalletHost });
    const { client } = manualPortClient(runtime);
    const entries = await client.batch([{ method: 'sum', params: [1, 2] }, { method: 'update', params: [1], notification: true }, { method: 'nope' }]);
    assert.equal(entries.length, 2);
    assert.equal(entries[0].result, 3);
    assert.ok(entries[1].error instanceof NativeRpcError);
    assert.deepEqual(await client.batch([{ method: 'update', params: [1], notification: true }]), []);
    await client.notify({ method: 'notify_hello', params: [7] });
    const posted = /** @type {any[]} */ (runtime.port.posted);
    assert.equal(posted.length, 3);
    assert.deepEqual(posted[2], { jsonrpc: '2.0', method: 'notify_hello', params: [7] });
    client.close();
  });

  test(`${flavor} port: an error with id null goes to the only pending request, else it is reported`, async () => {
    const runtime = makeRuntime({ [APP]: () => undefined });
    const { client, warnings } = manualPortClient(runtime);
    const tooLarge = { jsonrpc: '2.0', id: null, error: { code: -32004, message: 'Request too large', data: { problem: 'frame of 9 bytes exceeds the limit of 8 bytes' } } };
    const only = client.request({ method: 'a', id: 'only' });
    await flush();
    runtime.port.reply(tooLarge);
    await assert.rejects(only, (error) => error instanceof NativeRpcError && error.code === -32004 && error.id === 'only');
    const one = client.request({ method: 'a', timeoutMs: 50 });
    const two = client.request({ method: 'b', timeoutMs: 50 });
    await flush();
    runtime.port.reply(tooLarge);
    await assert.rejects(one, (error) => error instanceof NativeTransportError && error.kind === 'timeout');
    await assert.rejects(two, (error) => error instanceof NativeTransportError && error.kind === 'timeout');
    assert.equal(warnings.length, 1);
    client.close();
  });

  test(`${flavor} port: a batch refused as a whole gets the refusal even while other requests wait`, async () => {
    const runtime = makeRuntime({ [APP]: () => undefined });
    const { client, warnings } = manualPortClient(runtime);
    const single = client.request({ method: 'test.sleep', id: 'single' });
    const batch = client.batch([{ method: 'sum', params: [1] }, { method: 'sum', params: [2] }, { method: 'sum', params: [3] }], { timeoutMs: 2000 });
    await flush();
    runtime.port.reply({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request', data: { problem: 'a batch of 3 requests exceeds the limit of 2' } } });
    await assert.rejects(batch, (error) => error instanceof NativeRpcError && error.code === -32600 && error.data?.problem === 'a batch of 3 requests exceeds the limit of 2');
    runtime.port.reply(answer(runtime.port.posted[0], 'still mine'));
    assert.equal(await single, 'still mine');
    assert.deepEqual(warnings, []);
    client.close();
  });

  test(`${flavor} port: batches go out one at a time, so a whole-batch refusal names its batch`, async () => {
    const runtime = makeRuntime({ [APP]: () => undefined });
    const { client, warnings } = manualPortClient(runtime);
    const first = client.batch([{ method: 'test.large', id: 'a1' }, { method: 'test.large', id: 'a2' }]);
    const second = client.batch([{ method: 'sum', params: [1, 2], id: 'b1' }]);
    const single = client.request({ method: 'sum', params: [5], id: 's' });
    await flush();
    assert.deepEqual(runtime.port.posted.map((m) => (Array.isArray(m) ? m.map((e) => e.id) : /** @type {any} */ (m).id)), [['a1', 'a2'], 's'], 'the second batch waits for the first');
    // The joined reply of the first batch was too large: the host says so with id null.
    runtime.port.reply({ jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Response too large', data: { bytes: 2_000_000, limit: 1_048_576 } } });
    await assert.rejects(first, (error) => error instanceof NativeRpcError && error.code === -32000);
    await flush();
    assert.equal(runtime.port.posted.length, 3, 'then the second batch goes out');
    runtime.port.reply([answer({ id: 'b1' }, 3)]);
    runtime.port.reply(answer({ id: 's' }, 5));
    assert.deepEqual((await second).map((entry) => entry.result), [3]);
    assert.equal(await single, 5);
    assert.deepEqual(warnings, []);
    client.close();
  });

  test(`${flavor} port: a held batch times out without ever being sent, and close() rejects it`, async () => {
    const runtime = makeRuntime({ [APP]: () => undefined });
    const { client } = manualPortClient(runtime);
    const first = client.batch([{ method: 'a', id: 1 }]);
    const held = client.batch([{ method: 'b', id: 2 }], { timeoutMs: 30 });
    await assert.rejects(held, (error) => error instanceof NativeTransportError && error.kind === 'timeout');
    const heldToo = client.batch([{ method: 'c', id: 3 }]);
    runtime.port.reply([answer({ id: 1 }, 'one')]);
    assert.equal((await first)[0].result, 'one');
    await flush();
    assert.deepEqual(runtime.port.posted.map((m) => /** @type {any[]} */ (m)[0].id), [1, 3], 'the timed-out batch was never sent');
    const last = client.batch([{ method: 'd', id: 4 }]);
    client.close();
    for (const outcome of await Promise.allSettled([heldToo, last])) {
      assert.ok(outcome.status === 'rejected' && outcome.reason instanceof NativeTransportError && outcome.reason.kind === 'closed');
    }
  });

  test(`${flavor} port: an id-null error that is not a whole-batch refusal is not given to the batch`, async () => {
    const runtime = makeRuntime({ [APP]: () => undefined });
    const { client, warnings } = manualPortClient(runtime);
    const batch = client.batch([{ method: 'a', id: 1 }], { timeoutMs: 5000 });
    const single = client.request({ method: 'b', id: 2, timeoutMs: 5000 });
    await flush();
    // A parse error answers a frame the host could not read: the single request as well as the batch.
    runtime.port.reply({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error', data: { problem: 'nesting deeper than 64' } } });
    await flush();
    assert.equal(warnings.length, 1);
    runtime.port.reply([answer({ id: 1 }, 'batch')]);
    runtime.port.reply(answer({ id: 2 }, 'single'));
    assert.equal((await batch)[0].result, 'batch');
    assert.equal(await single, 'single');
    client.close();
  });

  test(`${flavor} port: ids must be unique among pending requests`, async () => {
    const runtime = makeRuntime({ [APP]: () => undefined });
    const { client } = manualPortClient(runtime);
    const first = client.request({ method: 'a', id: 1 });
    await assert.rejects(client.request({ method: 'b', id: 1 }), /already waiting/);
    client.close();
    await assert.rejects(first, NativeTransportError);
  });
}

test('port: a throwing onWarning hook does not break the port', async () => {
  const runtime = fakeChrome({ [APP]: () => undefined });
  const client = createNativeClient({ application: APP, transport: 'port', runtime, onWarning: () => { throw new Error('bad hook'); } });
  const pending = client.request({ method: 'a', id: 1 });
  await flush();
  runtime.port.reply({ jsonrpc: '2.0', id: 2, result: 'stray' });
  runtime.port.reply({ jsonrpc: '2.0', id: 1, result: 'ok' });
  assert.equal(await pending, 'ok');
  client.close();
});

test('port: Chrome\'s lastError is read inside onDisconnect (where Chrome requires it)', async () => {
  const runtime = fakeChrome({ [APP]: () => undefined });
  let readDuringDisconnect = false;
  const real = runtime;
  const watched = new Proxy(real, {
    get(target, key, receiver) {
      if (key === 'lastError' && target.lastError !== undefined) readDuringDisconnect = true;
      return Reflect.get(target, key, receiver);
    },
  });
  const client = createNativeClient({ application: APP, transport: 'port', runtime: watched });
  const pending = client.request({ method: 'a' });
  await flush();
  real.port.hostDisconnect(BROWSER_MESSAGES.chrome.exited);
  await assert.rejects(pending, /Native host has exited\./);
  assert.ok(readDuringDisconnect);
});
