// The shared fixtures (Tests/Fixtures/*.json), the contract between the Swift host and this
// package, checked from the extension's side as Tests/Fixtures/README.md describes:
//   1. a case whose `request` is a valid request is one the client can build, and builds it;
//   2. every non-null `response` decodes: a result to its value, an error to a NativeRpcError
//      with the same code, message, data and id;
//   3. end to end: every case that is one simple request (a `request` value, a reply expected,
//      no framing exit) is sent through the client's raw path to the real host via the shim, over
//      both transports, and the reply compared;
//   4. a session method's successful case goes through the client's own checks: its params are
//      ones the client sends as they are, and its result passes the check the client runs on
//      that method's reply before the caller sees it (a signMessage signature also verifies).
import assert from 'node:assert/strict';
import { createPublicKey, verify } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import {
  NativeRpcError,
  buildBatch,
  buildNotification,
  buildRequest,
  createNativeClient,
  decodeBatchResponse,
  decodeResponse,
} from '../src/index.js';
import { base58Decode } from '../src/base58.js';
import {
  checkConnectParams,
  checkReason,
  checkSession,
  checkSessionDisconnectResult,
  checkSessionExtendResult,
  checkSessionListResult,
  checkSessionRequestParams,
  checkSessionRequestResult,
  checkTopic,
} from '../src/sessions.js';
import { APPLICATION, createShimRuntime, requireHost } from './native-host-shim.js';

const FIXTURES = fileURLToPath(new URL('../../Tests/Fixtures/', import.meta.url));
const files = existsSync(FIXTURES) ? readdirSync(FIXTURES).filter((name) => name.endsWith('.json')).sort() : [];
const INPUTS = ['request', 'request_text', 'request_base64', 'stream_base64'];
const REQUEST_MEMBERS = ['jsonrpc', 'method', 'params', 'id'];

test('the fixture folder exists and holds fixture files', () => {
  assert.ok(existsSync(FIXTURES), `no fixture folder at ${FIXTURES}`);
  assert.ok(files.length > 0, `no *.json fixtures in ${FIXTURES}`);
});

/**
 * README: "a valid request object (jsonrpc "2.0", string method, params absent or an object or
 * array, id absent, a string or a number)".
 * @param {unknown} value
 * @returns {value is { jsonrpc: '2.0', method: string, params?: any, id?: string | number }}
 */
function isBuildable(value) {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const request = /** @type {Record<string, unknown>} */ (value);
  return request.jsonrpc === '2.0'
    && typeof request.method === 'string'
    && (!('params' in request) || (typeof request.params === 'object' && request.params !== null))
    && (!('id' in request) || typeof request.id === 'string' || typeof request.id === 'number');
}

/**
 * What the client builds for a buildable request. The client sends exactly the four JSON-RPC
 * members, so a fixture's extra member (a host-side rule: extras are ignored) is not built.
 * @param {{ method: string, params?: any, id?: string | number }} request
 */
function build(request) {
  return 'id' in request && request.id !== undefined
    ? buildRequest({ method: request.method, params: request.params, id: request.id })
    : buildNotification({ method: request.method, params: request.params });
}

/** @param {Record<string, unknown>} request */
const jsonRpcMembers = (request) => Object.fromEntries(Object.entries(request).filter(([key]) => REQUEST_MEMBERS.includes(key)));

/**
 * @param {any} response one response object
 * @param {{ id?: string | number }} [expected]
 */
function assertDecodes(response, expected) {
  if ('result' in response) {
    assert.deepEqual(decodeResponse(response, expected), response.result);
    return;
  }
  assert.throws(() => decodeResponse(response, expected), (error) => {
    assert.ok(error instanceof NativeRpcError, `expected a NativeRpcError, got ${error}`);
    assert.equal(error.code, response.error.code);
    assert.equal(error.message, response.error.message);
    assert.deepEqual(error.data, response.error.data);
    assert.equal(error.id, response.id ?? expected?.id ?? null);
    return true;
  });
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
    result: (result, request) => checkSessionRequestResult(request.params.request.method, result, { id: request.id }),
  },
  session_extend: {
    params: (params) => {
      checkTopic(params.topic);
      return { topic: params.topic };
    },
    result: (result, request) => checkSessionExtendResult(result, { id: request.id }),
  },
  session_disconnect: {
    params: (params) => {
      checkTopic(params.topic);
      checkReason(params.reason);
      return params.reason === undefined ? { topic: params.topic } : { topic: params.topic, reason: params.reason };
    },
    result: (result, request) => {
      checkSessionDisconnectResult(result, { id: request.id });
      return result;
    },
  },
};

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

/** @type {Map<string, any[]>} */
const casesByFile = new Map(files.map((file) => [file, JSON.parse(readFileSync(join(FIXTURES, file), 'utf8')).cases]));

describe('fixtures from the extension\'s side', () => {
  for (const [file, cases] of casesByFile) {
    describe(file, () => {
      test('holds cases, each well-formed', () => {
        assert.ok(Array.isArray(cases) && cases.length > 0, `${file} has no cases`);
        const names = new Set();
        for (const fixture of cases) {
          assert.equal(typeof fixture.name, 'string');
          assert.ok(!names.has(fixture.name), `duplicate case name ${fixture.name}`);
          names.add(fixture.name);
          assert.equal(INPUTS.filter((input) => input in fixture).length, 1, `${fixture.name}: exactly one input`);
          assert.ok('response' in fixture, `${fixture.name}: response is required`);
        }
      });

      let checks = 0;
      for (const fixture of cases) {
        const { request, response } = fixture;
        if ('request' in fixture && isBuildable(request)) {
          checks += 1;
          test(`${fixture.name}: the client builds the fixture's request`, () => {
            assert.deepEqual(build(request), jsonRpcMembers(request));
          });
        }
        if ('request' in fixture && Array.isArray(request) && request.length > 0 && request.every(isBuildable) && response !== null) {
          checks += 1;
          test(`${fixture.name}: the batch reply maps back to the batch's requests`, () => {
            const items = request.map((entry) => ('id' in entry ? { ...entry } : { ...entry, notification: true }));
            const ids = request.filter((entry) => 'id' in entry).map((entry) => `${typeof entry.id}:${entry.id}`);
            if (new Set(ids).size !== ids.length) {
              // Replies are matched by id, so the client refuses to build such a batch at all.
              assert.throws(() => buildBatch(items), /unique/);
              return;
            }
            const batch = buildBatch(items);
            assert.deepEqual(batch, request.map(jsonRpcMembers));
            if (!Array.isArray(response)) {
              assert.throws(() => decodeBatchResponse(batch, response), (error) => error instanceof NativeRpcError && error.code === response.error.code);
              return;
            }
            const entries = decodeBatchResponse(batch, response);
            assert.equal(entries.length, response.length);
            for (const entry of entries) {
              const reply = response.find((/** @type {any} */ r) => r.id === entry.id);
              if ('error' in reply) {
                assert.ok(entry.error instanceof NativeRpcError);
                assert.deepEqual(entry.error.toJSON(), reply.error);
              } else {
                assert.deepEqual(entry.result, reply.result);
              }
            }
          });
        }
        const session = isBuildable(request) ? SESSION_METHODS[request.method] : undefined;
        if (session && response !== null && !Array.isArray(response) && 'result' in response) {
          checks += 1;
          test(`${fixture.name}: the client sends these params and its checks accept the result`, () => {
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
        if (response !== null) {
          checks += 1;
          test(`${fixture.name}: the response decodes`, () => {
            const expected = isBuildable(request) && 'id' in request ? { id: request.id } : undefined;
            for (const element of Array.isArray(response) ? response : [response]) assertDecodes(element, Array.isArray(response) ? undefined : expected);
          });
        }
      }
      test('checks at least one thing', () => assert.ok(checks > 0, `${file}: no case could be checked from the extension's side`));
    });
  }
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
