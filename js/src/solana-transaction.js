/**
 * The outer layout of a serialized Solana transaction, read far enough to check what the client
 * sends and what the wallet answers (docs/sessions.md, "solana_signTransaction"): the signature
 * slots, where the message starts, its version, its header and its signers' keys. The
 * instructions are the wallet's to decode; nothing here reads them.
 *
 * A transaction is a compact-u16 count of 64-byte signatures, the signatures, then the message:
 * for version 0 a byte 0x80, then (as for a legacy message) a header of three bytes (signatures
 * required, read-only signed, read-only unsigned accounts), a compact-u16 count of 32-byte
 * account keys and the keys, the first `required` of them the signers in slot order.
 */

/** Solana's packet data size: the largest transaction the network takes, and the host. */
export const SOLANA_TRANSACTION_MAX_BYTES = 1232;
/** The most transactions one solana_signAllTransactions signs. */
export const SOLANA_SIGN_ALL_MAX_TRANSACTIONS = 16;

/**
 * "1 signature", "2 signatures".
 * @param {number} count
 * @param {string} noun singular
 */
const counted = (count, noun) => `${count} ${noun}${count === 1 ? '' : 's'}`;

/**
 * @typedef {object} SolanaTransactionLayout
 * @property {number} signatureCount
 * @property {number} signaturesOffset where the first signature slot starts
 * @property {number} messageOffset where the message starts (right after the last slot)
 * @property {'legacy' | 0} version
 * @property {Uint8Array[]} signers the keys of the signature slots, in slot order
 */

/**
 * A compact-u16 at `offset`: 1 to 3 bytes of 7 bits, least significant first, in its shortest
 * form (as Solana reads it: an alias such as 0x80 0x00 for 0 is refused).
 * @param {Uint8Array} bytes
 * @param {number} offset
 * @param {string} what what the number counts, for the problem
 * @returns {{ value: number, next: number } | string} the value and the offset after it, or the problem
 */
function compactU16(bytes, offset, what) {
  let value = 0;
  for (let index = 0; index < 3; index += 1) {
    if (offset + index >= bytes.length) return `it ends inside the count of ${what} (at byte ${offset + index})`;
    const byte = bytes[offset + index];
    if (index === 2 && byte > 0x03) return `the count of ${what} at byte ${offset} overflows a compact-u16`;
    value |= (byte & 0x7f) << (7 * index);
    if ((byte & 0x80) === 0) {
      if (index > 0 && byte === 0) return `the count of ${what} at byte ${offset} is not in its shortest form`;
      return { value, next: offset + index + 1 };
    }
  }
  return `the count of ${what} at byte ${offset} overflows a compact-u16`;
}

/**
 * A message's header and signers, starting at `offset`.
 * @param {Uint8Array} bytes
 * @param {number} offset
 * @returns {{ version: 'legacy' | 0, required: number, signers: Uint8Array[] } | string}
 */
function messageLayout(bytes, offset) {
  if (offset >= bytes.length) return 'it ends before its message';
  /** @type {'legacy' | 0} */
  let version = 'legacy';
  let header = offset;
  if (bytes[offset] & 0x80) {
    const number = bytes[offset] & 0x7f;
    if (number !== 0) return `its message is version ${number}: only legacy and version-0 messages are signed`;
    version = 0;
    header += 1;
  }
  if (header + 3 > bytes.length) return 'it ends inside its message header';
  const required = bytes[header];
  const keys = compactU16(bytes, header + 3, 'account keys');
  if (typeof keys === 'string') return keys;
  if (keys.next + 32 * keys.value > bytes.length) return `it ends inside its ${counted(keys.value, 'account key')}`;
  if (required === 0) return 'its message header asks for no signature (a transaction has at least its fee payer\'s)';
  if (required > keys.value) return `its message header asks for ${counted(required, 'signature')} but it lists ${counted(keys.value, 'account key')}`;
  const signers = [];
  for (let index = 0; index < required; index += 1) signers.push(bytes.subarray(keys.next + 32 * index, keys.next + 32 * (index + 1)));
  return { version, required, signers };
}

/**
 * The layout of a serialized transaction, or what is wrong with it. Bounded: it reads the
 * counts, the header and the signers' keys, never more than the bytes given.
 * @param {Uint8Array} bytes
 * @returns {SolanaTransactionLayout | string}
 */
export function solanaTransactionLayout(bytes) {
  if (bytes.length === 0) return 'it is empty';
  if (bytes.length > SOLANA_TRANSACTION_MAX_BYTES) {
    return `it is ${bytes.length} bytes, over Solana's limit of ${SOLANA_TRANSACTION_MAX_BYTES}`;
  }
  const problem = transactionProblem(bytes);
  if (typeof problem !== 'string') return problem;
  // A message sent without its signatures is the likeliest slip: say so when the bytes read as one.
  const asMessage = messageLayout(bytes, 0);
  if (typeof asMessage !== 'string') {
    return `${problem}; the bytes read as a message without its signatures: send the whole serialized transaction `
      + '(@solana/web3.js: transaction.serialize({ requireAllSignatures: false }), or a VersionedTransaction\'s serialize())';
  }
  return problem;
}

/**
 * @param {Uint8Array} bytes
 * @returns {SolanaTransactionLayout | string}
 */
function transactionProblem(bytes) {
  const count = compactU16(bytes, 0, 'signatures');
  if (typeof count === 'string') return count;
  if (count.value === 0) return 'it holds no signature slot (a transaction has at least its fee payer\'s)';
  const messageOffset = count.next + 64 * count.value;
  if (messageOffset > bytes.length) return `it ends inside its ${counted(count.value, 'signature slot')}`;
  const message = messageLayout(bytes, messageOffset);
  if (typeof message === 'string') return message;
  if (message.required !== count.value) {
    return `it has ${counted(count.value, 'signature slot')} but its message header asks for ${counted(message.required, 'signature')}`;
  }
  return { signatureCount: count.value, signaturesOffset: count.next, messageOffset, version: message.version, signers: message.signers };
}

/**
 * @param {Uint8Array} a
 * @param {Uint8Array} b
 */
export function sameBytes(a, b) {
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index += 1) if (a[index] !== b[index]) return false;
  return true;
}

/**
 * What is wrong with `signed`, the wallet's answer to signing `sent`, or null: it must be `sent`
 * with at most one signature slot changed, `signature` must be in a slot, and that slot must be
 * `pubkey`'s when the request named one. The rest (the message) must be byte for byte the same:
 * the wallet signs what it showed and changes nothing else.
 * @param {Uint8Array} sent
 * @param {SolanaTransactionLayout} layout sent's layout
 * @param {Uint8Array} signed
 * @param {Uint8Array} signature 64 bytes
 * @param {Uint8Array | undefined} pubkey the key the request named, if any
 * @returns {string | null}
 */
export function signedTransactionProblem(sent, layout, signed, signature, pubkey) {
  if (signed.length !== sent.length) return `it is ${signed.length} bytes, and the transaction sent was ${sent.length}`;
  if (!sameBytes(signed.subarray(layout.messageOffset), sent.subarray(layout.messageOffset))) {
    return 'its message is not the message sent: the wallet must sign the transaction as it was sent';
  }
  if (!sameBytes(signed.subarray(0, layout.signaturesOffset), sent.subarray(0, layout.signaturesOffset))) return 'its signature count is not the one sent';
  const slot = (/** @type {Uint8Array} */ bytes, /** @type {number} */ index) =>
    bytes.subarray(layout.signaturesOffset + 64 * index, layout.signaturesOffset + 64 * (index + 1));
  const changed = [];
  for (let index = 0; index < layout.signatureCount; index += 1) if (!sameBytes(slot(signed, index), slot(sent, index))) changed.push(index);
  if (changed.length > 1) return `signature slots ${changed.join(' and ')} changed: signatures already present must be kept as they were`;
  // A slot that held a signature never changes: the wallet refuses one that does not verify,
  // and Ed25519 signs the same message the same way again.
  if (changed.length === 1 && slot(sent, changed[0]).some((byte) => byte !== 0)) {
    return `signature slot ${changed[0]} held a signature, and it changed: signatures already present must be kept as they were`;
  }
  const holding = [];
  for (let index = 0; index < layout.signatureCount; index += 1) if (sameBytes(slot(signed, index), signature)) holding.push(index);
  if (holding.length === 0) return 'its signature slots do not hold the signature returned';
  if (changed.length === 1 && !holding.includes(changed[0])) return `signature slot ${changed[0]} changed, and it does not hold the signature returned`;
  if (pubkey !== undefined) {
    const own = layout.signers.findIndex((signer) => sameBytes(signer, pubkey));
    if (own < 0 || !holding.includes(own)) return 'the signature returned is not in the slot of the pubkey asked for';
  }
  return null;
}
