// The shared fixtures (Tests/Fixtures/*.json), the contract between the Swift host and this
// package, checked from the extension's side as Tests/Fixtures/README.md describes:
//   1. every case, through wallet-bridge/testing's generic checks (src/fixture-runner.js): a
//      `request` that is a valid request is one the client can build, and builds it; a batch
//      reply maps back to its requests; every non-null `response` decodes, a result to its value,
//      an error to a NativeRpcError with the same code, message, data and id. A malformed file
//      fails there, naming the file and the case;
//   2. a session method's successful case goes through the client's own checks: its params are
//      ones the client sends as they are, and its result passes the check the client runs on
//      that method's reply before the caller sees it (a signMessage signature also verifies);
//   3. end to end: every case that is one simple request (a `request` value, a reply expected,
//      no framing exit) is sent through the client's raw path to the real host via the shim, over
//      both transports, and the reply compared.
import assert from 'node:assert/strict';
import { createPublicKey, verify } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createNativeClient } from '../src/index.js';
import { base58Decode } from '../src/base58.js';
import {
  checkConnectParams,
  checkOrigin,
  checkReason,
  checkSession,
  checkSessionDisconnectResult,
  checkSessionExtendResult,
  checkSessionListResult,
  checkSessionRequestParams,
  checkSessionRequestResult,
  checkTopic,
} from '../src/sessions.js';
import { loadFixtureFile, runFixtureFile } from '../src/testing.js';
import { APPLICATION, createShimRuntime, requireHost } from './native-host-shim.js';

const FIXTURES = fileURLToPath(new URL('../../Tests/Fixtures/', import.meta.url));
const files = existsSync(FIXTURES) ? readdirSync(FIXTURES).filter((name) => name.endsWith('.json')).sort() : [];

test('the fixture folder exists and holds fixture files', () => {
  assert.ok(existsSync(FIXTURES), `no fixture folder at ${FIXTURES}`);
  assert.ok(files.length > 0, `no *.json fixtures in ${FIXTURES}`);
});

/**
 * A request object the client could send (README: jsonrpc "2.0", a string method, params an
 * object or array, id a string or a number); the session checks only look at these.
 * @param {unknown} value
 * @returns {value is { jsonrpc: '2.0', method: string, params?: any, id?: string | number }}
 */
function isRequest(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    && /** @type {any} */ (value).jsonrpc === '2.0' && typeof /** @type {any} */ (value).method === 'string';
}

/**
 * For each session method, what the client does around the call (NativeClient's connect,
 * listSessions, sessionRequest, extend and disconnect): `params` checks the params it would send
 * and returns them as it would put them on the wire; `result` runs the check it runs on the reply
 * and returns what the caller would get.
 * @type {Record<string, { params: (params: any) => any, result: (result: any, request: any) => any }>}
 */
const SESSION_METHODS = {
  session_connect: {
    params: (params) => checkConnectParams(params),
    result: (result, request) => checkSession(result, { id: request.id, method: 'session_connect' }),
  },
  session_list: {
    params: (params) => params ?? {},
    result: (result, request) => checkSessionListResult(result, { id: request.id }),
  },
  session_request: {
    params: (params) => checkSessionRequestParams(params),
    result: (result, request) => checkSessionRequestResult(request.params.request.method, result, { id: request.id, params: request.params.request.params }),
  },
  session_extend: {
    params: (params) => {
      checkTopic(params.topic);
      checkOrigin(params.origin);
      return withSite({ topic: params.topic }, params);
    },
    result: (result, request) => checkSessionExtendResult(result, { id: request.id }),
  },
  session_disconnect: {
    params: (params) => {
      checkTopic(params.topic);
      checkReason(params.reason);
      checkOrigin(params.origin);
      return withSite(params.reason === undefined ? { topic: params.topic } : { topic: params.topic, reason: params.reason }, params);
    },
    result: (result, request) => {
      checkSessionDisconnectResult(result, { id: request.id });
      return result;
    },
  },
};

/**
 * The params with the site's origin, when the request names one (as the client sends it).
 * @param {Record<string, unknown>} wire
 * @param {{ origin?: string }} params
 */
function withSite(wire, params) {
  return params.origin === undefined ? wire : { ...wire, origin: params.origin };
}

/**
 * Verifies an Ed25519 signature with Node's own implementation: a third one beside the host's
 * libsodium and the generator's Python cryptography.
 * @param {Uint8Array} message
 * @param {Uint8Array} publicKey 32 bytes
 * @param {Uint8Array} signature 64 bytes
 */
function ed25519Verifies(message, publicKey, signature) {
  const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(publicKey).toString('base64url') }, format: 'jwk' });
  return verify(null, message, key, signature);
}

// A malformed file is reported by runFixtureFile below; the other checks skip it.
/** @type {Map<string, import('../src/testing.js').FixtureCase[]>} */
const casesByFile = new Map();
/** Files with state (a file env, setup cases, {tmpdir}), which the end-to-end checks below do not set up. */
const withState = [];
for (const file of files) {
  try {
    const loaded = loadFixtureFile(join(FIXTURES, file));
    casesByFile.set(file, loaded.cases);
    const tmpdir = [...loaded.setup, ...loaded.cases].some((fixture) => Object.values(fixture.env ?? {}).some((value) => value.includes('{tmpdir}')));
    if (Object.keys(loaded.env).length > 0 || loaded.setup.length > 0 || tmpdir) withState.push(file);
  } catch {
    // reported below
  }
}

// The end-to-end checks below send each case's request with the case's own args and env, and
// nothing before it; a file's env, setup cases and {tmpdir} folder (docs/fixtures.md, "State")
// are the Swift runner's and conform's to run. A repository fixture that uses them needs those
// checks taught first, or it would be sent without its state here.
test('the repository\'s fixture files keep no state, which the end-to-end checks here do not set up', () => {
  assert.deepEqual(withState, []);
});

describe('fixtures from the extension\'s side', () => {
  for (const file of files) runFixtureFile(join(FIXTURES, file));
});

describe('session methods: the client\'s params and result checks accept the fixtures', () => {
  let count = 0;
  for (const [file, cases] of casesByFile) {
    for (const fixture of cases) {
      const { request, response } = /** @type {any} */ (fixture);
      const session = isRequest(request) ? SESSION_METHODS[request.method] : undefined;
      if (!session || response === null || Array.isArray(response) || !('result' in response)) continue;
      count += 1;
      test(`${file}: ${fixture.name}`, () => {
        assert.deepEqual(session.params(request.params), request.params ?? {});
        assert.deepEqual(session.result(response.result, request), response.result);
        if (request.method === 'session_request' && request.params.request.method === 'solana_signMessage') {
          const { message, pubkey } = request.params.request.params;
          const signature = base58Decode(response.result.signature);
          assert.equal(signature.length, 64);
          assert.ok(ed25519Verifies(base58Decode(message), base58Decode(pubkey), signature), 'the signature verifies');
        }
      });
    }
  }
  test('some session cases are checked', () => assert.ok(count > 0, 'no session_* case with a result in the fixtures'));
});

/** A case is one simple request: a `request` value, a reply expected, the host kept serving. */
const simple = (/** @type {any} */ fixture) => 'request' in fixture && fixture.response !== null && !('exit_code' in fixture);

describe('simple fixture requests, end to end through the real host', () => {
  /** @type {ReturnType<typeof createShimRuntime>[]} */
  const shims = [];
  after(async () => { await Promise.all(shims.map((shim) => shim.dispose())); });

  for (const [file, cases] of casesByFile) {
    const selected = cases.filter(simple);
    if (selected.length === 0) continue;

    test(`${file}: ${selected.length} cases over the "message" transport (one host process each)`, async (t) => {
      requireHost();
      for (const fixture of selected) {
        await t.test(fixture.name, async () => {
          const runtime = createShimRuntime({ args: fixture.args ?? [], env: fixture.env ?? {} });
          shims.push(runtime);
          const client = createNativeClient({ application: APPLICATION, runtime, timeoutMs: 10_000 });
          assert.deepEqual(await client.sendRaw(fixture.request), fixture.response);
        });
      }
    });

    test(`${file}: ${selected.length} cases over the "port" transport (one host per args and env)`, async (t) => {
      requireHost();
      /** @type {Map<string, ReturnType<typeof createNativeClient>>} */
      const clients = new Map();
      for (const fixture of selected) {
        const key = JSON.stringify([fixture.args ?? [], fixture.env ?? {}]);
        let client = clients.get(key);
        if (!client) {
          const runtime = createShimRuntime({ args: fixture.args ?? [], env: fixture.env ?? {} });
          shims.push(runtime);
          client = createNativeClient({ application: APPLICATION, runtime, transport: 'port', timeoutMs: 10_000 });
          clients.set(key, client);
        }
        const port = client;
        // One at a time: a reply with id null can then only be this request's.
        await t.test(fixture.name, async () => {
          assert.deepEqual(await port.sendRaw(fixture.request), fixture.response);
        });
      }
      for (const client of clients.values()) client.close();
    });
  }
});
