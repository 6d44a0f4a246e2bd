import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  NativeProtocolError,
  NativeRpcError,
  buildBatch,
  buildNotification,
  buildRequest,
  checkGetAccountsResult,
  checkSignPayloadsResult,
  decodeBatchResponse,
  decodeResponse,
  validateResponse,
} from '../src/index.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

test('buildRequest: real JSON params, the id kept or generated with randomUUID', () => {
  assert.deepEqual(buildRequest({ method: 'subtract', params: [42, 23], id: 1 }), { jsonrpc: '2.0', id: 1, method: 'subtract', params: [42, 23] });
  assert.deepEqual(buildRequest({ method: 'subtract', params: { minuend: 42, subtrahend: 23 }, id: 'a' }),
    { jsonrpc: '2.0', id: 'a', method: 'subtract', params: { minuend: 42, subtrahend: 23 } });
  const generated = buildRequest({ method: 'NATIVE_GET_ACCOUNTS_METHOD' });
  assert.match(String(generated.id), UUID);
  assert.ok(!('params' in generated), 'no params member when none are given');
  assert.notEqual(buildRequest({ method: 'x' }).id, generated.id);
});

test('buildRequest refuses what the host would refuse, with the reason', () => {
  assert.throws(() => buildRequest({ method: 'x', params: /** @type {any} */ ('{"a":1}') }), /not a string: pass the value itself/);
  assert.throws(() => buildRequest({ method: 'x', params: /** @type {any} */ (null) }), /object or an array/);
  assert.throws(() => buildRequest({ method: 'x', params: /** @type {any} */ (5) }), TypeError);
  assert.throws(() => buildRequest({ method: /** @type {any} */ (1) }), /method must be a string/);
  assert.throws(() => buildRequest({ method: /** @type {any} */ (undefined) }), TypeError);
  assert.throws(() => buildRequest({ method: 'x', id: /** @type {any} */ (null) }), /id must be a string or a finite number/);
  assert.throws(() => buildRequest({ method: 'x', id: NaN }), TypeError);
  assert.throws(() => buildRequest({ method: 'x', id: /** @type {any} */ ({}) }), TypeError);
});

test('buildNotification has no id', () => {
  assert.deepEqual(buildNotification({ method: 'update', params: [1, 2] }), { jsonrpc: '2.0', method: 'update', params: [1, 2] });
});

test('decodeResponse returns the result or throws the error as NativeRpcError', () => {
  assert.equal(decodeResponse({ jsonrpc: '2.0', id: 1, result: 19 }, { id: 1 }), 19);
  assert.equal(decodeResponse({ jsonrpc: '2.0', id: 1, result: null }, { id: 1 }), null);
  assert.throws(
    () => decodeResponse({ jsonrpc: '2.0', id: 'a', error: { code: -3, message: 'Payload not signed', data: 'declined' } }, { id: 'a', method: 'm' }),
    (error) => error instanceof NativeRpcError && error.code === -3 && error.message === 'Payload not signed' && error.data === 'declined' && error.id === 'a' && error.method === 'm',
  );
  // An error with id null answers the request: the host could not read its id.
  assert.throws(
    () => decodeResponse({ jsonrpc: '2.0', id: null, error: { code: -32004, message: 'Request too large' } }, { id: 'mine' }),
    (error) => error instanceof NativeRpcError && error.code === -32004 && error.id === 'mine' && error.data === undefined,
  );
});

/** @type {Array<[string, unknown, string]>} */
const hostile = [
  ['not an object', 'hello', 'invalid-response'],
  ['an array for a single request', [{ jsonrpc: '2.0', id: 1, result: 1 }], 'invalid-response'],
  ['null', null, 'invalid-response'],
  ['no jsonrpc member', { id: 1, result: 1 }, 'not-json-rpc'],
  ['jsonrpc 1.0', { jsonrpc: '1.0', id: 1, result: 1 }, 'not-json-rpc'],
  ['jsonrpc as a number', { jsonrpc: 2.0, id: 1, result: 1 }, 'not-json-rpc'],
  ['no id', { jsonrpc: '2.0', result: 1 }, 'invalid-response'],
  ['an id of the wrong type', { jsonrpc: '2.0', id: { a: 1 }, result: 1 }, 'invalid-response'],
  ['the wrong id', { jsonrpc: '2.0', id: 2, result: 1 }, 'wrong-id'],
  ['the id as a string instead of a number', { jsonrpc: '2.0', id: '1', result: 1 }, 'wrong-id'],
  ['a result with id null', { jsonrpc: '2.0', id: null, result: 1 }, 'wrong-id'],
  ['both result and error', { jsonrpc: '2.0', id: 1, result: 1, error: { code: 1, message: 'x' } }, 'invalid-response'],
  ['neither result nor error', { jsonrpc: '2.0', id: 1 }, 'invalid-response'],
  ['an error that is a string', { jsonrpc: '2.0', id: 1, error: 'bad' }, 'invalid-response'],
  ['an error without code', { jsonrpc: '2.0', id: 1, error: { message: 'x' } }, 'invalid-response'],
  ['an error with a fractional code', { jsonrpc: '2.0', id: 1, error: { code: 1.5, message: 'x' } }, 'invalid-response'],
  ['an error without message', { jsonrpc: '2.0', id: 1, error: { code: -32603 } }, 'invalid-response'],
];

for (const [what, response, kind] of hostile) {
  test(`a reply with ${what} is a NativeProtocolError (${kind})`, () => {
    assert.throws(() => validateResponse(response, { id: 1, method: 'subtract' }), (error) => {
      assert.ok(error instanceof NativeProtocolError, `got ${error}`);
      assert.equal(error.kind, kind);
      assert.equal(error.id, 1);
      assert.equal(error.method, 'subtract');
      assert.equal(error.response, response);
      return true;
    });
  });
}

test('decodeBatchResponse maps replies by id, in request order, skipping notifications', () => {
  const batch = buildBatch([
    { method: 'sum', params: [1, 2], id: 'a' },
    { method: 'notify_hello', params: [7], notification: true },
    { method: 'nope', id: 2 },
    { method: 'subtract', params: [5, 3], id: 3 },
  ]);
  assert.equal(batch.length, 4);
  assert.ok(!('id' in batch[1]));
  // Replies out of order, as the host may send them.
  const entries = decodeBatchResponse(batch, [
    { jsonrpc: '2.0', id: 3, result: 2 },
    { jsonrpc: '2.0', id: 2, error: { code: -32601, message: 'Method not found', data: { problem: 'no method named "nope"' } } },
    { jsonrpc: '2.0', id: 'a', result: 3 },
  ]);
  assert.deepEqual(entries.map((entry) => entry.id), ['a', 2, 3]);
  assert.deepEqual(entries[0], { id: 'a', method: 'sum', result: 3 });
  assert.ok(entries[1].error instanceof NativeRpcError);
  assert.equal(entries[1].error.code, -32601);
  assert.equal(entries[1].error.id, 2);
  assert.deepEqual(entries[2], { id: 3, method: 'subtract', result: 2 });
});

test('a batch refused as a whole rejects with its NativeRpcError', () => {
  const batch = buildBatch([{ method: 'sum', params: [1], id: 1 }]);
  assert.throws(() => decodeBatchResponse(batch, { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request', data: { problem: 'too many' } } }),
    (error) => error instanceof NativeRpcError && error.code === -32600 && error.id === null);
  assert.throws(() => decodeBatchResponse(batch, { jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Response too large' } }),
    (error) => error instanceof NativeRpcError && error.code === -32000);
});

test('a batch reply that does not match the batch is a NativeProtocolError', () => {
  const batch = buildBatch([{ method: 'sum', params: [1], id: 1 }, { method: 'sum', params: [2], id: 2 }]);
  const one = { jsonrpc: '2.0', id: 1, result: 1 };
  const two = { jsonrpc: '2.0', id: 2, result: 2 };
  for (const reply of [[one], [one, two, { jsonrpc: '2.0', id: 3, result: 3 }], [one, one, two], [one, { ...two, jsonrpc: '1.0' }], { jsonrpc: '2.0', id: 1, result: 1 }]) {
    assert.throws(() => decodeBatchResponse(batch, reply), NativeProtocolError, JSON.stringify(reply));
  }
});

test('buildBatch refuses empty batches and duplicate ids', () => {
  assert.throws(() => buildBatch([]), /non-empty/);
  assert.throws(() => buildBatch([{ method: 'a', id: 1 }, { method: 'b', id: 1 }]), /unique/);
  // 1 and "1" are different ids on the wire.
  assert.equal(buildBatch([{ method: 'a', id: 1 }, { method: 'b', id: '1' }]).length, 2);
});

test('result checks reject malformed wallet results with NativeProtocolError (invalid-result)', () => {
  assert.deepEqual(checkGetAccountsResult({ addresses: ['a', 'b'] }), { addresses: ['a', 'b'] });
  for (const bad of [null, [], 'x', {}, { addresses: 'a' }, { addresses: [1] }, { addresses: ['a', null] }]) {
    assert.throws(() => checkGetAccountsResult(bad, { id: 5 }), (error) => error instanceof NativeProtocolError && error.kind === 'invalid-result' && error.id === 5, JSON.stringify(bad));
  }
  const params = { address: 'a', payloads: ['p1', 'p2'] };
  assert.deepEqual(checkSignPayloadsResult({ signed_payloads: ['s1', 's2'] }, params), { signed_payloads: ['s1', 's2'] });
  for (const bad of [null, {}, { signed_payloads: ['s1'] }, { signed_payloads: ['s1', 's2', 's3'] }, { signed_payloads: ['s1', 2] }, { signedPayloads: ['s1', 's2'] }]) {
    assert.throws(() => checkSignPayloadsResult(bad, params), (error) => error instanceof NativeProtocolError && error.kind === 'invalid-result', JSON.stringify(bad));
  }
  assert.throws(() => checkSignPayloadsResult({ signed_payloads: ['s1'] }, params), /signed_payloads has 1 entries for 2 payloads/);
});
