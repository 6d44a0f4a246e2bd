// Ethereum in a session (the eip155 namespace): the names, the wire shapes of eth_accounts,
// eth_chainId, personal_sign and eth_signTypedData_v4 through sessionRequest and the personalSign
// and signTypedDataV4 helpers, on both transports and both browsers, against a fake eip155 wallet;
// params refused before sending, naming the field; malformed results and session answers
// refused on arrival; the host's errors; and the eip155 events.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { afterEach, test } from 'node:test';
import {
  EIP155_CHAINS,
  EIP155_NAMESPACE,
  ETH_ACCOUNTS_CHANGED_EVENT,
  ETH_ACCOUNTS_METHOD,
  ETH_CHAIN_CHANGED_EVENT,
  ETH_CHAIN_ID_METHOD,
  ETH_SIGN_TYPED_DATA_V4_METHOD,
  NativeProtocolError,
  NativeRpcError,
  NativeRpcErrorCode,
  PERSONAL_SIGN_METHOD,
  checkSession,
  configureNativeClient,
  createNativeClient,
  getNativeClient,
  parseAccountId,
  parseChainId,
  personalSign,
  resetNativeClient,
  sendNativeSessionRequest,
  signTypedDataV4,
} from '../src/index.js';
import { fakeChrome, fakeFirefox, flush } from './fakes.js';
import { METADATA, WALLET_METADATA, notification, nowSeconds } from './session-fakes.js';

const APP = 'com.example.wallet_bridge';
const TOPIC = 'c'.repeat(64);
const MAINNET = 'eip155:1';
const POLYGON = 'eip155:137';
/** EIP-55's own examples: mixed-case checksummed addresses. */
const ADDRESSES = Object.freeze(['0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359']);
const OTHER_ADDRESS = '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB';
const ETH_METHODS = ['eth_accounts', 'eth_chainId', 'personal_sign', 'eth_signTypedData_v4'];
const PROPOSAL = Object.freeze({
  requiredNamespaces: { eip155: { chains: [MAINNET], methods: ETH_METHODS, events: ['accountsChanged', 'chainChanged'] } },
  optionalNamespaces: { eip155: { chains: [POLYGON], methods: ['personal_sign'], events: [] } },
  metadata: METADATA,
});

/** EIP-712's own example, the Mail of "Ether Mail". */
const MAIL = Object.freeze({
  types: {
    EIP712Domain: [
      { name: 'name', type: 'string' },
      { name: 'version', type: 'string' },
      { name: 'chainId', type: 'uint256' },
      { name: 'verifyingContract', type: 'address' },
    ],
    Person: [{ name: 'name', type: 'string' }, { name: 'wallet', type: 'address' }],
    Mail: [{ name: 'from', type: 'Person' }, { name: 'to', type: 'Person' }, { name: 'contents', type: 'string' }],
  },
  primaryType: 'Mail',
  domain: { name: 'Ether Mail', version: '1', chainId: 1, verifyingContract: '0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC' },
  message: {
    from: { name: 'Cow', wallet: '0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826' },
    to: { name: 'Bob', wallet: '0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB' },
    contents: 'Hello, Bob!',
  },
});

afterEach(() => resetNativeClient());

/**
 * A stand-in signature, 65 bytes with v 27, that tells what was signed: sha256 of the method,
 * the payload and the address, twice. The fake signs nothing; the package only carries the text.
 * @param {string} method
 * @param {string} payload
 * @param {string} address
 */
function fakeSignature(method, payload, address) {
  const r = createHash('sha256').update(`${method}\n${payload}\n${address.toLowerCase()}`).digest();
  const s = createHash('sha256').update(r).digest();
  return `0x${Buffer.concat([r, s, Buffer.of(0x1b)]).toString('hex')}`;
}

/**
 * A fake wallet host for eip155 sessions, answering as the wire contract says: any
 * eip155:<decimal> chain, EIP-55 accounts on each, the four methods, 4100 for an address
 * outside the session (any case accepted), 4001 when told to decline, and -32602 with
 * { field, problem } for typed data whose message does not fit its types.
 */
function createFakeEip155Wallet() {
  /** @type {Map<string, any>} */
  const sessions = new Map();
  const wallet = {
    sessions,
    /** Answers the next signing request with 4001. */
    declineNext: false,
    /** @type {any[]} every request the wallet answered */
    requests: /** @type {any[]} */ ([]),
    /** @param {any} message */
    host(message) {
      if (message.id === undefined) return undefined;
      wallet.requests.push(message);
      const { id, method, params } = message;
      /** @param {unknown} result */
      const ok = (result) => ({ jsonrpc: '2.0', id, result });
      /** @param {number} code @param {string} text @param {unknown} [data] */
      const fail = (code, text, data) => ({ jsonrpc: '2.0', id, error: data === undefined ? { code, message: text } : { code, message: text, data } });
      switch (method) {
        case 'session_connect': {
          const chains = new Set();
          const methods = new Set();
          const events = new Set();
          for (const ns of [params.requiredNamespaces?.eip155, params.optionalNamespaces?.eip155]) {
            if (!ns) continue;
            for (const chain of ns.chains) chains.add(chain);
            for (const m of ns.methods) if (ETH_METHODS.includes(m)) methods.add(m);
            for (const e of ns.events) if (['accountsChanged', 'chainChanged'].includes(e)) events.add(e);
          }
          const topic = createHash('sha256').update(String(sessions.size)).digest('hex');
          const session = {
            topic,
            namespaces: { eip155: { chains: [...chains], accounts: [...chains].flatMap((chain) => ADDRESSES.map((address) => `${chain}:${address}`)), methods: [...methods], events: [...events] } },
            requiredNamespaces: params.requiredNamespaces ?? {},
            optionalNamespaces: params.optionalNamespaces ?? {},
            expiry: nowSeconds() + 604_800,
            self: { metadata: params.metadata },
            peer: { metadata: WALLET_METADATA },
          };
          sessions.set(topic, session);
          return ok(session);
        }
        case 'session_request': {
          const session = sessions.get(params.topic);
          if (!session) return fail(7001, 'No session for topic');
          const ns = session.namespaces.eip155;
          if (!ns.chains.includes(params.chainId)) return fail(3005, 'Unauthorized chain', { chainId: params.chainId });
          const inner = params.request;
          if (!ns.methods.includes(inner.method)) return fail(3001, 'Unauthorized method', { method: inner.method });
          const known = (/** @type {string} */ address) => ADDRESSES.some((a) => a.toLowerCase() === address.toLowerCase());
          switch (inner.method) {
            case 'eth_accounts':
              return ok([...ADDRESSES]);
            case 'eth_chainId':
              return ok(`0x${BigInt(params.chainId.split(':')[1]).toString(16)}`);
            case 'personal_sign': {
              const [payload, address] = inner.params;
              if (!known(address)) return fail(4100, 'Unauthorized');
              if (wallet.declineNext) {
                wallet.declineNext = false;
                return fail(4001, 'User rejected request');
              }
              return ok(fakeSignature(inner.method, payload, address));
            }
            case 'eth_signTypedData_v4': {
              const [address, typedData] = inner.params;
              if (!known(address)) return fail(4100, 'Unauthorized');
              const data = typeof typedData === 'string' ? JSON.parse(typedData) : typedData;
              for (const field of data.types[data.primaryType]) {
                if (!(field.name in data.message)) return fail(-32602, 'Invalid params', { field: `params[1].message.${field.name}`, problem: `missing, a ${field.type}` });
              }
              return ok(fakeSignature(inner.method, JSON.stringify(data), address));
            }
            default:
              return fail(-32601, 'Method not found');
          }
        }
        default:
          return fail(-32601, 'Method not found');
      }
    },
  };
  return wallet;
}

/** The hex of text's UTF-8 bytes, done with Buffer, apart from the package's own encoder. */
const utf8Hex = (/** @type {string} */ text) => `0x${Buffer.from(text, 'utf8').toString('hex')}`;

test('the eip155 names: namespace, methods, events and well-known chains', () => {
  assert.equal(EIP155_NAMESPACE, 'eip155');
  assert.deepEqual([ETH_ACCOUNTS_METHOD, ETH_CHAIN_ID_METHOD, PERSONAL_SIGN_METHOD, ETH_SIGN_TYPED_DATA_V4_METHOD], ETH_METHODS);
  assert.deepEqual([ETH_ACCOUNTS_CHANGED_EVENT, ETH_CHAIN_CHANGED_EVENT], ['accountsChanged', 'chainChanged']);
  assert.deepEqual(EIP155_CHAINS, {
    mainnet: 'eip155:1', sepolia: 'eip155:11155111', polygon: 'eip155:137', optimism: 'eip155:10', arbitrum: 'eip155:42161', base: 'eip155:8453',
  });
  assert.ok(Object.isFrozen(EIP155_CHAINS));
  for (const chain of Object.values(EIP155_CHAINS)) {
    const { namespace, reference } = parseChainId(chain);
    assert.equal(namespace, EIP155_NAMESPACE);
    assert.match(reference, /^[1-9][0-9]*$/);
  }
  // The generic CAIP-10 splitter serves eip155 accounts.
  assert.deepEqual(parseAccountId(`eip155:137:${ADDRESSES[0]}`), { chainId: POLYGON, namespace: 'eip155', reference: '137', address: ADDRESSES[0] });
});

for (const [flavor, makeRuntime] of /** @type {const} */ ([['firefox', fakeFirefox], ['chrome', fakeChrome]])) {
  for (const transport of /** @type {const} */ (['message', 'port'])) {
    const label = `${flavor} ${transport}`;
    /** Every message the extension sent, whichever the transport. */
    const sentOf = (/** @type {ReturnType<typeof fakeChrome>} */ runtime) => /** @type {any[]} */ ([...runtime.sent, ...runtime.ports.flatMap((port) => port.posted)]);

    test(`${label}: an eip155 session, and eth_accounts, eth_chainId, personal_sign and eth_signTypedData_v4 with their params on the wire`, async () => {
      const wallet = createFakeEip155Wallet();
      const runtime = makeRuntime({ [APP]: wallet.host });
      const client = createNativeClient({ application: APP, transport, runtime });
      const session = await client.connect(PROPOSAL);
      assert.deepEqual(sentOf(runtime)[0].params, PROPOSAL);
      assert.deepEqual(session.namespaces.eip155.chains, [MAINNET, POLYGON]);
      const { chainId, address } = parseAccountId(session.namespaces.eip155.accounts[0]);
      assert.equal(chainId, MAINNET);
      assert.equal(address, ADDRESSES[0]);
      const { topic } = session;

      assert.deepEqual(await client.sessionRequest({ topic, chainId: MAINNET, request: { method: ETH_ACCOUNTS_METHOD } }), ADDRESSES);
      assert.deepEqual(await client.sessionRequest({ topic, chainId: MAINNET, request: { method: ETH_ACCOUNTS_METHOD, params: [] } }), ADDRESSES);
      assert.equal(await client.sessionRequest({ topic, chainId: MAINNET, request: { method: ETH_CHAIN_ID_METHOD } }), '0x1');
      assert.equal(await client.sessionRequest({ topic, chainId: POLYGON, request: { method: ETH_CHAIN_ID_METHOD, params: [] } }), '0x89');

      const hello = utf8Hex('Sign in to example.org');
      const signature = await client.sessionRequest({ topic, chainId: MAINNET, request: { method: PERSONAL_SIGN_METHOD, params: [hello, address] }, expiry: nowSeconds() + 600 });
      assert.equal(signature, fakeSignature('personal_sign', hello, address));
      const typed = await client.sessionRequest({ topic, chainId: MAINNET, request: { method: ETH_SIGN_TYPED_DATA_V4_METHOD, params: [address, MAIL] } });
      assert.equal(typed, fakeSignature('eth_signTypedData_v4', JSON.stringify(MAIL), address));

      const wire = sentOf(runtime).slice(1).map(({ method, params }) => ({ method, params }));
      assert.deepEqual(wire, [
        { method: 'session_request', params: { topic, chainId: MAINNET, request: { method: 'eth_accounts' } } },
        { method: 'session_request', params: { topic, chainId: MAINNET, request: { method: 'eth_accounts', params: [] } } },
        { method: 'session_request', params: { topic, chainId: MAINNET, request: { method: 'eth_chainId' } } },
        { method: 'session_request', params: { topic, chainId: POLYGON, request: { method: 'eth_chainId', params: [] } } },
        { method: 'session_request', params: { topic, chainId: MAINNET, request: { method: 'personal_sign', params: [hello, address] }, expiry: wire[4].params.expiry } },
        { method: 'session_request', params: { topic, chainId: MAINNET, request: { method: 'eth_signTypedData_v4', params: [address, MAIL] } } },
      ], 'params as given: absent stays absent, [] stays [], an object typed data stays an object');
      assert.equal(typeof wire[4].params.expiry, 'number');
      client.close();
    });

    test(`${label}: personalSign hex-encodes text as UTF-8 and bytes as they are, and signTypedDataV4 sends JSON text`, async () => {
      const wallet = createFakeEip155Wallet();
      const client = createNativeClient({ application: APP, transport, runtime: makeRuntime({ [APP]: wallet.host }) });
      const { topic } = await client.connect(PROPOSAL);
      const address = ADDRESSES[1];

      const text = 'Grüße, 🔑';
      const fromText = await personalSign(client, { topic, chainId: MAINNET, message: text, address, id: 'sign-1', timeoutMs: 5000 });
      let request = wallet.requests.at(-1);
      assert.equal(request.id, 'sign-1');
      assert.deepEqual(request.params, { topic, chainId: MAINNET, request: { method: 'personal_sign', params: [utf8Hex(text), address] } }, 'no expiry unless given; id and timeoutMs stay out');
      assert.equal(fromText, fakeSignature('personal_sign', utf8Hex(text), address));

      // Text that looks like hex is still text: signed as its characters.
      await personalSign(client, { topic, chainId: MAINNET, message: '0xff', address });
      assert.deepEqual(wallet.requests.at(-1).params.request.params, ['0x30786666', address]);

      const bytes = Uint8Array.of(0, 1, 0xab, 0xff);
      const fromBytes = await personalSign(client, { topic, chainId: POLYGON, message: bytes, address: address.toLowerCase(), expiry: nowSeconds() + 600 });
      request = wallet.requests.at(-1);
      assert.deepEqual(request.params.request.params, ['0x0001abff', address.toLowerCase()], 'the address goes as given, in any case');
      assert.equal(request.params.chainId, POLYGON);
      assert.equal(typeof request.params.expiry, 'number');
      assert.match(fromBytes, /^0x[0-9a-f]{128}1b$/);

      const fromObject = await signTypedDataV4(client, { topic, chainId: MAINNET, address, typedData: MAIL });
      const [sentAddress, sentTypedData] = wallet.requests.at(-1).params.request.params;
      assert.equal(sentAddress, address);
      assert.equal(typeof sentTypedData, 'string', 'typed data goes as JSON text, as MetaMask sends it');
      assert.deepEqual(JSON.parse(sentTypedData), MAIL);
      assert.equal(fromObject, fakeSignature('eth_signTypedData_v4', JSON.stringify(MAIL), address));

      // A string goes byte for byte as given; BigInt values become decimal strings.
      const spaced = JSON.stringify(MAIL, null, 2);
      await signTypedDataV4(client, { topic, chainId: MAINNET, address, typedData: spaced });
      assert.equal(wallet.requests.at(-1).params.request.params[1], spaced);
      const big = { ...MAIL, domain: { ...MAIL.domain, chainId: /** @type {any} */ (1n) }, message: { ...MAIL.message, amount: 2n ** 70n } };
      await signTypedDataV4(client, { topic, chainId: MAINNET, address, typedData: big });
      const sent = JSON.parse(wallet.requests.at(-1).params.request.params[1]);
      assert.equal(sent.domain.chainId, '1');
      assert.equal(sent.message.amount, '1180591620717411303424');
      client.close();
    });

    test(`${label}: the host's errors arrive as NativeRpcError: 4001 declined, 4100 an address outside the session, -32602 with { field, problem }`, async () => {
      const wallet = createFakeEip155Wallet();
      const client = createNativeClient({ application: APP, transport, runtime: makeRuntime({ [APP]: wallet.host }) });
      const { topic } = await client.connect(PROPOSAL);
      /** @param {Promise<unknown>} call @param {number} code @param {unknown} [data] */
      const rejectsWith = (call, code, data) => assert.rejects(call, (error) => error instanceof NativeRpcError && error.code === code
        && error.method === 'session_request' && (data === undefined || assert.deepEqual(error.data, data) === undefined));

      wallet.declineNext = true;
      await rejectsWith(personalSign(client, { topic, chainId: MAINNET, message: 'hi', address: ADDRESSES[0] }), NativeRpcErrorCode.userRejectedRequest);
      await rejectsWith(personalSign(client, { topic, chainId: MAINNET, message: 'hi', address: OTHER_ADDRESS }), NativeRpcErrorCode.unauthorized);
      await rejectsWith(signTypedDataV4(client, { topic, chainId: MAINNET, address: OTHER_ADDRESS, typedData: MAIL }), NativeRpcErrorCode.unauthorized);
      const incomplete = { ...MAIL, message: { from: MAIL.message.from, to: MAIL.message.to } };
      await rejectsWith(signTypedDataV4(client, { topic, chainId: MAINNET, address: ADDRESSES[0], typedData: incomplete }), NativeRpcErrorCode.invalidParams,
        { field: 'params[1].message.contents', problem: 'missing, a string' });
      await rejectsWith(personalSign(client, { topic, chainId: 'eip155:10', message: 'hi', address: ADDRESSES[0] }), NativeRpcErrorCode.unauthorizedChain, { chainId: 'eip155:10' });
      await rejectsWith(client.sessionRequest({ topic, chainId: POLYGON, request: { method: 'eth_sendTransaction', params: [{ to: OTHER_ADDRESS }] } }), NativeRpcErrorCode.unauthorizedMethod, { method: 'eth_sendTransaction' });
      client.close();
    });
  }
}

test('the helpers work with the default client, and sendNativeSessionRequest types and checks the eip155 methods too', async () => {
  const wallet = createFakeEip155Wallet();
  configureNativeClient({ application: APP, runtime: fakeFirefox({ [APP]: wallet.host }) });
  const { topic } = await getNativeClient().connect(PROPOSAL);
  const signature = await personalSign(getNativeClient(), { topic, chainId: MAINNET, message: 'hi', address: ADDRESSES[0] });
  assert.equal(signature, fakeSignature('personal_sign', '0x6869', ADDRESSES[0]));
  assert.equal(await sendNativeSessionRequest({ topic, chainId: MAINNET, request: { method: 'eth_chainId' } }), '0x1');
  await assert.rejects(sendNativeSessionRequest({ topic, chainId: MAINNET, request: { method: 'personal_sign', params: /** @type {any} */ (['0x6869']) } }), TypeError);
});

// ---- Params: refused before anything is sent ----------------------------------------------------

/** A client whose host must never be reached by these calls. */
function recordingClient() {
  const runtime = fakeChrome({ [APP]: () => assert.fail('nothing should be sent') });
  return { client: createNativeClient({ application: APP, runtime }), runtime };
}

test('sessionRequest refuses malformed eip155 params, naming the field, before sending', async () => {
  const { client, runtime } = recordingClient();
  const inner = (/** @type {string} */ method, /** @type {unknown} */ params) => ({ topic: TOPIC, chainId: MAINNET, request: { method, params } });
  const sign = (/** @type {unknown} */ params) => inner(PERSONAL_SIGN_METHOD, params);
  const typed = (/** @type {unknown} */ params) => inner(ETH_SIGN_TYPED_DATA_V4_METHOD, params);
  const address = ADDRESSES[0];
  /** @param {(data: any) => void} change */
  const mail = (change) => {
    const data = structuredClone(MAIL);
    change(data);
    return data;
  };
  /** @type {Array<[unknown, typeof TypeError | typeof RangeError, RegExp]>} */
  const cases = [
    // Chain ids: an eip155 reference is the decimal chain id.
    [{ ...inner(ETH_CHAIN_ID_METHOD, undefined), chainId: 'eip155:0x89' }, TypeError, /^chainId is "eip155:0x89", not an eip155 chain id: .*decimal.*"eip155:137"$/],
    [{ ...inner(ETH_CHAIN_ID_METHOD, undefined), chainId: 'eip155:01' }, TypeError, /^chainId is "eip155:01", not an eip155 chain id/],
    [{ ...inner(ETH_CHAIN_ID_METHOD, undefined), chainId: 'eip155:0' }, TypeError, /^chainId is "eip155:0", not an eip155 chain id/],
    [{ ...inner(ETH_CHAIN_ID_METHOD, undefined), chainId: 'eip155:mainnet' }, TypeError, /^chainId is "eip155:mainnet", not an eip155 chain id/],
    // eth_accounts and eth_chainId take [] or nothing.
    [inner(ETH_ACCOUNTS_METHOD, [address]), TypeError, /^request\.params of eth_accounts must be \[\] or left out, not an array of 1/],
    [inner(ETH_CHAIN_ID_METHOD, {}), TypeError, /^request\.params of eth_chainId must be \[\] or left out, not an object/],
    // personal_sign: [message, address].
    [sign(undefined), TypeError, /^request\.params of personal_sign must be \[message, address\], not undefined/],
    [sign({ message: '0x68', address }), TypeError, /^request\.params of personal_sign must be \[message, address\], not an object/],
    [sign(['0x68']), TypeError, /^request\.params of personal_sign must be \[message, address\], not an array of 1/],
    [sign(['0x68', address, 'password']), TypeError, /not an array of 3/],
    [sign([[0x68], address]), TypeError, /^request\.params\[0\] \(message\) must be a string \(0x and hex digits for bytes, or text\), not an array/],
    [sign(['', address]), RangeError, /^request\.params\[0\] \(message\) must hold at least one byte/],
    [sign(['0x68', '0x1234']), TypeError, /^request\.params\[1\] \(address\) must be an address, 0x and 40 hex digits \(any case\), not a string of 6 characters$/],
    [sign(['0x68', address.slice(2)]), TypeError, /^request\.params\[1\] \(address\) must be an address/],
    [sign(['0x68', `${address.slice(0, -1)}g`]), TypeError, /^request\.params\[1\] \(address\) must be an address/],
    [sign(['0x68', 42]), TypeError, /^request\.params\[1\] \(address\) must be an address \(0x and 40 hex digits\), not a number/],
    [sign([address, '0x68']), TypeError, /^request\.params\[1\] \(address\) must be an address.*: personal_sign takes \[message, address\], the message first/],
    // eth_signTypedData_v4: [address, typedData].
    [typed([address]), TypeError, /^request\.params of eth_signTypedData_v4 must be \[address, typedData\], not an array of 1/],
    [typed([MAIL, address]), TypeError, /^request\.params\[0\] \(address\) must be an address \(0x and 40 hex digits\), not an object: eth_signTypedData_v4 takes \[address, typedData\], the address first/],
    [typed([address, 'not json']), TypeError, /^request\.params\[1\] \(typedData\) is a string that is not JSON/],
    [typed([address, '[]']), TypeError, /^request\.params\[1\] \(typedData\) must be EIP-712 typed data, .*not an array/],
    [typed([address, null]), TypeError, /^request\.params\[1\] \(typedData\) must be EIP-712 typed data/],
    [typed([address, mail((d) => { delete d.types.EIP712Domain; })]), TypeError, /^request\.params\[1\] \(typedData\)\.types\.EIP712Domain is missing/],
    [typed([address, JSON.stringify(mail((d) => { delete d.types.EIP712Domain; }))]), TypeError, /\.types\.EIP712Domain is missing/],
    [typed([address, mail((d) => { d.types = []; })]), TypeError, /\(typedData\)\.types must be an object of struct types/],
    [typed([address, mail((d) => { d.types.Mail = { from: 'Person' }; })]), TypeError, /\(typedData\)\.types\.Mail must be an array of \{ name, type \}/],
    [typed([address, mail((d) => { d.types.Person[1] = { name: 'wallet' }; })]), TypeError, /\(typedData\)\.types\.Person\[1\]\.type must be a non-empty string, not undefined/],
    [typed([address, mail((d) => { d.primaryType = 'Letter'; })]), TypeError, /\(typedData\)\.primaryType is "Letter", which request\.params\[1\] \(typedData\)\.types does not define/],
    [typed([address, mail((d) => { delete d.primaryType; })]), TypeError, /\(typedData\)\.primaryType must be the name of one of its types, not undefined/],
    [typed([address, mail((d) => { delete d.domain; })]), TypeError, /\(typedData\)\.domain must be an object/],
    [typed([address, mail((d) => { d.domain.chainId = -1; })]), TypeError, /\(typedData\)\.domain\.chainId must be a positive whole number, or a string of decimal or 0x hex digits, not a number/],
    [typed([address, mail((d) => { d.domain.chainId = 'one'; })]), TypeError, /\.domain\.chainId must be/],
    [typed([address, mail((d) => { d.domain.version = 1; })]), TypeError, /\(typedData\)\.domain\.version must be a string, not a number/],
    [typed([address, mail((d) => { d.domain.verifyingContract = '0xCcCC'; })]), TypeError, /\(typedData\)\.domain\.verifyingContract must be an address/],
    [typed([address, mail((d) => { d.domain.salt = '0x01'; })]), TypeError, /\(typedData\)\.domain\.salt must be 32 bytes, 0x and 64 hex digits/],
    [typed([address, mail((d) => { d.message = ['Cow']; })]), TypeError, /\(typedData\)\.message must be an object \(the "Mail" to sign\), not an array/],
  ];
  for (const [params, kind, pattern] of cases) {
    await assert.rejects(client.sessionRequest(/** @type {any} */ (params)), (error) => error instanceof kind && pattern.test(error.message), `${JSON.stringify(params)} → ${pattern}`);
  }
  // connect: an eip155 chain with a hex or padded reference, as a chain or as a key.
  /** @type {Array<[unknown, RegExp]>} */
  const proposals = [
    [{ eip155: { chains: ['eip155:1', 'eip155:0x1'], methods: [], events: [] } }, /^requiredNamespaces\.eip155\.chains\[1\] is "eip155:0x1", not an eip155 chain id: .*"eip155:1"$/],
    [{ 'eip155:0x89': { methods: [], events: [] } }, /^requiredNamespaces has the key "eip155:0x89", not an eip155 chain id: .*"eip155:137"$/],
  ];
  for (const [requiredNamespaces, pattern] of proposals) {
    await assert.rejects(client.connect(/** @type {any} */ ({ requiredNamespaces, metadata: METADATA })), (error) => error instanceof TypeError && pattern.test(error.message), String(pattern));
  }
  assert.equal(runtime.sent.length, 0);
});

test('valid eip155 params pass: any case, text or hex messages, typed data as object or JSON text, with or without optional domain fields', async () => {
  const runtime = fakeChrome({ [APP]: (/** @type {any} */ m) => ({ jsonrpc: '2.0', id: m.id, result: m.params.request.method === 'eth_chainId' ? '0x2105' : `0x${'1'.repeat(128)}1c` }) });
  const client = createNativeClient({ application: APP, runtime });
  const lower = ADDRESSES[0].toLowerCase();
  const upper = `0x${ADDRESSES[0].slice(2).toUpperCase()}`;
  const minimal = { types: { EIP712Domain: [], Ping: [{ name: 'n', type: 'uint8' }] }, primaryType: 'Ping', domain: {}, message: { n: 1 } };
  const calls = [
    { method: PERSONAL_SIGN_METHOD, params: ['0x00', lower] },
    { method: PERSONAL_SIGN_METHOD, params: ['plain text, signed as its UTF-8 bytes', upper] },
    { method: PERSONAL_SIGN_METHOD, params: ['0xnot hex, so text', ADDRESSES[1]] },
    { method: ETH_SIGN_TYPED_DATA_V4_METHOD, params: [lower, JSON.stringify(MAIL)] },
    { method: ETH_SIGN_TYPED_DATA_V4_METHOD, params: [lower, minimal] },
    { method: ETH_SIGN_TYPED_DATA_V4_METHOD, params: [lower, { ...minimal, domain: { chainId: '0x2105', salt: `0x${'ab'.repeat(32)}` } }] },
  ];
  for (const request of calls) assert.match(await client.sessionRequest({ topic: TOPIC, chainId: EIP155_CHAINS.base, request: /** @type {any} */ (request) }), /^0x[0-9a-f]{128}1c$/);
  assert.equal(await client.sessionRequest({ topic: TOPIC, chainId: EIP155_CHAINS.base, request: { method: ETH_CHAIN_ID_METHOD } }), '0x2105');
  assert.deepEqual(runtime.sent.map((m) => /** @type {any} */ (m).params.request).slice(0, calls.length), calls, 'sent exactly as given');
  // A chain id of 32 decimal digits is the longest CAIP-2 reference.
  await client.sessionRequest({ topic: TOPIC, chainId: `eip155:${'9'.repeat(32)}`, request: { method: 'custom_method' } });
});

test('personalSign and signTypedDataV4 refuse wrong arguments, naming them, before sending', async () => {
  const { client, runtime } = recordingClient();
  const base = { topic: TOPIC, chainId: MAINNET, address: ADDRESSES[0] };
  /** @type {Array<[() => Promise<unknown>, typeof TypeError | typeof RangeError, RegExp]>} */
  const cases = [
    [() => personalSign(/** @type {any} */ ({}), { ...base, message: 'hi' }), TypeError, /^personalSign needs a client from createNativeClient/],
    [() => personalSign(client, /** @type {any} */ ('hi')), TypeError, /^personalSign takes \{ topic, chainId, message, address, expiry\? \}/],
    [() => personalSign(client, { ...base, message: /** @type {any} */ ([104, 105]) }), TypeError, /^message must be text \(signed as its UTF-8 bytes\) or a Uint8Array/],
    [() => personalSign(client, { ...base, message: '' }), RangeError, /^message must hold at least one byte/],
    [() => personalSign(client, { ...base, message: new Uint8Array(0) }), RangeError, /^message must hold at least one byte/],
    [() => personalSign(client, { ...base, message: 'hi', address: 'vitalik.eth' }), TypeError, /^address must be an address, 0x and 40 hex digits/],
    [() => personalSign(client, { ...base, message: 'hi', address: /** @type {any} */ (undefined) }), TypeError, /^address must be an address \(0x and 40 hex digits\), not undefined/],
    [() => personalSign(client, { ...base, message: 'hi', chainId: 'eip155:0x1' }), TypeError, /^chainId is "eip155:0x1", not an eip155 chain id/],
    [() => personalSign(client, { ...base, message: 'hi', topic: 'nope' }), TypeError, /^topic must be/],
    [() => personalSign(client, { ...base, message: 'hi', expiry: 1.5 }), RangeError, /^expiry must be a positive whole number/],
    [() => signTypedDataV4(/** @type {any} */ (null), { ...base, typedData: MAIL }), TypeError, /^signTypedDataV4 needs a client from createNativeClient/],
    [() => signTypedDataV4(client, /** @type {any} */ ([])), TypeError, /^signTypedDataV4 takes \{ topic, chainId, address, typedData, expiry\? \}/],
    [() => signTypedDataV4(client, { ...base, typedData: /** @type {any} */ (undefined) }), TypeError, /^typedData must be EIP-712 typed data, \{ types, primaryType, domain, message \} or its JSON text, not undefined/],
    [() => signTypedDataV4(client, { ...base, typedData: '{' }), TypeError, /^typedData is a string that is not JSON/],
    [() => signTypedDataV4(client, { ...base, typedData: /** @type {any} */ ({ ...MAIL, types: { Mail: MAIL.types.Mail } }) }), TypeError, /^typedData\.types\.EIP712Domain is missing/],
    [() => signTypedDataV4(client, { ...base, typedData: { ...MAIL, primaryType: 'Letter' } }), TypeError, /^typedData\.primaryType is "Letter", which typedData\.types does not define/],
    [() => signTypedDataV4(client, { ...base, address: '0x0', typedData: MAIL }), TypeError, /^address must be an address/],
  ];
  const cyclic = /** @type {any} */ ({ ...MAIL, message: {} });
  cyclic.message.self = cyclic.message;
  cases.push([() => signTypedDataV4(client, { ...base, typedData: cyclic }), TypeError, /^typedData cannot be written as JSON/]);
  for (const [call, kind, pattern] of cases) {
    await assert.rejects(call(), (error) => error instanceof kind && pattern.test(error.message), String(pattern));
  }
  assert.equal(runtime.sent.length, 0);
});

// ---- Results: refused on arrival ---------------------------------------------------------------

/**
 * A client whose host answers every request with `result`.
 * @param {unknown} result
 */
function answering(result) {
  return createNativeClient({ application: APP, runtime: fakeFirefox({ [APP]: (/** @type {any} */ m) => ({ jsonrpc: '2.0', id: m.id, result }) }) });
}

const R_S = 'ab'.repeat(64);

test('the eip155 results are checked: 65-byte signatures with v 27 or 28, addresses, hex quantities', async () => {
  const sign = (/** @type {unknown} */ result) => personalSign(answering(result), { topic: TOPIC, chainId: MAINNET, message: 'hi', address: ADDRESSES[0] });
  const signTyped = (/** @type {unknown} */ result) => signTypedDataV4(answering(result), { topic: TOPIC, chainId: MAINNET, address: ADDRESSES[0], typedData: MAIL });
  const accounts = (/** @type {unknown} */ result) => answering(result).sessionRequest({ topic: TOPIC, chainId: MAINNET, request: { method: ETH_ACCOUNTS_METHOD } });
  const chainId = (/** @type {unknown} */ result) => answering(result).sessionRequest({ topic: TOPIC, chainId: MAINNET, request: { method: ETH_CHAIN_ID_METHOD } });
  /** @type {Array<[() => Promise<unknown>, RegExp]>} */
  const cases = [
    [() => sign(`0x${R_S}`), /^session_request \(personal_sign\) returned a malformed result: the result is "0x(ab)+"…, which does not match \^0x\[0-9a-f\]\{130\}\$$/],
    [() => signTyped(`0x${R_S}`), /^session_request \(eth_signTypedData_v4\) returned a malformed result: the result is "0xab.*, which does not match \^0x\[0-9a-f\]\{130\}\$$/],
    [() => sign(`0x${R_S}00`), /^session_request \(personal_sign\) returned a malformed result: the signature's v is 0x00, not 0x1b or 0x1c \(27 or 28\)$/],
    [() => sign(`0x${R_S}01`), /the signature's v is 0x01, not 0x1b or 0x1c/],
    [() => signTyped(`0x${R_S}1d`), /the signature's v is 0x1d/],
    [() => sign(`0x${R_S}1b00`), /the result is "0xab.*, which does not match \^0x\[0-9a-f\]\{130\}\$$/],
    [() => sign(`${R_S}1b`), /the result is "abab.*, which does not match \^0x/],
    [() => sign(`0x${R_S.slice(2)}zz1b`), /the result is "0xab.*, which does not match \^0x/],
    [() => sign(`0x${R_S.toUpperCase()}1B`), /the result is "0xAB.*, which does not match \^0x\[0-9a-f\]\{130\}\$$/],
    [() => sign({ signature: `0x${R_S}1b` }), /the result is an object, not a string$/],
    [() => signTyped(null), /the result is null, not a string$/],
    [() => accounts({ accounts: ADDRESSES }), /^session_request \(eth_accounts\) returned a malformed result: the result is an object, not an array$/],
    [() => accounts([ADDRESSES[0], `eip155:1:${ADDRESSES[1]}`]), /^session_request \(eth_accounts\) returned a malformed result: \[1\] is "eip155:1:0x.*, which does not match \^0x\[0-9a-fA-F\]\{40\}\$$/],
    [() => accounts([ADDRESSES[0].slice(0, 41)]), /\[0\] is "0x.*, which does not match \^0x\[0-9a-fA-F\]\{40\}\$$/],
    [() => accounts([null]), /\[0\] is null, not a string$/],
    [() => chainId(1), /^session_request \(eth_chainId\) returned a malformed result: the result is 1, not a string$/],
    [() => chainId('1'), /the result is "1", which does not match \^0x\[1-9a-f\]\[0-9a-f\]\*\$$/],
    [() => chainId('0x01'), /the result is "0x01", which does not match \^0x\[1-9a-f\]\[0-9a-f\]\*\$$/],
    [() => chainId('0x'), /the result is "0x", which does not match/],
    [() => chainId('0x0'), /the result is "0x0", which does not match/],
    [() => chainId('0X1'), /the result is "0X1", which does not match/],
  ];
  for (const [call, pattern] of cases) {
    await assert.rejects(call(), (error) => error instanceof NativeProtocolError && error.kind === 'invalid-result' && error.method === 'session_request'
      && error.response !== undefined && pattern.test(error.message), String(pattern));
  }
  assert.equal(await sign(`0x${R_S}1b`), `0x${R_S}1b`);
  assert.equal(await signTyped(`0x${R_S}1c`), `0x${R_S}1c`);
  assert.deepEqual(await accounts([]), [], 'a keystore without keys has no accounts');
  assert.deepEqual(await accounts([...ADDRESSES, OTHER_ADDRESS.toLowerCase()]), [...ADDRESSES, OTHER_ADDRESS.toLowerCase()]);
  assert.equal(await chainId('0xaa36a7'), '0xaa36a7');
});

const eip155Session = () => ({
  topic: TOPIC,
  namespaces: { eip155: { chains: [MAINNET, POLYGON], accounts: [`${MAINNET}:${ADDRESSES[0]}`, `${POLYGON}:${ADDRESSES[0]}`], methods: ETH_METHODS, events: ['accountsChanged', 'chainChanged'] } },
  requiredNamespaces: PROPOSAL.requiredNamespaces,
  optionalNamespaces: PROPOSAL.optionalNamespaces,
  expiry: 1_795_000_000,
  self: { metadata: METADATA },
  peer: { metadata: WALLET_METADATA },
});

test('an eip155 session answer is checked: addresses 0x and 40 hex digits on the namespace\'s chains, decimal chain references', async () => {
  const good = eip155Session();
  assert.deepEqual(checkSession(good), good);
  // The host keys a session's namespaces by namespace (a proposal's chain-id key is merged into it).
  const chainKeyed = { ...good, namespaces: { [POLYGON]: { accounts: [`${POLYGON}:${ADDRESSES[1]}`], methods: ['personal_sign'], events: [] } } };
  assert.throws(() => checkSession(chainKeyed), /^NativeProtocolError: session_connect returned a malformed result: session\.namespaces has the member "eip155:137", which it may not$/);
  /** @type {Array<[(session: any) => void, RegExp]>} */
  const broken = [
    [(s) => { s.namespaces.eip155.accounts[1] = `${POLYGON}:0xab`; }, /session\.namespaces\.eip155\.accounts\[1\] has an address that is not 0x and 40 hex digits/],
    [(s) => { s.namespaces.eip155.accounts[0] = `${MAINNET}:${ADDRESSES[0].slice(2)}`; }, /accounts\[0\] has an address that is not 0x and 40 hex digits/],
    [(s) => { s.namespaces.eip155.accounts.push(`eip155:10:${ADDRESSES[0]}`); }, /accounts\[2\] is on "eip155:10", which is not one of the namespace's chains/],
    [(s) => { s.namespaces.eip155.chains.push('eip155:0x1'); }, /session\.namespaces\.eip155\.chains holds "eip155:0x1", not an eip155 chain id/],
  ];
  for (const [breakIt, pattern] of broken) {
    const session = structuredClone(good);
    breakIt(session);
    await assert.rejects(answering(session).connect(PROPOSAL), (error) => error instanceof NativeProtocolError && error.kind === 'invalid-result' && pattern.test(error.message), String(pattern));
  }
});

test('port: eip155 accountsChanged and chainChanged reach the handlers; accountsChanged with a malformed address is reported, not delivered', async () => {
  const runtime = fakeFirefox({ [APP]: () => undefined });
  /** @type {import('../src/index.js').NativeClientWarning[]} */
  const warnings = [];
  const client = createNativeClient({ application: APP, transport: 'port', runtime, onWarning: (warning) => warnings.push(warning) });
  /** @type {unknown[]} */
  const heard = [];
  client.on('session_event', (params) => { heard.push(params); });
  const accountsChanged = { topic: TOPIC, chainId: POLYGON, event: { name: ETH_ACCOUNTS_CHANGED_EVENT, data: [`${POLYGON}:${ADDRESSES[1]}`] } };
  const chainChanged = { topic: TOPIC, chainId: POLYGON, event: { name: ETH_CHAIN_CHANGED_EVENT, data: 137 } };
  const malformed = { topic: TOPIC, chainId: POLYGON, event: { name: ETH_ACCOUNTS_CHANGED_EVENT, data: [`${POLYGON}:0x1234`] } };
  const otherChain = { topic: TOPIC, chainId: POLYGON, event: { name: ETH_ACCOUNTS_CHANGED_EVENT, data: [`${MAINNET}:${ADDRESSES[1]}`] } };
  for (const params of [accountsChanged, chainChanged, malformed, otherChain]) runtime.port.reply(notification('session_event', params));
  await flush();
  assert.deepEqual(heard, [accountsChanged, chainChanged]);
  assert.deepEqual(warnings.map((warning) => warning.kind), ['invalid-notification', 'invalid-notification']);
  assert.match(warnings[0].message, /address that is not 0x and 40 hex digits/);
  assert.match(warnings[1].message, /is on "eip155:1", which is not one of the namespace's chains/);
  client.close();
});
