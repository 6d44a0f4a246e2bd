/**
 * wallet-bridge/testing (testing.js re-exports this; testing.d.ts has the types): runs the
 * shared fixture files (docs/fixtures.md) from the extension's side under `node --test`,
 * so a developer who added methods checks their JS against the same cases their Swift host runs.
 * For Node only: it imports node:test, node:assert and node:fs, and nothing that index.js
 * imports leads here, so an extension never loads it.
 */
import { AssertionError, deepStrictEqual } from 'node:assert';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { createNativeClient, withDefaultClient } from './client.js';
import { NativeRpcError, nativeRpcErrorClass } from './errors.js';
import { buildBatch, buildNotification, buildRequest, decodeBatchResponse, decodeResponse, describe as describeValue, idKey, isPlainObject } from './protocol.js';

/**
 * @typedef {import('./testing.js').FixtureCase} FixtureCase
 * @typedef {import('./testing.js').FixtureFile} FixtureFile
 * @typedef {import('./testing.js').FixtureMethod} FixtureMethod
 * @typedef {import('./testing.js').FixtureMethodOptions} FixtureMethodOptions
 * @typedef {import('./testing.js').FixtureOptions} FixtureOptions
 * @typedef {{ call: FixtureMethod, compareResult: boolean }} MethodEntry
 * @typedef {{ label: string, run: () => unknown }} Check
 * @typedef {{ request: { jsonrpc: '2.0', method: string, params?: any, id?: string | number } }} WithRequest
 */

const INPUTS = ['request', 'request_text', 'request_base64', 'stream_base64'];
const CASE_MEMBERS = ['name', 'rule', 'args', 'env', ...INPUTS, 'response', 'response_text_includes', 'exit_code'];
const FILE_MEMBERS = ['description', 'env', 'setup', 'cases'];
const REQUEST_MEMBERS = ['jsonrpc', 'method', 'params', 'id'];
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
/** The native application name the checks' clients use; nothing is started under it. */
const FIXTURE_APPLICATION = 'wallet-bridge-fixture';

/**
 * Reads and checks one fixture file. Throws an Error naming the file, and the case when one is
 * at fault, if the file is not in the format of docs/fixtures.md.
 * @param {string | URL} pathOrURL
 * @returns {FixtureFile}
 */
export function loadFixtureFile(pathOrURL) {
  const path = displayPath(pathOrURL);
  /** @type {string} */
  let text;
  try {
    text = readFileSync(pathOrURL, 'utf8');
  } catch (error) {
    throw new Error(`${path}: cannot read the fixture file: ${messageOf(error)}`, { cause: error });
  }
  /** @type {unknown} */
  let document;
  try {
    document = JSON.parse(text);
  } catch (error) {
    throw new Error(`${path}: not JSON: ${messageOf(error)}`, { cause: error });
  }
  if (!isPlainObject(document)) throw new Error(`${path}: a fixture file is an object { "description", "cases": [...] }, not ${describeValue(document)}`);
  const extra = Object.keys(document).filter((key) => !FILE_MEMBERS.includes(key));
  if (extra.length > 0) throw new Error(`${path}: unknown member${extra.length > 1 ? 's' : ''} ${extra.map((key) => JSON.stringify(key)).join(', ')} (a file has "description", "env", "setup" and "cases")`);
  if ('description' in document && typeof document.description !== 'string') throw new Error(`${path}: "description" must be a string`);
  if ('env' in document) {
    const problem = envProblem(document.env);
    if (problem !== null) throw new Error(`${path}: ${problem}`);
  }
  const setup = 'setup' in document ? document.setup : [];
  if (!Array.isArray(setup)) throw new Error(`${path}: "setup" must be an array of cases, not ${describeValue(setup)}`);
  const { cases } = document;
  if (!Array.isArray(cases) || cases.length === 0) throw new Error(`${path}: "cases" must be a non-empty array`);
  // Setup cases and cases share one set of names: both are called file#name.
  const names = new Set();
  for (const [list, kind] of /** @type {const} */ ([[setup, 'setup case'], [cases, 'case']])) {
    list.forEach((fixtureCase, index) => {
      const problem = caseProblem(fixtureCase);
      if (problem !== null) throw new Error(`${path}: ${caseLabel(fixtureCase, index, kind)}: ${problem}`);
      const { name } = /** @type {FixtureCase} */ (fixtureCase);
      if (names.has(name)) throw new Error(`${path}: ${caseLabel(fixtureCase, index, kind)}: another case has this name; names are unique within a file, setup cases' included`);
      names.add(name);
    });
  }
  return {
    path,
    name: baseName(path),
    description: typeof document.description === 'string' ? document.description : undefined,
    env: isPlainObject(document.env) ? /** @type {Record<string, string>} */ ({ ...document.env }) : {},
    setup: /** @type {FixtureCase[]} */ (setup),
    cases: /** @type {FixtureCase[]} */ (cases),
  };
}

/**
 * Checks one case from the extension's side (see README, "Testing with shared fixtures"): with
 * the method's function from `options.methods` when there is one for it, generically otherwise.
 * Resolves to what was checked, in words (empty when nothing about this case can be checked
 * from this side); rejects with an AssertionError naming the case and the check that failed.
 * @param {FixtureCase} fixtureCase
 * @param {FixtureOptions & { file?: string }} [options]
 * @returns {Promise<string[]>}
 */
export async function checkFixtureCase(fixtureCase, options = {}) {
  const methods = methodTable(options.methods);
  const problem = caseProblem(fixtureCase);
  const where = `${options.file === undefined ? '' : `${options.file}: `}${caseLabel(fixtureCase, null)}`;
  if (problem !== null) throw new Error(`${where}: ${problem}`);
  const done = [];
  for (const { label, run } of planChecks(fixtureCase, methods).checks) {
    try {
      await run();
    } catch (error) {
      throw failure(`${where}: ${label}`, error);
    }
    done.push(label);
  }
  return done;
}

/**
 * Registers one node:test suite for the file and one test per case, named after it; a last
 * test fails when a function in `options.methods` has no case in the file (a misspelt method
 * name would otherwise leave every case to the generic checks) or when no case could be checked.
 * A malformed file is one failing test whose message names the file and the case.
 * @param {string | URL} pathOrURL
 * @param {FixtureOptions} [options]
 */
export function runFixtureFile(pathOrURL, options = {}) {
  // Wrong options are the caller's mistake, so they throw here and now rather than in a test.
  const methods = methodTable(options.methods);
  const path = displayPath(pathOrURL);
  describe(baseName(path), () => {
    /** @type {FixtureFile} */
    let file;
    try {
      file = loadFixtureFile(pathOrURL);
    } catch (error) {
      test('is a well-formed fixture file', () => {
        throw error;
      });
      return;
    }
    let checked = 0;
    const used = new Set();
    /** @param {FixtureCase} fixtureCase */
    const register = (fixtureCase) => {
      const plan = planChecks(fixtureCase, methods);
      if (plan.method !== undefined) used.add(plan.method);
      if (plan.checks.length === 0) {
        test(fixtureCase.name, { skip: `nothing to check from the extension's side: ${plan.why}` }, () => {});
        return;
      }
      checked += 1;
      test(fixtureCase.name, async () => {
        await checkFixtureCase(fixtureCase, { methods: options.methods, file: path });
      });
    };
    // No host runs here, so there is nothing to set up: the setup cases are requests the
    // extension sends too, checked like the others, in a suite of their own, first. Every test
    // runs in the order registered, one at a time: the file's order.
    if (file.setup.length > 0) {
      describe('setup', () => {
        for (const fixtureCase of file.setup) register(fixtureCase);
      });
    }
    for (const fixtureCase of file.cases) register(fixtureCase);
    test('every function in methods has a case, and some case is checked', () => {
      const unused = [...methods.keys()].filter((method) => !used.has(method));
      if (unused.length > 0) {
        throw new AssertionError({ message: `${path}: no case requests ${unused.join(', ')} (a request the client can build, with an id, and a result or an error as response), so methods.${unused[0]} is never called: a misspelt method name?` });
      }
      if (checked === 0) throw new AssertionError({ message: `${path}: no case can be checked from the extension's side` });
    });
  });
}

/**
 * What one case is checked for. Synchronous, so runFixtureFile knows at registration which
 * cases are skipped and which functions are used.
 * @param {FixtureCase} fixtureCase
 * @param {Map<string, MethodEntry>} methods
 * @returns {{ checks: Check[], method?: string, why?: string }}
 */
function planChecks(fixtureCase, methods) {
  const { response } = fixtureCase;
  const request = 'request' in fixtureCase ? fixtureCase.request : undefined;
  const buildable = 'request' in fixtureCase && isBuildable(request);
  const entry = buildable && 'id' in request ? methods.get(request.method) : undefined;
  if (entry && buildable && isPlainObject(response) && ('result' in response || 'error' in response) && !('exit_code' in fixtureCase)) {
    return { checks: methodChecks(request, response, entry), method: request.method };
  }
  /** @type {Check[]} */
  const checks = [];
  if (buildable) {
    checks.push({ label: `the client builds the fixture's ${'id' in request ? 'request' : 'notification'}`, run: () => checkBuild(request) });
  }
  if (Array.isArray(request) && request.length > 0 && request.every(isBuildable)) {
    checks.push({ label: 'the client builds the fixture\'s batch', run: () => checkBatchBuild(request) });
    if (response !== null && batchBuilds(request)) {
      checks.push({ label: 'the batch reply maps back to the batch\'s requests', run: () => checkBatchReply(request, response) });
    }
  }
  if (response !== null) {
    const expected = buildable && 'id' in request ? { id: request.id } : undefined;
    checks.push({ label: 'the response decodes', run: () => checkDecodes(response, expected) });
  }
  const input = INPUTS.find((name) => name in fixtureCase) ?? 'no input';
  return { checks, why: `${input === 'request' ? 'a request the client would not build (not a valid request object)' : `${input}, input the client never sends`}, and no reply` };
}

/**
 * The checks with the developer's function: it runs once, with a client whose fake runtime
 * captures what it sends and answers with the fixture's response.
 * @param {WithRequest['request']} request
 * @param {Record<string, any>} response a result or an error
 * @param {MethodEntry} entry
 * @returns {Check[]}
 */
function methodChecks(request, response, { call, compareResult }) {
  /** @type {{ sent: unknown[], outcome: { value: unknown } | { error: unknown } } | undefined} */
  let run;
  /** @type {Check[]} */
  const checks = [{
    label: `${request.method} sends the fixture's request`,
    run: async () => {
      run = await callWithFixtureClient(call, request.params, response, request.id);
      const [sent, ...more] = run.sent;
      if (sent === undefined) {
        const reason = 'error' in run.outcome ? `it threw before sending: ${messageOf(run.outcome.error)}` : 'it resolved without sending anything';
        throw new AssertionError({ message: `sent no request: ${reason}` });
      }
      if (more.length > 0) throw new AssertionError({ message: `sent ${run.sent.length} messages; the case answers one request` });
      // Ids aside: the client chooses them (crypto.randomUUID()) and the fixture's answer is
      // given the captured one. A fixture's extra members are the host's to ignore, never sent.
      assertEqual(withoutId(sent), withoutId(jsonRpcMembers(request)), 'the request it sent (+ actual) is not the fixture\'s (- expected), ids aside');
    },
  }];
  if ('result' in response) {
    checks.push({
      label: `${request.method} resolves${compareResult ? ' to the fixture\'s result' : ''}`,
      run: () => {
        const outcome = /** @type {NonNullable<typeof run>} */ (run).outcome;
        if ('error' in outcome) {
          throw new AssertionError({ message: `it rejected, but the fixture's response is a result: ${messageOf(outcome.error)}` });
        }
        if (compareResult) assertEqual(outcome.value, response.result, 'it resolved to (+ actual) what is not the fixture\'s result (- expected); pass compareResult: false for a function that transforms the result');
      },
    });
  } else {
    checks.push({
      label: `${request.method} rejects with the fixture's error`,
      run: () => {
        const outcome = /** @type {NonNullable<typeof run>} */ (run).outcome;
        const { code, message, data } = response.error;
        // The class the client throws for this code, where one is registered (a generated
        // error module's): the rejection must be one, or be caused by one.
        const Registered = nativeRpcErrorClass(code, request.method);
        const expected = `${Registered === NativeRpcError ? 'a NativeRpcError' : `a ${Registered.name} (NativeRpcError)`} ${code} ${JSON.stringify(message)}`;
        if (!('error' in outcome)) throw new AssertionError({ message: `it resolved, but the fixture's response is an error: expected ${expected}` });
        const error = rpcErrorIn(outcome.error, Registered);
        if (error === undefined) throw new AssertionError({ message: `it rejected with ${messageOf(outcome.error)}, expected ${expected}, or an error whose cause is one` });
        assertEqual({ code: error.code, message: error.message, data: error.data }, { code, message, data }, 'its NativeRpcError (+ actual) is not the fixture\'s error (- expected)');
      },
    });
  }
  return checks;
}

/**
 * Calls the developer's function with the fixture's params and a client that answers from the
 * fixture; that client is also the default client meanwhile, for code that uses the
 * module-level functions.
 * @param {FixtureMethod} call
 * @param {unknown} params
 * @param {Record<string, any>} response
 * @param {unknown} requestId
 */
async function callWithFixtureClient(call, params, response, requestId) {
  /** @type {unknown[]} */
  const sent = [];
  const runtime = {
    /**
     * @param {string} _application
     * @param {unknown} message
     */
    sendNativeMessage(_application, message) {
      // What a browser hands the host: JSON (so undefined members vanish, as on the wire).
      const wire = JSON.parse(JSON.stringify(message));
      sent.push(wire);
      if (sent.length > 1) return Promise.reject(new Error('the fixture case answers one request, and this is another'));
      // The client chose the id; the fixture's answer carries it instead of the fixture's own.
      const id = isPlainObject(wire) ? wire.id : undefined;
      return Promise.resolve(response.id === requestId ? { ...structuredClone(response), id } : structuredClone(response));
    },
  };
  const client = createNativeClient({ application: FIXTURE_APPLICATION, runtime });
  /** @type {{ value: unknown } | { error: unknown }} */
  let outcome;
  try {
    // A copy: a function that changes its params must not change what it is compared with.
    outcome = { value: await withDefaultClient(client, () => call(structuredClone(params), client)) };
  } catch (error) {
    outcome = { error };
  }
  return { sent, outcome };
}

/** @param {WithRequest['request']} request */
function checkBuild(request) {
  // The client sends exactly the four JSON-RPC members, so a fixture's extra member (extras are
  // the host's to ignore) is not built.
  const built = 'id' in request && request.id !== undefined
    ? buildRequest({ method: request.method, params: request.params, id: request.id })
    : buildNotification({ method: request.method, params: request.params });
  assertEqual(built, jsonRpcMembers(request), 'the client built (+ actual) what is not the fixture\'s request (- expected)');
}

/**
 * Ids in a batch are unique (replies are matched by them), or the client refuses the batch.
 * @param {WithRequest['request'][]} request
 */
function batchBuilds(request) {
  const ids = request.filter((entry) => 'id' in entry).map((entry) => idKey(/** @type {string | number} */ (entry.id)));
  return new Set(ids).size === ids.length;
}

/** @param {WithRequest['request'][]} request */
function batchItems(request) {
  return request.map((entry) => ('id' in entry ? { ...entry } : { ...entry, notification: true }));
}

/** @param {WithRequest['request'][]} request */
function checkBatchBuild(request) {
  if (!batchBuilds(request)) {
    const error = thrown(() => buildBatch(batchItems(request)));
    if (!(error instanceof TypeError && /unique/.test(error.message))) {
      throw new AssertionError({ message: `the batch repeats an id, so the client must refuse it with a TypeError; got ${messageOf(error)}` });
    }
    return;
  }
  assertEqual(buildBatch(batchItems(request)), request.map(jsonRpcMembers), 'the client built (+ actual) what is not the fixture\'s batch (- expected)');
}

/**
 * @param {WithRequest['request'][]} request
 * @param {any} response
 */
function checkBatchReply(request, response) {
  const batch = buildBatch(batchItems(request));
  if (!Array.isArray(response)) {
    const error = thrown(() => decodeBatchResponse(batch, response));
    if (!(error instanceof NativeRpcError) || error.code !== response.error?.code) {
      throw new AssertionError({ message: `a whole-batch refusal must reject with its NativeRpcError, got ${messageOf(error)}` });
    }
    return;
  }
  const entries = decodeBatchResponse(batch, response);
  assertEqual(entries.length, response.length, 'entries (+ actual) against replies (- expected)');
  for (const entry of entries) {
    const reply = response.find((/** @type {any} */ element) => element.id === entry.id);
    if ('error' in reply) {
      if (!(entry.error instanceof NativeRpcError)) throw new AssertionError({ message: `entry ${JSON.stringify(entry.id)}: expected a NativeRpcError` });
      assertEqual(entry.error.toJSON(), reply.error, `entry ${JSON.stringify(entry.id)}'s error (+ actual) against the reply's (- expected)`);
    } else {
      assertEqual(entry.result, reply.result, `entry ${JSON.stringify(entry.id)}'s result (+ actual) against the reply's (- expected)`);
    }
  }
}

/**
 * Every response decodes: a result to that value, an error to a NativeRpcError with the same
 * code, message, data and id.
 * @param {any} response
 * @param {{ id?: string | number } | undefined} expected
 */
function checkDecodes(response, expected) {
  const batch = Array.isArray(response);
  for (const element of batch ? response : [response]) {
    const context = batch ? undefined : expected;
    if (isPlainObject(element) && 'result' in element) {
      assertEqual(decodeResponse(element, context), element.result, 'decoded (+ actual) against the result (- expected)');
      continue;
    }
    const error = thrown(() => decodeResponse(element, context));
    if (!(error instanceof NativeRpcError)) throw new AssertionError({ message: `an error response must decode to a NativeRpcError, got ${messageOf(error)}` });
    const { code, message, data } = element.error;
    assertEqual(
      { code: error.code, message: error.message, data: error.data, id: error.id },
      { code, message, data, id: element.id ?? context?.id ?? null },
      'the NativeRpcError (+ actual) against the response (- expected)',
    );
  }
}

/**
 * README: "a valid request object (jsonrpc "2.0", string method, params absent or an object or
 * array, id absent, a string or a number)".
 * @param {unknown} value
 * @returns {value is WithRequest['request']}
 */
function isBuildable(value) {
  return isPlainObject(value)
    && value.jsonrpc === '2.0'
    && typeof value.method === 'string'
    && (!('params' in value) || (typeof value.params === 'object' && value.params !== null))
    && (!('id' in value) || typeof value.id === 'string' || typeof value.id === 'number');
}

/**
 * What is wrong with a case, or null. The list of members is closed, so a misspelt one (say
 * "exitcode") is an error rather than a silently weaker case.
 * @param {unknown} value
 * @returns {string | null}
 */
function caseProblem(value) {
  if (!isPlainObject(value)) return `a case is an object, not ${describeValue(value)}`;
  if (typeof value.name !== 'string' || value.name === '') return '"name" must be a non-empty string';
  const extra = Object.keys(value).filter((key) => !CASE_MEMBERS.includes(key));
  if (extra.length > 0) return `unknown member${extra.length > 1 ? 's' : ''} ${extra.map((key) => JSON.stringify(key)).join(', ')} (a case has ${CASE_MEMBERS.join(', ')})`;
  if ('rule' in value && typeof value.rule !== 'string') return '"rule" must be a string';
  if ('args' in value && !(Array.isArray(value.args) && value.args.every((arg) => typeof arg === 'string'))) return '"args" must be an array of strings';
  if ('env' in value) {
    const problem = envProblem(value.env);
    if (problem !== null) return problem;
  }
  const inputs = INPUTS.filter((input) => input in value);
  if (inputs.length !== 1) {
    return inputs.length === 0 ? `no input: a case has exactly one of ${INPUTS.join(', ')}` : `${inputs.length} inputs (${inputs.join(', ')}): a case has exactly one`;
  }
  if ('request_text' in value && typeof value.request_text !== 'string') return '"request_text" must be a string';
  for (const input of ['request_base64', 'stream_base64']) {
    if (input in value && !(typeof value[input] === 'string' && BASE64.test(/** @type {string} */ (value[input])))) return `"${input}" must be padded standard base64`;
  }
  if (!('response' in value)) return 'no "response" (null means no reply at all)';
  const responseProblem = replyListProblem(value.response);
  if (responseProblem !== null) return responseProblem;
  if ('response_text_includes' in value && !(Array.isArray(value.response_text_includes) && value.response_text_includes.every((text) => typeof text === 'string'))) {
    return '"response_text_includes" must be an array of strings';
  }
  if ('exit_code' in value && !(Number.isInteger(value.exit_code) && /** @type {number} */ (value.exit_code) >= 0 && /** @type {number} */ (value.exit_code) <= 255)) {
    return '"exit_code" must be an exit status, an integer from 0 to 255';
  }
  return null;
}

/**
 * What is wrong with a file's or a case's `env`, or null: an object of strings, each name a
 * variable name (non-empty, no "=" or NUL) and no value with a NUL. `{tmpdir}` in a value is the
 * file's temporary folder to the runners that start the host; here it is only text.
 * @param {unknown} env
 * @returns {string | null}
 */
function envProblem(env) {
  if (!isPlainObject(env)) return `"env" must be an object of strings, not ${describeValue(env)}`;
  for (const name of Object.keys(env).sort()) {
    const value = env[name];
    if (typeof value !== 'string') return `"env".${name} must be a string, not ${describeValue(value)}`;
    if (name === '' || name.includes('=') || name.includes('\0')) {
      return `"env" has ${JSON.stringify(name)}, which is not a variable name (non-empty, with no "=" or NUL)`;
    }
    if (value.includes('\0')) return `"env".${name} holds a NUL character, which no environment variable can`;
  }
  return null;
}

/**
 * What makes a case's `response` one that no host can send, or null: it is null (no reply), a
 * reply, or a non-empty array of replies. A case expecting anything else could never pass, so
 * it is the file's mistake, not the host's.
 * @param {unknown} response
 * @returns {string | null}
 */
function replyListProblem(response) {
  if (response === null) return null;
  if (Array.isArray(response)) {
    if (response.length === 0) return '"response" is an empty array: a batch is answered with at least one reply, or with none at all (null)';
    for (const [index, reply] of response.entries()) {
      if (!isPlainObject(reply)) return `"response"[${index}] must be a reply object, not ${describeValue(reply)}`;
      const problem = replyProblem(reply);
      if (problem !== null) return `"response"[${index}]${problem}`;
    }
    return null;
  }
  if (!isPlainObject(response)) return `"response" must be a reply object, a batch's array or null, not ${describeValue(response)}`;
  const problem = replyProblem(response);
  return problem === null ? null : `"response"${problem}`;
}

/**
 * JSON-RPC 2.0, section 5: exactly one of `result` and `error`, and an error is an object with
 * an integer `code` and a string `message`. What follows "response" in a message, or null.
 * @param {Record<string, unknown>} reply
 * @returns {string | null}
 */
function replyProblem(reply) {
  const hasResult = 'result' in reply;
  const hasError = 'error' in reply;
  if (!hasResult && !hasError) return ' has neither "result" nor "error": a reply has exactly one of them';
  if (hasResult && hasError) return ' has both "result" and "error": a reply has exactly one of them';
  if (hasError) {
    const { error } = reply;
    if (!(isPlainObject(error) && Number.isInteger(error.code) && typeof error.message === 'string')) {
      return `.error must be an object with an integer "code" and a string "message", not ${isPlainObject(error) ? JSON.stringify(error) : describeValue(error)}`;
    }
  }
  return null;
}

/**
 * @param {FixtureOptions['methods']} methods
 * @returns {Map<string, MethodEntry>}
 */
function methodTable(methods) {
  /** @type {Map<string, MethodEntry>} */
  const table = new Map();
  if (methods === undefined) return table;
  if (!isPlainObject(methods)) throw new TypeError(`methods must be an object of functions by method name, not ${describeValue(methods)}`);
  for (const [name, value] of Object.entries(methods)) {
    if (typeof value === 'function') {
      table.set(name, { call: value, compareResult: true });
      continue;
    }
    const options = /** @type {unknown} */ (value);
    if (!isPlainObject(options) || typeof options.call !== 'function' || Object.keys(options).some((key) => key !== 'call' && key !== 'compareResult')
      || !(options.compareResult === undefined || typeof options.compareResult === 'boolean')) {
      throw new TypeError(`methods.${name} must be a function (params, client) => …, or { call, compareResult? }`);
    }
    table.set(name, { call: /** @type {FixtureMethod} */ (options.call), compareResult: options.compareResult !== false });
  }
  return table;
}

/**
 * @param {unknown} fixtureCase
 * @param {number | null} index
 * @param {string} [kind] 'case', or 'setup case'
 */
function caseLabel(fixtureCase, index, kind = 'case') {
  const name = isPlainObject(fixtureCase) && typeof fixtureCase.name === 'string' ? `${kind} "${fixtureCase.name}"` : `a ${kind}`;
  return index === null ? name : `${name} (#${index + 1})`;
}

/**
 * Node's deep strict equality, whose message is the readable diff; `what` goes in front of it.
 * @param {unknown} actual
 * @param {unknown} expected
 * @param {string} what
 */
function assertEqual(actual, expected, what) {
  try {
    deepStrictEqual(actual, expected);
  } catch (error) {
    if (error instanceof AssertionError) error.message = `${what}\n${error.message}`;
    throw error;
  }
}

/**
 * The error to report: an AssertionError keeps its diff, with the case and check in front;
 * anything else (say buildRequest's TypeError) becomes one, its cause kept.
 * @param {string} context
 * @param {unknown} error
 */
function failure(context, error) {
  if (error instanceof AssertionError) {
    error.message = `${context}: ${error.message}`;
    return error;
  }
  const wrapped = new AssertionError({ message: `${context}: ${messageOf(error)}` });
  wrapped.cause = error;
  return wrapped;
}

/**
 * @param {() => unknown} run
 * @returns {unknown} what it threw, or undefined
 */
function thrown(run) {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}

/** @param {unknown} error what was thrown; undefined when nothing was */
function messageOf(error) {
  if (error === undefined) return 'nothing thrown';
  return error instanceof Error ? `${error.name}: ${error.message}` : `${describeValue(error)} thrown`;
}

/** @param {Record<string, unknown>} request */
function jsonRpcMembers(request) {
  return Object.fromEntries(Object.entries(request).filter(([key]) => REQUEST_MEMBERS.includes(key)));
}

/** @param {unknown} message */
function withoutId(message) {
  if (!isPlainObject(message)) return message;
  const { id, ...rest } = message;
  return rest;
}

/**
 * The path for messages: as given, or a file: URL's path.
 * @param {string | URL} pathOrURL
 */
function displayPath(pathOrURL) {
  return typeof pathOrURL === 'string' ? pathOrURL : decodeURIComponent(pathOrURL.pathname);
}

/** @param {string} path */
function baseName(path) {
  return path.split(/[\\/]/).pop() || path;
}

/**
 * The error an extension function rejected with, if it is an instance of `ErrorClass` (a
 * NativeRpcError or a registered subclass), or else the first such error among its causes: a
 * function may wrap the host's error in one of its own (`new Error('…', { cause })`).
 * @param {unknown} rejection
 * @param {import('./errors.js').NativeRpcErrorClass} ErrorClass
 * @returns {NativeRpcError | undefined}
 */
function rpcErrorIn(rejection, ErrorClass) {
  let error = rejection;
  // Bounded: a cause chain may loop.
  for (let depth = 0; depth < 16 && error instanceof Error; depth += 1) {
    if (error instanceof ErrorClass) return error;
    error = error.cause;
  }
  return undefined;
}
