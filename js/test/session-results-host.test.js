// Every session method's result from the real Swift host (wallet-bridge-conformance-host, through
// the shim that plays the browser) passes the checks the client runs on arrival: the result
// schemas generated from the host's rpc.discover (src/session-schemas.js) and the relations
// sessions.js adds to them. Each call resolving is the check; what it answers is looked at too.
// A malformed result of each kind is refused in session-schemas.test.js, sessions.test.js,
// ethereum.test.js, transactions.test.js and session-origin.test.js.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import {
  EIP155_CHAINS,
  ETH_ACCOUNTS_METHOD,
  ETH_CHAIN_ID_METHOD,
  SOLANA_GET_ACCOUNTS_METHOD,
  SOLANA_MAINNET_CHAIN_ID,
  SOLANA_REQUEST_ACCOUNTS_METHOD,
  createNativeClient,
  personalSign,
  signMessage,
  signTypedDataV4,
  solanaSignIn,
} from '../src/index.js';
import { createShimRuntime, requireHost } from './native-host-shim.js';
import { CONFORMANCE_KEYS, HOST_TEST_TIMEOUT as TEST_TIMEOUT } from './transaction-fakes.js';

const SOLANA = SOLANA_MAINNET_CHAIN_ID;
const POLYGON = EIP155_CHAINS.polygon;
const { alice: ALICE, cow: COW } = CONFORMANCE_KEYS;
const MAIL = {
  types: { EIP712Domain: [{ name: 'name', type: 'string' }], Mail: [{ name: 'contents', type: 'string' }] },
  primaryType: 'Mail',
  domain: { name: 'Results' },
  message: { contents: 'Hello' },
};

/** @type {ReturnType<typeof createShimRuntime>[]} */
const shims = [];
after(async () => { await Promise.all(shims.map((shim) => shim.dispose())); });

for (const flavor of /** @type {const} */ (['chrome', 'firefox'])) {
  const name = `${flavor}: the host's answer to every session method and inner method passes the checks generated from its rpc.discover`;
  test(name, TEST_TIMEOUT, async () => {
    requireHost();
    const runtime = createShimRuntime({ flavor });
    shims.push(runtime);
    const client = createNativeClient({
      application: 'com.example.wallet_bridge', runtime, transport: 'port', timeoutMs: 10_000,
    });
    const session = await client.connect({
      requiredNamespaces: {
        solana: {
          chains: [SOLANA],
          methods: ['solana_signMessage', 'solana_signIn', SOLANA_GET_ACCOUNTS_METHOD, SOLANA_REQUEST_ACCOUNTS_METHOD],
          events: ['accountsChanged'],
        },
        // Keyed by the chain: the session answers it merged into "eip155".
        [POLYGON]: { methods: ['personal_sign', 'eth_signTypedData_v4', ETH_CHAIN_ID_METHOD, ETH_ACCOUNTS_METHOD], events: [] },
      },
      metadata: { name: 'Result checks' },
    });
    const { topic } = session;
    assert.ok(session.namespaces.solana.accounts.includes(`${SOLANA}:${ALICE.pubkey}`));
    assert.deepEqual(Object.keys(session.namespaces).sort(), ['eip155', 'solana']);
    assert.deepEqual(session.requiredNamespaces.eip155.chains, [POLYGON]);
    assert.deepEqual(session.self.metadata, { name: 'Result checks', description: '', url: '', icons: [] });
    assert.deepEqual((await client.listSessions()).sessions.map((listed) => listed.topic), [topic]);

    const solana = { topic, chainId: SOLANA };
    const accounts = await client.sessionRequest({ ...solana, request: { method: SOLANA_GET_ACCOUNTS_METHOD } });
    assert.ok(accounts.some(({ pubkey }) => pubkey === ALICE.pubkey));
    assert.deepEqual(await client.sessionRequest({ ...solana, request: { method: SOLANA_REQUEST_ACCOUNTS_METHOD } }), accounts);
    const signature = await signMessage(client, { ...solana, message: Uint8Array.of(1, 2, 3), pubkey: ALICE.pubkey });
    assert.equal(signature.length, 64);
    const input = { domain: 'app.example.com', address: ALICE.pubkey, statement: 'Results' };
    const signedIn = await solanaSignIn(client, { ...solana, input });
    assert.equal(signedIn.address, ALICE.pubkey);

    const polygon = { topic, chainId: POLYGON };
    assert.equal(await client.sessionRequest({ ...polygon, request: { method: ETH_CHAIN_ID_METHOD } }), '0x89');
    const addresses = await client.sessionRequest({ ...polygon, request: { method: ETH_ACCOUNTS_METHOD } });
    assert.ok(addresses.includes(COW));
    assert.match(await personalSign(client, { ...polygon, message: 'Hello', address: COW }), /^0x[0-9a-f]{128}1[bc]$/);
    assert.match(await signTypedDataV4(client, { ...polygon, address: COW, typedData: MAIL }), /^0x[0-9a-f]{128}1[bc]$/);

    const { expiry } = await client.extend(topic);
    assert.ok(Number.isInteger(expiry));
    assert.equal(await client.disconnect(topic), undefined);
    assert.deepEqual((await client.listSessions()).sessions, []);
    client.close();
  });
}
