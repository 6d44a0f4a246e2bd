// What the session methods send is also held to the params schemas the host states in its
// rpc.discover (src/session-schemas.js, generated; src/json-schema.js checks): a limit the host
// states is refused before sending, naming the field, without being written again in JS.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  ETH_ACCOUNTS_METHOD,
  ETH_CHAIN_ID_METHOD,
  ETH_SIGN_TRANSACTION_METHOD,
  ETH_SIGN_TYPED_DATA_V4_METHOD,
  NativeProtocolError,
  PERSONAL_SIGN_METHOD,
  SOLANA_GET_ACCOUNTS_METHOD,
  SOLANA_MAINNET_CHAIN_ID,
  SOLANA_REQUEST_ACCOUNTS_METHOD,
  SOLANA_SIGN_ALL_TRANSACTIONS_METHOD,
  SOLANA_SIGN_IN_METHOD,
  SOLANA_SIGN_MESSAGE_METHOD,
  SOLANA_SIGN_TRANSACTION_METHOD,
  createNativeClient,
} from '../src/index.js';
import { schemaProblem } from '../src/json-schema.js';
import { SESSION_REQUEST_RESULTS, SESSION_SCHEMAS } from '../src/session-schemas.js';
import { checkSessionRequestResult, sessionEventProblem } from '../src/sessions.js';
import { fakeChrome } from './fakes.js';

const APP = 'com.example.wallet_bridge';
const TOPIC = 'a'.repeat(64);

/** A client whose host must never be reached. */
function refusingClient() {
  const runtime = fakeChrome({ [APP]: () => assert.fail('nothing should be sent') });
  return { client: createNativeClient({ application: APP, runtime }), runtime };
}

const namespaces = (/** @type {object} */ fields) => ({ solana: { chains: [SOLANA_MAINNET_CHAIN_ID], methods: [], events: [], ...fields } });

test('connect refuses, before sending, what only the host\'s schema says it refuses', async () => {
  const { client, runtime } = refusingClient();
  /** @type {Array<[object, RegExp]>} */
  const cases = [
    [{ requiredNamespaces: namespaces({ methods: ['x'.repeat(257)] }), metadata: { name: 'n' } },
      /^session_connect's params: requiredNamespaces\.solana\.methods\[0\] is 257 characters, more than 256$/],
    [{ requiredNamespaces: namespaces({ methods: Array.from({ length: 65 }, (_, index) => `m${index}`) }), metadata: { name: 'n' } },
      /^session_connect's params: requiredNamespaces\.solana\.methods holds 65 items, more than 64$/],
    [{ requiredNamespaces: namespaces({ events: [''] }), metadata: { name: 'n' } },
      /^session_connect's params: requiredNamespaces\.solana\.events\[0\] is 0 characters, fewer than 1$/],
    [{ requiredNamespaces: namespaces({}), metadata: { name: 'n', icons: Array(9).fill('https://app.example.com/i.png') } },
      /^session_connect's params: metadata\.icons holds 9 items, more than 8$/],
  ];
  for (const [params, pattern] of cases) {
    await assert.rejects(client.connect(/** @type {any} */ (params)), (error) => error instanceof TypeError && pattern.test(error.message), String(pattern));
  }
  assert.equal(runtime.sent.length, 0);
});

test('the schemas are the host\'s: each session method\'s params and result', () => {
  assert.deepEqual(Object.keys(SESSION_SCHEMAS).sort(), ['session_connect', 'session_disconnect', 'session_extend', 'session_list', 'session_request']);
  const extend = /** @type {any} */ (SESSION_SCHEMAS.session_extend.params);
  assert.equal(extend.properties.topic.pattern, '^[0-9a-f]{64}$');
  assert.deepEqual(extend.required, ['topic']);
  assert.equal(schemaProblem(extend, { topic: TOPIC }), null);
  assert.equal(schemaProblem(extend, { topic: TOPIC.toUpperCase() }), `topic is "${'A'.repeat(40)}"…, which does not match ^[0-9a-f]{64}$`);
  // Annotations are left out; a member named description is kept.
  const connect = /** @type {any} */ (SESSION_SCHEMAS.session_connect.params);
  assert.equal(connect.title, undefined);
  assert.ok(connect.properties.metadata.properties.description);
  // The results: a session, session_extend's expiry, and each inner method's by its name.
  const session = /** @type {any} */ (SESSION_SCHEMAS.session_connect.result);
  assert.equal(session.properties.topic.pattern, '^[0-9a-f]{64}$');
  assert.deepEqual(/** @type {any} */ (SESSION_SCHEMAS.session_list.result).properties.sessions.items, session);
  assert.deepEqual(/** @type {any} */ (SESSION_SCHEMAS.session_extend.result).required, ['expiry']);
  assert.deepEqual(Object.keys(SESSION_REQUEST_RESULTS).sort(), [...INNER_METHODS].sort());
  assert.deepEqual(SESSION_REQUEST_RESULTS.solana_getAccounts, SESSION_REQUEST_RESULTS.solana_requestAccounts);
  assert.equal(/** @type {any} */ (SESSION_REQUEST_RESULTS.eth_chainId).pattern, '^0x[1-9a-f][0-9a-f]*$');
});

/** The inner methods docs/sessions.md defines, by the package's names for them. */
const INNER_METHODS = [SOLANA_SIGN_MESSAGE_METHOD, SOLANA_SIGN_TRANSACTION_METHOD, SOLANA_SIGN_ALL_TRANSACTIONS_METHOD,
  SOLANA_SIGN_IN_METHOD, SOLANA_GET_ACCOUNTS_METHOD, SOLANA_REQUEST_ACCOUNTS_METHOD, PERSONAL_SIGN_METHOD,
  ETH_SIGN_TYPED_DATA_V4_METHOD, ETH_SIGN_TRANSACTION_METHOD, ETH_CHAIN_ID_METHOD, ETH_ACCOUNTS_METHOD];

test('every inner method\'s result is held to the host\'s schema for it, naming the method; another method\'s passes as it is', () => {
  for (const method of INNER_METHODS) {
    assert.throws(() => checkSessionRequestResult(method, 12345, { id: 7 }), (error) => error instanceof NativeProtocolError
      && error.kind === 'invalid-result' && error.method === 'session_request' && error.id === 7 && error.response === 12345
      && new RegExp(`^session_request \\(${method}\\) returned a malformed result: the result is 12345, not an? (object|array|string)$`).test(error.message), method);
  }
  assert.equal(checkSessionRequestResult('custom_method', 12345, {}), 12345);
});

test('session_update notifications are held to a session\'s schema: its namespaces and expiry', () => {
  const namespaces = { solana: { chains: [SOLANA_MAINNET_CHAIN_ID], accounts: [], methods: [], events: [] } };
  assert.equal(sessionEventProblem('session_update', { topic: TOPIC, namespaces, expiry: 1_795_000_000 }), null);
  /** @type {Array<[object, string]>} */
  const cases = [
    [{ namespaces: { [SOLANA_MAINNET_CHAIN_ID]: namespaces.solana } }, `session_update params.namespaces has the member "${SOLANA_MAINNET_CHAIN_ID}", which it may not`],
    [{ namespaces: { solana: { ...namespaces.solana, accounts: undefined } } }, 'session_update params.namespaces.solana.accounts is undefined, not an array'],
    [{ namespaces: { solana: { ...namespaces.solana, chains: ['eip155:1'] } } }, 'session_update params.namespaces.solana.chains holds "eip155:1", not a CAIP-2 chain id of the namespace "solana"'],
    [{ namespaces: undefined }, 'session_update params.namespaces is undefined, not an object'],
    [{ expiry: 1.5 }, 'session_update params.expiry is 1.5, not a whole number'],
  ];
  for (const [change, expected] of cases) {
    assert.equal(sessionEventProblem('session_update', { topic: TOPIC, namespaces, expiry: 1_795_000_000, ...change }), expected);
  }
});

test('the checker: the draft-07 keywords the host\'s schemas use', () => {
  /** @type {Array<[unknown, unknown, string | null]>} */
  const cases = [
    [{ type: 'string' }, 'x', null],
    [{ type: 'string' }, 5, 'the value is 5, not a string'],
    [{ type: ['object', 'null'] }, null, null],
    [{ type: ['object', 'null'] }, [], 'the value is an array, not an object or null'],
    [{ type: 'integer' }, 1.5, 'the value is 1.5, not a whole number'],
    [{ enum: ['a', 'b'] }, 'c', 'the value is "c", not one of "a", "b"'],
    [{ const: 'a' }, 'b', 'the value is "b", not "a"'],
    [{ minLength: 2, maxLength: 3 }, '🔑🔑', null],
    [{ maxLength: 1 }, '🔑🔑', 'the value is 2 characters, more than 1'],
    [{ pattern: '^a+$' }, 'ab', 'the value is "ab", which does not match ^a+$'],
    [{ minimum: 1, maximum: 2 }, 3, 'the value is 3, more than 2'],
    [{ minItems: 1 }, [], 'the value holds 0 items, fewer than 1'],
    [{ items: { type: 'string' } }, ['a', 1], '[1] is 1, not a string'],
    [{ items: [{ type: 'string' }], additionalItems: false }, ['a', 'b'], '[1] must not be there'],
    [{ required: ['a'] }, {}, 'a is missing'],
    [{ properties: { a: { type: 'string' } } }, { a: 1 }, 'a is 1, not a string'],
    [{ properties: { chains: false } }, { chains: [] }, 'chains must not be there'],
    [{ patternProperties: { '^[a-z]+$': { type: 'string' } }, additionalProperties: false }, { ab: 'x', 'a:b': 'y' }, 'the value has the member "a:b", which it may not'],
    [{ patternProperties: { '^[a-z]+$': { type: 'string' } } }, { ab: 1 }, 'ab is 1, not a string'],
    [{ maxProperties: 0 }, { a: 1 }, 'the value has 1 members, more than 0'],
    [{ anyOf: [{ type: 'string', minLength: 2 }, { type: 'null' }] }, 'a', 'the value is 1 characters, fewer than 2'],
    [{ anyOf: [{ type: 'string' }, { type: 'number' }] }, true, 'the value is none of the 2 forms it may take (the value is a boolean, not a string)'],
    [{ allOf: [{ required: ['a'] }, { required: ['b'] }] }, { a: 1 }, 'b is missing'],
    [{ not: { enum: ['x'] } }, 'x', 'the value is a form it may not take'],
    [{ properties: { o: { properties: { 'solana:x': { type: 'string' } } } } }, { o: { 'solana:x': 1 } }, 'o["solana:x"] is 1, not a string'],
    [true, 1, null],
    [{ format: 'uri' }, 'not checked', null],
    [{ additionalProperties: false }, { ['k'.repeat(1000)]: 1 }, `the value has the member "${'k'.repeat(40)}"…, which it may not`],
    [{ properties: { ['k'.repeat(1000)]: { type: 'string' } } }, { ['k'.repeat(1000)]: 1 }, `"${'k'.repeat(40)}"… is 1, not a string`],
  ];
  for (const [schema, value, expected] of cases) {
    assert.equal(schemaProblem(schema, value), expected, JSON.stringify([schema, value]));
  }
  // What the value itself is called, where a problem names it (a reply's "the result").
  assert.equal(schemaProblem({ type: 'object' }, null, '', 'the result'), 'the result is null, not an object');
  assert.equal(schemaProblem({ additionalProperties: false }, { a: 1 }, '', 'the result'), 'the result has the member "a", which it may not');
  assert.equal(schemaProblem({ items: { anyOf: [{ type: 'string' }, { type: 'number' }] } }, [true], '', 'the result'),
    '[0] is none of the 2 forms it may take ([0] is a boolean, not a string)');
  assert.equal(schemaProblem({ anyOf: [{ type: 'string' }, { type: 'number' }] }, true, '', 'the result'),
    'the result is none of the 2 forms it may take (the result is a boolean, not a string)');
  assert.equal(schemaProblem({ required: ['a'] }, {}, '', 'the result'), 'a is missing');
});

test('sessionRequest is held to its schema too: what the inner method takes', async () => {
  const { client, runtime } = refusingClient();
  const statement = 'x'.repeat(5000);
  await assert.rejects(
    client.sessionRequest({ topic: TOPIC, chainId: SOLANA_MAINNET_CHAIN_ID, request: { method: 'solana_signIn', params: { statement } } }),
    (error) => error instanceof TypeError && /^session_request's params: request\.params\.statement is 5000 characters, more than \d+$/.test(error.message),
  );
  assert.equal(runtime.sent.length, 0);
});

// The keywords json-schema.js checks, and those it knowingly leaves (annotations and formats).
const CHECKED = new Set(['type', 'enum', 'const', 'properties', 'required', 'additionalProperties', 'patternProperties',
  'items', 'additionalItems', 'minItems', 'maxItems', 'uniqueItems', 'minLength', 'maxLength', 'pattern', 'minimum',
  'maximum', 'minProperties', 'maxProperties', 'anyOf', 'allOf',
  'not']);
const UNCHECKED = new Set(['format', 'title', 'description', 'default', 'examples', '$comment', 'contentEncoding']);

test('every keyword and pattern of the host\'s session schemas is one the checker reads as the host does', () => {
  /** @type {Set<string>} */
  const unknown = new Set();
  /** @param {unknown} schema */
  const walk = (schema) => {
    if (Array.isArray(schema)) return schema.forEach(walk);
    if (typeof schema !== 'object' || schema === null) return;
    for (const [key, value] of Object.entries(schema)) {
      if (!CHECKED.has(key) && !UNCHECKED.has(key)) unknown.add(key);
      if (key === 'pattern') assert.doesNotThrow(() => new RegExp(/** @type {string} */ (value), 'u'), String(value));
      if (key === 'patternProperties') for (const source of Object.keys(/** @type {object} */ (value))) new RegExp(source, 'u');
      if (key === 'properties' || key === 'patternProperties') Object.values(/** @type {object} */ (value)).forEach(walk);
      else if (key !== 'enum' && key !== 'const' && key !== 'required') walk(value);
    }
  };
  for (const { params, result } of Object.values(SESSION_SCHEMAS)) walk([params, result]);
  walk(Object.values(SESSION_REQUEST_RESULTS));
  assert.deepEqual([...unknown], [], 'keywords json-schema.js would skip without a word');
});
