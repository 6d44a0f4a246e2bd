// Per-site sessions on the client (docs/sessions.md, issue 37): the optional `origin` of the
// session calls, sent as given and checked first; sessions and notifications that carry one; and
// solana_signIn (solanaSignIn), its input checked before sending and its answer on arrival.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  NativeProtocolError,
  SOLANA_MAINNET_CHAIN_ID,
  SOLANA_SIGN_IN_METHOD,
  base58Encode,
  checkOrigin,
  checkSession,
  createNativeClient,
  personalSign,
  signMessage,
  solanaSignIn,
  solanaSignTransaction,
} from '../src/index.js';
import { fakeChrome, flush } from './fakes.js';
import { METADATA, WALLET_METADATA, nowSeconds } from './session-fakes.js';

const APP = 'com.example.wallet_bridge';
const TOPIC = 'b'.repeat(64);
const SITE = 'http://127.0.0.1:8123';
const PUBKEY = base58Encode(new Uint8Array(32).fill(9));
const SIGNATURE = base58Encode(new Uint8Array(64).fill(3));
const ETH = '0x' + '11'.repeat(20);

/** A session as the host answers it, for `origin` when given. @param {string} [origin] */
function session(origin) {
  return {
    topic: TOPIC,
    namespaces: { solana: { chains: [SOLANA_MAINNET_CHAIN_ID], accounts: [`${SOLANA_MAINNET_CHAIN_ID}:${PUBKEY}`], methods: ['solana_signMessage'], events: [] } },
    requiredNamespaces: { solana: { chains: [SOLANA_MAINNET_CHAIN_ID], methods: ['solana_signMessage'], events: [] } },
    optionalNamespaces: {},
    expiry: nowSeconds() + 600,
    self: { metadata: METADATA },
    peer: { metadata: WALLET_METADATA },
    ...(origin === undefined ? {} : { origin }),
  };
}

/**
 * A client on the port transport whose host answers each method with `answers[method]` (a
 * value, or a function of the params), and the requests it got.
 * @param {Record<string, unknown>} answers
 */
function clientWith(answers) {
  /** @type {any[]} */
  const requests = [];
  const runtime = fakeChrome({
    [APP]: (/** @type {any} */ message) => {
      if (message.id === undefined) return undefined;
      requests.push(message);
      const answer = answers[message.method === 'session_request' ? message.params.request.method : message.method];
      return { jsonrpc: '2.0', id: message.id, result: typeof answer === 'function' ? answer(message.params) : answer };
    },
  });
  const warnings = /** @type {any[]} */ ([]);
  const client = createNativeClient({ application: APP, transport: 'port', runtime, onWarning: (warning) => warnings.push(warning) });
  return { client, requests, runtime, warnings };
}

test('checkOrigin: web origins as the browser serializes them pass, anything else is a TypeError naming the field', () => {
  for (const good of [undefined, SITE, 'https://app.example.com', 'http://localhost', 'https://xn--bcher-kva.example:8443', 'http://[::1]:3000', 'http://10.0.0.1', 'http://my_host:8000']) {
    assert.doesNotThrow(() => checkOrigin(good), String(good));
  }
  const bad = {
    'https://app.example.com/': /no trailing slash/,
    'https://App.example.com': /host is lowercase/,
    'https://app.example.com:443': /default port 443/,
    'http://app.example.com:80': /default port 80/,
    'http://app.example.com:0': /port is not 1 to 65535/,
    'http://app.example.com:65536': /port is not 1 to 65535/,
    'https://app.example.com/path': /scheme, host and port only/,
    'ftp://app.example.com': /scheme, host and port only/,
    'chrome-extension://abcdefghijklmnopabcdefghijklmnop': /scheme, host and port only/,
    null: /scheme, host and port only/,
    'https://-bad-.example': /not a host name/,
    'https://a..b': /not a host name/,
    [`https://${'a'.repeat(250)}.com`]: /longer than 255/,
  };
  for (const [origin, why] of Object.entries(bad)) {
    assert.throws(() => checkOrigin(origin === 'null' ? 'null' : origin, 'params.origin'), (error) => error instanceof TypeError && /^params\.origin is /.test(error.message) && why.test(error.message), origin);
  }
  assert.throws(() => checkOrigin(42), /origin is a number, not a web origin such as https:\/\/app\.example\.com \(scheme, host and port only\)/);
});

test('connect, listSessions, sessionRequest, extend and disconnect send the origin given, and only then', async () => {
  const { client, requests } = clientWith({
    session_connect: session(SITE),
    session_list: { sessions: [session(SITE)] },
    solana_signMessage: { signature: SIGNATURE },
    session_extend: { expiry: nowSeconds() + 900 },
    session_disconnect: {},
  });
  const connected = await client.connect({ requiredNamespaces: { solana: { chains: [SOLANA_MAINNET_CHAIN_ID], methods: [], events: [] } }, metadata: METADATA, origin: SITE });
  assert.equal(connected.origin, SITE);
  const listed = await client.listSessions({ origin: SITE });
  assert.equal(listed.sessions[0].origin, SITE);
  await client.sessionRequest({ topic: TOPIC, chainId: SOLANA_MAINNET_CHAIN_ID, request: { method: 'solana_signMessage', params: { message: base58Encode(new Uint8Array([1])), pubkey: PUBKEY } }, origin: SITE });
  await client.extend(TOPIC, { origin: SITE });
  await client.disconnect(TOPIC, undefined, { origin: SITE });
  await client.listSessions();
  await client.extend(TOPIC);
  assert.deepEqual(requests.map((request) => [request.method, request.params.origin]), [
    ['session_connect', SITE], ['session_list', SITE], ['session_request', SITE], ['session_extend', SITE], ['session_disconnect', SITE],
    ['session_list', undefined], ['session_extend', undefined],
  ]);
  assert.ok(!('origin' in requests[5].params) && !('origin' in requests[6].params), 'no origin member at all without one');
  client.close();
});

test('the session helpers pass the origin on', async () => {
  const { client, requests } = clientWith({ solana_signMessage: { signature: SIGNATURE }, personal_sign: `0x${'ab'.repeat(64)}1b` });
  await signMessage(client, { topic: TOPIC, chainId: SOLANA_MAINNET_CHAIN_ID, message: new Uint8Array([1, 2]), pubkey: PUBKEY, origin: SITE });
  await personalSign(client, { topic: TOPIC, chainId: 'eip155:1', message: 'hi', address: ETH, origin: SITE });
  assert.deepEqual(requests.map((request) => request.params.origin), [SITE, SITE]);
  client.close();
});

test('a malformed origin is refused before anything is sent', async () => {
  const { client, requests } = clientWith({});
  const solana = { solana: { chains: [SOLANA_MAINNET_CHAIN_ID], methods: [], events: [] } };
  await assert.rejects(client.connect({ requiredNamespaces: solana, metadata: METADATA, origin: `${SITE}/` }), /^TypeError: origin is .*no trailing slash/);
  await assert.rejects(client.listSessions({ origin: 'HTTP://X' }), /listSessions's options\.origin is/);
  await assert.rejects(client.extend(TOPIC, { origin: 'https://a.example:443' }), /extend's options\.origin is .*default port/);
  await assert.rejects(client.disconnect(TOPIC, undefined, { origin: 'x' }), /disconnect's options\.origin is/);
  await assert.rejects(client.sessionRequest({ topic: TOPIC, chainId: SOLANA_MAINNET_CHAIN_ID, request: { method: 'x' }, origin: 'https://a.example/p' }), /^TypeError: origin is/);
  await assert.rejects(solanaSignTransaction(client, { topic: TOPIC, chainId: SOLANA_MAINNET_CHAIN_ID, transaction: 'AA==', origin: 'nope' }), TypeError);
  assert.equal(requests.length, 0);
  client.close();
});

test('sessions and notifications with an origin are accepted; a malformed one is refused or reported', async () => {
  assert.equal(checkSession(session(SITE)).origin, SITE);
  assert.throws(() => checkSession(session('https://x.example/')), (error) => error instanceof NativeProtocolError && /session\.origin is/.test(error.message));
  const { client, runtime, warnings } = clientWith({ session_list: { sessions: [] } });
  /** @type {any[]} */
  const heard = [];
  client.on('session_delete', (params) => heard.push(params));
  await flush();
  const reason = { code: 6000, message: 'User disconnected' };
  runtime.port.reply({ jsonrpc: '2.0', method: 'session_delete', params: { topic: TOPIC, reason, origin: SITE } });
  runtime.port.reply({ jsonrpc: '2.0', method: 'session_delete', params: { topic: TOPIC, reason, origin: 'https://Evil.example' } });
  await flush();
  assert.deepEqual(heard, [{ topic: TOPIC, reason, origin: SITE }]);
  assert.equal(warnings.length, 1);
  assert.match(warnings[0].message, /session_delete params\.origin is/);
  client.close();
});

/** The message the wallet signs for `address` (enough of the published format for the checks). @param {string} address */
const signInText = (address) => `127.0.0.1:8123 wants you to sign in with your Solana account:\n${address}\n\nURI: ${SITE}\nVersion: 1`;

test('solanaSignIn sends solana_signIn with the input and origin, and decodes the answer', async () => {
  const { client, requests } = clientWith({ [SOLANA_SIGN_IN_METHOD]: { address: PUBKEY, message: signInText(PUBKEY), signature: SIGNATURE } });
  const out = await solanaSignIn(client, { topic: TOPIC, chainId: SOLANA_MAINNET_CHAIN_ID, input: { statement: 'Hello', nonce: 'abc12345', address: PUBKEY, resources: ['https://a.example'] }, origin: SITE });
  assert.deepEqual(requests[0].params, {
    topic: TOPIC,
    chainId: SOLANA_MAINNET_CHAIN_ID,
    request: { method: 'solana_signIn', params: { statement: 'Hello', nonce: 'abc12345', address: PUBKEY, resources: ['https://a.example'] } },
    origin: SITE,
  });
  assert.equal(out.address, PUBKEY);
  assert.equal(out.message, signInText(PUBKEY));
  assert.deepEqual(out.signedMessage, new TextEncoder().encode(signInText(PUBKEY)));
  assert.deepEqual(out.signature, new Uint8Array(64).fill(3));
  // No input: empty params, the wallet fills everything in.
  await solanaSignIn(client, { topic: TOPIC, chainId: SOLANA_MAINNET_CHAIN_ID });
  assert.deepEqual(requests[1].params.request, { method: 'solana_signIn', params: {} });
  client.close();
});

test('solanaSignIn refuses a malformed input before sending', async () => {
  const { client, requests } = clientWith({});
  const args = { topic: TOPIC, chainId: SOLANA_MAINNET_CHAIN_ID };
  await assert.rejects(solanaSignIn(client, { ...args, input: /** @type {any} */ ('hello') }), /input of solana_signIn must be a SolanaSignInInput object/);
  await assert.rejects(solanaSignIn(client, { ...args, input: /** @type {any} */ ({ nonce: 5 }) }), /input\.nonce must be a string/);
  await assert.rejects(solanaSignIn(client, { ...args, input: { address: '0xabc' } }), /input\.address/);
  await assert.rejects(solanaSignIn(client, { ...args, input: /** @type {any} */ ({ resources: 'https://a' }) }), /input\.resources must be an array of strings/);
  await assert.rejects(client.sessionRequest({ ...args, request: { method: 'solana_signIn', params: /** @type {any} */ ({ domain: 1 }) } }), /request\.params\.domain must be a string/);
  assert.equal(requests.length, 0);
  client.close();
});

test('solana_signIn answers are checked on arrival: address, the message naming it, the signature', async () => {
  const other = base58Encode(new Uint8Array(32).fill(4));
  const cases = [
    [{ address: 'xyz', message: signInText(PUBKEY), signature: SIGNATURE }, /address is "xyz", which does not match/],
    [{ address: base58Encode(new Uint8Array(33).fill(1)), message: signInText(PUBKEY), signature: SIGNATURE }, /address is not base58 of a 32-byte public key$/],
    [{ address: other, message: signInText(other), signature: SIGNATURE }, /not the address asked for/],
    [{ address: PUBKEY, message: signInText(other), signature: SIGNATURE }, /message does not name address on its second line/],
    [{ address: PUBKEY, message: 7, signature: SIGNATURE }, /message is 7, not a string$/],
    [{ address: PUBKEY, message: '', signature: SIGNATURE }, /message does not name address on its second line/],
    [{ address: PUBKEY, message: signInText(PUBKEY), signature: base58Encode(new Uint8Array(63).fill(1)) }, /signature is not base58 of 64 bytes/],
    ['signed', /not an object/],
  ];
  for (const [answer, why] of cases) {
    const { client } = clientWith({ [SOLANA_SIGN_IN_METHOD]: answer });
    await assert.rejects(
      solanaSignIn(client, { topic: TOPIC, chainId: SOLANA_MAINNET_CHAIN_ID, input: { address: PUBKEY } }),
      (error) => error instanceof NativeProtocolError && error.kind === 'invalid-result' && why.test(error.message),
      String(why),
    );
    client.close();
  }
});
