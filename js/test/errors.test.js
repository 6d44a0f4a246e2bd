import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import {
  NATIVE_RPC_ERROR_MESSAGES,
  NativeConfigurationError,
  NativeProtocolError,
  NativeRpcError,
  NativeRpcErrorCode,
  NativeRpcErrorReason,
  NativeTransportError,
  WalletBridgeError,
} from '../src/index.js';
import { transportErrorFromBrowser, transportErrorKind } from '../src/errors.js';
import { BROWSER_MESSAGES } from './fakes.js';

const errorCodeSwift = fileURLToPath(new URL('../../Sources/WalletBridgeProtocol/ErrorCode.swift', import.meta.url));
const sessionsDoc = fileURLToPath(new URL('../../docs/sessions.md', import.meta.url));
const errorReasonSwift = fileURLToPath(new URL('../../Sources/WalletBridgeProtocol/ErrorReason.swift', import.meta.url));
const readme = fileURLToPath(new URL('../../README.md', import.meta.url));

test('the JS catalogue equals the host catalogue in ErrorCode.swift: names, codes and messages', () => {
  const swift = readFileSync(errorCodeSwift, 'utf8');
  /** @type {Record<string, number>} */
  const codes = {};
  for (const [, name, value] of swift.matchAll(/static let (\w+) = ErrorCode\(rawValue: (-?\d+)\)/g)) codes[name] = Number(value);
  /** @type {Record<number, string>} */
  const messages = {};
  for (const [, name, message] of swift.matchAll(/\(\.(\w+), "([^"]*)"\)/g)) messages[codes[name]] = message;

  assert.ok(Object.keys(codes).length >= 31, `expected the 31 catalogue codes in ${errorCodeSwift}`);
  assert.deepEqual({ ...NativeRpcErrorCode }, codes);
  assert.deepEqual({ ...NATIVE_RPC_ERROR_MESSAGES }, messages);
  assert.ok(Object.isFrozen(NativeRpcErrorCode) && Object.isFrozen(NATIVE_RPC_ERROR_MESSAGES));
});

test('the JS data.reason catalogue equals the host catalogue in ErrorReason.swift: names and values', () => {
  const swift = readFileSync(errorReasonSwift, 'utf8');
  /** @type {Record<string, string>} */
  const reasons = {};
  // "case declined" (the value is the name) or "case wrongPassphrase = "wrong_passphrase"".
  for (const [, name, value] of swift.matchAll(/^ *case (\w+)(?: = "([^"]+)")?$/gm)) reasons[name] = value ?? name;

  assert.ok(Object.keys(reasons).length >= 16, `expected the 16 reasons in ${errorReasonSwift}`);
  assert.deepEqual({ ...NativeRpcErrorReason }, reasons);
  assert.ok(Object.isFrozen(NativeRpcErrorReason));
});

test('README.md documents each data.reason with its Swift name, and no other', () => {
  const doc = readFileSync(readme, 'utf8');
  const start = doc.indexOf('#### `data.reason`');
  const table = doc.slice(start, doc.indexOf('\n#', start + 1));
  /** @type {Record<string, string>} */
  const documented = {};
  for (const [, value, name] of table.matchAll(/^\| `(\w+)` \| `(\w+)` \|/gm)) documented[name] = value;
  assert.deepEqual(documented, { ...NativeRpcErrorReason });
});

test('the session codes: the names of ErrorCode.swift, and the codes and messages of docs/sessions.md', () => {
  assert.deepEqual(
    Object.fromEntries(Object.entries(NativeRpcErrorCode).filter(([, code]) => code >= 3000)),
    {
      unauthorizedMethod: 3001,
      unauthorizedChain: 3005,
      userRejectedRequest: 4001,
      unauthorized: 4100,
      userRejected: 5000,
      userRejectedChains: 5001,
      userRejectedMethods: 5002,
      userRejectedEvents: 5003,
      unsupportedChains: 5100,
      unsupportedMethods: 5101,
      unsupportedEvents: 5102,
      unsupportedAccounts: 5103,
      unsupportedNamespaceKey: 5104,
      userDisconnected: 6000,
      noSessionForTopic: 7001,
      sessionRequestExpired: 8000,
    },
  );
  // The doc's Errors table: "| 3001 | Unauthorized method | ... |", and two rows for a range,
  // "| 5001–5003 | User rejected chains / methods / events | ... |".
  const doc = readFileSync(sessionsDoc, 'utf8');
  const table = doc.slice(doc.indexOf('## Errors'));
  /** @type {Record<number, string>} */
  const documented = {};
  for (const [, first, last, message] of table.matchAll(/^\| (\d+)(?:–(\d+))? \| ([^|]+?) \|/gm)) {
    if (last === undefined) {
      documented[Number(first)] = message;
    } else {
      const [head, ...tails] = message.split(' / ');
      const prefix = head.slice(0, head.lastIndexOf(' ') + 1);
      [head, ...tails.map((tail) => prefix + tail)].forEach((text, index) => { documented[Number(first) + index] = text; });
    }
  }
  assert.equal(Object.keys(documented).length, 16, 'the doc lists 16 session codes');
  for (const [code, message] of Object.entries(documented)) {
    assert.equal(NATIVE_RPC_ERROR_MESSAGES[Number(code)], message, `code ${code}`);
  }
});

test('every error class is a WalletBridgeError with its own name', () => {
  const errors = [
    new NativeRpcError({ code: -1, message: 'Authorization failed', id: 'a' }),
    new NativeTransportError({ kind: 'timeout', message: 'late' }),
    new NativeProtocolError({ kind: 'wrong-id', message: 'other id' }),
    new NativeConfigurationError('not configured'),
  ];
  for (const error of errors) {
    assert.ok(error instanceof WalletBridgeError && error instanceof Error);
    assert.equal(error.name, error.constructor.name);
  }
});

test('NativeRpcError keeps code, message, data and id, and serialises to the error object', () => {
  const error = new NativeRpcError({ code: -2, message: 'Invalid payloads', data: { valid: [true, false] }, id: 7, method: 'NATIVE_SIGN_PAYLOADS_METHOD' });
  assert.equal(error.code, NativeRpcErrorCode.invalidPayloads);
  assert.equal(error.message, 'Invalid payloads');
  assert.deepEqual(error.data, { valid: [true, false] });
  assert.equal(error.id, 7);
  assert.deepEqual(JSON.parse(JSON.stringify(error)), { code: -2, message: 'Invalid payloads', data: { valid: [true, false] } });
  assert.deepEqual(new NativeRpcError({ code: -32601, message: 'Method not found' }).toJSON(), { code: -32601, message: 'Method not found' });
});

test('browser messages are classified and kept verbatim', () => {
  for (const flavor of /** @type {const} */ (['chrome', 'firefox'])) {
    const texts = BROWSER_MESSAGES[flavor];
    assert.equal(transportErrorKind(texts.notFound('com.example.app')), 'host-not-found', flavor);
    assert.equal(transportErrorKind(texts.exited), 'disconnected', flavor);
    assert.equal(transportErrorKind(texts.communication), 'disconnected', flavor);
  }
  assert.equal(transportErrorKind(BROWSER_MESSAGES.chrome.forbidden), 'forbidden');
  assert.equal(transportErrorKind('Failed to start native messaging host.'), 'start-failed');
  assert.equal(transportErrorKind('Invalid native messaging host name specified.'), 'host-not-found');

  const cause = new Error('Specified native messaging host not found.');
  const error = transportErrorFromBrowser(cause, { id: 'x', method: 'm' });
  assert.equal(error.message, 'Specified native messaging host not found.');
  assert.equal(error.browserMessage, 'Specified native messaging host not found.');
  assert.equal(error.kind, 'host-not-found');
  assert.equal(error.cause, cause);
  assert.equal(error.id, 'x');

  // Chrome's lastError is a plain { message } object; Firefox's port.error may be null.
  assert.equal(transportErrorFromBrowser({ message: 'Native host has exited.' }).message, 'Native host has exited.');
  const silent = transportErrorFromBrowser(null);
  assert.equal(silent.kind, 'disconnected');
  assert.equal(silent.browserMessage, null);
  assert.match(silent.message, /disconnected/);
});
