// The package against the real Swift host (wallet-bridge-conformance-host), through the shim
// that plays the browser. Each behaviour is checked as the extension sees it: resolved values,
// and on failure the error class and its discriminant. Every wait is bounded by a timeout.
import assert from 'node:assert/strict';
import { createPrivateKey, createPublicKey, verify } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { after, test } from 'node:test';
import {
  NativeProtocolError,
  NativeRpcError,
  NativeRpcErrorCode,
  NativeTransportError,
  createNativeClient,
} from '../src/index.js';
import { BROWSER_MESSAGES } from './fakes.js';
import { APPLICATION, CHROME_ORIGIN, FIREFOX_ADDON, createShimRuntime, requireHost } from './native-host-shim.js';

const TEST_TIMEOUT = { timeout: 20_000 };
/** @type {ReturnType<typeof createShimRuntime>[]} */
const shims = [];
after(async () => { await Promise.all(shims.map((shim) => shim.dispose())); });

/**
 * A client on a fresh shim; fails the test (never skips) when the host is not built.
 * @param {import('./native-host-shim.js').ShimOptions & { transport?: 'message' | 'port', timeoutMs?: number,
 *   onWarning?: (w: import('../src/index.js').NativeClientWarning) => void, application?: string }} [options]
 */
function hostClient(options = {}) {
  requireHost();
  const { transport = 'message', timeoutMs = 10_000, onWarning, application = APPLICATION, ...shimOptions } = options;
  const runtime = createShimRuntime(shimOptions);
  shims.push(runtime);
  const client = createNativeClient({ application, runtime, transport, timeoutMs, onWarning });
  return { client, runtime };
}

/**
 * The test wallet's accounts, derived here from the public seeds with Node's own Ed25519, so the
 * check does not rest on the host or the fixtures.
 * @param {number} byte
 */
function testAccount(byte) {
  const pkcs8 = Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), Buffer.alloc(32, byte)]);
  const publicKey = createPublicKey(createPrivateKey({ key: pkcs8, format: 'der', type: 'pkcs8' }));
  const jwk = publicKey.export({ format: 'jwk' });
  return { publicKey, address: Buffer.from(String(jwk.x), 'base64url').toString('base64') };
}
const ACCOUNTS = [testAccount(1), testAccount(2)];

const BOTH = /** @type {const} */ (['message', 'port']);
const FLAVORS = /** @type {const} */ (['chrome', 'firefox']);

for (const flavor of FLAVORS) {
  for (const transport of BOTH) {
    const label = `${flavor} ${transport}`;

    test(`${label}: getAccounts returns the test wallet's two accounts`, TEST_TIMEOUT, async () => {
      const { client } = hostClient({ flavor, transport });
      assert.deepEqual(await client.getAccounts(), { addresses: ACCOUNTS.map((a) => a.address) });
      client.close();
    });

    test(`${label}: signPayloads returns payload + a signature that verifies with the account's key`, TEST_TIMEOUT, async () => {
      const { client } = hostClient({ flavor, transport });
      const payloads = [Buffer.from('hello'), Buffer.from([0, 1, 2, 255]), Buffer.alloc(1000, 7)];
      const { signed_payloads: signed } = await client.signPayloads({ address: ACCOUNTS[1].address, payloads: payloads.map((p) => p.toString('base64')) });
      assert.equal(signed.length, payloads.length);
      signed.forEach((entry, index) => {
        const bytes = Buffer.from(entry, 'base64');
        const payload = bytes.subarray(0, bytes.length - 64);
        assert.deepEqual(payload, payloads[index], 'the payload comes first, in order');
        assert.ok(verify(null, payload, ACCOUNTS[1].publicKey, bytes.subarray(bytes.length - 64)), `signature ${index} verifies`);
        assert.ok(!verify(null, payload, ACCOUNTS[0].publicKey, bytes.subarray(bytes.length - 64)), 'and not with the other key');
      });
      client.close();
    });

    test(`${label}: wallet errors arrive as NativeRpcError with the catalogue code and data`, TEST_TIMEOUT, async () => {
      const { client } = hostClient({ flavor, transport });
      const address = ACCOUNTS[0].address;
      await assert.rejects(client.signPayloads({ address, payloads: ['aGVsbG8=', 'not base64!', ''] }), (error) =>
        error instanceof NativeRpcError && error.code === NativeRpcErrorCode.invalidPayloads && error.message === 'Invalid payloads'
        && JSON.stringify(error.data) === JSON.stringify({ valid: [true, false, false] }));
      await assert.rejects(client.signPayloads({ address, payloads: Array(17).fill('aGVsbG8=') }), (error) =>
        error instanceof NativeRpcError && error.code === NativeRpcErrorCode.tooManyPayloads && error.message === 'Too many payloads');
      await assert.rejects(client.signPayloads({ address: 'AAAA', payloads: ['aGVsbG8='], id: 'unknown-address' }), (error) =>
        error instanceof NativeRpcError && error.code === NativeRpcErrorCode.invalidParams && error.id === 'unknown-address');
      await assert.rejects(client.request({ method: 'no.such.method' }), (error) => error instanceof NativeRpcError && error.code === NativeRpcErrorCode.methodNotFound);
      await assert.rejects(client.request({ method: 'test.fail' }), (error) =>
        error instanceof NativeRpcError && error.code === NativeRpcErrorCode.internalError && error.data === undefined);
      client.close();
    });

    test(`${label}: the host sees the caller the browser names in argv`, TEST_TIMEOUT, async () => {
      const { client } = hostClient({ flavor, transport });
      const context = await client.request({ method: 'test.context', id: 'ctx' });
      assert.deepEqual(context, { caller: flavor === 'chrome' ? CHROME_ORIGIN : FIREFOX_ADDON, id: 'ctx', method: 'test.context' });
      client.close();
    });

    test(`${label}: a reply over the host's 1 MiB limit becomes "Response too large" (-32000), not a dropped port`, TEST_TIMEOUT, async () => {
      const { client } = hostClient({ flavor, transport });
      await assert.rejects(client.request({ method: 'test.large', params: { bytes: 2_000_000 } }), (error) =>
        error instanceof NativeRpcError && error.code === NativeRpcErrorCode.responseTooLarge
        && /** @type {any} */ (error.data).limit === 1_048_576 && /** @type {any} */ (error.data).bytes > 2_000_000);
      // The host kept serving.
      assert.equal((await client.request({ method: 'test.large', params: { bytes: 100_000 } })).length, 100_000);
      client.close();
    });

    test(`${label}: a reply the browser refuses as too big is a transport error with the browser's text`, TEST_TIMEOUT, async () => {
      // Plays a host that breaks the 1 MiB rule: the "browser" limit is lowered below the reply.
      const { client } = hostClient({ flavor, transport, maxReplyBytes: 1000 });
      await assert.rejects(client.request({ method: 'test.large', params: { bytes: 5000 } }), (error) =>
        error instanceof NativeTransportError && error.kind === 'disconnected' && error.message === BROWSER_MESSAGES[flavor].communication);
      client.close();
    });

    test(`${label}: a hung host times out on the client, never hangs`, TEST_TIMEOUT, async () => {
      const { client } = hostClient({ flavor, transport, timeoutMs: 300 });
      await assert.rejects(client.request({ method: 'test.hang', id: 'hung' }), (error) =>
        error instanceof NativeTransportError && error.kind === 'timeout' && error.id === 'hung' && error.browserMessage === null);
      // The port itself is still usable for the next request.
      assert.equal(await client.request({ method: 'sum', params: [20, 22] }), 42);
      client.close();
    });

    test(`${label}: the host's own timeout answers with "Request timed out" (-32001)`, TEST_TIMEOUT, async () => {
      const { client } = hostClient({ flavor, transport, env: { WALLET_BRIDGE_REQUEST_TIMEOUT_MS: '200' } });
      await assert.rejects(client.request({ method: 'test.hang' }), (error) => error instanceof NativeRpcError && error.code === NativeRpcErrorCode.requestTimedOut);
      client.close();
    });

    test(`${label}: a name the browser does not know is host-not-found with the browser's text`, TEST_TIMEOUT, async () => {
      const { client } = hostClient({ flavor, transport, application: 'com.example.not_installed' });
      await assert.rejects(client.getAccounts(), (error) =>
        error instanceof NativeTransportError && error.kind === 'host-not-found' && error.message === BROWSER_MESSAGES[flavor].notFound('com.example.not_installed'));
    });

    test(`${label}: a host binary that cannot start is start-failed`, TEST_TIMEOUT, async () => {
      const { client } = hostClient({ flavor, transport, hostPath: '/nonexistent/wallet-bridge-host' });
      await assert.rejects(client.getAccounts(), (error) => error instanceof NativeTransportError && error.kind === 'start-failed');
    });

    test(`${label}: hostile replies (wrong id, missing fields, both result and error) are NativeProtocolError or ignored, never hang`, TEST_TIMEOUT, async () => {
      /** @type {Array<[string, (reply: any) => any, string]>} */
      const tamperings = [
        ['wrong id', (reply) => ({ ...reply, id: 'someone-else' }), 'wrong-id'],
        ['no jsonrpc', ({ jsonrpc, ...rest }) => rest, 'not-json-rpc'],
        ['no result', ({ result, ...rest }) => rest, 'invalid-response'],
        ['result and error', (reply) => ({ ...reply, error: { code: -32603, message: 'Internal error' } }), 'invalid-response'],
      ];
      for (const [what, transformReply, kind] of tamperings) {
        /** @type {unknown[]} */
        const warnings = [];
        const { client } = hostClient({ flavor, transport, transformReply, timeoutMs: 500, onWarning: (w) => warnings.push(w) });
        const outcome = client.request({ method: 'sum', params: [1, 2], id: 'mine' });
        if (transport === 'port' && kind === 'wrong-id') {
          // On a shared port a reply with another id belongs to no one: reported, then the request times out.
          await assert.rejects(outcome, (error) => error instanceof NativeTransportError && error.kind === 'timeout', what);
          assert.equal(warnings.length, 1, what);
        } else {
          await assert.rejects(outcome, (error) => error instanceof NativeProtocolError && error.kind === kind, what);
        }
        client.close();
      }
    });

    test(`${label}: batches go out as one array and map back by id`, TEST_TIMEOUT, async () => {
      const { client } = hostClient({ flavor, transport });
      const entries = await client.batch([
        { method: 'NATIVE_GET_ACCOUNTS_METHOD', id: 'accounts' },
        { method: 'notify_hello', params: [7], notification: true },
        { method: 'subtract', params: { minuend: 42, subtrahend: 23 } },
        { method: 'nope' },
        { method: 'NATIVE_SIGN_PAYLOADS_METHOD', params: { address: ACCOUNTS[0].address, payloads: ['!!'] } },
      ]);
      assert.equal(entries.length, 4);
      assert.deepEqual(entries[0], { id: 'accounts', method: 'NATIVE_GET_ACCOUNTS_METHOD', result: { addresses: ACCOUNTS.map((a) => a.address) } });
      assert.equal(entries[1].result, 19);
      assert.equal(entries[2].error?.code, NativeRpcErrorCode.methodNotFound);
      assert.equal(entries[3].error?.code, NativeRpcErrorCode.invalidPayloads);
      client.close();
    });

    test(`${label}: a batch refused as a whole rejects with NativeRpcError`, TEST_TIMEOUT, async () => {
      const { client } = hostClient({ flavor, transport, env: { WALLET_BRIDGE_MAX_BATCH: '2' } });
      await assert.rejects(client.batch([{ method: 'sum', params: [1] }, { method: 'sum', params: [2] }, { method: 'sum', params: [3] }]), (error) =>
        error instanceof NativeRpcError && error.code === NativeRpcErrorCode.invalidRequest && isDeepStrictEqual(error.data, { problem: 'a batch of 3 requests exceeds the limit of 2' }));
      await assert.rejects(client.batch([
        { method: 'test.large', params: { bytes: 600_000 } },
        { method: 'test.large', params: { bytes: 600_000 } },
      ]), (error) => error instanceof NativeRpcError && error.code === NativeRpcErrorCode.responseTooLarge);
      client.close();
    });

    test(`${label}: a batch refused as a whole rejects at once while other requests are pending`, TEST_TIMEOUT, async () => {
      const { client } = hostClient({ flavor, transport, env: { WALLET_BRIDGE_MAX_BATCH: '2' } });
      // The slow request outlives the batches' own timeouts: a refusal that did not reach its
      // batch would show as a timeout.
      const slow = client.request({ method: 'test.sleep', params: { ms: 4000 } });
      await assert.rejects(client.batch([{ method: 'sum', params: [1] }, { method: 'sum', params: [2] }, { method: 'sum', params: [3] }], { timeoutMs: 3000 }), (error) =>
        error instanceof NativeRpcError && error.code === NativeRpcErrorCode.invalidRequest);
      await assert.rejects(client.batch([
        { method: 'test.large', params: { bytes: 600_000 } },
        { method: 'test.large', params: { bytes: 600_000 } },
      ], { timeoutMs: 3000 }), (error) => error instanceof NativeRpcError && error.code === NativeRpcErrorCode.responseTooLarge);
      assert.deepEqual(await slow, { slept: 4000 });
      client.close();
    });

    test(`${label}: a request over the host's frame limit gets "Request too large" (-32004), then the host exits`, TEST_TIMEOUT, async () => {
      const { client, runtime } = hostClient({ flavor, transport, env: { WALLET_BRIDGE_MAX_FRAME_BYTES: '256' } });
      await assert.rejects(client.request({ method: 'test.echo', params: ['x'.repeat(1000)], id: 'big' }), (error) =>
        error instanceof NativeRpcError && error.code === NativeRpcErrorCode.requestTooLarge && error.id === 'big');
      assert.equal(await runtime.processes[0].exit, 1);
      // The next request works: a new process (message) or a reopened port.
      assert.equal(await client.request({ method: 'sum', params: [1, 2] }), 3);
      assert.equal(runtime.processes.length, 2);
      client.close();
    });
  }

  test(`${flavor} port: many requests share one host process and replies come back out of order`, TEST_TIMEOUT, async () => {
    const { client, runtime } = hostClient({ flavor, transport: 'port' });
    /** @type {string[]} */
    const settled = [];
    const slow = client.request({ method: 'test.sleep', params: { ms: 1000 } }).then((r) => { settled.push('slow'); return r; });
    const quick = Array.from({ length: 20 }, (_, i) => client.request({ method: 'sum', params: [i, 1] }).then((r) => { settled.push('quick'); return r; }));
    assert.deepEqual(await Promise.all(quick), Array.from({ length: 20 }, (_, i) => i + 1));
    assert.deepEqual(await slow, { slept: 1000 });
    assert.equal(settled[settled.length - 1], 'slow', 'the first request sent was answered last');
    assert.equal(runtime.processes.length, 1);
    client.close();
  });

  test(`${flavor} port: a host that dies rejects everything pending, and the next request starts a new host`, TEST_TIMEOUT, async () => {
    const { client, runtime } = hostClient({ flavor, transport: 'port' });
    assert.equal(await client.request({ method: 'sum', params: [1] }), 1);
    const pending = [client.request({ method: 'test.hang' }), client.request({ method: 'test.sleep', params: { ms: 5000 } })];
    await new Promise((resolve) => setTimeout(resolve, 50));
    process.kill(/** @type {number} */ (runtime.processes[0].pid), 'SIGKILL');
    for (const result of await Promise.allSettled(pending)) {
      assert.equal(result.status, 'rejected');
      const error = /** @type {PromiseRejectedResult} */ (result).reason;
      assert.ok(error instanceof NativeTransportError && error.kind === 'disconnected', String(error));
      assert.equal(error.message, BROWSER_MESSAGES[flavor].exited);
    }
    assert.equal(await client.request({ method: 'sum', params: [2] }), 2);
    assert.equal(runtime.processes.length, 2);
    client.close();
  });

  test(`${flavor} port: close() rejects pending requests and the host exits cleanly on end of input`, TEST_TIMEOUT, async () => {
    const { client, runtime } = hostClient({ flavor, transport: 'port', env: { WALLET_BRIDGE_SHUTDOWN_GRACE_MS: '100' } });
    assert.equal(await client.request({ method: 'sum', params: [1] }), 1);
    const pending = client.request({ method: 'test.sleep', params: { ms: 5000 } });
    client.close();
    await assert.rejects(pending, (error) => error instanceof NativeTransportError && error.kind === 'closed');
    assert.equal(await runtime.processes[0].exit, 0);
  });
}
