// Custom methods, the way js/README.md shows them: a method constant on the JS side and a call
// through sendNativeRpcRequest with the default client. First against the conformance host's
// own custom methods (registered in Swift the same way a developer registers theirs), then the
// example in examples/custom-method against its own host.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { endianness } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, test } from 'node:test';
import { NativeRpcError, NativeRpcErrorCode, configureNativeClient, resetNativeClient, sendNativeRpcRequest } from '../src/index.js';
import { declarationsFromOpenRPC, errorModuleFromOpenRPC } from '../src/openrpc-types.js';
import { APPLICATION, CHROME_ORIGIN, REPO_ROOT, createShimRuntime, encodeFrame, requireHost } from './native-host-shim.js';

/** @type {ReturnType<typeof createShimRuntime>[]} */
const shims = [];
afterEach(() => resetNativeClient());
after(async () => { await Promise.all(shims.map((shim) => shim.dispose())); });

/** @param {import('./native-host-shim.js').ShimOptions} [options] */
function shimRuntime(options) {
  const runtime = createShimRuntime(options);
  shims.push(runtime);
  return runtime;
}

// As in the README: the method's name, shared with the Swift side (`static let name = "subtract"`).
const SUBTRACT_METHOD = 'subtract';
const ECHO_METHOD = 'test.echo';

for (const transport of /** @type {const} */ (['message', 'port'])) {
  test(`custom methods on the real host through sendNativeRpcRequest (${transport})`, { timeout: 20_000 }, async () => {
    requireHost();
    configureNativeClient({ application: APPLICATION, transport, runtime: shimRuntime() });

    // Positional and named params: both are how Subtract.Params decodes.
    assert.equal(await sendNativeRpcRequest({ method: SUBTRACT_METHOD, params: [42, 23] }), 19);
    assert.equal(await sendNativeRpcRequest({ method: SUBTRACT_METHOD, params: { minuend: 23, subtrahend: 42 } }), -19);
    // Params travel as real JSON and come back unchanged, nested values and unicode included.
    const params = { text: 'ключ 🔑 "quoted"', list: [1, 2.5, -3, null, true], nested: { deeper: { empty: [] } } };
    assert.deepEqual(await sendNativeRpcRequest({ method: ECHO_METHOD, params }), params);
    // A mistake in the params is the host's Invalid params, with the field it disliked.
    await assert.rejects(sendNativeRpcRequest({ method: SUBTRACT_METHOD, params: { minuend: 1 } }), (error) =>
      error instanceof NativeRpcError && error.code === NativeRpcErrorCode.invalidParams && /** @type {any} */ (error.data).field === 'subtrahend');
  });
}

const PING_HOST = join(REPO_ROOT, 'examples/custom-method/.build/debug/ping-host');

test('examples/custom-method: ping.js against the Swift ping-host', { timeout: 20_000 }, async (t) => {
  if (!existsSync(PING_HOST)) {
    // The example is a separate Swift package that the repository's `swift build` does not build.
    t.skip(`build the example first: cd examples/custom-method && swift build (no ${PING_HOST})`);
    return;
  }
  const { EmptyPingError, sendMyCustomPing, MY_CUSTOM_PING_RPC_METHOD } = await import('../../examples/custom-method/ping.js');
  for (const transport of /** @type {const} */ (['message', 'port'])) {
    configureNativeClient({ application: 'com.example.ping_host', transport, runtime: shimRuntime({ application: 'com.example.ping_host', hostPath: PING_HOST }) });
    assert.deepEqual(await sendMyCustomPing({ pingParam1: 'ping', pingParam2: ['a', 'b'] }), {
      pong: 'pong to ping and 2 more, from chrome-extension://knldjmfmopnpolahpmmgbagdohdnhkik/',
    });
    await assert.rejects(sendNativeRpcRequest({ method: MY_CUSTOM_PING_RPC_METHOD, params: { pingParam1: 'no list' } }), (error) =>
      error instanceof NativeRpcError && error.code === NativeRpcErrorCode.invalidParams);
    // The method's own error (Ping.emptyPing in Swift) rejects with its generated class.
    await assert.rejects(sendMyCustomPing({ pingParam1: '', pingParam2: [] }), (error) =>
      error instanceof EmptyPingError && error.code === -32050 && /** @type {any} */ (error.data).field === 'pingParam1');
  }
});

test('examples/custom-method: the generated ping-host-methods.d.ts and .js are those of the host\'s rpc.discover', { timeout: 20_000 }, (t) => {
  if (!existsSync(PING_HOST)) {
    t.skip(`build the example first: cd examples/custom-method && swift build (no ${PING_HOST})`);
    return;
  }
  const run = spawnSync(PING_HOST, [CHROME_ORIGIN], { input: encodeFrame({ jsonrpc: '2.0', id: 1, method: 'rpc.discover' }), timeout: 10_000 });
  assert.equal(run.error, undefined);
  const length = endianness() === 'LE' ? run.stdout.readUInt32LE(0) : run.stdout.readUInt32BE(0);
  const document = JSON.parse(run.stdout.subarray(4, 4 + length).toString('utf8')).result;
  const options = { importFrom: '../../js/src/index.js' };
  const example = join(REPO_ROOT, 'examples/custom-method');
  const regenerate = 'stale: regenerate them (examples/custom-method/README.md, "Typed errors")';
  assert.equal(readFileSync(join(example, 'ping-host-methods.d.ts'), 'utf8'), declarationsFromOpenRPC(document, options), regenerate);
  assert.equal(readFileSync(join(example, 'ping-host-methods.js'), 'utf8'), errorModuleFromOpenRPC(document, options), regenerate);
});
