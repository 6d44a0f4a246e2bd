// The session methods (docs/sessions.md) on both transports, against a fake wallet host that
// answers like the real one: the requests on the wire, the checked results, the catalogue
// errors, the params refused before sending, and the malformed results refused on arrival.
import assert from 'node:assert/strict';
import { afterEach, test } from 'node:test';
import {
  NativeProtocolError,
  NativeRpcError,
  NativeRpcErrorCode,
  SESSION_CONNECT_METHOD,
  SESSION_DELETE_NOTIFICATION,
  SESSION_DISCONNECT_METHOD,
  SESSION_EVENT_NAMES,
  SESSION_EVENT_NOTIFICATION,
  SESSION_EXPIRE_NOTIFICATION,
  SESSION_EXTEND_METHOD,
  SESSION_LIST_METHOD,
  SESSION_REQUEST_METHOD,
  SESSION_UPDATE_NOTIFICATION,
  SOLANA_ACCOUNTS_CHANGED_EVENT,
  SOLANA_CHAINS,
  SOLANA_DEVNET_CHAIN_ID,
  SOLANA_GET_ACCOUNTS_METHOD,
  SOLANA_MAINNET_CHAIN_ID,
  SOLANA_NAMESPACE,
  SOLANA_REQUEST_ACCOUNTS_METHOD,
  SOLANA_SIGN_MESSAGE_METHOD,
  SOLANA_TESTNET_CHAIN_ID,
  base58Decode,
  base58Encode,
  checkSession,
  configureNativeClient,
  createNativeClient,
  parseAccountId,
  parseChainId,
  resetNativeClient,
  sendNativeSessionConnectRequest,
  sendNativeSessionDisconnectRequest,
  sendNativeSessionExtendRequest,
  sendNativeSessionListRequest,
  sendNativeSessionRequest,
  sendNativeSignMessageRequest,
  signMessage,
} from '../src/index.js';
import { fakeChrome, fakeFirefox } from './fakes.js';
import { DEVNET, LIFETIME, MAINNET, METADATA, PROPOSAL, TESTNET, WALLET_METADATA, createFakeSessionWallet, nowSeconds, verifies } from './session-fakes.js';

const APP = 'com.example.wallet_bridge';
const TOPIC = 'a'.repeat(64);
const PUBKEY = base58Encode(new Uint8Array(32).fill(7));

afterEach(() => resetNativeClient());

test('the names and chain ids of docs/sessions.md', () => {
  assert.deepEqual(
    [SESSION_CONNECT_METHOD, SESSION_LIST_METHOD, SESSION_REQUEST_METHOD, SESSION_EXTEND_METHOD, SESSION_DISCONNECT_METHOD],
    ['session_connect', 'session_list', 'session_request', 'session_extend', 'session_disconnect'],
  );
  assert.deepEqual(
    [SESSION_EVENT_NOTIFICATION, SESSION_UPDATE_NOTIFICATION, SESSION_DELETE_NOTIFICATION, SESSION_EXPIRE_NOTIFICATION],
    ['session_event', 'session_update', 'session_delete', 'session_expire'],
  );
  assert.deepEqual(SESSION_EVENT_NAMES, ['session_event', 'session_update', 'session_delete', 'session_expire']);
  assert.ok(Object.isFrozen(SESSION_EVENT_NAMES) && Object.isFrozen(SOLANA_CHAINS));
  assert.equal(SOLANA_NAMESPACE, 'solana');
  assert.deepEqual(SOLANA_CHAINS, { mainnet: MAINNET, devnet: DEVNET, testnet: TESTNET });
  assert.deepEqual([SOLANA_MAINNET_CHAIN_ID, SOLANA_DEVNET_CHAIN_ID, SOLANA_TESTNET_CHAIN_ID], [
    'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp', 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1', 'solana:4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z',
  ]);
  assert.deepEqual([SOLANA_SIGN_MESSAGE_METHOD, SOLANA_GET_ACCOUNTS_METHOD, SOLANA_REQUEST_ACCOUNTS_METHOD, SOLANA_ACCOUNTS_CHANGED_EVENT],
    ['solana_signMessage', 'solana_getAccounts', 'solana_requestAccounts', 'accountsChanged']);
});

test('parseChainId and parseAccountId split CAIP-2 and CAIP-10 ids and refuse anything else', () => {
  assert.deepEqual(parseChainId(MAINNET), { namespace: 'solana', reference: '5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp' });
  assert.deepEqual(parseChainId('eip155:1'), { namespace: 'eip155', reference: '1' });
  const account = 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp:7S3P4HxJpyyigGzodYwHtCxZyUQe9JiBMHyRWXArAaKv';
  assert.deepEqual(parseAccountId(account), { chainId: MAINNET, namespace: 'solana', reference: '5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp', address: '7S3P4HxJpyyigGzodYwHtCxZyUQe9JiBMHyRWXArAaKv' });
  for (const wrong of ['solana', 'so:1', 'Solana:1', 'toolongnamespace:1', `solana:${'x'.repeat(33)}`, 'solana:a b', 'solana:', ':abc', 'solana:a:b', '', 7, null]) {
    assert.throws(() => parseChainId(/** @type {any} */ (wrong)), TypeError, String(wrong));
  }
  for (const wrong of [MAINNET, `${MAINNET}:`, `${MAINNET}:a:b`, `${MAINNET}:${'a'.repeat(129)}`, `${MAINNET}:a/b`, 'solana:1', undefined]) {
    assert.throws(() => parseAccountId(/** @type {any} */ (wrong)), TypeError, String(wrong));
  }
  assert.deepEqual(parseAccountId(`eip155:1:0xab.c%2-d`).address, '0xab.c%2-d');
});

for (const [flavor, makeRuntime] of /** @type {const} */ ([['firefox', fakeFirefox], ['chrome', fakeChrome]])) {
  for (const transport of /** @type {const} */ (['message', 'port'])) {
    const label = `${flavor} ${transport}`;
    /** Every message the extension sent, whichever the transport. */
    const sentOf = (/** @type {ReturnType<typeof fakeChrome>} */ runtime) => [...runtime.sent, ...runtime.ports.flatMap((port) => port.posted)];

    test(`${label}: connect sends the proposal as given and resolves to the checked session`, async () => {
      const wallet = createFakeSessionWallet();
      const runtime = makeRuntime({ [APP]: wallet.host });
      const client = createNativeClient({ application: APP, transport, runtime });
      const session = await client.connect({ ...PROPOSAL, id: 'connect-1', timeoutMs: 5000 });
      const [sent] = /** @type {any[]} */ (sentOf(runtime));
      assert.deepEqual(sent, { jsonrpc: '2.0', id: 'connect-1', method: 'session_connect', params: PROPOSAL }, 'id and timeoutMs stay out of params');
      assert.match(session.topic, /^[0-9a-f]{64}$/);
      assert.deepEqual(session.namespaces.solana.chains, [MAINNET, DEVNET]);
      assert.equal(session.namespaces.solana.accounts.length, 4);
      for (const account of session.namespaces.solana.accounts) {
        const { chainId, address } = parseAccountId(account);
        assert.ok(session.namespaces.solana.chains.includes(chainId));
        assert.equal(base58Decode(address).length, 32);
      }
      assert.deepEqual(session.self.metadata, METADATA);
      assert.deepEqual(session.peer.metadata, WALLET_METADATA);
      assert.ok(Math.abs(session.expiry - (nowSeconds() + LIFETIME)) <= 2);
      client.close();
    });

    test(`${label}: listSessions, sessionRequest, extend and disconnect, each with its params on the wire`, async () => {
      const wallet = createFakeSessionWallet();
      const runtime = makeRuntime({ [APP]: wallet.host });
      const client = createNativeClient({ application: APP, transport, runtime });
      const { topic } = await client.connect(PROPOSAL);
      const second = await client.connect({ requiredNamespaces: { [TESTNET]: { methods: ['solana_getAccounts'], events: [] } }, metadata: { name: 'n' } });

      const { sessions } = await client.listSessions();
      assert.deepEqual(sessions.map((session) => session.topic), [topic, second.topic], 'oldest first');

      const accounts = await client.sessionRequest({ topic, chainId: MAINNET, request: { method: SOLANA_GET_ACCOUNTS_METHOD } });
      assert.deepEqual(accounts, wallet.keys.map((key) => ({ pubkey: key.pubkey })));

      const message = new TextEncoder().encode('Sign in to example.org');
      const { signature } = await client.sessionRequest({
        topic, chainId: DEVNET, request: { method: SOLANA_SIGN_MESSAGE_METHOD, params: { message: base58Encode(message), pubkey: wallet.keys[1].pubkey } }, expiry: nowSeconds() + 600,
      });
      assert.ok(verifies(message, base58Decode(signature), wallet.keys[1]));

      const before = wallet.sessions.get(topic).expiry;
      const extended = await client.extend(topic);
      assert.ok(Number.isInteger(extended.expiry) && extended.expiry >= before);

      assert.equal(await client.disconnect(topic, { code: 6000, message: 'User disconnected' }), undefined);
      assert.equal(await client.disconnect(second.topic), undefined);
      assert.deepEqual((await client.listSessions()).sessions, []);

      const wire = /** @type {any[]} */ (sentOf(runtime)).map(({ method, params }) => ({ method, params }));
      assert.deepEqual(wire.slice(2), [
        { method: 'session_list', params: {} },
        { method: 'session_request', params: { topic, chainId: MAINNET, request: { method: 'solana_getAccounts' } } },
        wire[4],
        { method: 'session_extend', params: { topic } },
        { method: 'session_disconnect', params: { topic, reason: { code: 6000, message: 'User disconnected' } } },
        { method: 'session_disconnect', params: { topic: second.topic } },
        { method: 'session_list', params: {} },
      ]);
      assert.equal(wire[4].params.request.params.message, base58Encode(message));
      assert.equal(typeof wire[4].params.expiry, 'number');
      client.close();
    });

    test(`${label}: signMessage base58-encodes the bytes and resolves to the 64-byte signature`, async () => {
      const wallet = createFakeSessionWallet();
      const client = createNativeClient({ application: APP, transport, runtime: makeRuntime({ [APP]: wallet.host }) });
      const { topic } = await client.connect(PROPOSAL);
      const message = Uint8Array.of(0, 0, 1, 2, 255);
      const signature = await signMessage(client, { topic, chainId: MAINNET, message, pubkey: wallet.keys[0].pubkey });
      assert.ok(signature instanceof Uint8Array && signature.length === 64);
      assert.ok(verifies(message, signature, wallet.keys[0]));
      const request = wallet.requests.at(-1);
      assert.deepEqual(request.params.request, { method: 'solana_signMessage', params: { message: '11LiA', pubkey: wallet.keys[0].pubkey } });
      assert.equal('expiry' in request.params, false, 'no expiry unless given');
      client.close();
    });

    test(`${label}: the host's session errors arrive as NativeRpcError with the catalogue's code and message`, async () => {
      const wallet = createFakeSessionWallet();
      const client = createNativeClient({ application: APP, transport, runtime: makeRuntime({ [APP]: wallet.host }) });
      /** @param {Promise<unknown>} call @param {number} code */
      const rejectsWith = (call, code) => assert.rejects(call, (error) => error instanceof NativeRpcError && error.code === code && typeof error.message === 'string' && error.message.length > 0);

      wallet.rejectNext = true;
      await rejectsWith(client.connect(PROPOSAL), NativeRpcErrorCode.userRejected);
      await assert.rejects(client.connect({ requiredNamespaces: { eip155: { chains: ['eip155:1'], methods: [], events: [] } }, metadata: METADATA }), (error) =>
        error instanceof NativeRpcError && error.code === NativeRpcErrorCode.unsupportedChains && error.message === 'Unsupported chains' && /** @type {any} */ (error.data).chains[0] === 'eip155:1');

      const { topic } = await client.connect(PROPOSAL);
      const sign = (/** @type {string} */ chainId, /** @type {string} */ pubkey) => signMessage(client, { topic, chainId, message: Uint8Array.of(1), pubkey });
      await rejectsWith(sign(TESTNET, wallet.keys[0].pubkey), NativeRpcErrorCode.unauthorizedChain);
      await rejectsWith(client.sessionRequest({ topic, chainId: MAINNET, request: { method: SOLANA_REQUEST_ACCOUNTS_METHOD } }), NativeRpcErrorCode.unauthorizedMethod);
      await rejectsWith(sign(MAINNET, PUBKEY), NativeRpcErrorCode.unauthorized);
      wallet.declineNext = true;
      await rejectsWith(sign(MAINNET, wallet.keys[0].pubkey), NativeRpcErrorCode.userRejectedRequest);
      await client.disconnect(topic);
      await rejectsWith(client.extend(topic), NativeRpcErrorCode.noSessionForTopic);
      await rejectsWith(client.disconnect(topic), NativeRpcErrorCode.noSessionForTopic);
      await rejectsWith(sign(MAINNET, wallet.keys[0].pubkey), NativeRpcErrorCode.noSessionForTopic);
      client.close();
    });
  }
}

test('the module-level session functions use the default client', async () => {
  const wallet = createFakeSessionWallet();
  const runtime = fakeFirefox({ [APP]: wallet.host });
  configureNativeClient({ application: APP, runtime });
  const { topic } = await sendNativeSessionConnectRequest({ ...PROPOSAL, id: 7 });
  assert.equal((await sendNativeSessionListRequest({ id: 'list' })).sessions[0].topic, topic);
  const accounts = await sendNativeSessionRequest({ topic, chainId: MAINNET, request: { method: SOLANA_GET_ACCOUNTS_METHOD } });
  assert.equal(accounts.length, 2);
  const message = Uint8Array.of(1, 2, 3);
  assert.ok(verifies(message, await sendNativeSignMessageRequest({ topic, chainId: MAINNET, message, pubkey: wallet.keys[0].pubkey }), wallet.keys[0]));
  assert.ok((await sendNativeSessionExtendRequest(topic)).expiry > nowSeconds());
  await sendNativeSessionDisconnectRequest(topic, undefined, { id: 'bye' });
  assert.deepEqual(runtime.sent.map((message) => /** @type {any} */ (message).id).filter((id) => typeof id !== 'string' || !/^[0-9a-f-]{36}$/.test(id)), [7, 'list', 'bye']);
  resetNativeClient();
  await assert.rejects(sendNativeSessionListRequest(), /configureNativeClient/);
});

// ---- Params: refused before anything is sent ----------------------------------------------------

/** A client whose host records what it gets and must never be reached by these calls. */
function recordingClient() {
  const runtime = fakeChrome({ [APP]: () => assert.fail('nothing should be sent') });
  return { client: createNativeClient({ application: APP, runtime }), runtime };
}

const ns = (/** @type {object} */ fields) => ({ solana: { chains: [MAINNET], methods: [], events: [], ...fields } });

test('connect refuses malformed proposals, naming the field, before sending', async () => {
  const { client, runtime } = recordingClient();
  /** @type {Array<[unknown, typeof TypeError | typeof RangeError, RegExp]>} */
  const cases = [
    [undefined, TypeError, /connect takes/],
    ['{}', TypeError, /connect takes/],
    [{ metadata: METADATA }, TypeError, /together must ask for at least one chain/],
    [{ requiredNamespaces: {}, optionalNamespaces: {}, metadata: METADATA }, TypeError, /at least one chain/],
    [{ requiredNamespaces: [], metadata: METADATA }, TypeError, /requiredNamespaces must be an object of namespaces/],
    [{ requiredNamespaces: ns({}), metadata: { name: 'x', url: 'javascript:alert(1)' } }, RangeError, /metadata\.url must be an https: or http: address/],
    [{ requiredNamespaces: ns({}), metadata: { name: 'x', icons: ['data:image/png;base64,AA'] } }, RangeError, /metadata\.icons\[0\] must be an https: or http: address/],
    [{ requiredNamespaces: { Solana: { chains: [MAINNET], methods: [], events: [] } }, metadata: METADATA }, TypeError, /requiredNamespaces has the key "Solana", which is neither/],
    [{ requiredNamespaces: { solana: null }, metadata: METADATA }, TypeError, /requiredNamespaces\.solana must be an object/],
    [{ requiredNamespaces: ns({ chains: [] }), metadata: METADATA }, TypeError, /requiredNamespaces\.solana\.chains must not be empty/],
    [{ requiredNamespaces: ns({ chains: 'solana:x' }), metadata: METADATA }, TypeError, /requiredNamespaces\.solana\.chains must be an array of strings/],
    [{ requiredNamespaces: ns({ chains: ['solana-mainnet'] }), metadata: METADATA }, TypeError, /requiredNamespaces\.solana\.chains\[0\] must be a CAIP-2 chain id .*"solana-mainnet"/],
    [{ requiredNamespaces: ns({ chains: [MAINNET, 'eip155:1'] }), metadata: METADATA }, TypeError, /requiredNamespaces\.solana\.chains\[1\] is "eip155:1", a chain outside the namespace "solana"/],
    [{ optionalNamespaces: ns({ methods: undefined }), metadata: METADATA }, TypeError, /optionalNamespaces\.solana\.methods must be an array of strings/],
    [{ optionalNamespaces: ns({ events: [1] }), metadata: METADATA }, TypeError, /optionalNamespaces\.solana\.events\[0\] must be a string/],
    [{ requiredNamespaces: { [MAINNET]: { chains: [MAINNET], methods: [], events: [] } }, metadata: METADATA }, TypeError, /requiredNamespaces\["solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp"\] is keyed by a chain id, so it has no chains member/],
    [{ requiredNamespaces: ns({}) }, TypeError, /metadata must be an object/],
    [{ requiredNamespaces: ns({}), metadata: { description: 'x' } }, TypeError, /metadata\.name must be a string/],
    [{ requiredNamespaces: ns({}), metadata: { name: '' } }, RangeError, /metadata\.name must be 1 to 100 characters, not 0/],
    [{ requiredNamespaces: ns({}), metadata: { name: 'x'.repeat(101) } }, RangeError, /metadata\.name must be 1 to 100 characters, not 101/],
    [{ requiredNamespaces: ns({}), metadata: { name: 'n', url: 5 } }, TypeError, /metadata\.url must be a string/],
    [{ requiredNamespaces: ns({}), metadata: { name: 'n', icons: 'https://x' } }, TypeError, /metadata\.icons must be an array of strings/],
    [{ ...PROPOSAL, timeoutMs: 0 }, RangeError, /timeoutMs/],
    [{ ...PROPOSAL, id: null }, TypeError, /id must be a string or a finite number/],
  ];
  for (const [params, kind, pattern] of cases) {
    await assert.rejects(client.connect(/** @type {any} */ (params)), (error) => error instanceof kind && pattern.test(error.message), `${JSON.stringify(params)} → ${pattern}`);
  }
  // 100 characters counted as code points: 100 emoji are fine, and a chain-keyed namespace alone is a chain.
  const ok = createNativeClient({ application: APP, runtime: fakeChrome({ [APP]: createFakeSessionWallet().host }) });
  await ok.connect({ requiredNamespaces: { [MAINNET]: { methods: [], events: [] } }, metadata: { name: '🔑'.repeat(100) } });
  assert.equal(runtime.sent.length, 0);
});

test('sessionRequest, extend and disconnect refuse malformed params, naming the field, before sending', async () => {
  const { client, runtime } = recordingClient();
  const valid = { topic: TOPIC, chainId: MAINNET, request: { method: SOLANA_GET_ACCOUNTS_METHOD } };
  const signing = (/** @type {object} */ params) => ({ ...valid, request: { method: SOLANA_SIGN_MESSAGE_METHOD, params } });
  /** @type {Array<[unknown, typeof TypeError | typeof RangeError, RegExp]>} */
  const cases = [
    [null, TypeError, /sessionRequest takes/],
    [{ ...valid, topic: undefined }, TypeError, /^topic must be a session topic \(64 lowercase hex digits\), not undefined/],
    [{ ...valid, topic: 'A'.repeat(64) }, TypeError, /^topic must be a session topic.*uppercase/],
    [{ ...valid, topic: 'a'.repeat(63) }, TypeError, /^topic must be a session topic, 64 lowercase hex digits.*63 characters/],
    [{ ...valid, topic: 'g'.repeat(64) }, TypeError, /^topic must be a session topic/],
    [{ ...valid, chainId: 'mainnet' }, TypeError, /^chainId must be a CAIP-2 chain id .*"mainnet"/],
    [{ ...valid, chainId: 5 }, TypeError, /^chainId must be a CAIP-2 chain id .*a number/],
    [{ ...valid, request: 'solana_getAccounts' }, TypeError, /^request must be \{ method, params\? \}/],
    [{ ...valid, request: { method: '' } }, TypeError, /^request\.method must be a method name/],
    [{ ...valid, request: { method: 'x', params: 'a' } }, TypeError, /^request\.params must be an object or an array/],
    [{ ...valid, request: { method: 'x', params: null } }, TypeError, /^request\.params must be an object or an array/],
    [signing(undefined), TypeError, /request\.params of solana_signMessage must be \{ message, pubkey \}/],
    [signing({ message: 'abc0', pubkey: PUBKEY }), TypeError, /^request\.params\.message: not base58: the character "0"/],
    [signing({ message: '', pubkey: PUBKEY }), TypeError, /^request\.params\.message must not be empty/],
    [signing({ message: [1], pubkey: PUBKEY }), TypeError, /^request\.params\.message must be a base58 string/],
    [signing({ message: '2g', pubkey: '2g' }), TypeError, /^request\.params\.pubkey must be base58 of 32 bytes, not of 1/],
    [{ ...valid, expiry: '1795000600' }, TypeError, /^expiry must be a number of seconds since the Unix epoch, not a string/],
    [{ ...valid, expiry: 1795000600.5 }, RangeError, /^expiry must be a positive whole number of seconds/],
    [{ ...valid, expiry: -1 }, RangeError, /^expiry must be a positive whole number/],
    [{ ...valid, expiry: NaN }, RangeError, /^expiry must be a positive whole number/],
    [{ ...valid, expiry: Date.now() + 600_000 }, RangeError, /^expiry is \d+, which looks like milliseconds/],
    [{ ...valid, id: {} }, TypeError, /id must be a string or a finite number/],
  ];
  for (const [params, kind, pattern] of cases) {
    await assert.rejects(client.sessionRequest(/** @type {any} */ (params)), (error) => error instanceof kind && pattern.test(error.message), `${JSON.stringify(params)} → ${pattern}`);
  }
  for (const topic of [undefined, 42, 'xyz', TOPIC.toUpperCase()]) {
    await assert.rejects(client.extend(/** @type {any} */ (topic)), (error) => error instanceof TypeError && /^topic must be a session topic/.test(error.message));
    await assert.rejects(client.disconnect(/** @type {any} */ (topic)), (error) => error instanceof TypeError && /^topic must be a session topic/.test(error.message));
  }
  await assert.rejects(client.extend(TOPIC, /** @type {any} */ (5000)), /extend's options must be \{ origin\?, id\?, timeoutMs\? \}/);
  await assert.rejects(client.listSessions(/** @type {any} */ ('id')), /listSessions's options must be/);
  await assert.rejects(client.disconnect(TOPIC, /** @type {any} */ ('bye')), (error) => error instanceof TypeError && /^reason must be \{ code, message \}/.test(error.message));
  await assert.rejects(client.disconnect(TOPIC, /** @type {any} */ ({ code: '6000', message: 'x' })), (error) => error instanceof TypeError && /^reason\.code must be a number/.test(error.message));
  await assert.rejects(client.disconnect(TOPIC, /** @type {any} */ ({ code: 6000.5, message: 'x' })), (error) => error instanceof RangeError && /^reason\.code must be an integer/.test(error.message));
  await assert.rejects(client.disconnect(TOPIC, /** @type {any} */ ({ code: 6000 })), (error) => error instanceof TypeError && /^reason\.message must be a string/.test(error.message));
  await assert.rejects(client.disconnect(TOPIC, { code: 6000, message: 'é'.repeat(129) }), (error) => error instanceof RangeError && /^reason\.message must be at most 256 bytes/.test(error.message));
  assert.equal(runtime.sent.length, 0);
});

test('signMessage refuses a message that is not bytes, and a wrong client', async () => {
  const { client, runtime } = recordingClient();
  const args = { topic: TOPIC, chainId: MAINNET, message: Uint8Array.of(1), pubkey: PUBKEY };
  await assert.rejects(signMessage(client, { ...args, message: /** @type {any} */ ('hello') }), (error) => error instanceof TypeError && /new TextEncoder\(\)\.encode\(text\)/.test(error.message));
  await assert.rejects(signMessage(client, { ...args, message: /** @type {any} */ ([1, 2]) }), (error) => error instanceof TypeError && /^message must be a Uint8Array/.test(error.message));
  await assert.rejects(signMessage(client, { ...args, message: new Uint8Array(0) }), RangeError);
  await assert.rejects(signMessage(client, { ...args, pubkey: 'not-base58-0' }), (error) => error instanceof TypeError && /^pubkey: not base58/.test(error.message));
  await assert.rejects(signMessage(client, { ...args, pubkey: base58Encode(new Uint8Array(31)) }), (error) => error instanceof TypeError && /^pubkey must be base58 of 32 bytes, not of 31/.test(error.message));
  await assert.rejects(signMessage(client, { ...args, topic: 'nope' }), (error) => error instanceof TypeError && /^topic must be/.test(error.message));
  await assert.rejects(signMessage(client, { ...args, expiry: 1.5 }), RangeError);
  await assert.rejects(signMessage(/** @type {any} */ ({}), args), (error) => error instanceof TypeError && /client from createNativeClient/.test(error.message));
  await assert.rejects(signMessage(client, /** @type {any} */ (null)), /signMessage takes/);
  assert.equal(runtime.sent.length, 0);
});

// ---- Results: refused on arrival ---------------------------------------------------------------

const GOOD_KEY = base58Encode(new Uint8Array(32).fill(9));
/** A valid session answer, to break one field at a time. */
function goodSession() {
  return {
    topic: TOPIC,
    namespaces: { solana: { chains: [MAINNET, DEVNET], accounts: [`${MAINNET}:${GOOD_KEY}`, `${DEVNET}:${GOOD_KEY}`], methods: ['solana_signMessage'], events: ['accountsChanged'] } },
    requiredNamespaces: PROPOSAL.requiredNamespaces,
    optionalNamespaces: PROPOSAL.optionalNamespaces,
    expiry: 1_795_000_000,
    self: { metadata: METADATA },
    peer: { metadata: WALLET_METADATA },
  };
}

/**
 * A client whose host answers every request with `result`.
 * @param {unknown} result
 */
function answering(result) {
  return createNativeClient({ application: APP, runtime: fakeFirefox({ [APP]: (/** @type {any} */ m) => ({ jsonrpc: '2.0', id: m.id, result }) }) });
}

/** @type {Array<[string, (session: any) => void, RegExp]>} */
const BROKEN_SESSIONS = [
  ['uppercase topic', (s) => { s.topic = TOPIC.toUpperCase(); }, /session\.topic is "[0-9A-F]+"…, which does not match \^\[0-9a-f\]\{64\}\$$/],
  ['no namespaces', (s) => { delete s.namespaces; }, /session\.namespaces is missing$/],
  ['empty namespaces', (s) => { s.namespaces = {}; }, /session\.namespaces has 0 members, fewer than 1$/],
  ['account on a chain the namespace lacks', (s) => { s.namespaces.solana.accounts.push(`${TESTNET}:${GOOD_KEY}`); }, /session\.namespaces\.solana\.accounts\[2\] is on "solana:4uhc.*", which is not one of the namespace's chains/],
  ['account that is not CAIP-10', (s) => { s.namespaces.solana.accounts[0] = GOOD_KEY; }, /accounts\[0\] is ".*, which does not match \^\[-a-z0-9\]\{3,8\}:/],
  ['Solana address that is not a 32-byte key', (s) => { s.namespaces.solana.accounts[1] = `${DEVNET}:2g`; }, /accounts\[1\] has an address that is not a base58 32-byte public key/],
  ['chains of another namespace', (s) => { s.namespaces.solana.chains.push('eip155:1'); }, /chains holds "eip155:1", not a CAIP-2 chain id of the namespace "solana"/],
  ['accounts missing', (s) => { delete s.namespaces.solana.accounts; }, /session\.namespaces\.solana\.accounts is missing$/],
  ['methods not strings', (s) => { s.namespaces.solana.methods = [1]; }, /session\.namespaces\.solana\.methods\[0\] is 1, not a string$/],
  ['a bad namespace key', (s) => { s.namespaces = { 'not a key': s.namespaces.solana }; }, /session\.namespaces has the member "not a key", which it may not$/],
  ['a chain-id key (the host merges it into its namespace)', (s) => { s.namespaces = { [MAINNET]: s.namespaces.solana }; }, /session\.namespaces has the member "solana:5eykt/],
  ['expiry in a string', (s) => { s.expiry = '1795000000'; }, /session\.expiry is a string, not a whole number$/],
  ['fractional expiry', (s) => { s.expiry = 1.5; }, /session\.expiry is 1\.5, not a whole number$/],
  ['expiry 0', (s) => { s.expiry = 0; }, /session\.expiry is 0, less than 1$/],
  ['a negative expiry', (s) => { s.expiry = -1; }, /session\.expiry is -1, less than 1$/],
  ['an expiry past what a number holds exactly', (s) => { s.expiry = 1e20; }, /session\.expiry is 100000000000000000000, more than 9007199254740991$/],
  ['no self', (s) => { delete s.self; }, /session\.self is missing$/],
  ['peer metadata without a name', (s) => { delete s.peer.metadata.name; }, /session\.peer\.metadata\.name is missing$/],
  ['self metadata without the members the host fills in', (s) => { s.self.metadata = { name: 'n' }; }, /session\.self\.metadata\.description is missing$/],
  ['icons not an array', (s) => { s.self.metadata.icons = 'x'; }, /session\.self\.metadata\.icons is a string, not an array$/],
  ['requiredNamespaces not an object', (s) => { s.requiredNamespaces = []; }, /session\.requiredNamespaces is an array, not an object$/],
  ['no optionalNamespaces (the host always answers them, {} for none)', (s) => { delete s.optionalNamespaces; }, /session\.optionalNamespaces is missing$/],
  ['requiredNamespaces with a chain of another namespace', (s) => { s.requiredNamespaces = { solana: { chains: ['eip155:1'], methods: [], events: [] } }; },
    /session\.requiredNamespaces\.solana\.chains holds "eip155:1", not a CAIP-2 chain id of the namespace "solana"$/],
];

test('a session answer with a broken field is a NativeProtocolError naming the field', async () => {
  for (const [what, breakIt, pattern] of BROKEN_SESSIONS) {
    const session = structuredClone(goodSession());
    breakIt(session);
    await assert.rejects(answering(session).connect(PROPOSAL), (error) =>
      error instanceof NativeProtocolError && error.kind === 'invalid-result' && error.method === 'session_connect'
      && /^session_connect returned a malformed result: /.test(error.message) && pattern.test(error.message)
      && error.response !== undefined && typeof error.id === 'string', what);
  }
  await assert.rejects(answering(null).connect(PROPOSAL), (error) => error instanceof NativeProtocolError && /session is null, not an object/.test(error.message));
});

test('a valid session passes whatever its accounts: no accounts, extra fields, empty proposals, eip155', async () => {
  assert.equal(checkSession(goodSession()).topic, TOPIC);
  const empty = goodSession();
  empty.namespaces.solana.accounts = [];
  checkSession(empty);
  const extra = { ...goodSession(), requiredNamespaces: {}, optionalNamespaces: {}, extra: { future: true } };
  assert.deepEqual(checkSession(extra), extra);
  const other = { ...goodSession(), namespaces: { eip155: { chains: ['eip155:1'], accounts: ['eip155:1:0xab16a96d359ec26a11e2c2b3d8f8b8942d5bfcdb'], methods: ['eth_sign'], events: [] } } };
  checkSession(other);
  assert.throws(() => checkSession({ ...goodSession(), topic: 1 }, { id: 3, method: 'session_list' }), (error) =>
    error instanceof NativeProtocolError && error.id === 3 && error.method === 'session_list' && /^session_list returned/.test(error.message));
});

test('session_list, session_extend, session_disconnect and the Solana inner results are checked', async () => {
  const broken = structuredClone(goodSession());
  broken.namespaces.solana.accounts = [`${TESTNET}:${GOOD_KEY}`];
  /** @type {Array<[() => Promise<unknown>, RegExp]>} */
  const cases = [
    [() => answering({ sessions: {} }).listSessions(), /^session_list returned a malformed result: sessions is an object, not an array/],
    [() => answering([]).listSessions(), /^session_list returned a malformed result: the result is an array, not an object/],
    [() => answering({ sessions: [goodSession(), broken] }).listSessions(), /sessions\[1\]\.namespaces\.solana\.accounts\[0\] is on "solana:4uhc/],
    [() => answering({}).extend(TOPIC), /^session_extend returned a malformed result: expiry is missing$/],
    [() => answering({ expiry: 17.5 }).extend(TOPIC), /^session_extend returned a malformed result: expiry is 17\.5, not a whole number$/],
    [() => answering({ expiry: 0 }).extend(TOPIC), /^session_extend returned a malformed result: expiry is 0, less than 1$/],
    [() => answering({ expiry: 2 ** 60 }).extend(TOPIC), /^session_extend returned a malformed result: expiry is \d+, more than 9007199254740991$/],
    [() => answering(null).disconnect(TOPIC), /^session_disconnect returned a malformed result: the result is null/],
    [() => answering({ topic: TOPIC }).disconnect(TOPIC), /^session_disconnect returned a malformed result: the result has 1 members, more than 0$/],
    [() => answering({ signature: base58Encode(new Uint8Array(63)) }).sessionRequest({ topic: TOPIC, chainId: MAINNET, request: { method: SOLANA_SIGN_MESSAGE_METHOD, params: { message: '2g', pubkey: PUBKEY } } }),
      /^session_request \(solana_signMessage\) returned a malformed result: signature is "1+"…, which does not match \^\[1-9A-HJ-NP-Za-km-z\]\{64,88\}\$$/],
    [() => answering({ signature: base58Encode(new Uint8Array(65).fill(1)) }).sessionRequest({ topic: TOPIC, chainId: MAINNET, request: { method: SOLANA_SIGN_MESSAGE_METHOD, params: { message: '2g', pubkey: PUBKEY } } }),
      /^session_request \(solana_signMessage\) returned a malformed result: signature is not base58 of 64 bytes \(an Ed25519 signature\)$/],
    [() => answering({ signature: 'not base58!' }).sessionRequest({ topic: TOPIC, chainId: MAINNET, request: { method: SOLANA_SIGN_MESSAGE_METHOD, params: { message: '2g', pubkey: PUBKEY } } }),
      /signature is "not base58!", which does not match/],
    [() => signMessage(answering({ sig: 'x' }), { topic: TOPIC, chainId: MAINNET, message: Uint8Array.of(1), pubkey: PUBKEY }), /signature is missing$/],
    [() => answering({ pubkey: GOOD_KEY }).sessionRequest({ topic: TOPIC, chainId: MAINNET, request: { method: SOLANA_GET_ACCOUNTS_METHOD } }), /^session_request \(solana_getAccounts\) returned a malformed result: the result is an object, not an array$/],
    [() => answering([{ pubkey: GOOD_KEY }, { pubkey: '2g' }]).sessionRequest({ topic: TOPIC, chainId: MAINNET, request: { method: SOLANA_REQUEST_ACCOUNTS_METHOD } }), /\[1\]\.pubkey is "2g", which does not match/],
    [() => answering([{ pubkey: base58Encode(new Uint8Array(33).fill(1)) }]).sessionRequest({ topic: TOPIC, chainId: MAINNET, request: { method: SOLANA_GET_ACCOUNTS_METHOD } }),
      /^session_request \(solana_getAccounts\) returned a malformed result: \[0\]\.pubkey is not base58 of a 32-byte public key$/],
  ];
  for (const [call, pattern] of cases) {
    await assert.rejects(call(), (error) => error instanceof NativeProtocolError && error.kind === 'invalid-result' && pattern.test(error.message), String(pattern));
  }
  // Methods the doc does not define come back unchecked.
  assert.deepEqual(await answering({ anything: [1] }).sessionRequest({ topic: TOPIC, chainId: MAINNET, request: { method: 'custom_method', params: [1] } }), { anything: [1] });
  assert.equal(await answering({}).disconnect(TOPIC), undefined);
});
