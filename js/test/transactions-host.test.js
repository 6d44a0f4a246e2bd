// The transaction methods against the real Swift host (wallet-bridge-conformance-host, through
// the shim that plays the browser): a session for solana_signTransaction,
// solana_signAllTransactions and eth_signTransaction, then transactions built here byte by byte
// (test/transaction-fakes.js), signed by the host's test keys and checked independently: Node's
// own Ed25519 makes the exact bytes the host must answer (Ed25519 signs the same message the same
// way), and the Ethereum answers are decoded here as RLP, field by field.
//
// These need issue 36's wiring in the conformance host (the three methods in its sessions, and
// the test wallet signing transactions). Before it, every test here fails at connect with a
// message saying so; they are not skipped, so that a host that loses the methods fails too.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import {
  EIP155_CHAINS,
  NativeRpcError,
  NativeRpcErrorCode,
  SOLANA_MAINNET_CHAIN_ID,
  createNativeClient,
  ethSignTransaction,
  solanaSignAllTransactions,
  solanaSignTransaction,
} from '../src/index.js';
import { createShimRuntime, requireHost } from './native-host-shim.js';
import {
  CONFORMANCE_KEYS, HOST_TEST_TIMEOUT as TEST_TIMEOUT, randomKey, signInSlot, splitTransaction, transferMessage, unsignedTransaction,
} from './transaction-fakes.js';

const SOLANA = SOLANA_MAINNET_CHAIN_ID;
const MAINNET = EIP155_CHAINS.mainnet;
const { alice: ALICE, bob: BOB, cow: COW } = CONFORMANCE_KEYS;
const RECIPIENT = '0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB';

/** @type {ReturnType<typeof createShimRuntime>[]} */
const shims = [];
after(async () => { await Promise.all(shims.map((shim) => shim.dispose())); });

/**
 * A port client on the real host, with a session holding the three methods (the host keeps its
 * sessions in memory, so one port, one process). A host without them fails here, saying so.
 * @param {'chrome' | 'firefox'} flavor
 */
async function session(flavor) {
  requireHost();
  const runtime = createShimRuntime({ flavor });
  shims.push(runtime);
  const client = createNativeClient({ application: 'com.example.wallet_bridge', runtime, transport: 'port', timeoutMs: 10_000 });
  try {
    const { topic, namespaces } = await client.connect({
      requiredNamespaces: {
        solana: { chains: [SOLANA], methods: ['solana_signTransaction', 'solana_signAllTransactions'], events: [] },
        eip155: { chains: [MAINNET, EIP155_CHAINS.polygon], methods: ['eth_signTransaction'], events: [] },
      },
      optionalNamespaces: { eip155: { chains: [MAINNET], methods: ['eth_sendTransaction'], events: [] } },
      metadata: { name: 'Transaction tests', url: 'https://example.org' },
    });
    return { client, topic, namespaces };
  } catch (error) {
    if (error instanceof NativeRpcError && error.code === NativeRpcErrorCode.unsupportedMethods) {
      throw new Error(`the conformance host does not support the transaction methods (issue 36's wiring is not in this build): ${JSON.stringify(error.data)}`, { cause: error });
    }
    throw error;
  }
}

/**
 * RLP, decoded (items are byte arrays or lists), refusing anything left over.
 * @param {Uint8Array} bytes
 * @returns {any}
 */
function rlpDecode(bytes) {
  /** @returns {[any, number]} */
  const item = (/** @type {number} */ offset) => {
    const first = bytes[offset];
    const length = (/** @type {number} */ size, /** @type {number} */ at) => bytes.subarray(at, at + size).reduce((n, b) => n * 256 + b, 0);
    if (first < 0x80) return [bytes.subarray(offset, offset + 1), offset + 1];
    if (first < 0xb8) return [bytes.subarray(offset + 1, offset + 1 + first - 0x80), offset + 1 + first - 0x80];
    if (first < 0xc0) {
      const size = length(first - 0xb7, offset + 1);
      const start = offset + 1 + first - 0xb7;
      return [bytes.subarray(start, start + size), start + size];
    }
    const [size, start] = first < 0xf8 ? [first - 0xc0, offset + 1] : [length(first - 0xf7, offset + 1), offset + 1 + first - 0xf7];
    const items = [];
    let at = start;
    while (at < start + size) {
      const [value, next] = item(at);
      items.push(value);
      at = next;
    }
    assert.equal(at, start + size, 'an RLP list ends where its length says');
    return [items, at];
  };
  const [value, end] = item(0);
  assert.equal(end, bytes.length, 'nothing after the RLP item');
  return value;
}

const hexOf = (/** @type {Uint8Array} */ bytes) => `0x${Buffer.from(bytes).toString('hex')}`;
const quantity = (/** @type {Uint8Array} */ bytes) => BigInt(bytes.length === 0 ? 0 : hexOf(bytes));
const rawBytes = (/** @type {string} */ raw) => new Uint8Array(Buffer.from(raw.slice(2), 'hex'));

for (const flavor of /** @type {const} */ (['chrome', 'firefox'])) {
  test(`${flavor}: solanaSignTransaction on the host answers exactly the bytes Node's Ed25519 makes, legacy and version 0`, TEST_TIMEOUT, async () => {
    const { client, topic, namespaces } = await session(flavor);
    assert.ok(namespaces.solana.accounts.includes(`${SOLANA}:${ALICE.pubkey}`), 'the host\'s first Solana key is the seed 0x01 × 32');
    for (const version of /** @type {const} */ (['legacy', 0])) {
      const unsigned = unsignedTransaction(transferMessage({ signers: [ALICE.raw], to: BOB.raw, version, memo: 'issue 36' }), 1);
      const { signature, transaction } = await solanaSignTransaction(client, { topic, chainId: SOLANA, transaction: unsigned });
      const expected = signInSlot(unsigned, ALICE);
      assert.deepEqual(signature, expected.signature, `${version}: Alice's signature of the message`);
      assert.deepEqual(transaction, expected.signed, `${version}: the transaction sent, the signature in its slot`);
    }
    client.close();
  });

  test(`${flavor}: partial signing on the host: the fee payer's signature kept, the session's key signs its own slot`, TEST_TIMEOUT, async () => {
    const { client, topic } = await session(flavor);
    const carol = randomKey();
    const unsigned = unsignedTransaction(transferMessage({ signers: [carol.raw, BOB.raw], to: ALICE.raw, version: 0 }), 2);
    const carolSigned = signInSlot(unsigned, carol).signed;
    const { transaction } = await solanaSignTransaction(client, { topic, chainId: SOLANA, transaction: carolSigned, pubkey: BOB.pubkey });
    assert.deepEqual(transaction, signInSlot(carolSigned, BOB).signed);
    // Without a pubkey: the first signer that is a key of the session.
    const both = unsignedTransaction(transferMessage({ signers: [carol.raw, BOB.raw, ALICE.raw], to: randomKey().raw }), 3);
    const { transaction: byBob } = await solanaSignTransaction(client, { topic, chainId: SOLANA, transaction: both });
    assert.deepEqual(byBob, signInSlot(both, BOB).signed);
    client.close();
  });

  test(`${flavor}: solanaSignAllTransactions on the host: one key signs each, in order; a batch for two keys is refused`, TEST_TIMEOUT, async () => {
    const { client, topic } = await session(flavor);
    const batch = [
      unsignedTransaction(transferMessage({ signers: [ALICE.raw], to: BOB.raw, lamports: 1n }), 1),
      unsignedTransaction(transferMessage({ signers: [ALICE.raw], to: BOB.raw, lamports: 2n, version: 0 }), 1),
      unsignedTransaction(transferMessage({ signers: [ALICE.raw], to: BOB.raw, lamports: 3n }), 1),
    ];
    const signed = await solanaSignAllTransactions(client, { topic, chainId: SOLANA, transactions: batch });
    assert.deepEqual(signed.map(({ transaction }) => transaction), batch.map((unsigned) => signInSlot(unsigned, ALICE).signed));
    // One dialog names one key: a batch whose second transaction only Bob signs is refused, naming it.
    const mixed = [batch[0], unsignedTransaction(transferMessage({ signers: [BOB.raw], to: ALICE.raw, lamports: 2n }), 1)];
    await assert.rejects(solanaSignAllTransactions(client, { topic, chainId: SOLANA, transactions: mixed }), (error) =>
      error instanceof NativeRpcError && error.code === NativeRpcErrorCode.invalidParams && /^request\.params\.transactions\[1\]/.test(String(/** @type {any} */ (error.data).field)));
    client.close();
  });

  test(`${flavor}: the host refuses, naming the field, a transaction no key of the session signs and a signature in the wrong slot`, TEST_TIMEOUT, async () => {
    const { client, topic } = await session(flavor);
    const carol = randomKey();
    const foreign = unsignedTransaction(transferMessage({ signers: [carol.raw], to: BOB.raw }), 1);
    await assert.rejects(solanaSignTransaction(client, { topic, chainId: SOLANA, transaction: foreign }), (error) =>
      error instanceof NativeRpcError && error.code === NativeRpcErrorCode.invalidParams && /** @type {any} */ (error.data).field === 'request.params.transaction');
    // Carol's slot holds Alice's signature of the message: present, and not Carol's.
    const message = transferMessage({ signers: [carol.raw, ALICE.raw], to: BOB.raw });
    const misplaced = unsignedTransaction(message, 2, { 0: signInSlot(unsignedTransaction(message, 2), ALICE).signature });
    await assert.rejects(solanaSignTransaction(client, { topic, chainId: SOLANA, transaction: misplaced, pubkey: ALICE.pubkey }), (error) =>
      error instanceof NativeRpcError && error.code === NativeRpcErrorCode.invalidParams && /signatures\[0\]/.test(String(/** @type {any} */ (error.data).field)));
    // A batch is all or nothing, the bad one named.
    await assert.rejects(solanaSignAllTransactions(client, { topic, chainId: SOLANA, transactions: [unsignedTransaction(message, 2), foreign] }), (error) =>
      error instanceof NativeRpcError && error.code === NativeRpcErrorCode.invalidParams && /^request\.params\.transactions\[1\]/.test(String(/** @type {any} */ (error.data).field)));
    assert.equal(splitTransaction(foreign).slots, 1);
    client.close();
  });

  test(`${flavor}: ethSignTransaction on the host: EIP-1559 and legacy, the raw transaction holding what was sent`, TEST_TIMEOUT, async () => {
    const { client, topic } = await session(flavor);
    const data = Uint8Array.of(0xa9, 0x05, 0x9c, 0xbb, ...new Uint8Array(64));
    const raw = await ethSignTransaction(client, {
      topic, chainId: MAINNET,
      transaction: { from: COW, to: RECIPIENT, value: 10n ** 16n, nonce: 7, gas: 60_000, maxFeePerGas: 30n * 10n ** 9n, maxPriorityFeePerGas: 15n * 10n ** 8n, data },
    });
    const bytes = rawBytes(raw);
    assert.equal(bytes[0], 0x02, 'EIP-1559');
    const fields = rlpDecode(bytes.subarray(1));
    assert.equal(fields.length, 12);
    const [chainId, nonce, priority, maxFee, gas, to, value, input, accessList, yParity, r, s] = fields;
    assert.deepEqual([chainId, nonce, priority, maxFee, gas, value].map(quantity), [1n, 7n, 15n * 10n ** 8n, 30n * 10n ** 9n, 60_000n, 10n ** 16n]);
    assert.equal(hexOf(to), RECIPIENT.toLowerCase());
    assert.deepEqual(input, data);
    assert.deepEqual(accessList, []);
    assert.ok(quantity(yParity) <= 1n && r.length > 0 && r.length <= 32 && s.length > 0 && s.length <= 32);
    assert.ok(quantity(s) <= 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0n, 'low s (EIP-2)');
    // RFC 6979: the same transaction signs to the same bytes.
    const again = await ethSignTransaction(client, {
      topic, chainId: MAINNET,
      transaction: { from: COW, to: RECIPIENT, value: '0x2386f26fc10000', nonce: '0x7', gasLimit: '0xea60', maxFeePerGas: '0x6fc23ac00', maxPriorityFeePerGas: '0x59682f00', input: hexOf(data) },
    });
    assert.equal(again, raw);

    const legacy = rawBytes(await ethSignTransaction(client, { topic, chainId: EIP155_CHAINS.polygon, transaction: { from: COW, to: RECIPIENT, value: 1, nonce: 0, gas: 21_000, gasPrice: 30n * 10n ** 9n } }));
    const [lNonce, gasPrice, lGas, lTo, lValue, lData, v] = rlpDecode(legacy);
    assert.deepEqual([lNonce, gasPrice, lGas, lValue].map(quantity), [0n, 30n * 10n ** 9n, 21_000n, 1n]);
    assert.equal(hexOf(lTo), RECIPIENT.toLowerCase());
    assert.equal(lData.length, 0);
    assert.ok([137n * 2n + 35n, 137n * 2n + 36n].includes(quantity(v)), 'EIP-155 v for chain 137');
    client.close();
  });

  test(`${flavor}: the host refuses a transaction for another chain, and eth_sendTransaction, saying to sign and broadcast`, TEST_TIMEOUT, async () => {
    const { client, topic } = await session(flavor);
    const tx = { from: COW, to: RECIPIENT, value: '0x1', nonce: '0x0', gas: '0x5208', gasPrice: '0x1' };
    // The client refuses chainId 137 on eip155:1 itself; the raw request reaches the host.
    await assert.rejects(client.request({ method: 'session_request', params: { topic, chainId: MAINNET, request: { method: 'eth_signTransaction', params: [{ ...tx, chainId: '0x89' }] } } }), (error) =>
      error instanceof NativeRpcError && error.code === NativeRpcErrorCode.invalidParams && /** @type {any} */ (error.data).field === 'request.params[0].chainId');
    await assert.rejects(client.sessionRequest({ topic, chainId: MAINNET, request: { method: 'eth_sendTransaction', params: [tx] } }), (error) => {
      const said = JSON.stringify({ message: /** @type {Error} */ (error).message, data: /** @type {any} */ (error).data });
      return error instanceof NativeRpcError && said.includes('eth_signTransaction') && said.includes('eth_sendRawTransaction');
    });
    client.close();
  });
}
