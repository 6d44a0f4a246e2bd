// Transactions in a session (docs/sessions.md): solana_signTransaction,
// solana_signAllTransactions and eth_signTransaction through the solanaSignTransaction,
// solanaSignAllTransactions and ethSignTransaction helpers and sessionRequest, on both transports
// and both browsers, against a fake wallet that signs with Node's Ed25519: what goes on the wire,
// what comes back decoded, the arguments refused before sending (naming the field), and the
// answers refused on arrival (a changed message, a signature outside its slot, the wrong type).
import assert from 'node:assert/strict';
import { randomBytes, verify } from 'node:crypto';
import { test } from 'node:test';
import {
  ETH_SIGN_TRANSACTION_METHOD,
  NativeProtocolError,
  NativeRpcError,
  NativeRpcErrorCode,
  SOLANA_SIGN_ALL_MAX_TRANSACTIONS,
  SOLANA_SIGN_ALL_TRANSACTIONS_METHOD,
  SOLANA_SIGN_TRANSACTION_METHOD,
  SOLANA_TRANSACTION_MAX_BYTES,
  base58Encode,
  createNativeClient,
  ethSignTransaction,
  solanaSignAllTransactions,
  solanaSignTransaction,
} from '../src/index.js';
import { base64Decode, base64Encode } from '../src/base64.js';
import { fakeChrome, fakeFirefox } from './fakes.js';
import {
  compactU16,
  createFakeTransactionWallet,
  keyFromSeed,
  randomKey,
  signInSlot,
  splitTransaction,
  transferMessage,
  unsignedTransaction,
} from './transaction-fakes.js';

const APP = 'com.example.wallet_bridge';
const TOPIC = 'b'.repeat(64);
const SOLANA = 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp';
const MAINNET = 'eip155:1';
const ALICE = keyFromSeed(1);
const BOB = keyFromSeed(2);
const FROM = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const TO = '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359';
const b64 = (/** @type {Uint8Array} */ bytes) => Buffer.from(bytes).toString('base64');

/** A one-signer transfer from ALICE, unsigned. */
const transfer = (/** @type {Partial<Parameters<typeof transferMessage>[0]>} */ options = {}) =>
  unsignedTransaction(transferMessage({ signers: [ALICE.raw], to: BOB.raw, ...options }), 1);

/** The same transaction, its slot `index` holding `signature`. */
function withSlot(/** @type {Uint8Array} */ transaction, /** @type {number} */ index, /** @type {Uint8Array} */ signature) {
  const copy = Uint8Array.from(transaction);
  copy.set(signature, 1 + 64 * index);
  return copy;
}

test('the transaction names and limits of docs/sessions.md', () => {
  assert.deepEqual([SOLANA_SIGN_TRANSACTION_METHOD, SOLANA_SIGN_ALL_TRANSACTIONS_METHOD, ETH_SIGN_TRANSACTION_METHOD], ['solana_signTransaction', 'solana_signAllTransactions', 'eth_signTransaction']);
  assert.equal(SOLANA_TRANSACTION_MAX_BYTES, 1232);
  assert.equal(SOLANA_SIGN_ALL_MAX_TRANSACTIONS, 16);
});

test('base64: canonical padded standard base64, as Node writes it, and nothing else', () => {
  for (let length = 0; length < 70; length += 1) {
    const bytes = new Uint8Array(randomBytes(length));
    const text = base64Encode(bytes);
    assert.equal(text, Buffer.from(bytes).toString('base64'), `length ${length}`);
    assert.deepEqual(base64Decode(text, 'x'), bytes);
  }
  /** @type {Array<[string, RegExp]>} */
  const refused = [
    ['QR==', /^t is not canonical base64: bits are set after its last byte$/],
    ['QUI=x', /is not in its alphabet|multiple of 4/],
    ['QQ', /^t is not standard padded base64: its length, 2, is not a multiple of 4/],
    ['QQ===', /its length, 5/],
    ['QQ==QQ==', /padding is not only at the end/],
    ['a-b_', /the character "-" at index 1 is not in its alphabet \(URL-safe base64 is not taken\)/],
    ['QU I=', /the character " " at index 2/],
  ];
  for (const [text, pattern] of refused) assert.throws(() => base64Decode(text, 't'), (error) => error instanceof TypeError && pattern.test(error.message), text);
  assert.throws(() => base64Decode(7, 't'), /^TypeError: t must be a base64 string, not a number$/);
});

for (const [flavor, makeRuntime] of /** @type {const} */ ([['firefox', fakeFirefox], ['chrome', fakeChrome]])) {
  for (const transport of /** @type {const} */ (['message', 'port'])) {
    const label = `${flavor} ${transport}`;

    test(`${label}: solanaSignTransaction sends base64, resolves to the signature and the signed transaction, decoded`, async () => {
      const wallet = createFakeTransactionWallet({ keys: [ALICE] });
      const client = createNativeClient({ application: APP, transport, runtime: makeRuntime({ [APP]: wallet.host }) });
      for (const version of /** @type {const} */ (['legacy', 0])) {
        const unsigned = transfer({ version, memo: 'gm' });
        const { signature, transaction } = await solanaSignTransaction(client, { topic: TOPIC, chainId: SOLANA, transaction: unsigned, id: `sign-${version}` });
        const sent = wallet.requests.at(-1);
        assert.equal(sent.id, `sign-${version}`);
        assert.deepEqual(sent.params, { topic: TOPIC, chainId: SOLANA, request: { method: 'solana_signTransaction', params: { transaction: b64(unsigned) } } }, 'no pubkey or expiry unless given');
        assert.ok(signature instanceof Uint8Array && signature.length === 64);
        assert.ok(verify(null, splitTransaction(unsigned).message, ALICE.publicKey, signature), 'Ed25519 over the message bytes');
        assert.deepEqual(transaction, withSlot(unsigned, 0, signature));
      }
      // Base64 in, as the wire takes it; a pubkey and an expiry go as given.
      const unsigned = transfer();
      const expiry = Math.floor(Date.now() / 1000) + 600;
      const { transaction } = await solanaSignTransaction(client, { topic: TOPIC, chainId: SOLANA, transaction: b64(unsigned), pubkey: ALICE.pubkey, expiry });
      assert.deepEqual(wallet.requests.at(-1).params, { topic: TOPIC, chainId: SOLANA, request: { method: 'solana_signTransaction', params: { transaction: b64(unsigned), pubkey: ALICE.pubkey } }, expiry });
      assert.deepEqual(transaction, signInSlot(unsigned, ALICE).signed);
      client.close();
    });

    test(`${label}: partial signing: the other signers' signatures come back as they were sent`, async () => {
      const wallet = createFakeTransactionWallet({ keys: [ALICE] });
      const client = createNativeClient({ application: APP, transport, runtime: makeRuntime({ [APP]: wallet.host }) });
      const carol = randomKey();
      // Carol pays the fee and has signed; Alice signs second.
      const message = transferMessage({ signers: [carol.raw, ALICE.raw], to: BOB.raw, version: 0 });
      const carolSigned = signInSlot(unsignedTransaction(message, 2), carol).signed;
      const { signature, transaction } = await solanaSignTransaction(client, { topic: TOPIC, chainId: SOLANA, transaction: carolSigned, pubkey: ALICE.pubkey });
      const { slot } = splitTransaction(transaction);
      assert.ok(verify(null, message, carol.publicKey, slot(0)), 'the fee payer\'s signature is kept');
      assert.ok(verify(null, message, ALICE.publicKey, slot(1)), 'this key\'s is in its own slot');
      assert.deepEqual(slot(1), signature);
      client.close();
    });

    test(`${label}: solanaSignAllTransactions sends one request and resolves in order`, async () => {
      const wallet = createFakeTransactionWallet({ keys: [ALICE, BOB] });
      const client = createNativeClient({ application: APP, transport, runtime: makeRuntime({ [APP]: wallet.host }) });
      const batch = [transfer({ lamports: 1n }), b64(transfer({ lamports: 2n, version: 0 })), unsignedTransaction(transferMessage({ signers: [BOB.raw], to: ALICE.raw }), 1)];
      const signed = await solanaSignAllTransactions(client, { topic: TOPIC, chainId: SOLANA, transactions: batch });
      assert.equal(wallet.requests.length, 1);
      assert.deepEqual(wallet.requests[0].params.request, { method: 'solana_signAllTransactions', params: { transactions: batch.map((t) => (typeof t === 'string' ? t : b64(t))) } });
      assert.equal(signed.length, 3);
      const keys = [ALICE, ALICE, BOB];
      signed.forEach(({ signature, transaction }, index) => {
        assert.ok(verify(null, splitTransaction(transaction).message, keys[index].publicKey, signature), `transaction ${index}`);
        assert.deepEqual(splitTransaction(transaction).slot(0), signature);
      });
      client.close();
    });

    test(`${label}: ethSignTransaction writes numbers, bigints and bytes as hex and resolves to the raw transaction`, async () => {
      const raw = `0x02${'cd'.repeat(110)}`;
      const wallet = createFakeTransactionWallet({ keys: [], ethResult: raw });
      const client = createNativeClient({ application: APP, transport, runtime: makeRuntime({ [APP]: wallet.host }) });
      const result = await ethSignTransaction(client, {
        topic: TOPIC,
        chainId: MAINNET,
        transaction: { from: FROM, to: TO, value: 10n ** 16n, nonce: 7, gas: 21_000, maxFeePerGas: 30_000_000_000n, maxPriorityFeePerGas: '0x59682f00', chainId: 1, type: 2, data: Uint8Array.of(0xa9, 0x05, 0x9c, 0xbb) },
      });
      assert.equal(result, raw);
      assert.deepEqual(wallet.requests.at(-1).params.request, {
        method: 'eth_signTransaction',
        params: [{ from: FROM, to: TO, value: '0x2386f26fc10000', nonce: '0x7', gas: '0x5208', maxFeePerGas: '0x6fc23ac00', maxPriorityFeePerGas: '0x59682f00', chainId: '0x1', type: '0x2', data: '0xa9059cbb' }],
      });
      // An unsigned serialized transaction goes as it is (bytes as their hex).
      await ethSignTransaction(client, { topic: TOPIC, chainId: MAINNET, transaction: '0x02ef0180' });
      assert.deepEqual(wallet.requests.at(-1).params.request.params, ['0x02ef0180']);
      await ethSignTransaction(client, { topic: TOPIC, chainId: MAINNET, transaction: Uint8Array.of(0x02, 0xef) });
      assert.deepEqual(wallet.requests.at(-1).params.request.params, ['0x02ef']);
      // The address that signs a serialized transaction goes second; with an object it is `from`
      // (any letter case), and sessionRequest takes both forms as written.
      await ethSignTransaction(client, { topic: TOPIC, chainId: MAINNET, transaction: '0x02ef0180', address: TO });
      assert.deepEqual(wallet.requests.at(-1).params.request.params, ['0x02ef0180', TO]);
      const lower = /** @type {`0x${string}`} */ (FROM.toLowerCase());
      await ethSignTransaction(client, { topic: TOPIC, chainId: MAINNET, transaction: { from: FROM, nonce: 0, gas: 21_000, maxFeePerGas: 2, maxPriorityFeePerGas: 1 }, address: lower });
      assert.deepEqual(wallet.requests.at(-1).params.request.params, [{ from: FROM, nonce: '0x0', gas: '0x5208', maxFeePerGas: '0x2', maxPriorityFeePerGas: '0x1' }, lower]);
      await client.sessionRequest({ topic: TOPIC, chainId: MAINNET, request: { method: 'eth_signTransaction', params: ['0x02ef0180', TO] } });
      assert.deepEqual(wallet.requests.at(-1).params.request.params, ['0x02ef0180', TO]);
      // Legacy: zero written "0x0"; contract creation with to null.
      const legacy = createFakeTransactionWallet({ keys: [], ethResult: `0xf8${'00'.repeat(80)}` });
      const legacyClient = createNativeClient({ application: APP, transport, runtime: makeRuntime({ [APP]: legacy.host }) });
      await ethSignTransaction(legacyClient, { topic: TOPIC, chainId: 'eip155:137', transaction: { from: FROM, to: null, value: 0, nonce: 0n, gasLimit: '0x30d40', gasPrice: 1, input: '0x6080' } });
      assert.deepEqual(legacy.requests.at(-1).params.request.params, [{ from: FROM, to: null, value: '0x0', nonce: '0x0', gasLimit: '0x30d40', gasPrice: '0x1', input: '0x6080' }]);
      client.close();
      legacyClient.close();
    });

    test(`${label}: the wallet's refusals arrive as NativeRpcError with their data`, async () => {
      const wallet = createFakeTransactionWallet({ keys: [BOB] });
      const client = createNativeClient({ application: APP, transport, runtime: makeRuntime({ [APP]: wallet.host }) });
      await assert.rejects(solanaSignTransaction(client, { topic: TOPIC, chainId: SOLANA, transaction: transfer() }), (error) =>
        error instanceof NativeRpcError && error.code === NativeRpcErrorCode.invalidParams
        && /** @type {any} */ (error.data).field === 'request.params.transaction' && /none of its signers/.test(/** @type {any} */ (error.data).problem));
      client.close();
    });
  }
}

/** A client recording what it would send, answering nothing useful. */
function recordingClient() {
  const runtime = fakeChrome({ [APP]: (/** @type {any} */ m) => ({ jsonrpc: '2.0', id: m.id, result: null }) });
  return { client: createNativeClient({ application: APP, runtime }), runtime };
}

test('solanaSignTransaction and solanaSignAllTransactions refuse wrong arguments, naming them, before sending', async () => {
  const { client, runtime } = recordingClient();
  const base = { topic: TOPIC, chainId: SOLANA };
  const good = transfer();
  const messageOnly = transferMessage({ signers: [ALICE.raw], to: BOB.raw });
  const v0MessageOnly = transferMessage({ signers: [ALICE.raw], to: BOB.raw, version: 0 });
  const tooBig = unsignedTransaction(transferMessage({ signers: [ALICE.raw], to: BOB.raw, memo: 'x'.repeat(1100) }), 1);
  assert.ok(tooBig.length > SOLANA_TRANSACTION_MAX_BYTES);
  const atLimit = unsignedTransaction(transferMessage({ signers: [ALICE.raw], to: BOB.raw, memo: 'x'.repeat(1232 - tooBig.length + 1100) }), 1);
  assert.equal(atLimit.length, SOLANA_TRANSACTION_MAX_BYTES);
  const twoSlotsOneSigner = unsignedTransaction(messageOnly, 2);
  const version1 = Uint8Array.from(good);
  version1[65] = 0x81;
  const overflow = Uint8Array.of(0xff, 0xff, 0x7f, ...good.subarray(1));
  const alias = Uint8Array.of(0x81, 0x00, ...good.subarray(1));
  /** @type {Array<[() => Promise<unknown>, typeof TypeError | typeof RangeError, RegExp]>} */
  const cases = [
    [() => solanaSignTransaction(/** @type {any} */ ({}), { ...base, transaction: good }), TypeError, /^solanaSignTransaction needs a client from createNativeClient/],
    [() => solanaSignTransaction(client, /** @type {any} */ ('tx')), TypeError, /^solanaSignTransaction takes \{ topic, chainId, transaction, pubkey\?, expiry\? \}/],
    [() => solanaSignTransaction(client, { ...base, transaction: /** @type {any} */ ([...good]) }), TypeError, /^transaction must be a serialized transaction, a Uint8Array or its base64, not an array$/],
    [() => solanaSignTransaction(client, { ...base, transaction: /** @type {any} */ ({ serialize: () => good }) }), TypeError, /pass transaction\.serialize\(\{ requireAllSignatures: false \}\)/],
    [() => solanaSignTransaction(client, { ...base, transaction: new Uint8Array(0) }), RangeError, /^transaction must hold a serialized transaction, not 0 bytes$/],
    [() => solanaSignTransaction(client, { ...base, transaction: tooBig }), RangeError, new RegExp(`^transaction is ${tooBig.length} bytes, over the 1232 bytes Solana takes in one transaction$`)],
    [() => solanaSignTransaction(client, { ...base, transaction: b64(tooBig) }), RangeError, /^transaction is \d+ characters of base64, more than a transaction of at most 1232 bytes takes \(1644\)$/],
    [() => solanaSignTransaction(client, { ...base, transaction: 'AQ=' }), TypeError, /^transaction is not standard padded base64/],
    [() => solanaSignTransaction(client, { ...base, transaction: messageOnly }), TypeError, /^transaction is not a serialized Solana transaction: .*; the bytes read as a message without its signatures: send the whole serialized transaction/],
    [() => solanaSignTransaction(client, { ...base, transaction: v0MessageOnly }), TypeError, /the bytes read as a message without its signatures/],
    [() => solanaSignTransaction(client, { ...base, transaction: good.subarray(0, 40) }), TypeError, /^transaction is not a serialized Solana transaction: it ends inside its 1 signature slot$/],
    [() => solanaSignTransaction(client, { ...base, transaction: good.subarray(0, 100) }), TypeError, /: it ends inside its 3 account keys$/],
    [() => solanaSignTransaction(client, { ...base, transaction: twoSlotsOneSigner }), TypeError, /: it has 2 signature slots but its message header asks for 1 signature$/],
    [() => solanaSignTransaction(client, { ...base, transaction: unsignedTransaction(messageOnly, 0) }), TypeError, /: it holds no signature slot/],
    [() => solanaSignTransaction(client, { ...base, transaction: version1 }), TypeError, /: its message is version 1: only legacy and version-0 messages are signed$/],
    [() => solanaSignTransaction(client, { ...base, transaction: overflow }), TypeError, /: the count of signatures at byte 0 overflows a compact-u16$/],
    [() => solanaSignTransaction(client, { ...base, transaction: alias }), TypeError, /: the count of signatures at byte 0 is not in its shortest form$/],
    [() => solanaSignTransaction(client, { ...base, transaction: good, pubkey: BOB.pubkey }), TypeError, /^pubkey is not one of the signers of transaction/],
    [() => solanaSignTransaction(client, { ...base, transaction: good, pubkey: base58Encode(new Uint8Array(31)) }), TypeError, /^pubkey must be base58 of 32 bytes, not of 31$/],
    [() => solanaSignTransaction(client, { ...base, chainId: 'solana', transaction: good }), TypeError, /^chainId must be a CAIP-2 chain id/],
    [() => solanaSignTransaction(client, { ...base, transaction: good, expiry: Date.now() }), RangeError, /looks like milliseconds/],
    [() => solanaSignAllTransactions(/** @type {any} */ (null), { ...base, transactions: [good] }), TypeError, /^solanaSignAllTransactions needs a client/],
    [() => solanaSignAllTransactions(client, { ...base, transactions: /** @type {any} */ (good) }), TypeError, /^transactions must be an array of serialized transactions \(Uint8Array or base64\), not a/],
    [() => solanaSignAllTransactions(client, { ...base, transactions: [] }), RangeError, /^transactions must hold 1 to 16 transactions, not 0$/],
    [() => solanaSignAllTransactions(client, { ...base, transactions: Array(17).fill(good) }), RangeError, /^transactions must hold 1 to 16 transactions, not 17$/],
    [() => solanaSignAllTransactions(client, { ...base, transactions: [good, messageOnly] }), TypeError, /^transactions\[1\] is not a serialized Solana transaction/],
    [() => solanaSignAllTransactions(client, { ...base, transactions: [good, unsignedTransaction(transferMessage({ signers: [BOB.raw], to: ALICE.raw }), 1)], pubkey: ALICE.pubkey }), TypeError, /^pubkey is not one of the signers of transactions\[1\]/],
  ];
  for (const [call, kind, pattern] of cases) {
    await assert.rejects(call(), (error) => error instanceof kind && pattern.test(error.message), String(pattern));
  }
  assert.equal(runtime.sent.length, 0);
  // The largest transaction Solana takes is taken, as are 16 at once.
  const answering = createNativeClient({ application: APP, runtime: fakeChrome({ [APP]: createFakeTransactionWallet({ keys: [ALICE] }).host }) });
  await solanaSignTransaction(answering, { ...base, transaction: atLimit });
  assert.equal((await solanaSignAllTransactions(answering, { ...base, transactions: Array(16).fill(good) })).length, 16);
});

test('sessionRequest checks the raw params of the three methods, naming the field, before sending', async () => {
  const { client, runtime } = recordingClient();
  const good = b64(transfer());
  const solana = (/** @type {any} */ request) => client.sessionRequest({ topic: TOPIC, chainId: SOLANA, request });
  const eth = (/** @type {unknown[]} */ params, chainId = MAINNET) => client.sessionRequest({ topic: TOPIC, chainId, request: /** @type {any} */ ({ method: 'eth_signTransaction', params }) });
  const tx = { from: FROM, to: TO, value: '0x1', nonce: '0x0', gas: '0x5208', maxFeePerGas: '0x3b9aca00', maxPriorityFeePerGas: '0x1' };
  /** @type {Array<[() => Promise<unknown>, typeof TypeError | typeof RangeError, RegExp]>} */
  const cases = [
    [() => solana({ method: 'solana_signTransaction', params: [good] }), TypeError, /^request\.params of solana_signTransaction must be \{ transaction, pubkey\? \}, not an array$/],
    [() => solana({ method: 'solana_signTransaction', params: { tx: good } }), TypeError, /^request\.params\.transaction must be a serialized transaction in base64, not undefined$/],
    [() => solana({ method: 'solana_signTransaction', params: { transaction: transfer() } }), TypeError, /not an object \(solanaSignTransaction and solanaSignAllTransactions take the bytes\)$/],
    [() => solana({ method: 'solana_signTransaction', params: { transaction: good, pubkey: 'x0' } }), TypeError, /^request\.params\.pubkey: not base58/],
    [() => solana({ method: 'solana_signAllTransactions', params: { transactions: good } }), TypeError, /^request\.params\.transactions must be an array of base64 transactions, not a string$/],
    [() => solana({ method: 'solana_signAllTransactions', params: { transactions: [good, 'AA=='] } }), TypeError, /^request\.params\.transactions\[1\] is not a serialized Solana transaction: it holds no signature slot/],
    [() => eth({ ...tx }), TypeError, /^request\.params of eth_signTransaction must be \[transaction\] or \[transaction, address\], not an object$/],
    [() => eth([tx, FROM, FROM]), TypeError, /must be \[transaction\] or \[transaction, address\], not an array of 3$/],
    [() => eth([]), TypeError, /must be \[transaction\] or \[transaction, address\], not an array of 0$/],
    [() => eth(['0x02ef0180', 'vitalik.eth']), TypeError, /^request\.params\[1\] \(address\) must be an address, 0x and 40 hex digits \(any case\), not a string of 11 characters: eth_signTransaction's params are \[transaction, address\]$/],
    [() => eth(['0x02ef0180', null]), TypeError, /^request\.params\[1\] \(address\) must be an address \(0x and 40 hex digits\), not null/],
    [() => eth([tx, TO]), TypeError, new RegExp(`^request\\.params\\[1\\] \\(address\\) is ${TO}, but request\\.params\\[0\\]\\.from is ${FROM}: the account that signs is named once`)],
    [() => eth([{ ...tx, from: undefined }]), TypeError, /^request\.params\[0\]\.from must be an address \(0x and 40 hex digits\), not undefined$/],
    [() => eth([{ ...tx, to: '0x12' }]), TypeError, /^request\.params\[0\]\.to must be an address.*\(leave it out, or null, to create a contract\)$/],
    [() => eth([{ ...tx, value: 1 }]), TypeError, /^request\.params\[0\]\.value must be a hex quantity, 0x and hex digits \(e\.g\. "0x5208"\), not a number \(ethSignTransaction converts numbers and bigints/],
    [() => eth([{ ...tx, value: '0x01' }]), TypeError, /^request\.params\[0\]\.value is "0x01", not a hex quantity .*: it has leading zeros/],
    [() => eth([{ ...tx, nonce: '7' }]), TypeError, /^request\.params\[0\]\.nonce is "7", not a hex quantity .*: decimal digits are not a quantity/],
    [() => eth([{ ...tx, value: `0x1${'0'.repeat(64)}` }]), RangeError, /^request\.params\[0\]\.value has 65 hex digits, more than the 64 of a 256-bit quantity$/],
    [() => eth([{ ...tx, nonce: undefined }]), TypeError, /^request\.params\[0\]\.nonce is required: the wallet has no network to look it up/],
    [() => eth([{ ...tx, gas: undefined }]), TypeError, /^request\.params\[0\]\.gas \(or gasLimit\) is required: the wallet has no network to estimate it/],
    [() => eth([{ ...tx, gasLimit: '0x5209' }]), TypeError, /^request\.params\[0\]\.gas and request\.params\[0\]\.gasLimit differ/],
    [() => eth([{ ...tx, gasPrice: '0x1' }]), TypeError, /has gasPrice and EIP-1559 fees/],
    [() => eth([{ ...tx, maxFeePerGas: undefined, maxPriorityFeePerGas: undefined }]), TypeError, /^request\.params\[0\] has no fee: give gasPrice \(legacy\) or maxFeePerGas and maxPriorityFeePerGas \(EIP-1559\)/],
    [() => eth([{ ...tx, maxPriorityFeePerGas: undefined }]), TypeError, /^request\.params\[0\]\.maxPriorityFeePerGas is required with EIP-1559 fees$/],
    [() => eth([{ ...tx, type: '0x3' }]), RangeError, /^request\.params\[0\]\.type is "0x3": the wallet signs legacy \(0x0\), EIP-2930 \(0x1\) and EIP-1559 \(0x2\) transactions$/],
    [() => eth([{ ...tx, type: '0x0' }]), TypeError, /type is 0x0, which takes gasPrice, not maxFeePerGas/],
    [() => eth([{ from: FROM, nonce: '0x0', gas: '0x1', gasPrice: '0x1', type: '0x2' }]), TypeError, /type is 0x2 \(EIP-1559\), which takes maxFeePerGas and maxPriorityFeePerGas, not gasPrice/],
    [() => eth([{ from: FROM, nonce: '0x0', gas: '0x1', gasPrice: '0x1', type: '0x0', accessList: [] }]), TypeError, /type is 0x0 \(legacy\), which has no accessList/],
    [() => eth([{ ...tx, accessList: [{ address: TO, storageKeys: ['0x01'] }] }]), TypeError, /^request\.params\[0\]\.accessList\[0\]\.storageKeys\[0\] must be 32 bytes, 0x and 64 hex digits/],
    [() => eth([{ ...tx, accessList: {} }]), TypeError, /accessList must be an array of \{ address, storageKeys \}/],
    [() => eth([{ ...tx, data: '0xabc' }]), TypeError, /^request\.params\[0\]\.data must be bytes as 0x and an even number of hex digits, not a string of 5 characters$/],
    [() => eth([{ ...tx, data: '0xab', input: '0xcd' }]), TypeError, /data and request\.params\[0\]\.input differ/],
    [() => eth([{ ...tx, chainId: '0x89' }]), TypeError, /^request\.params\[0\]\.chainId is 0x89 \(137\), not the request's chain, eip155:1: a transaction is signed for the chain the person is shown$/],
    [() => eth(['0x']), TypeError, /^request\.params\[0\] must be a transaction object, or an unsigned serialized transaction as 0x and an even number of hex digits/],
    [() => eth(['0x03aa']), TypeError, /^request\.params\[0\] starts with 0x03: the wallet signs legacy \(an RLP list\), EIP-2930 \(0x01\) and EIP-1559 \(0x02\) transactions$/],
    [() => eth([null]), TypeError, /^request\.params\[0\] must be a transaction object or an unsigned serialized transaction/],
  ];
  for (const [call, kind, pattern] of cases) {
    await assert.rejects(call(), (error) => error instanceof kind && pattern.test(error.message), String(pattern));
  }
  assert.equal(runtime.sent.length, 0);
});

test('ethSignTransaction refuses wrong arguments, naming them, before sending', async () => {
  const { client, runtime } = recordingClient();
  const base = { topic: TOPIC, chainId: MAINNET };
  const tx = { from: FROM, to: TO, nonce: 1, gas: 21_000n, gasPrice: 1n };
  /** @type {Array<[() => Promise<unknown>, typeof TypeError | typeof RangeError, RegExp]>} */
  const cases = [
    [() => ethSignTransaction(/** @type {any} */ ({ request() {} }), { ...base, transaction: tx }), TypeError, /^ethSignTransaction needs a client from createNativeClient/],
    [() => ethSignTransaction(client, /** @type {any} */ (null)), TypeError, /^ethSignTransaction takes \{ topic, chainId, transaction, address\?, expiry\? \}/],
    [() => ethSignTransaction(client, { ...base, transaction: '0x02ef0180', address: /** @type {any} */ ('0x12') }), TypeError, /^address must be an address, 0x and 40 hex digits \(any case\), not a string of 4 characters/],
    [() => ethSignTransaction(client, { ...base, transaction: tx, address: TO }), TypeError, new RegExp(`^address is ${TO}, but transaction\\.from is ${FROM}: the account that signs is named once`)],
    [() => ethSignTransaction(client, { ...base, transaction: /** @type {any} */ (42) }), TypeError, /^transaction must be a transaction object, or an unsigned serialized transaction \(0x and hex, or a Uint8Array\), not a number$/],
    [() => ethSignTransaction(client, { ...base, transaction: { ...tx, nonce: -1 } }), RangeError, /^transaction\.nonce must not be negative, not -1$/],
    [() => ethSignTransaction(client, { ...base, transaction: { ...tx, value: 2 ** 60 } }), RangeError, /^transaction\.value must be a whole number no larger than Number\.MAX_SAFE_INTEGER \(use a bigint or a hex string above it\)/],
    [() => ethSignTransaction(client, { ...base, transaction: { ...tx, value: 0.5 } }), RangeError, /^transaction\.value must be a whole number/],
    [() => ethSignTransaction(client, { ...base, transaction: { ...tx, chainId: 137 } }), TypeError, /^transaction\.chainId is 0x89 \(137\), not the request's chain, eip155:1/],
    [() => ethSignTransaction(client, { ...base, transaction: /** @type {any} */ ({ ...tx, nonce: undefined }) }), TypeError, /^transaction\.nonce is required/],
    [() => ethSignTransaction(client, { ...base, transaction: /** @type {any} */ ({ ...tx, from: 'vitalik.eth' }) }), TypeError, /^transaction\.from must be an address/],
    [() => ethSignTransaction(client, { ...base, transaction: { ...tx, data: '0xz' } }), TypeError, /^transaction\.data must be bytes as 0x/],
    [() => ethSignTransaction(client, { ...base, transaction: '0x04aa' }), TypeError, /^transaction starts with 0x04/],
    [() => ethSignTransaction(client, { ...base, chainId: 'eip155:0x1', transaction: tx }), TypeError, /^chainId is "eip155:0x1", not an eip155 chain id/],
  ];
  for (const [call, kind, pattern] of cases) {
    await assert.rejects(call(), (error) => error instanceof kind && pattern.test(error.message), String(pattern));
  }
  assert.equal(runtime.sent.length, 0);
});

test('a signed Solana transaction is refused on arrival unless it is the one sent with the signature in its slot', async () => {
  const carol = randomKey();
  const message = transferMessage({ signers: [carol.raw, ALICE.raw], to: BOB.raw });
  const carolSigned = signInSlot(unsignedTransaction(message, 2), carol).signed;
  /** Signs as the fake does, then lets `tamper` break the answer. */
  const answeredWith = (/** @type {(result: any) => any} */ tamper) =>
    createNativeClient({ application: APP, runtime: fakeFirefox({ [APP]: createFakeTransactionWallet({ keys: [ALICE], tamper }).host }) });
  const one = (/** @type {(result: any) => any} */ tamper, pubkey = /** @type {string | undefined} */ (undefined)) =>
    solanaSignTransaction(answeredWith(tamper), { topic: TOPIC, chainId: SOLANA, transaction: carolSigned, ...(pubkey === undefined ? {} : { pubkey }) });
  const bytesOf = (/** @type {string} */ text) => new Uint8Array(Buffer.from(text, 'base64'));
  const rewrite = (/** @type {any} */ result, /** @type {(bytes: Uint8Array) => void} */ change) => {
    const bytes = bytesOf(result.transaction);
    change(bytes);
    return { ...result, transaction: b64(bytes) };
  };
  const otherSignature = new Uint8Array(64).fill(9);
  /** @type {Array<[(result: any) => any, RegExp, string?]>} */
  const cases = [
    [() => null, /the result is null, not an object$/],
    [(r) => ({ ...r, signature: undefined }), /signature is undefined, not a string$/],
    [(r) => ({ ...r, signature: base58Encode(new Uint8Array(65).fill(1)) }), /signature is not base58 of 64 bytes/],
    [(r) => ({ ...r, transaction: 'not base64' }), /transaction is "not base64", which does not match/],
    [(r) => ({ ...r, transaction: r.transaction.slice(0, 40) }), /transaction is not a serialized Solana transaction/],
    [(r) => rewrite(r, (bytes) => { bytes[bytes.length - 1] ^= 1; }), /transaction is not the transaction sent, signed: its message is not the message sent/],
    [(r) => ({ ...r, transaction: b64(Uint8Array.of(...bytesOf(r.transaction), 0)) }), /transaction is not a serialized Solana transaction|it is \d+ bytes, and the transaction sent was/],
    [(r) => rewrite(r, (bytes) => { bytes.set(otherSignature, 1); }), /signature slots 0 and 1 changed: signatures already present must be kept/],
    [(r) => ({ ...r, signature: base58Encode(otherSignature) }), /its signature slots do not hold the signature returned/],
    [(r) => rewrite(r, (bytes) => { bytes.set(bytes.subarray(65, 129), 1); bytes.set(splitTransaction(carolSigned).slot(1), 65); }),
      /transaction is not the transaction sent, signed: signature slot 0 held a signature, and it changed: signatures already present must be kept/],
  ];
  for (const [tamper, pattern] of cases) {
    await assert.rejects(one(tamper), (error) => error instanceof NativeProtocolError && error.kind === 'invalid-result' && error.method === 'session_request'
      && /^session_request \(solana_signTransaction\) returned a malformed result: /.test(error.message) && pattern.test(error.message), String(pattern));
  }
  // Three signers, Carol's slot signed: the signature put in Dave's empty slot, not Alice's, is
  // one empty slot changed, but not the slot of the pubkey asked for.
  const dave = randomKey();
  const three = signInSlot(unsignedTransaction(transferMessage({ signers: [carol.raw, ALICE.raw, dave.raw], to: BOB.raw }), 3), carol).signed;
  const inDavesSlot = (/** @type {any} */ r) => {
    const bytes = Uint8Array.from(three);
    bytes.set(new Uint8Array(Buffer.from(r.transaction, 'base64')).subarray(65, 129), 129);
    return { ...r, transaction: b64(bytes) };
  };
  const misplaced = (/** @type {string | undefined} */ pubkey) =>
    solanaSignTransaction(answeredWith(inDavesSlot), { topic: TOPIC, chainId: SOLANA, transaction: three, ...(pubkey === undefined ? {} : { pubkey }) });
  await assert.rejects(misplaced(ALICE.pubkey), (error) => error instanceof NativeProtocolError
    && /transaction is not the transaction sent, signed: the signature returned is not in the slot of the pubkey asked for$/.test(error.message));
  // Without a pubkey the client cannot tell which signer the wallet chose (it holds no Ed25519 verifier).
  assert.equal((await misplaced(undefined)).signature.length, 64);
  // Untouched, the answer passes.
  const { transaction } = await one((r) => r, ALICE.pubkey);
  assert.ok(verify(null, message, carol.publicKey, splitTransaction(transaction).slot(0)));
});

test('signAllTransactions answers are refused on arrival: counts, order, each transaction as for one', async () => {
  const batch = [transfer({ lamports: 1n }), transfer({ lamports: 2n })];
  const answeredWith = (/** @type {(result: any) => any} */ tamper) =>
    createNativeClient({ application: APP, runtime: fakeChrome({ [APP]: createFakeTransactionWallet({ keys: [ALICE], tamper }).host }) });
  const all = (/** @type {(result: any) => any} */ tamper) => solanaSignAllTransactions(answeredWith(tamper), { topic: TOPIC, chainId: SOLANA, transactions: batch });
  /** @type {Array<[(result: any) => any, RegExp]>} */
  const cases = [
    [() => [], /the result is an array, not an object$/],
    [(r) => ({ ...r, transactions: undefined }), /transactions is undefined, not an array$/],
    [(r) => ({ ...r, signatures: r.signatures.slice(1) }), /signatures holds 1 and transactions 2: one signature per transaction/],
    [(r) => ({ transactions: r.transactions.slice(1), signatures: r.signatures.slice(1) }), /transactions holds 1 and 2 were sent/],
    [(r) => ({ transactions: [...r.transactions].reverse(), signatures: [...r.signatures].reverse() }), /transactions\[0\] is not the transaction sent, signed: its message is not the message sent/],
    [(r) => ({ ...r, signatures: [r.signatures[0], r.signatures[0]] }), /transactions\[1\] is not the transaction sent, signed: its signature slots do not hold the signature returned/],
  ];
  for (const [tamper, pattern] of cases) {
    await assert.rejects(all(tamper), (error) => error instanceof NativeProtocolError && error.kind === 'invalid-result'
      && /^session_request \(solana_signAllTransactions\) returned a malformed result: /.test(error.message) && pattern.test(error.message), String(pattern));
  }
  assert.equal((await all((r) => r)).length, 2);
});

test('eth_signTransaction answers are refused on arrival unless they are a raw transaction of the type sent', async () => {
  const answering = (/** @type {unknown} */ result) => createNativeClient({ application: APP, runtime: fakeFirefox({ [APP]: (/** @type {any} */ m) => ({ jsonrpc: '2.0', id: m.id, result }) }) });
  const dynamic = { from: FROM, to: TO, nonce: '0x0', gas: '0x5208', maxFeePerGas: '0x1', maxPriorityFeePerGas: '0x1' };
  const legacy = { from: FROM, to: TO, nonce: '0x0', gas: '0x5208', gasPrice: '0x1' };
  const send = (/** @type {unknown} */ result, /** @type {any} */ tx) => answering(result).sessionRequest({ topic: TOPIC, chainId: MAINNET, request: { method: 'eth_signTransaction', params: [tx] } });
  /** @type {Array<[unknown, any, RegExp]>} */
  const cases = [
    [42, dynamic, /the result is 42, not a string$/],
    ['02f8', dynamic, /the result is "02f8", which does not match \^0x\(\[0-9a-f\]\{2\}\)\+\$$/],
    ['0x02f', dynamic, /the result is "0x02f", which does not match/],
    ['0x', dynamic, /the result is "0x", which does not match/],
    ['0x02F8AB', dynamic, /the result is "0x02F8AB", which does not match/],
    ['0x03f8', dynamic, /the result starts with 0x03, not 0x01, 0x02 or an RLP list/],
    ['0xf86c', dynamic, /the result is a transaction of type 0x0, and the transaction sent was of type 0x2/],
    ['0x02f8', legacy, /type 0x2, and the transaction sent was of type 0x0/],
    ['0x02f8', { ...legacy, accessList: [] }, /type 0x2, and the transaction sent was of type 0x1/],
    ['0xf8', '0x01f8', /type 0x0, and the transaction sent was of type 0x1/],
  ];
  for (const [result, tx, pattern] of cases) {
    await assert.rejects(send(result, tx), (error) => error instanceof NativeProtocolError && error.kind === 'invalid-result'
      && /^session_request \(eth_signTransaction\) returned a malformed result: /.test(error.message) && pattern.test(error.message), String(pattern));
  }
  assert.equal(await send('0xf86c', legacy), '0xf86c');
  assert.equal(await send('0x01f8', { ...legacy, type: '0x1' }), '0x01f8');
  assert.equal(await send('0xf8', '0xe580'), '0xf8');
});

test('compactU16 of the fakes is Solana\'s shortest form', () => {
  assert.deepEqual([0, 127, 128, 16383, 16384, 65535].map(compactU16), [[0], [0x7f], [0x80, 0x01], [0xff, 0x7f], [0x80, 0x80, 0x01], [0xff, 0xff, 0x03]]);
});
