// wallet-bridge/testing: a fixture file run from the extension's side passes when the JS agrees
// with it, and fails, saying where and how, when it does not. The failures are provoked on the
// JS side (a renamed field, a wrong type, a result the function's own check refuses, an error
// turned into another), since the fixture is the contract and the JS is what is being checked.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import {
  NativeConfigurationError,
  NativeProtocolError,
  NativeRpcError,
  configureNativeClient,
  getNativeClient,
  resetNativeClient,
  sendNativeRpcRequest,
} from '../src/index.js';
import { checkFixtureCase, loadFixtureFile } from '../src/testing.js';
import { fakeFirefox, fakeWalletHost } from './fakes.js';
import { temporaryFolder } from './scratch.js';

const TESTING = new URL('../src/testing.js', import.meta.url).href;
const INDEX = new URL('../src/index.js', import.meta.url).href;

/** A method of the test's own, as a developer would add one: both fixture cases and a function. */
const GREET = {
  description: 'greet, a custom method',
  cases: [
    {
      name: 'greet',
      rule: 'params by name; the result greets',
      request: { jsonrpc: '2.0', method: 'greet', params: { who: 'Ada', times: 2 }, id: 1 },
      response: { jsonrpc: '2.0', id: 1, result: { text: 'hello Ada, hello Ada' } },
    },
    {
      name: 'greet-nobody',
      rule: 'the method\'s own error, with data',
      request: { jsonrpc: '2.0', method: 'greet', params: { who: '', times: 1 }, id: 2 },
      response: { jsonrpc: '2.0', id: 2, error: { code: -32050, message: 'Nobody to greet', data: { field: 'who' } } },
    },
    {
      name: 'greet-notification',
      request: { jsonrpc: '2.0', method: 'greet', params: { who: 'Ada', times: 1 } },
      response: null,
    },
    {
      name: 'sum',
      rule: 'another method: generic checks',
      request: { jsonrpc: '2.0', method: 'sum', params: [1, 2], id: 'a' },
      response: { jsonrpc: '2.0', id: 'a', result: 3 },
    },
    {
      name: 'unparsable',
      request_text: '{"jsonrpc"',
      response: { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } },
    },
    {
      name: 'truncated-frame',
      stream_base64: 'BQAAAA==',
      response: null,
      exit_code: 1,
    },
  ],
};

/** @param {string} name */
const caseNamed = (name) => /** @type {import('../src/testing.js').FixtureCase} */ (GREET.cases.find((fixture) => fixture.name === name));

/**
 * The extension's function for greet: sends the params as given, checks the result's shape.
 * @param {any} params
 * @param {import('../src/index.js').NativeClient} [client]
 */
async function sendGreeting(params, client = getNativeClient()) {
  const result = /** @type {any} */ (await client.request({ method: 'greet', params }));
  if (typeof result?.text !== 'string') throw new NativeProtocolError({ kind: 'invalid-result', message: 'greet returned no text', response: result });
  return result;
}

const FILE = 'greet.json';
/** @param {import('../src/testing.js').FixtureOptions['methods']} methods */
const options = (methods) => ({ methods, file: FILE });

afterEach(() => resetNativeClient());

describe('checkFixtureCase: the JS side agrees with the fixture', () => {
  test('the function sends the fixture\'s request and resolves to its result; the client chose its own id', async () => {
    /** @type {unknown[]} */
    const ids = [];
    const checks = await checkFixtureCase(caseNamed('greet'), options({ greet: (params, client) => sendGreeting(params, client) }));
    assert.deepEqual(checks, ['greet sends the fixture\'s request', 'greet resolves to the fixture\'s result']);
    // The answer carries the id the client chose, not the fixture's 1: requestResponse shows it.
    await checkFixtureCase(caseNamed('greet'), options({
      greet: {
        call: async (params, client) => {
          const response = await client.requestResponse({ method: 'greet', params });
          ids.push(response.id);
          return response;
        },
        compareResult: false,
      },
    }));
    assert.equal(ids.length, 1);
    assert.match(String(ids[0]), /^[0-9a-f]{8}-[0-9a-f]{4}-/);
  });

  test('an error response: the function rejects with the fixture\'s NativeRpcError', async () => {
    const checks = await checkFixtureCase(caseNamed('greet-nobody'), options({ greet: sendGreeting }));
    assert.deepEqual(checks, ['greet sends the fixture\'s request', 'greet rejects with the fixture\'s error']);
  });

  test('the fixture client is the default client while the function runs, and the previous one comes back unclosed', async () => {
    const runtime = fakeFirefox({ 'com.example.wallet_bridge': fakeWalletHost });
    const mine = configureNativeClient({ application: 'com.example.wallet_bridge', runtime, transport: 'port' });
    // The module-level function, as code written for the default client calls it.
    await checkFixtureCase(caseNamed('greet'), options({ greet: (params) => sendNativeRpcRequest({ method: 'greet', params }) }));
    assert.equal(getNativeClient(), mine);
    assert.equal(await sendNativeRpcRequest({ method: 'sum', params: [2, 3] }), 5);
    assert.equal(runtime.ports.length, 1, 'the same port: the client was not closed');
    assert.equal(runtime.port.disconnectedByExtension, false);

    // With no default client before, there is none after, failure or not.
    resetNativeClient();
    await assert.rejects(checkFixtureCase(caseNamed('greet'), options({ greet: () => { throw new Error('boom'); } })));
    assert.throws(() => getNativeClient(), NativeConfigurationError);
  });

  test('compareResult: false lets a function transform the result, which must still resolve', async () => {
    /** @param {any} params @param {any} client */
    const textOnly = async (params, client) => (await sendGreeting(params, client)).text;
    await assert.rejects(checkFixtureCase(caseNamed('greet'), options({ greet: textOnly })), /not the fixture's result[\s\S]*hello Ada, hello Ada/);
    assert.deepEqual(await checkFixtureCase(caseNamed('greet'), options({ greet: { call: textOnly, compareResult: false } })),
      ['greet sends the fixture\'s request', 'greet resolves']);
  });

  test('cases without a function get the generic checks; input the client never sends, with no reply, gets none', async () => {
    assert.deepEqual(await checkFixtureCase(caseNamed('sum'), options({ greet: sendGreeting })), ['the client builds the fixture\'s request', 'the response decodes']);
    assert.deepEqual(await checkFixtureCase(caseNamed('greet-notification'), options({ greet: sendGreeting })), ['the client builds the fixture\'s notification']);
    assert.deepEqual(await checkFixtureCase(caseNamed('unparsable')), ['the response decodes']);
    assert.deepEqual(await checkFixtureCase(caseNamed('truncated-frame')), []);
  });
});

describe('checkFixtureCase: the JS side disagrees with the fixture, and the failure says how', () => {
  /**
   * @param {string} name
   * @param {import('../src/testing.js').FixtureOptions['methods']} methods
   * @param {RegExp[]} patterns what the message must say
   */
  async function fails(name, methods, patterns) {
    await assert.rejects(checkFixtureCase(caseNamed(name), options(methods)), (error) => {
      assert.ok(error instanceof assert.AssertionError, `an AssertionError, not ${error}`);
      assert.ok(error.message.startsWith(`${FILE}: case "${name}": `), `the message names the file and the case: ${error.message}`);
      for (const pattern of patterns) assert.match(error.message, pattern);
      return true;
    });
  }

  test('a renamed params field: the diff shows both names', async () => {
    await fails('greet', { greet: (params, client) => sendGreeting({ whom: params.who, times: params.times }, client) }, [
      /greet sends the fixture's request: the request it sent \(\+ actual\) is not the fixture's \(- expected\), ids aside/,
      /\+ +whom: 'Ada'/,
      /- +who: 'Ada'/,
    ]);
  });

  test('a value of the wrong type in params', async () => {
    await fails('greet', { greet: (params, client) => sendGreeting({ ...params, times: String(params.times) }, client) }, [
      /greet sends the fixture's request/,
      /\+ +times: '2'/,
      /- +times: 2/,
    ]);
  });

  test('a result the function\'s own check refuses', async () => {
    /** @param {any} params @param {any} client */
    const expectsGreeting = async (params, client) => {
      const result = await sendGreeting(params, client);
      if (!result.text.startsWith('Hello')) throw new NativeProtocolError({ kind: 'invalid-result', message: 'greet must start with "Hello"', response: result });
      return result;
    };
    await fails('greet', { greet: expectsGreeting }, [
      /greet resolves to the fixture's result: it rejected, but the fixture's response is a result: NativeProtocolError: greet must start with "Hello"/,
    ]);
  });

  test('an error code the function changes: the diff shows the codes', async () => {
    /** @param {any} params @param {any} client */
    const renumbers = async (params, client) => {
      try {
        return await sendGreeting(params, client);
      } catch (error) {
        // A mapping table that fell behind the host's catalogue.
        if (error instanceof NativeRpcError && error.code === -32050) throw new NativeRpcError({ ...error.toJSON(), code: -32051 });
        throw error;
      }
    };
    await fails('greet-nobody', { greet: renumbers }, [
      /greet rejects with the fixture's error: its NativeRpcError \(\+ actual\) is not the fixture's error \(- expected\)/,
      /\+ +code: -32051/,
      /- +code: -32050/,
    ]);
  });

  test('an error the function swallows, or turns into another kind', async () => {
    await fails('greet-nobody', { greet: (params, client) => sendGreeting(params, client).catch(() => ({ text: 'nobody' })) }, [
      /it resolved, but the fixture's response is an error: expected a NativeRpcError -32050 "Nobody to greet"/,
    ]);
    await fails('greet-nobody', { greet: (params, client) => sendGreeting(params, client).catch(() => { throw new Error('greet failed'); }) }, [
      /it rejected with Error: greet failed, expected a NativeRpcError -32050/,
    ]);
  });

  test('a function that sends nothing, or more than the one request', async () => {
    await fails('greet', { greet: () => { throw new TypeError('who is required'); } }, [/sent no request: it threw before sending: TypeError: who is required/]);
    await fails('greet', { greet: () => ({ text: 'made up' }) }, [/sent no request: it resolved without sending anything/]);
    await fails('greet', { greet: async (params, client) => { await sendGreeting(params, client); return sendGreeting(params, client); } }, [/sent 2 messages; the case answers one request/]);
  });

  test('a generic check fails too: a response that does not decode as the fixture says', async () => {
    // A reply in the file's format (one error object), but not one the client accepts.
    const broken = { name: 'bad-error', request_text: 'x', response: { jsonrpc: '1.0', id: null, error: { code: -32700, message: 'Parse error' } } };
    await assert.rejects(checkFixtureCase(broken), /case "bad-error": the response decodes: an error response must decode to a NativeRpcError, got NativeProtocolError: reply is not JSON-RPC 2.0/);
  });

  test('wrong options and a malformed case are said at once', async () => {
    await assert.rejects(checkFixtureCase(caseNamed('greet'), options({ greet: /** @type {any} */ ({ call: sendGreeting, compare: false }) })), /methods\.greet must be a function/);
    await assert.rejects(checkFixtureCase(/** @type {any} */ ({ name: 'two-inputs', request: {}, request_text: '{}', response: null })), /case "two-inputs": 2 inputs \(request, request_text\): a case has exactly one/);
  });
});

describe('loadFixtureFile: the file format', () => {
  test('a correct file, by path or file: URL', () => {
    const dir = temporaryFolder('wallet-bridge-testing-');
    const path = join(dir, 'greet.json');
    writeFileSync(path, JSON.stringify(GREET));
    const file = loadFixtureFile(path);
    assert.equal(file.name, 'greet.json');
    assert.equal(file.path, path);
    assert.equal(file.description, GREET.description);
    assert.deepEqual(file.cases, GREET.cases);
    assert.deepEqual(loadFixtureFile(pathToFileURL(path)).cases, GREET.cases);
    assert.deepEqual(file.env, {}, 'no env: {}');
    assert.deepEqual(file.setup, [], 'no setup: []');
  });

  test('a file\'s env and setup cases are read; {tmpdir} is left as written', () => {
    const path = join(temporaryFolder('wallet-bridge-testing-'), 'notes.json');
    const setup = [{ name: 'save', request: { jsonrpc: '2.0', method: 'greet', params: { who: 'Ada', times: 1 }, id: 1 }, response: { jsonrpc: '2.0', id: 1, result: { text: 'hello Ada' } } }];
    writeFileSync(path, JSON.stringify({ env: { NOTES: '{tmpdir}/notes' }, setup, cases: GREET.cases }));
    const file = loadFixtureFile(path);
    assert.deepEqual(file.env, { NOTES: '{tmpdir}/notes' });
    assert.deepEqual(file.setup, setup);
    assert.deepEqual(file.cases, GREET.cases);
  });

  const request = { jsonrpc: '2.0', method: 'greet', id: 1 };
  /** @type {Array<[string, string, RegExp]>} */
  const malformed = [
    ['not JSON', '{"cases": [', /not JSON/],
    ['not an object', '[]', /a fixture file is an object/],
    ['no cases', '{"description": "x"}', /"cases" must be a non-empty array/],
    ['empty cases', '{"cases": []}', /"cases" must be a non-empty array/],
    ['an unknown member of the file', JSON.stringify({ case: [], cases: [{ name: 'a', request, response: null }] }), /unknown member "case"/],
    ['a case that is not an object', JSON.stringify({ cases: [7] }), /a case \(#1\): a case is an object, not a number/],
    ['a case without a name', JSON.stringify({ cases: [{ request, response: null }] }), /a case \(#1\): "name" must be a non-empty string/],
    ['a repeated name', JSON.stringify({ cases: [{ name: 'a', request, response: null }, { name: 'a', request, response: null }] }), /case "a" \(#2\): another case has this name/],
    ['two inputs', JSON.stringify({ cases: [{ name: 'a', request, request_text: '{}', response: null }] }), /case "a" \(#1\): 2 inputs \(request, request_text\)/],
    ['no input', JSON.stringify({ cases: [{ name: 'a', response: null }] }), /case "a" \(#1\): no input: a case has exactly one of request, request_text, request_base64, stream_base64/],
    ['no response', JSON.stringify({ cases: [{ name: 'a', request }] }), /case "a" \(#1\): no "response" \(null means no reply at all\)/],
    ['a misspelt member', JSON.stringify({ cases: [{ name: 'a', request, response: null, exitcode: 1 }] }), /case "a" \(#1\): unknown member "exitcode"/],
    ['base64 that is not', JSON.stringify({ cases: [{ name: 'a', stream_base64: 'AAA', response: null }] }), /case "a" \(#1\): "stream_base64" must be padded standard base64/],
    ['an exit code that is not one', JSON.stringify({ cases: [{ name: 'a', request, response: null, exit_code: '1' }] }), /case "a" \(#1\): "exit_code" must be an exit status/],
    ['args that are not strings', JSON.stringify({ cases: [{ name: 'a', request, response: null, args: [1] }] }), /case "a" \(#1\): "args" must be an array of strings/],
    // A reply no host can send: the file's mistake, never a failing host (JSON-RPC 2.0, section 5).
    ['a response that is not a reply', JSON.stringify({ cases: [{ name: 'a', request, response: 5 }] }), /case "a" \(#1\): "response" must be a reply object, a batch's array or null, not a number/],
    ['a reply with neither result nor error', JSON.stringify({ cases: [{ name: 'a', request, response: { jsonrpc: '2.0', id: 1 } }] }), /case "a" \(#1\): "response" has neither "result" nor "error": a reply has exactly one of them/],
    ['a reply with both', JSON.stringify({ cases: [{ name: 'a', request, response: { jsonrpc: '2.0', id: 1, result: 1, error: { code: 1, message: 'm' } } }] }), /case "a" \(#1\): "response" has both "result" and "error"/],
    ['an error that is not an error object', JSON.stringify({ cases: [{ name: 'a', request, response: { jsonrpc: '2.0', id: 1, error: { code: '1', message: 'm' } } }] }), /case "a" \(#1\): "response".error must be an object with an integer "code" and a string "message"/],
    // A file's env and setup, and a case's env: the same rules as the Swift runner's.
    ['a file env that is not an object', JSON.stringify({ env: ['A=1'], cases: [{ name: 'a', request, response: null }] }), /^[^#]*broken\.json: "env" must be an object of strings, not an array$/],
    ['a file env value that is not a string', JSON.stringify({ env: { A: true }, cases: [{ name: 'a', request, response: null }] }), /broken\.json: "env"\.A must be a string, not a boolean$/],
    ['a file env name that is not one', JSON.stringify({ env: { 'A=B': '1' }, cases: [{ name: 'a', request, response: null }] }), /broken\.json: "env" has "A=B", which is not a variable name \(non-empty, with no "=" or NUL\)$/],
    ['a case env name that is empty', JSON.stringify({ cases: [{ name: 'a', request, response: null, env: { '': '1' } }] }), /case "a" \(#1\): "env" has "", which is not a variable name/],
    ['an env value with a NUL', JSON.stringify({ cases: [{ name: 'a', request, response: null, env: { A: 'x\0y' } }] }), /case "a" \(#1\): "env"\.A holds a NUL character/],
    ['setup that is not an array', JSON.stringify({ setup: { name: 's' }, cases: [{ name: 'a', request, response: null }] }), /broken\.json: "setup" must be an array of cases, not an object$/],
    ['a setup case that is not an object', JSON.stringify({ setup: [5], cases: [{ name: 'a', request, response: null }] }), /a setup case \(#1\): a case is an object, not a number/],
    ['a setup case without a response', JSON.stringify({ setup: [{ name: 's', request }], cases: [{ name: 'a', request, response: null }] }), /setup case "s" \(#1\): no "response"/],
    ['a setup case and a case with one name', JSON.stringify({ setup: [{ name: 'a', request, response: null }], cases: [{ name: 'a', request, response: null }] }), /case "a" \(#1\): another case has this name; names are unique within a file, setup cases' included/],
    ['setup and no case', JSON.stringify({ setup: [{ name: 's', request, response: null }], cases: [] }), /"cases" must be a non-empty array/],
    ['a misspelt file member', JSON.stringify({ setups: [], cases: [{ name: 'a', request, response: null }] }), /unknown member "setups" \(a file has "description", "env", "setup" and "cases"\)/],
    ['an empty batch reply', JSON.stringify({ cases: [{ name: 'a', request, response: [] }] }), /case "a" \(#1\): "response" is an empty array/],
    ['a batch element with neither', JSON.stringify({ cases: [{ name: 'a', request, response: [{ jsonrpc: '2.0', id: 1, result: 1 }, { id: 2 }] }] }), /case "a" \(#1\): "response"\[1\] has neither "result" nor "error"/],
  ];
  for (const [what, text, message] of malformed) {
    test(`refused, naming the file and the case: ${what}`, () => {
      const path = join(temporaryFolder('wallet-bridge-testing-'), 'broken.json');
      writeFileSync(path, text);
      assert.throws(() => loadFixtureFile(path), (error) => {
        assert.ok(error instanceof Error);
        assert.ok(error.message.startsWith(`${path}: `), `the message starts with the path: ${error.message}`);
        assert.match(error.message, message);
        return true;
      });
    });
  }

  test('a missing file', () => {
    assert.throws(() => loadFixtureFile(join(temporaryFolder('wallet-bridge-testing-'), 'absent.json')), /absent\.json: cannot read the fixture file: Error: ENOENT/);
  });
});

describe('runFixtureFile under node --test, in a child process', () => {
  /**
   * Writes greet.json (or `fixture` as given) and a test file calling runFixtureFile with
   * `methods` (source text), runs `node --test` on the folder, and returns what it printed.
   * @param {{ methods: string, fixture?: unknown }} setup
   */
  function runChild({ methods, fixture = GREET }) {
    const dir = temporaryFolder('wallet-bridge-testing-');
    writeFileSync(join(dir, 'greet.json'), typeof fixture === 'string' ? fixture : JSON.stringify(fixture));
    writeFileSync(join(dir, 'greet.test.js'), [
      `import { runFixtureFile } from ${JSON.stringify(TESTING)};`,
      `import { NativeProtocolError, getNativeClient } from ${JSON.stringify(INDEX)};`,
      `${sendGreeting.toString()}`,
      `runFixtureFile(new URL('./greet.json', import.meta.url), { methods: ${methods} });`,
      '',
    ].join('\n'));
    // A node --test run marks its children with NODE_TEST_CONTEXT; this child must report as
    // a run of its own.
    const env = { ...process.env };
    delete env.NODE_TEST_CONTEXT;
    const run = spawnSync(process.execPath, ['--test', '--test-reporter=tap', dir], { encoding: 'utf8', env, timeout: 60_000 });
    return { status: run.status, output: `${run.stdout}${run.stderr}` };
  }

  test('a file the JS agrees with passes: one test per case, the input it cannot check skipped, with the reason', () => {
    const { status, output } = runChild({ methods: '{ greet: (params, client) => sendGreeting(params, client) }' });
    assert.equal(status, 0, output);
    for (const name of ['greet', 'greet-nobody', 'greet-notification', 'sum', 'unparsable']) assert.match(output, new RegExp(`^ +ok \\d+ - ${name}$`, 'm'));
    assert.match(output, /ok \d+ - truncated-frame # SKIP nothing to check from the extension's side: stream_base64, input the client never sends, and no reply/);
    assert.match(output, /^# fail 0$/m);
    assert.match(output, /^# pass 6$/m);
  });

  test('a file the JS disagrees with fails, naming the file, the case and the difference', () => {
    const { status, output } = runChild({ methods: '{ greet: (params, client) => sendGreeting({ whom: params.who, times: params.times }, client) }' });
    assert.equal(status, 1, output);
    assert.match(output, /not ok \d+ - greet$/m);
    assert.match(output, /not ok \d+ - greet-nobody$/m);
    assert.match(output, /greet\.json: case "greet": greet sends the fixture's request/);
    assert.match(output, /whom: 'Ada'/);
    assert.match(output, /^# fail 2$/m);
  });

  test('a misspelt method in methods fails instead of leaving every case to the generic checks', () => {
    const { status, output } = runChild({ methods: '{ greeet: (params, client) => sendGreeting(params, client) }' });
    assert.equal(status, 1, output);
    assert.match(output, /not ok \d+ - every function in methods has a case, and some case is checked/);
    assert.match(output, /no case requests greeet/);
  });

  test('setup cases are checked first, in a suite of their own, then the cases in file order; a function used only in setup counts', () => {
    const fixture = {
      setup: [{ name: 'greet-first', request: { jsonrpc: '2.0', method: 'greet', params: { who: 'Bo', times: 1 }, id: 7 }, response: { jsonrpc: '2.0', id: 7, result: { text: 'hello Bo' } } }],
      cases: [GREET.cases[3], GREET.cases[4]],
    };
    const { status, output } = runChild({ methods: '{ greet: (params, client) => sendGreeting(params, client) }', fixture });
    assert.equal(status, 0, output);
    const order = [...output.matchAll(/^ *ok \d+ - (\S+)$/gm)].map((match) => match[1]);
    assert.deepEqual(order, ['greet-first', 'setup', 'sum', 'unparsable', 'greet.json'], output);
    assert.match(output, /^ +# Subtest: setup$/m);
  });

  test('a malformed file is one failing test whose message names the file and the case', () => {
    const fixture = { cases: [{ name: 'a', request_text: '{}', response: null }, { name: 'b', response: null }] };
    const { status, output } = runChild({ methods: '{}', fixture });
    assert.equal(status, 1, output);
    assert.match(output, /not ok \d+ - is a well-formed fixture file/);
    assert.match(output, /greet\.json: case "b" \(#2\): no input/);
  });
});
