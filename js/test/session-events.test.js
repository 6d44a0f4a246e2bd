// Session events (docs/sessions.md, Events): the host's notifications on a port reach the
// handlers added with `on`, checked; unsubscribing, throwing handlers, unknown or malformed
// notifications, dropped ports; and the message transport, which cannot receive events.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  NativeConfigurationError,
  NativeTransportError,
  base58Encode,
  createNativeClient,
} from '../src/index.js';
import { BROWSER_MESSAGES, fakeChrome, fakeFirefox, fakeWalletHost, flush } from './fakes.js';
import { MAINNET, PROPOSAL, createFakeSessionWallet, notification } from './session-fakes.js';

const APP = 'com.example.wallet_bridge';
const TOPIC = 'b'.repeat(64);
const KEY = base58Encode(new Uint8Array(32).fill(3));
const ACCOUNT = `${MAINNET}:${KEY}`;

/** Valid params of each notification. */
const PARAMS = Object.freeze({
  session_event: { topic: TOPIC, chainId: MAINNET, event: { name: 'accountsChanged', data: [ACCOUNT] } },
  session_update: { topic: TOPIC, namespaces: { solana: { chains: [MAINNET], accounts: [ACCOUNT], methods: ['solana_signMessage'], events: ['accountsChanged'] } }, expiry: 1_795_000_000 },
  session_delete: { topic: TOPIC, reason: { code: 6000, message: 'User disconnected' } },
  session_expire: { topic: TOPIC },
});
const NAMES = /** @type {Array<keyof typeof PARAMS>} */ (Object.keys(PARAMS));

/**
 * A port client and the warnings it reports.
 * @param {ReturnType<typeof fakeChrome>} runtime
 * @param {Partial<import('../src/index.js').NativeClientOptions>} [options]
 */
function portClient(runtime, options = {}) {
  /** @type {import('../src/index.js').NativeClientWarning[]} */
  const warnings = [];
  const client = createNativeClient({ application: APP, transport: 'port', runtime, onWarning: (warning) => warnings.push(warning), ...options });
  return { client, warnings };
}

/** Records the params each handler receives. */
function recorder() {
  /** @type {unknown[]} */
  const calls = [];
  return { calls, handler: (/** @type {unknown} */ params) => { calls.push(params); } };
}

for (const [flavor, makeRuntime] of /** @type {const} */ ([['firefox', fakeFirefox], ['chrome', fakeChrome]])) {
  test(`${flavor} port: on() opens the port, and each notification reaches its own handlers with its params`, async () => {
    const runtime = makeRuntime({ [APP]: () => undefined });
    const { client, warnings } = portClient(runtime);
    const recorders = Object.fromEntries(NAMES.map((name) => [name, recorder()]));
    for (const name of NAMES) client.on(name, recorders[name].handler);
    assert.equal(runtime.ports.length, 1, 'on() opens the port');
    // The host sends events only after its first reply, so the new port gets one request.
    const posted = /** @type {any[]} */ (runtime.port.posted);
    assert.deepEqual(posted.map(({ method, params }) => ({ method, params })), [{ method: 'session_list', params: {} }]);
    for (const name of NAMES) runtime.port.reply(notification(name, PARAMS[name]));
    await flush();
    for (const name of NAMES) assert.deepEqual(recorders[name].calls, [PARAMS[name]], name);
    client.on('session_event', recorder().handler);
    assert.equal(runtime.ports.length, 1, 'later on() calls share the port');
    assert.equal(runtime.port.posted.length, 1, 'and send nothing more');
    // Its answer, whatever it is, goes nowhere: not to a handler, not to onWarning.
    runtime.port.reply({ jsonrpc: '2.0', id: posted[0].id, error: { code: -32601, message: 'Method not found' } });
    await flush();
    assert.deepEqual(warnings, []);
    client.close();
  });

  test(`${flavor} port: against the fake wallet, on() alone gets a first reply, and a port already open is not primed again`, async () => {
    const wallet = createFakeSessionWallet();
    const runtime = makeRuntime({ [APP]: wallet.host });
    const { client, warnings } = portClient(runtime);
    await client.listSessions();
    client.on('session_expire', recorder().handler);
    assert.deepEqual(wallet.requests.map((request) => request.method), ['session_list'], 'the port was open: nothing more sent');
    client.close();
    const heard = recorder();
    client.on('session_expire', heard.handler);
    await flush();
    assert.deepEqual(wallet.requests.map((request) => request.method), ['session_list', 'session_list'], 'a new port is primed');
    runtime.port.reply(notification('session_expire', PARAMS.session_expire));
    await flush();
    assert.deepEqual(heard.calls, [PARAMS.session_expire]);
    assert.deepEqual(warnings, []);
    client.close();
  });

  test(`${flavor} port: the unsubscribe function and off() stop delivery; a handler added twice runs once`, async () => {
    const runtime = makeRuntime({ [APP]: () => undefined });
    const { client } = portClient(runtime);
    const first = recorder();
    const second = recorder();
    const unsubscribe = client.on('session_delete', first.handler);
    client.on('session_delete', second.handler);
    client.on('session_delete', second.handler);
    const send = async () => {
      runtime.port.reply(notification('session_delete', PARAMS.session_delete));
      await flush();
    };
    await send();
    assert.deepEqual([first.calls.length, second.calls.length], [1, 1]);
    unsubscribe();
    unsubscribe();
    await send();
    assert.deepEqual([first.calls.length, second.calls.length], [1, 2]);
    client.off('session_delete', second.handler);
    client.off('session_delete', second.handler);
    client.off('session_expire', second.handler);
    await send();
    assert.deepEqual([first.calls.length, second.calls.length], [1, 2]);
    client.close();
  });

  test(`${flavor} port: a handler that unsubscribes during delivery does not stop the others`, async () => {
    const runtime = makeRuntime({ [APP]: () => undefined });
    const { client } = portClient(runtime);
    const order = /** @type {string[]} */ ([]);
    const once = client.on('session_expire', () => {
      order.push('once');
      once();
    });
    client.on('session_expire', () => order.push('always'));
    runtime.port.reply(notification('session_expire', PARAMS.session_expire));
    runtime.port.reply(notification('session_expire', PARAMS.session_expire));
    await flush();
    assert.deepEqual(order, ['once', 'always', 'always']);
    client.close();
  });

  test(`${flavor} port: a handler that throws or rejects is reported, and neither the others nor the port suffer`, async () => {
    const runtime = makeRuntime({ [APP]: fakeWalletHost });
    const { client, warnings } = portClient(runtime);
    const thrown = new Error('handler bug');
    const after = recorder();
    client.on('session_event', () => { throw thrown; });
    client.on('session_event', async () => { throw new Error('async handler bug'); });
    client.on('session_event', after.handler);
    runtime.port.reply(notification('session_event', PARAMS.session_event));
    await flush();
    assert.deepEqual(after.calls, [PARAMS.session_event]);
    assert.deepEqual(warnings.map((w) => [w.kind, w.event, /** @type {Error} */ (w.error).message]), [
      ['event-handler-error', 'session_event', 'handler bug'],
      ['event-handler-error', 'session_event', 'async handler bug'],
    ]);
    assert.equal(warnings[0].error, thrown);
    assert.match(warnings[0].message, /a session_event handler failed: handler bug/);
    assert.deepEqual(warnings[0].reply, notification('session_event', PARAMS.session_event));
    assert.ok(runtime.port.connected);
    assert.equal(await client.request({ method: 'sum', params: [2, 3] }), 5, 'the port still works');
    assert.equal(runtime.ports.length, 1);
    client.close();
  });

  test(`${flavor} port: unknown and malformed notifications are reported, not delivered; replies are unaffected`, async () => {
    const runtime = makeRuntime({ [APP]: () => undefined });
    const { client, warnings } = portClient(runtime);
    const calls = Object.fromEntries(NAMES.map((name) => [name, recorder()]));
    for (const name of NAMES) client.on(name, calls[name].handler);
    const pending = client.request({ method: 'slow', id: 'r1' });
    await flush();
    const malformed = [
      notification('session_event', { ...PARAMS.session_event, chainId: 'mainnet' }),
      notification('session_event', { ...PARAMS.session_event, event: { name: 'accountsChanged', data: ['solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1:' + KEY] } }),
      notification('session_event', { ...PARAMS.session_event, event: { name: 'accountsChanged' } }),
      notification('session_update', { ...PARAMS.session_update, expiry: '1795000000' }),
      notification('session_update', { ...PARAMS.session_update, namespaces: { solana: { chains: [MAINNET], accounts: ['eip155:1:0xab'], methods: [], events: [] } } }),
      notification('session_delete', { topic: TOPIC }),
      notification('session_delete', { topic: TOPIC, reason: { code: '6000', message: 'x' } }),
      notification('session_expire', { topic: TOPIC.toUpperCase() }),
      notification('session_expire', undefined),
    ];
    for (const message of malformed) runtime.port.reply(message);
    runtime.port.reply(notification('session_ping', { topic: TOPIC }));
    runtime.port.reply({ jsonrpc: '2.0', method: 'wallet_somethingNew' });
    await flush();
    for (const name of NAMES) assert.deepEqual(calls[name].calls, [], name);
    assert.deepEqual(warnings.map((w) => w.kind), [...malformed.map(() => 'invalid-notification'), 'unknown-notification', 'unknown-notification']);
    assert.match(warnings[0].message, /ignored a malformed session_event from "com\.example\.wallet_bridge": session_event params\.chainId is "mainnet", not a CAIP-2 chain id/);
    assert.match(warnings[1].message, /params\.event\.data\[0\] is on "solana:EtWT.*", which is not one of the namespace's chains/);
    assert.match(warnings[5].message, /session_delete params\.reason is undefined/);
    assert.deepEqual(warnings[9].reply, notification('session_ping', { topic: TOPIC }));
    assert.match(warnings[9].message, /"session_ping".*not a session event/);
    // Other events' data is passed on as is.
    runtime.port.reply(notification('session_event', { ...PARAMS.session_event, event: { name: 'chainChanged', data: { anything: 1 } } }));
    // Not notifications, and so replies as before: an id (even null), or no jsonrpc.
    runtime.port.reply({ jsonrpc: '2.0', id: 'nobody', method: 'session_expire', params: PARAMS.session_expire });
    runtime.port.reply({ method: 'session_expire', params: PARAMS.session_expire });
    await flush();
    assert.equal(calls.session_event.calls.length, 1);
    assert.deepEqual(calls.session_expire.calls, []);
    assert.deepEqual(warnings.slice(11).map((w) => w.kind), ['unmatched-reply', 'unmatched-reply']);
    runtime.port.reply({ jsonrpc: '2.0', id: 'r1', result: 'mine' });
    assert.equal(await pending, 'mine', 'the pending request was not disturbed');
    client.close();
  });

  test(`${flavor} port: disconnecting on one port is heard as session_delete on the extension's other ports`, async () => {
    const wallet = createFakeSessionWallet();
    const runtime = makeRuntime({ [APP]: wallet.host });
    wallet.runtime = runtime;
    const { client: a } = portClient(runtime);
    const { client: b, warnings } = portClient(runtime);
    const heardByA = recorder();
    const heardByB = recorder();
    a.on('session_delete', heardByA.handler);
    b.on('session_delete', heardByB.handler);
    const { topic } = await a.connect(PROPOSAL);
    await a.disconnect(topic);
    await flush();
    assert.deepEqual(heardByB.calls, [{ topic, reason: { code: 6000, message: 'User disconnected' } }]);
    assert.deepEqual(heardByA.calls, [], 'not on the port that asked');
    assert.deepEqual(warnings, []);
    a.close();
    b.close();
  });

  test(`${flavor} port: a port dropped under handlers is reported; the next request reopens it and events flow again`, async () => {
    const runtime = makeRuntime({ [APP]: fakeWalletHost });
    const { client, warnings } = portClient(runtime);
    const heard = recorder();
    client.on('session_expire', heard.handler);
    runtime.port.hostDisconnect(BROWSER_MESSAGES[flavor].exited);
    assert.equal(warnings.length, 1);
    assert.equal(warnings[0].kind, 'port-disconnected');
    assert.ok(warnings[0].error instanceof NativeTransportError && warnings[0].error.message === BROWSER_MESSAGES[flavor].exited);
    assert.match(warnings[0].message, /session events stop until the next request or on\(\) opens a new port/);
    assert.equal(await client.request({ method: 'sum', params: [1] }), 1);
    assert.equal(runtime.ports.length, 2);
    runtime.port.reply(notification('session_expire', PARAMS.session_expire));
    await flush();
    assert.deepEqual(heard.calls, [PARAMS.session_expire]);
    // No handlers, no warning: the transport behaves as before events existed.
    client.off('session_expire', heard.handler);
    runtime.port.hostDisconnect(BROWSER_MESSAGES[flavor].exited);
    assert.equal(warnings.length, 1);
    client.close();
  });

  test(`${flavor} port: close() keeps the handlers; on() or a request reopens the port`, async () => {
    const runtime = makeRuntime({ [APP]: () => undefined });
    const { client, warnings } = portClient(runtime);
    const heard = recorder();
    client.on('session_update', heard.handler);
    client.close();
    assert.ok(runtime.ports[0].disconnectedByExtension);
    assert.deepEqual(warnings, [], 'closing on purpose is not a drop');
    client.on('session_expire', recorder().handler);
    assert.equal(runtime.ports.length, 2);
    runtime.port.reply(notification('session_update', PARAMS.session_update));
    await flush();
    assert.deepEqual(heard.calls, [PARAMS.session_update]);
    client.close();
  });
}

test('port: on() and off() refuse unknown event names and non-function handlers', () => {
  const runtime = fakeChrome({ [APP]: () => undefined });
  const { client } = portClient(runtime);
  for (const name of ['sessionDelete', 'session_ping', 'accountsChanged', '', undefined, 7]) {
    assert.throws(() => client.on(/** @type {any} */ (name), () => {}), (error) => error instanceof TypeError
      && /on takes one of "session_event", "session_update", "session_delete", "session_expire"/.test(error.message), String(name));
    assert.throws(() => client.off(/** @type {any} */ (name), () => {}), TypeError);
  }
  for (const handler of [undefined, null, 'handler', {}]) {
    assert.throws(() => client.on('session_event', /** @type {any} */ (handler)), (error) => error instanceof TypeError && /on's handler must be a function/.test(error.message));
  }
  assert.equal(runtime.ports.length, 0, 'nothing opened for a refused subscription');
});

test('port: a connectNative that throws makes on() throw a NativeTransportError, and keeps no handler', async () => {
  const runtime = fakeChrome({ [APP]: () => undefined });
  const real = runtime.connectNative.bind(runtime);
  let failures = 1;
  runtime.connectNative = (/** @type {string} */ application) => {
    if (failures-- > 0) throw new Error('Specified native messaging host not found.');
    return real(application);
  };
  const { client } = portClient(runtime);
  const heard = recorder();
  assert.throws(() => client.on('session_expire', heard.handler), (error) => error instanceof NativeTransportError && error.kind === 'host-not-found');
  client.on('session_delete', recorder().handler);
  runtime.port.reply(notification('session_expire', PARAMS.session_expire));
  await flush();
  assert.deepEqual(heard.calls, [], 'the failed subscription was not kept');
  client.close();
});

test('port: a throwing onWarning hook does not break event delivery', async () => {
  const runtime = fakeFirefox({ [APP]: () => undefined });
  const client = createNativeClient({ application: APP, transport: 'port', runtime, onWarning: () => { throw new Error('bad hook'); } });
  const heard = recorder();
  client.on('session_expire', () => { throw new Error('bad handler'); });
  client.on('session_expire', heard.handler);
  runtime.port.reply(notification('session_unknown', {}));
  runtime.port.reply(notification('session_expire', PARAMS.session_expire));
  runtime.port.reply(notification('session_expire', PARAMS.session_expire));
  await flush();
  assert.equal(heard.calls.length, 2);
  assert.ok(runtime.port.connected);
  client.close();
});

for (const [flavor, makeRuntime] of /** @type {const} */ ([['firefox', fakeFirefox], ['chrome', fakeChrome]])) {
  test(`${flavor} message: on() throws, saying the message transport cannot receive events and to use transport: "port"`, () => {
    const runtime = makeRuntime({ [APP]: fakeWalletHost });
    const client = createNativeClient({ application: APP, transport: 'message', runtime });
    for (const name of ['session_event', 'session_update', 'session_delete', 'session_expire', 'bogus']) {
      assert.throws(() => client.on(/** @type {any} */ (name), () => {}), (error) => error instanceof NativeConfigurationError
        && /message transport cannot receive events/.test(error.message)
        && /ends it at the reply/.test(error.message)
        && /transport: "port"/.test(error.message), name);
    }
    // off() has nothing to remove, and says nothing.
    client.off('session_event', () => {});
    assert.equal(runtime.sent.length, 0);
    assert.equal(runtime.ports.length, 0);
  });
}
