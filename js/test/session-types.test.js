// src/session-methods.d.ts, src/session-methods.js and src/session-schemas.js are generated from the shipped host's
// rpc.discover (session-types.js): this fails when they are stale, that is when the host's
// session methods changed and scripts/generate-session-types.sh was not run again.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { discover } from './host-discover.js';
import { temporaryFolder } from './scratch.js';
import { SESSION_SCHEMAS_JS, SESSION_TYPES_DTS, SESSION_TYPES_JS, sessionTypes } from './session-types.js';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const HOST = process.env.WALLET_BRIDGE_BIN ?? join(REPO_ROOT, '.build/debug/wallet-bridge');
const SRC = fileURLToPath(new URL('../src/', import.meta.url));
const REGENERATE = 'scripts/generate-session-types.sh';

/** @type {{ declarations: string, errors: string, schemas: string } | undefined} */
let generated;
/** What the host describes now; fails (never skips) without a built host. */
function fromHost() {
  if (!existsSync(HOST)) {
    throw new Error(`The host is not built: ${HOST} does not exist. Run \`swift build\` in ${REPO_ROOT} `
      + '(or set WALLET_BRIDGE_BIN to the binary), then run the tests again.');
  }
  generated ??= sessionTypes(discover(HOST, temporaryFolder('wallet-bridge-session-types-')));
  return generated;
}

test(`src/${SESSION_TYPES_DTS} is what the host's rpc.discover generates`, () => {
  assert.equal(readFileSync(join(SRC, SESSION_TYPES_DTS), 'utf8'), fromHost().declarations, `stale: run ${REGENERATE}`);
});

test(`src/${SESSION_TYPES_JS} is what the host's rpc.discover generates`, () => {
  assert.equal(readFileSync(join(SRC, SESSION_TYPES_JS), 'utf8'), fromHost().errors, `stale: run ${REGENERATE}`);
});

test(`src/${SESSION_SCHEMAS_JS} is what the host's rpc.discover generates`, () => {
  assert.equal(readFileSync(join(SRC, SESSION_SCHEMAS_JS), 'utf8'), fromHost().schemas, `stale: run ${REGENERATE}`);
});

test('a change to a session method in the host makes the committed declarations stale', () => {
  // The comparison above can fail: the same document with one params member renamed.
  const { declarations } = fromHost();
  assert.match(declarations, /export type SessionExtendParams = \{[\s\S]*?\n  topic: string;\n\};/);
  const renamed = JSON.parse(JSON.stringify(discoveredDocument()));
  const extend = renamed.methods.find((/** @type {any} */ method) => method.name === 'session_extend');
  for (const param of extend.params) if (param.name === 'topic') param.name = 'topicRenamed';
  extend['x-params-schema'].properties.topicRenamed = extend['x-params-schema'].properties.topic;
  delete extend['x-params-schema'].properties.topic;
  extend['x-params-schema'].required = ['topicRenamed'];
  const stale = sessionTypes(renamed).declarations;
  assert.match(stale, /export type SessionExtendParams = \{[\s\S]*?\n  topicRenamed: string;\n\};/);
  assert.notEqual(stale, readFileSync(join(SRC, SESSION_TYPES_DTS), 'utf8'));
});

test('a change to a session method\'s result makes the committed schemas stale; a shape with no known method fails generation', () => {
  const { schemas } = fromHost();
  const changed = JSON.parse(JSON.stringify(discoveredDocument()));
  const request = changed.methods.find((/** @type {any} */ method) => method.name === 'session_request');
  const chainId = request.result.schema.anyOf.find((/** @type {any} */ shape) => shape.title === 'EthereumChainId');
  chainId.pattern = '^0x[0-9a-f]+$';
  const stale = sessionTypes(changed).schemas;
  assert.notEqual(stale, schemas);
  assert.notEqual(stale, readFileSync(join(SRC, SESSION_SCHEMAS_JS), 'utf8'));
  // Which inner method answers with a shape is read from its title: a new title, or a title gone,
  // is said, never left unchecked.
  chainId.title = 'EthereumChainIdRenamed';
  assert.throws(() => sessionTypes(changed), /a shape titled "EthereumChainIdRenamed" that INNER_RESULT_METHODS .* does not name/);
  request.result.schema.anyOf = request.result.schema.anyOf.filter((/** @type {any} */ shape) => shape !== chainId);
  assert.throws(() => sessionTypes(changed), /no longer has the shapes EthereumChainId: update INNER_RESULT_METHODS/);
  // A method whose params the host describes, sharing a result shape with another, is not missed.
  const renamed = JSON.parse(JSON.stringify(discoveredDocument()));
  const inner = renamed.methods.find((/** @type {any} */ method) => method.name === 'session_request')['x-params-schema'].properties.request;
  const signMessage = inner.anyOf.find((/** @type {any} */ branch) => branch.properties?.method?.const === 'solana_signMessage');
  signMessage.properties.method.const = 'solana_signMessageTwice';
  assert.throws(() => sessionTypes(renamed), /params describe solana_signMessageTwice, which INNER_RESULT_METHODS gives no result shape/);
});

/** @type {any} */
let document;
function discoveredDocument() {
  document ??= discover(HOST, temporaryFolder('wallet-bridge-session-types-'));
  return document;
}

test('index.d.ts takes the session types from the generated module, not a second hand-written copy', () => {
  const index = readFileSync(join(SRC, 'index.d.ts'), 'utf8');
  const generated = readFileSync(join(SRC, SESSION_TYPES_DTS), 'utf8');
  const imported = /import type \{([^}]*)\} from '\.\/session-methods\.js';/.exec(index)?.[1] ?? '';
  for (const name of ['Session', 'SessionConnectParams', 'SessionListParams', 'SessionListResult', 'SessionExtendParams',
    'SessionExtendResult', 'SessionDisconnectParams']) {
    assert.match(generated, new RegExp(`^export type ${name} = `, 'm'), `${name} is generated`);
    assert.match(imported, new RegExp(`\\b${name}\\b`), `index.d.ts imports ${name} from ${SESSION_TYPES_DTS}`);
    assert.doesNotMatch(index, new RegExp(`^export (interface|type) ${name}\\b`, 'm'), `index.d.ts writes ${name} again`);
  }
  // The names users had keep working, as aliases of the generated shapes.
  for (const [name, of] of [['Namespaces', 'SessionConnectParams'], ['PeerMetadata', 'SessionConnectParams'],
    ['SessionNamespaces', 'Session']]) {
    assert.match(index, new RegExp(`^export type ${name} = [^;]*\\b${of}\\b`, 'm'), `${name} is an alias of ${of}'s`);
  }
});
