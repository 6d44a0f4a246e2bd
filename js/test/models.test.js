// The hand-written models of src/index.d.ts against the shipped host, so they are checked, not
// kept by hand: asks the real built `wallet-bridge` for its OpenRPC document (rpc.discover, over
// native messaging), generates declarations from it with src/openrpc-types.js, and has tsc
// --strict compile a check file that states, model by model, the relation that matters:
//   params:  everything the JS type lets an extension send, the host accepts (JS → host);
//   results: everything the host may answer fits the JS type (host → JS);
// and both where the two are meant to be the same shape. A relation that does not hold is a
// compile error naming the model. Then it proves it can fail: a copy of the document with a
// result member and a params member renamed must fail exactly the relations of those models,
// and each relation must fail against a type no host gives. The error catalogue too: each
// error a method lists must be NativeRpcErrorCode's, with the same message.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { NATIVE_RPC_ERROR_MESSAGES, NativeRpcErrorCode } from '../src/index.js';
import { declarationsFromOpenRPC } from '../src/openrpc-types.js';
import { discover } from './host-discover.js';
import { temporaryFolder } from './scratch.js';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const HOST = process.env.WALLET_BRIDGE_BIN ?? join(REPO_ROOT, '.build/debug/wallet-bridge');
const INDEX = fileURLToPath(new URL('../src/index.js', import.meta.url));
const TSC = process.env.TSC ?? '/usr/bin/tsc';
const TSC_TIMEOUT = { timeout: 120_000 };

/**
 * One relation of the check file.
 * - `js→host`: `[Wire<JS>] extends [Host]`, every value of the JS type is one of the host's;
 * - `host→js`: `[Host] extends [JS]`, every value of the host's type is one of the JS type's;
 * - `same`: both.
 * `js` and `host` are TypeScript type expressions: `Hand` is src/index.d.ts, `Host` the
 * generated declarations and `Methods` their HostMethods (params and results by method name).
 * @typedef {{ model: string, js: string, host: string, relation: 'js→host' | 'host→js' | 'same' }} Relation
 */

/** @type {Relation[]} */
const RELATIONS = [
  // ---- The built-in methods: the same shapes as the host's, both ways.
  { model: 'NATIVE_GET_ACCOUNTS_METHOD params', js: 'ParamsOf<typeof Hand.NATIVE_GET_ACCOUNTS_METHOD>', host: "Methods['NATIVE_GET_ACCOUNTS_METHOD']['params']", relation: 'same' },
  { model: 'NativeGetAccountsResult', js: 'Hand.NativeGetAccountsResult', host: "Methods['NATIVE_GET_ACCOUNTS_METHOD']['result']", relation: 'same' },
  { model: 'NATIVE_GET_ACCOUNTS_METHOD result', js: 'ResultOf<typeof Hand.NATIVE_GET_ACCOUNTS_METHOD>', host: "Methods['NATIVE_GET_ACCOUNTS_METHOD']['result']", relation: 'same' },
  { model: 'NativeSignPayloadsParams', js: 'Hand.NativeSignPayloadsParams', host: "Methods['NATIVE_SIGN_PAYLOADS_METHOD']['params']", relation: 'same' },
  { model: 'NATIVE_SIGN_PAYLOADS_METHOD params', js: 'ParamsOf<typeof Hand.NATIVE_SIGN_PAYLOADS_METHOD>', host: "Methods['NATIVE_SIGN_PAYLOADS_METHOD']['params']", relation: 'same' },
  { model: 'NativeSignPayloadsResult', js: 'Hand.NativeSignPayloadsResult', host: "Methods['NATIVE_SIGN_PAYLOADS_METHOD']['result']", relation: 'same' },
  { model: 'NATIVE_SIGN_PAYLOADS_METHOD result', js: 'ResultOf<typeof Hand.NATIVE_SIGN_PAYLOADS_METHOD>', host: "Methods['NATIVE_SIGN_PAYLOADS_METHOD']['result']", relation: 'same' },

  // ---- session_connect. SessionConnectParams as a whole is left out, JS → host, for two rules
  // of the host's that TypeScript cannot state: requiredNamespaces and optionalNamespaces must
  // ask for at least one chain between them (non-empty, which no type says; a union requiring
  // one of the two would say only part of it), and a namespace's value depends on its key (a
  // CAIP-2 namespace has chains, a chain id none), which an index signature cannot say. So the
  // JS type has both optional and chains optional, and the client checks both rules before
  // sending (sessions.js, connect's params). Its parts are checked instead: the member names,
  // metadata, and a namespace with chains and one without.
  { model: 'SessionConnectParams members', js: 'keyof Hand.SessionConnectParams', host: "keyof Methods['session_connect']['params']", relation: 'same' },
  { model: 'SessionConnectParams metadata', js: "Hand.SessionConnectParams['metadata']", host: 'Host.ProposalMetadata', relation: 'js→host' },
  { model: 'Namespace with chains (keyed by a CAIP-2 namespace)', js: 'Hand.Namespace & { chains: readonly string[] }', host: 'Host.Namespace', relation: 'js→host' },
  { model: 'Namespace without chains (keyed by a chain id)', js: "Omit<Hand.Namespace, 'chains'>", host: 'Host.ChainNamespace', relation: 'js→host' },
  { model: 'Namespace (in a session)', js: 'Hand.Namespace', host: 'Host.Namespace', relation: 'host→js' },
  { model: 'Namespaces (in a session)', js: 'Hand.Namespaces', host: 'Host.Namespaces', relation: 'host→js' },
  // Session: host → JS only, as the JS type is meant for any host (requiredNamespaces and the
  // metadata's optional members may be left out by one; this host always sends them).
  { model: 'Session', js: 'Hand.Session', host: "Methods['session_connect']['result']", relation: 'host→js' },
  { model: 'SESSION_CONNECT_METHOD result', js: 'ResultOf<typeof Hand.SESSION_CONNECT_METHOD>', host: "Methods['session_connect']['result']", relation: 'host→js' },
  { model: 'PeerMetadata (in a session)', js: 'Hand.PeerMetadata', host: 'Host.PeerMetadata', relation: 'host→js' },
  { model: 'SessionNamespace', js: 'Hand.SessionNamespace', host: 'Host.SessionNamespace', relation: 'host→js' },
  { model: 'SessionNamespaces', js: 'Hand.SessionNamespaces', host: 'Host.SessionNamespaces', relation: 'host→js' },

  // ---- session_list. Its params JS → host without `undefined`: the host takes no params
  // (its description says "{} …, [] or no params") but its document does not say so
  // (no x-params-optional), so the generated type requires them.
  { model: 'SessionListParams', js: 'Hand.SessionListParams', host: "Methods['session_list']['params']", relation: 'js→host' },
  { model: 'SESSION_LIST_METHOD params, given', js: 'Exclude<ParamsOf<typeof Hand.SESSION_LIST_METHOD>, undefined>', host: "Methods['session_list']['params']", relation: 'js→host' },
  { model: 'SessionListResult', js: 'Hand.SessionListResult', host: "Methods['session_list']['result']", relation: 'host→js' },
  { model: 'SESSION_LIST_METHOD result', js: 'ResultOf<typeof Hand.SESSION_LIST_METHOD>', host: "Methods['session_list']['result']", relation: 'host→js' },

  // ---- session_extend and session_disconnect: the same shapes, both ways.
  { model: 'SessionExtendParams', js: 'Hand.SessionExtendParams', host: "Methods['session_extend']['params']", relation: 'same' },
  { model: 'SESSION_EXTEND_METHOD params', js: 'ParamsOf<typeof Hand.SESSION_EXTEND_METHOD>', host: "Methods['session_extend']['params']", relation: 'same' },
  { model: 'SessionExtendResult', js: 'Hand.SessionExtendResult', host: "Methods['session_extend']['result']", relation: 'same' },
  { model: 'SESSION_EXTEND_METHOD result', js: 'ResultOf<typeof Hand.SESSION_EXTEND_METHOD>', host: "Methods['session_extend']['result']", relation: 'same' },
  { model: 'SessionDisconnectParams', js: 'Hand.SessionDisconnectParams', host: "Methods['session_disconnect']['params']", relation: 'same' },
  { model: 'SESSION_DISCONNECT_METHOD params', js: 'ParamsOf<typeof Hand.SESSION_DISCONNECT_METHOD>', host: "Methods['session_disconnect']['params']", relation: 'same' },
  { model: 'SessionErrorReason', js: 'Hand.SessionErrorReason', host: 'Host.SessionReason', relation: 'same' },
  { model: 'SESSION_DISCONNECT_METHOD result', js: 'ResultOf<typeof Hand.SESSION_DISCONNECT_METHOD>', host: "Methods['session_disconnect']['result']", relation: 'same' },

  // ---- session_request. SessionRequest (any inner method) is checked but for the inner params:
  // for a method without declared types they are `object` (NativeRpcParams, so that interfaces
  // fit), where the host takes any JSON, and TypeScript has no type for "an object that is
  // JSON" that takes interfaces. SESSION_REQUEST_METHOD's params are SessionRequest, and its
  // result is any JSON (the inner method's), which no host type could fail.
  // The host says "solana_signMessage's params are SignMessageParams" as anyOf [method is not
  // "solana_signMessage", params are SignMessageParams]; TypeScript cannot say "a string other
  // than X", so the generated params type has no such branch: SolanaSignMessageParams is checked
  // against the host's titled schema instead, and each Solana method's SessionRequest whole.
  { model: 'SessionRequest but its request', js: "Omit<Hand.SessionRequest, 'request'>", host: "Omit<Methods['session_request']['params'], 'request'>", relation: 'same' },
  { model: "SessionRequest's request but its params", js: "Omit<Hand.SessionRequest['request'], 'params'>", host: "Omit<Methods['session_request']['params']['request'], 'params'>", relation: 'same' },
  { model: "SessionRequest<'solana_signMessage'>", js: "Hand.SessionRequest<'solana_signMessage'>", host: "Methods['session_request']['params']", relation: 'js→host' },
  { model: "SessionRequest<'solana_getAccounts'>", js: "Hand.SessionRequest<'solana_getAccounts'>", host: "Methods['session_request']['params']", relation: 'js→host' },
  { model: "SessionRequest<'solana_requestAccounts'>", js: "Hand.SessionRequest<'solana_requestAccounts'>", host: "Methods['session_request']['params']", relation: 'js→host' },
  { model: 'SolanaSignMessageParams', js: 'Hand.SolanaSignMessageParams', host: 'Host.SignMessageParams', relation: 'same' },
  // The eip155 results are plain strings to the host (a pattern TypeScript cannot state), and
  // `0x${string}` here: every result the package knows is one the host may send.
  { model: 'session methods results', js: 'Hand.SessionMethodResult<keyof Hand.SolanaSessionMethods | keyof Hand.Eip155SessionMethods>', host: "Methods['session_request']['result']", relation: 'js→host' },
  { model: "SessionRequest<'personal_sign'>", js: "Hand.SessionRequest<'personal_sign'>", host: "Methods['session_request']['params']", relation: 'js→host' },
  { model: "SessionRequest<'eth_accounts'>", js: "Hand.SessionRequest<'eth_accounts'>", host: "Methods['session_request']['params']", relation: 'js→host' },
  { model: "SessionRequest<'solana_signTransaction'>", js: "Hand.SessionRequest<'solana_signTransaction'>", host: "Methods['session_request']['params']", relation: 'js→host' },
  { model: "SessionRequest<'solana_signAllTransactions'>", js: "Hand.SessionRequest<'solana_signAllTransactions'>", host: "Methods['session_request']['params']", relation: 'js→host' },
  { model: "SessionRequest<'eth_signTransaction'>", js: "Hand.SessionRequest<'eth_signTransaction'>", host: "Methods['session_request']['params']", relation: 'js→host' },
  { model: 'SolanaSignMessageResult', js: 'Hand.SolanaSignMessageResult', host: 'Host.SignMessageResult', relation: 'same' },
  { model: 'SolanaAccount', js: 'Hand.SolanaAccount', host: 'Host.SessionAccounts[number]', relation: 'same' },

  // ---- Every method the host describes has a constant here, and no constant names a method
  // the host lacks.
  { model: 'method names', js: 'MethodName', host: 'keyof Methods', relation: 'same' },
];
// Not here: SessionEventParams, SessionUpdateParams, SessionDeleteParams and
// SessionExpireParams, the params of the notifications the host sends: an OpenRPC document
// describes methods only. Their parts that are models of their own (SessionNamespaces,
// SessionErrorReason) are checked above.

/** What the check file says for each direction when it fails: the model is named first. */
const FAILS = {
  'js→host': (/** @type {string} */ model) => `${model}: not every value of the JS type is one of the host's`,
  'host→js': (/** @type {string} */ model) => `${model}: not every value of the host's type is one of the JS type's`,
};

/**
 * @param {Relation[]} relations
 * @param {string} [instead] a type to compare with instead of each one of the host's
 */
function checkFile(relations, instead) {
  const checks = relations.flatMap(({ model, js, host: hostType, relation }) => {
    const host = instead ?? hostType;
    const directions = relation === 'same' ? /** @type {const} */ (['js→host', 'host→js']) : [relation];
    return directions.map((direction) => (direction === 'js→host'
      ? `JsToHost<${js}, ${host}, ${tsString(FAILS[direction](model))}>`
      : `HostToJs<${host}, ${js}, ${tsString(FAILS[direction](model))}>`));
  });
  return `// Generated by js/test/models.test.js: src/index.d.ts against the shipped host's rpc.discover.
import type * as Hand from ${tsString(INDEX)};
import type * as Host from './host.js';
import type { HostMethods as Methods } from './host.js';

/**
 * A value the extension sends, as JSON: interfaces as plain object types, readonly arrays as
 * arrays, and no member that can only be undefined (\`gasPrice?: never\`, which keeps one kind of
 * fee from mixing with the other): JSON.stringify leaves such a member out. None of these
 * differences exists on the wire, but TypeScript lets neither an interface into an index
 * signature (JsonValue's object), nor a readonly array into JsonValue[], nor undefined into JsonValue.
 */
type Wire<T> = T extends string | number | boolean | null | undefined ? T : T extends readonly (infer Element)[] ? Wire<Element>[]
  : { [Key in keyof T as [Exclude<T[Key], undefined>] extends [never] ? never : Key]: Wire<T[Key]> };
/** true when every value of the JS type is one of the host's; else the message, as an error. */
type JsToHost<Js, HostType, Fails extends string> = [Wire<Js>] extends [HostType] ? true : Fails;
/** true when every value of the host's type is one of the JS type's; else the message. */
type HostToJs<HostType, Js, Fails extends string> = [HostType] extends [Js] ? true : Fails;
type ParamsOf<Method extends string> = Hand.NativeMethodParams<Method>;
type ResultOf<Method extends string> = Hand.NativeMethodResult<Method>;
/** The method constants' names. */
type MethodName = typeof Hand.NATIVE_GET_ACCOUNTS_METHOD | typeof Hand.NATIVE_SIGN_PAYLOADS_METHOD | typeof Hand.SESSION_CONNECT_METHOD
  | typeof Hand.SESSION_LIST_METHOD | typeof Hand.SESSION_REQUEST_METHOD | typeof Hand.SESSION_EXTEND_METHOD | typeof Hand.SESSION_DISCONNECT_METHOD;

// Each must be true: one that is not is a compile error whose message names the model.
${checks.map((check, index) => `export const relation${index + 1}: ${check} = true;`).join('\n')}
`;
}

/**
 * The document with each titled schema inside its methods also under components.schemas, so
 * the check file can name the host's own parts of a params or result (Host.PeerMetadata). A
 * title used for two different schemas is refused: the check would compare with either.
 * @param {any} document
 */
function withTitledComponents(document) {
  /** @type {Record<string, unknown>} */
  const titled = {};
  /** @param {unknown} value */
  const walk = (value) => {
    if (Array.isArray(value)) {
      value.forEach(walk);
    } else if (typeof value === 'object' && value !== null) {
      const { title } = /** @type {Record<string, unknown>} */ (value);
      if (typeof title === 'string') {
        if (Object.hasOwn(titled, title)) assert.deepEqual(value, titled[title], `the host's document has two schemas titled ${title}`);
        else titled[title] = value;
      }
      Object.values(value).forEach(walk);
    }
  };
  walk(document.methods);
  return { ...document, components: { ...document.components, schemas: { ...document.components?.schemas, ...titled } } };
}

/**
 * Writes the declarations for `document` and the check file into a new folder and compiles
 * them with tsc --strict.
 * @param {unknown} document
 * @param {string} [instead] passed to checkFile
 */
function typeCheck(document, instead) {
  const dir = temporaryFolder('wallet-bridge-models-');
  writeFileSync(join(dir, 'host.d.ts'), declarationsFromOpenRPC(withTitledComponents(document), { importFrom: INDEX }));
  writeFileSync(join(dir, 'check.ts'), checkFile(RELATIONS, instead));
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({
    compilerOptions: { target: 'ES2022', module: 'ES2022', moduleResolution: 'node', lib: ['ES2022'], types: [], skipLibCheck: false },
    files: ['check.ts'],
  }));
  const run = spawnSync(TSC, ['--noEmit', '--strict', '--pretty', 'false', '-p', dir], { encoding: 'utf8' });
  assert.equal(run.error, undefined, `running ${TSC}: ${run.error?.message}`);
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

/**
 * The models named by the failed relations in tsc's output, in the check file's order.
 * @param {string} output
 */
function failedModels(output) {
  return [...output.matchAll(/"([^"]+): not every value of the (JS type is one of the host's|host's type is one of the JS type's)"/g)]
    .map(([, model, direction]) => `${model} ${direction.startsWith('JS') ? 'js→host' : 'host→js'}`);
}

/** @param {string} value */
function tsString(value) {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** @type {any} */
let discovered;
/** The host's document, asked once; each test that needs it fails (never skips) without it. */
function hostDocument() {
  if (!existsSync(HOST)) {
    throw new Error(`The host is not built: ${HOST} does not exist. Run \`swift build\` in ${REPO_ROOT} `
      + '(or set WALLET_BRIDGE_BIN to the binary), then run the tests again.');
  }
  if (spawnSync(TSC, ['--version']).error) throw new Error(`${TSC} is not installed (set TSC to a TypeScript compiler): the models cannot be checked`);
  discovered ??= discover(HOST, temporaryFolder('wallet-bridge-models-'));
  return discovered;
}

describe("index.d.ts's models against the shipped host's rpc.discover", () => {
  test('each relation holds', TSC_TIMEOUT, () => {
    const { status, output } = typeCheck(hostDocument());
    assert.deepEqual(failedModels(output), [], output);
    assert.equal(status, 0, `tsc failed:\n${output}`);
  });

  test("every error the host's methods list is in NativeRpcErrorCode, with the host's message", () => {
    const codes = new Set(Object.values(NativeRpcErrorCode));
    const listed = hostDocument().methods.flatMap((/** @type {any} */ method) => method.errors.map((/** @type {any} */ error) => ({ method: method.name, ...error })));
    assert.ok(listed.length > 0, 'the host lists no errors at all');
    for (const { method, code, message } of listed) {
      assert.ok(codes.has(code), `${method}: code ${code} is not in NativeRpcErrorCode`);
      assert.equal(NATIVE_RPC_ERROR_MESSAGES[code], message, `${method}: code ${code}`);
    }
  });

  test('no relation holds whatever the host says', TSC_TIMEOUT, () => {
    // Each compared with a type no host schema gives: each must fail, so none is vacuous (a JS
    // type of any JSON, say, would take this object as it takes every host type).
    const { output } = typeCheck(hostDocument(), "{ 'not the host': true }");
    const every = RELATIONS.flatMap(({ model, relation }) => (relation === 'same' ? [`${model} js→host`, `${model} host→js`] : [`${model} ${relation}`]));
    assert.deepEqual(failedModels(output), every, output);
  });

  test('a renamed result member and a renamed params member fail exactly their models', TSC_TIMEOUT, () => {
    const changed = structuredClone(hostDocument());
    const method = (/** @type {string} */ name) => changed.methods.find((/** @type {any} */ each) => each.name === name);
    const result = method('NATIVE_SIGN_PAYLOADS_METHOD').result.schema;
    result.properties.signedPayloads = result.properties.signed_payloads;
    delete result.properties.signed_payloads;
    result.required = ['signedPayloads'];
    const params = method('session_extend')['x-params-schema'];
    params.properties.id = params.properties.topic;
    delete params.properties.topic;
    params.required = ['id'];

    const { status, output } = typeCheck(changed);
    assert.notEqual(status, 0, output);
    assert.deepEqual(failedModels(output), [
      'NativeSignPayloadsResult js→host',
      'NativeSignPayloadsResult host→js',
      'NATIVE_SIGN_PAYLOADS_METHOD result js→host',
      'NATIVE_SIGN_PAYLOADS_METHOD result host→js',
      'SessionExtendParams js→host',
      'SessionExtendParams host→js',
      'SESSION_EXTEND_METHOD params js→host',
      'SESSION_EXTEND_METHOD params host→js',
    ], output);
  });
});
