/**
 * Standard base64 with padding (RFC 4648 section 4), canonical only, as the host reads it
 * (Sources/WalletBridgeKeys/Encoding/Base64.swift): the encoding of a Solana transaction in
 * solana_signTransaction. `atob` is not used: it skips whitespace, takes missing padding and
 * ignores bits set after the last byte, so two strings could stand for one transaction, and the
 * host would refuse what it let through.
 */
import { describe } from './protocol.js';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const CANONICAL_SHAPE = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Each ASCII character's 6 bits, or -1. */
const VALUES = (() => {
  const values = new Int8Array(128).fill(-1);
  for (let index = 0; index < ALPHABET.length; index += 1) values[ALPHABET.charCodeAt(index)] = index;
  return values;
})();

/**
 * Padded standard base64 of `bytes`.
 * @param {Uint8Array} bytes
 * @returns {string}
 */
export function base64Encode(bytes) {
  let text = '';
  for (let index = 0; index < bytes.length; index += 3) {
    const rest = bytes.length - index;
    const group = (bytes[index] << 16) | (rest > 1 ? bytes[index + 1] << 8 : 0) | (rest > 2 ? bytes[index + 2] : 0);
    text += ALPHABET[(group >> 18) & 63] + ALPHABET[(group >> 12) & 63];
    text += rest > 1 ? ALPHABET[(group >> 6) & 63] : '=';
    text += rest > 2 ? ALPHABET[group & 63] : '=';
  }
  return text;
}

/**
 * The bytes of canonical padded standard base64, or a TypeError saying what is wrong (naming
 * `field`): a length that is not a multiple of four, a character outside the alphabet
 * (whitespace and the URL-safe `-` and `_` included), padding in the middle, or bits set after
 * the last byte.
 * @param {unknown} text
 * @param {string} field
 * @returns {Uint8Array}
 */
export function base64Decode(text, field) {
  if (typeof text !== 'string') throw new TypeError(`${field} must be a base64 string, not ${describe(text)}`);
  if (!CANONICAL_SHAPE.test(text)) {
    const bad = [...text].findIndex((character) => !/[A-Za-z0-9+/=]/.test(character));
    const why = bad >= 0
      ? `the character ${JSON.stringify(text[bad])} at index ${bad} is not in its alphabet${/[-_]/.test(text[bad]) ? ' (URL-safe base64 is not taken)' : ''}`
      : text.length % 4 !== 0 ? `its length, ${text.length}, is not a multiple of 4 (padding with "=" is required)` : 'its "=" padding is not only at the end';
    throw new TypeError(`${field} is not standard padded base64: ${why}`);
  }
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  const bytes = new Uint8Array((text.length / 4) * 3 - padding);
  let output = 0;
  for (let index = 0; index < text.length; index += 4) {
    const last = index + 4 === text.length;
    const c = last && padding === 2 ? 0 : VALUES[text.charCodeAt(index + 2)];
    const d = last && padding >= 1 ? 0 : VALUES[text.charCodeAt(index + 3)];
    const group = (VALUES[text.charCodeAt(index)] << 18) | (VALUES[text.charCodeAt(index + 1)] << 12) | (c << 6) | d;
    if (last && padding > 0 && (group & (padding === 1 ? 0xff : 0xffff)) !== 0) {
      throw new TypeError(`${field} is not canonical base64: bits are set after its last byte`);
    }
    bytes[output] = group >> 16;
    if (output + 1 < bytes.length) bytes[output + 1] = (group >> 8) & 0xff;
    if (output + 2 < bytes.length) bytes[output + 2] = group & 0xff;
    output += 3;
  }
  return bytes;
}
