/**
 * Solana transactions built byte by byte as the Solana wire format lays them out (compact-u16
 * counts, signature slots, a legacy or version-0 message), and a fake wallet host that signs
 * them with Node's own Ed25519, for the transaction tests. Written apart from the package's
 * src/solana-transaction.js, so that the two read the format independently. Not a test file: it
 * defines no tests.
 */
import { createPrivateKey, createPublicKey, randomBytes, sign } from 'node:crypto';
import { NATIVE_RPC_ERROR_MESSAGES, base58Decode, base58Encode } from '../src/index.js';

/** The System program's id: 32 zero bytes ("11111111111111111111111111111111"). */
export const SYSTEM_PROGRAM = new Uint8Array(32);
/** The Memo program's id, decoded. */
export const MEMO_PROGRAM = base58Decode('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr');

/**
 * Solana's compact-u16, the shortest form.
 * @param {number} value 0 to 65535
 * @returns {number[]}
 */
export function compactU16(value) {
  const bytes = [];
  let rest = value;
  for (;;) {
    const low = rest & 0x7f;
    rest >>= 7;
    if (rest === 0) {
      bytes.push(low);
      return bytes;
    }
    bytes.push(low | 0x80);
  }
}

/**
 * An Ed25519 key from a 32-byte seed (Node's implementation), its public key raw and base58.
 * @param {number | Uint8Array} seed a byte repeated 32 times, or the seed
 */
export function keyFromSeed(seed) {
  const bytes = typeof seed === 'number' ? Buffer.alloc(32, seed) : Buffer.from(seed);
  const privateKey = createPrivateKey({ key: Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), bytes]), format: 'der', type: 'pkcs8' });
  const publicKey = createPublicKey(privateKey);
  const raw = new Uint8Array(publicKey.export({ format: 'der', type: 'spki' }).subarray(-32));
  return { privateKey, publicKey, raw, pubkey: base58Encode(raw) };
}

/** A fresh random key. */
export const randomKey = () => keyFromSeed(randomBytes(32));

/**
 * The conformance host's keys (InMemoryTestWallet): Solana's from the seeds 32 × 0x01 and
 * 32 × 0x02, and its first Ethereum address, of the key Keccak-256 of "cow" ("Cow" in
 * EIP-712's Mail example).
 */
export const CONFORMANCE_KEYS = Object.freeze({
  alice: keyFromSeed(1),
  bob: keyFromSeed(2),
  cow: '0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826',
});

/** How long a test against a real host may take. */
export const HOST_TEST_TIMEOUT = Object.freeze({ timeout: 20_000 });

/**
 * A message moving `lamports` from the first signer to `to` with the System program (and a memo
 * when asked), every signer a writable signer, so that a test can have several.
 * @param {{ signers: Uint8Array[], to: Uint8Array, lamports?: bigint, version?: 'legacy' | 0, memo?: string, blockhash?: Uint8Array }} options
 * @returns {Uint8Array}
 */
export function transferMessage({ signers, to, lamports = 1_500_000_000n, version = 'legacy', memo, blockhash = new Uint8Array(32).fill(0x42) }) {
  const programs = memo === undefined ? [SYSTEM_PROGRAM] : [SYSTEM_PROGRAM, MEMO_PROGRAM];
  const keys = [...signers, to, ...programs];
  const data = Buffer.alloc(12);
  data.writeUInt32LE(2, 0); // SystemInstruction::Transfer
  data.writeBigUInt64LE(lamports, 4);
  const instructions = [[signers.length + 1, ...compactU16(2), 0, signers.length, ...compactU16(12), ...data]];
  if (memo !== undefined) {
    const text = Buffer.from(memo, 'utf8');
    instructions.push([signers.length + 2, ...compactU16(0), ...compactU16(text.length), ...text]);
  }
  const bytes = [
    ...(version === 0 ? [0x80] : []),
    signers.length, 0, programs.length,
    ...compactU16(keys.length), ...keys.flatMap((key) => [...key]),
    ...blockhash,
    ...compactU16(instructions.length), ...instructions.flat(),
    ...(version === 0 ? compactU16(0) : []), // no address lookup tables
  ];
  return Uint8Array.from(bytes);
}

/**
 * A transaction of `message` with one zeroed signature slot per signer, `signatures` filling
 * some of them.
 * @param {Uint8Array} message
 * @param {number} slots
 * @param {Record<number, Uint8Array>} [signatures]
 */
export function unsignedTransaction(message, slots, signatures = {}) {
  const prefix = compactU16(slots);
  const bytes = new Uint8Array(prefix.length + 64 * slots + message.length);
  bytes.set(prefix, 0);
  for (const [index, signature] of Object.entries(signatures)) bytes.set(signature, prefix.length + 64 * Number(index));
  bytes.set(message, prefix.length + 64 * slots);
  return bytes;
}

/**
 * The parts of a transaction this file built (fewer than 128 slots and keys): its slots, its
 * message, and its signers' keys.
 * @param {Uint8Array} transaction
 */
export function splitTransaction(transaction) {
  const slots = transaction[0];
  const message = transaction.subarray(1 + 64 * slots);
  const header = message[0] & 0x80 ? 1 : 0;
  const signers = Array.from({ length: message[header] }, (_, index) => message.subarray(header + 4 + 32 * index, header + 4 + 32 * (index + 1)));
  return { slots, message, signers, slot: (/** @type {number} */ index) => transaction.subarray(1 + 64 * index, 1 + 64 * (index + 1)) };
}

/**
 * Signs `transaction` with `key` in that key's slot: what the wallet must answer.
 * @param {Uint8Array} transaction
 * @param {ReturnType<typeof keyFromSeed>} key
 */
export function signInSlot(transaction, key) {
  const { message, signers } = splitTransaction(transaction);
  const index = signers.findIndex((signer) => Buffer.from(signer).equals(Buffer.from(key.raw)));
  if (index < 0) throw new Error('the key is not a signer');
  const signature = new Uint8Array(sign(null, message, key.privateKey));
  const signed = Uint8Array.from(transaction);
  signed.set(signature, 1 + 64 * index);
  return { signature, signed };
}

/**
 * A fake wallet host answering session_request for solana_signTransaction,
 * solana_signAllTransactions and eth_signTransaction as docs/sessions.md describes them, with
 * `keys` as the session's Solana accounts. `tamper` rewrites each result, to play a wallet that
 * breaks the contract.
 * @param {{ keys: Array<ReturnType<typeof keyFromSeed>>, tamper?: (result: any, inner: any) => any, ethResult?: string }} options
 */
export function createFakeTransactionWallet({ keys, tamper = (result) => result, ethResult = `0x02${'ab'.repeat(100)}` }) {
  const wallet = {
    /** @type {any[]} every request answered */
    requests: /** @type {any[]} */ ([]),
    /** @param {any} message */
    host(message) {
      if (message.id === undefined) return undefined;
      wallet.requests.push(message);
      const { id, params } = message;
      /** @param {number} code @param {unknown} [data] */
      const fail = (code, data) => ({ jsonrpc: '2.0', id, error: { code, message: NATIVE_RPC_ERROR_MESSAGES[code], ...(data === undefined ? {} : { data }) } });
      if (message.method !== 'session_request') return fail(-32601);
      const inner = params.request;
      /** @param {string} text @param {string} field */
      const signOne = (text, field) => {
        const transaction = new Uint8Array(Buffer.from(text, 'base64'));
        const { signers } = splitTransaction(transaction);
        const key = inner.params.pubkey === undefined
          ? keys.find((candidate) => signers.some((signer) => Buffer.from(signer).equals(Buffer.from(candidate.raw))))
          : keys.find((candidate) => candidate.pubkey === inner.params.pubkey);
        if (key === undefined) return { error: fail(-32602, { field, problem: 'none of its signers is a key of this session' }) };
        const { signature, signed } = signInSlot(transaction, key);
        return { signature: base58Encode(signature), transaction: Buffer.from(signed).toString('base64') };
      };
      switch (inner.method) {
        case 'solana_signTransaction': {
          const one = signOne(inner.params.transaction, 'request.params.transaction');
          if ('error' in one) return one.error;
          return { jsonrpc: '2.0', id, result: tamper(one, inner) };
        }
        case 'solana_signAllTransactions': {
          const all = inner.params.transactions.map((/** @type {string} */ text, /** @type {number} */ index) => signOne(text, `request.params.transactions[${index}]`));
          const failed = all.find((/** @type {any} */ one) => 'error' in one);
          if (failed) return failed.error;
          const result = { transactions: all.map((/** @type {any} */ one) => one.transaction), signatures: all.map((/** @type {any} */ one) => one.signature) };
          return { jsonrpc: '2.0', id, result: tamper(result, inner) };
        }
        case 'eth_signTransaction':
          return { jsonrpc: '2.0', id, result: tamper(ethResult, inner) };
        default:
          return fail(-32601);
      }
    },
  };
  return wallet;
}
