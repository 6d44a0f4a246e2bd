/**
 * Base58 with the Bitcoin alphabet, the encoding Solana writes public keys, signatures and the
 * messages of `solana_signMessage` in. The same algorithm as the host's
 * Sources/WalletBridgeKeys/Encoding/Base58.swift: the bytes are one big number, written in
 * base 58, and each leading zero byte is written as a leading "1" (the digit zero), since a
 * number has no leading zeros of its own.
 *
 * Quadratic in the input's length (every input digit updates every output digit so far): a
 * few milliseconds for keys, signatures and sign-in messages of a few kilobytes, and not meant
 * for bulk data.
 */
import { describe } from './protocol.js';

/** The 58 digits, in value order: no 0, O, I or l, which read alike. */
const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** Each ASCII character's digit value, or -1 for a character outside the alphabet. */
const DIGIT_VALUES = (() => {
  const values = new Int8Array(128).fill(-1);
  for (let digit = 0; digit < ALPHABET.length; digit += 1) values[ALPHABET.charCodeAt(digit)] = digit;
  return values;
})();

/**
 * The base58 text of `bytes`.
 * @param {Uint8Array} bytes
 * @returns {string}
 */
export function base58Encode(bytes) {
  if (!isUint8Array(bytes)) throw new TypeError(`base58Encode takes a Uint8Array, not ${describe(bytes)}`);
  let zeros = 0;
  while (zeros < bytes.length && bytes[zeros] === 0) zeros += 1;
  // The number in base 58, least significant digit first. For each byte: number = number * 256 + byte.
  /** @type {number[]} */
  const digits = [];
  for (let index = zeros; index < bytes.length; index += 1) {
    let carry = bytes[index];
    for (let position = 0; position < digits.length; position += 1) {
      carry += digits[position] * 256;
      digits[position] = carry % 58;
      carry = Math.floor(carry / 58);
    }
    while (carry > 0) {
      digits.push(carry % 58);
      carry = Math.floor(carry / 58);
    }
  }
  let text = ALPHABET[0].repeat(zeros);
  for (let position = digits.length - 1; position >= 0; position -= 1) text += ALPHABET[digits[position]];
  return text;
}

/**
 * The bytes `text` encodes. Throws a TypeError naming the first character outside the alphabet
 * (often a 0, O, I or l copied by hand); whitespace is not skipped.
 * @param {string} text
 * @returns {Uint8Array}
 */
export function base58Decode(text) {
  if (typeof text !== 'string') throw new TypeError(`base58Decode takes a string, not ${describe(text)}`);
  let ones = 0;
  while (ones < text.length && text[ones] === ALPHABET[0]) ones += 1;
  // The number in base 256, least significant byte first. For each digit: number = number * 58 + digit.
  /** @type {number[]} */
  const bytes = [];
  for (let index = ones; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    const value = code < 128 ? DIGIT_VALUES[code] : -1;
    if (value < 0) {
      throw new TypeError(`not base58: the character ${JSON.stringify(text[index])} at index ${index} is not in the Bitcoin alphabet (${ALPHABET})`);
    }
    let carry = value;
    for (let position = 0; position < bytes.length; position += 1) {
      carry += bytes[position] * 58;
      bytes[position] = carry & 0xff;
      carry >>= 8;
    }
    while (carry > 0) {
      bytes.push(carry & 0xff);
      carry >>= 8;
    }
  }
  const result = new Uint8Array(ones + bytes.length);
  for (let position = 0; position < bytes.length; position += 1) result[ones + position] = bytes[bytes.length - 1 - position];
  return result;
}

/**
 * True for a Uint8Array from any realm (an extension page's, a Node Buffer): `instanceof` misses
 * arrays made in another window.
 * @param {unknown} value
 * @returns {value is Uint8Array}
 */
export function isUint8Array(value) {
  return Object.prototype.toString.call(value) === '[object Uint8Array]';
}
