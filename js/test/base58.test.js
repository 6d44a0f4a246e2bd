// Base58 (Bitcoin alphabet) against known vectors: Bitcoin Core's
// src/test/data/base58_encode_decode.json, Solana's well-known program ids, and an independent
// BigInt implementation (test/session-fakes.js's decode58) on random inputs.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { base58Decode, base58Encode } from '../src/index.js';
import { decode58 } from './session-fakes.js';

/** Bitcoin Core, src/test/data/base58_encode_decode.json: [hex, base58]. */
const BITCOIN_VECTORS = [
  ['', ''],
  ['61', '2g'],
  ['626262', 'a3gV'],
  ['636363', 'aPEr'],
  ['73696d706c792061206c6f6e6720737472696e67', '2cFupjhnEsSn59qHXstmK2ffpLv2'],
  ['00eb15231dfceb60925886b67d065299925915aeb172c06647', '1NS17iag9jJgTHD1VXjvLCEnZuQ3rJDE9L'],
  ['516b6fcd0f', 'ABnLTmg'],
  ['bf4f89001e670274dd', '3SEo3LWLoPntC'],
  ['572e4794', '3EFU7m'],
  ['ecac89cad93923c02321', 'EJDM8drfXA6uyA'],
  ['10c8511e', 'Rt5zm'],
  ['00000000000000000000', '1111111111'],
  ['000111d38e5fc9071ffcd20b4a763cc9ae4f252bb4e48fd66a835e252ada93ff480d6dd43dc62a641155a5', '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'],
];

/** Solana: well-known 32-byte program ids. */
const SOLANA_VECTORS = [
  // The system program: 32 zero bytes, so 32 leading "1"s and nothing else.
  ['00'.repeat(32), '11111111111111111111111111111111'],
  // The SPL token program.
  ['06ddf6e1d765a193d9cbe146ceeb79ac1cb485ed5f5b37913a8cf5857eff00a9', 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA'],
];

const hex = (/** @type {Uint8Array} */ bytes) => Buffer.from(bytes).toString('hex');
const bytesOf = (/** @type {string} */ text) => new Uint8Array(Buffer.from(text, 'hex'));

test('base58: Bitcoin Core\'s vectors, both ways', () => {
  for (const [input, encoded] of BITCOIN_VECTORS) {
    assert.equal(base58Encode(bytesOf(input)), encoded, `encode ${input}`);
    assert.equal(hex(base58Decode(encoded)), input, `decode ${encoded}`);
  }
});

test('base58: Solana program ids, both ways', () => {
  for (const [input, encoded] of SOLANA_VECTORS) {
    assert.equal(base58Encode(bytesOf(input)), encoded);
    const decoded = base58Decode(encoded);
    assert.equal(decoded.length, 32);
    assert.equal(hex(decoded), input);
  }
});

test('base58: every 256 single bytes, and leading zeros kept as leading 1s', () => {
  for (let byte = 0; byte < 256; byte += 1) {
    const encoded = base58Encode(Uint8Array.of(byte));
    assert.deepEqual([...base58Decode(encoded)], [byte]);
  }
  assert.equal(base58Encode(Uint8Array.of(0)), '1');
  assert.equal(base58Encode(Uint8Array.of(0, 0, 1)), '112');
  assert.deepEqual([...base58Decode('112')], [0, 0, 1]);
  assert.equal(base58Encode(Uint8Array.of(57)), 'z');
  assert.equal(base58Encode(Uint8Array.of(58)), '21');
});

test('base58: random inputs agree with an independent BigInt implementation and round-trip', () => {
  for (let round = 0; round < 300; round += 1) {
    const zeros = round % 4;
    const input = new Uint8Array([...new Uint8Array(zeros), ...randomBytes(round % 70)]);
    const encoded = base58Encode(input);
    assert.match(encoded, /^[1-9A-HJ-NP-Za-km-z]*$/);
    assert.equal(hex(decode58(encoded)), hex(input), `independent decode of ${encoded}`);
    assert.equal(hex(base58Decode(encoded)), hex(input));
  }
  // A signature's size, and a Node Buffer (a Uint8Array subclass) is accepted as is.
  const signature = randomBytes(64);
  assert.equal(base58Decode(base58Encode(signature)).length, 64);
});

test('base58: characters outside the alphabet are refused, naming the first', () => {
  for (const [text, character, index] of /** @type {const} */ ([['0abc', '0', 0], ['abcO', 'O', 3], ['1I', 'I', 1], ['l', 'l', 0], ['ab c', ' ', 2], ['2g\n', '\n', 2], ['é', 'é', 0], ['+/', '+', 0]])) {
    assert.throws(() => base58Decode(text), (error) => error instanceof TypeError
      && error.message.includes(`the character ${JSON.stringify(character)} at index ${index}`), text);
  }
});

test('base58: wrong argument types are TypeErrors', () => {
  for (const wrong of ['abc', [1, 2], null, undefined, new Uint16Array(2), new ArrayBuffer(2)]) {
    assert.throws(() => base58Encode(/** @type {any} */ (wrong)), TypeError);
  }
  for (const wrong of [1, null, undefined, new Uint8Array(1)]) {
    assert.throws(() => base58Decode(/** @type {any} */ (wrong)), TypeError);
  }
});
