// bin/openrpc-to-ts.js and src/openrpc-types.js: TypeScript declarations from a host's OpenRPC
// document. The text of key declarations is checked, and the declarations are proved: tsc
// --strict compiles them with a consumer that assigns right values to them and has a
// `@ts-expect-error` line for each wrong one, through this package's own NativeMethod and
// sendNativeRpcRequest. Then the command: stdin, a file, --out, and exit 1 with a message on
// stderr and nothing on stdout for a document it cannot read.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { endianness } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { declarationsFromOpenRPC, errorModuleFromOpenRPC } from '../src/openrpc-types.js';
import { CHROME_ORIGIN, HOST_PATH, encodeFrame, requireHost } from './native-host-shim.js';
import { temporaryFolder } from './scratch.js';
import { tsc, tscMissing as missingCompiler } from './tsc.js';

const SCRIPT = fileURLToPath(new URL('../bin/openrpc-to-ts.js', import.meta.url));
const INDEX = fileURLToPath(new URL('../src/index.js', import.meta.url));
const tscMissing = missingCompiler('the generated declarations were not compiled');

/** What our Swift host's rpc.discover answers for the example's ping-host, plus test methods. */
const SAMPLE = {
  openrpc: '1.2.6',
  info: { title: 'ping-host', version: '1.0.0' },
  methods: [
    {
      name: 'MY_CUSTOM_PING_RPC_METHOD',
      summary: 'Answers a ping with a pong.',
      paramStructure: 'either',
      params: [
        { name: 'pingParam1', required: true, schema: { type: 'string' } },
        { name: 'pingParam2', required: true, schema: { type: 'array', items: { type: 'string' } } },
      ],
      // Named or positional: both forms, an extra position ignored (additionalItems true).
      'x-params-schema': {
        title: 'Ping.Params',
        anyOf: [
          { type: 'object', properties: { pingParam1: { type: 'string' }, pingParam2: { type: 'array', items: { type: 'string' } } }, required: ['pingParam1', 'pingParam2'] },
          { type: 'array', items: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }], additionalItems: true, minItems: 2 },
        ],
      },
      result: { name: 'Ping.Result', schema: { type: 'object', title: 'Ping.Result', properties: { pong: { type: 'string' } }, required: ['pong'] } },
      errors: [{ code: -32050, message: 'Empty ping' }],
    },
    { name: 'MY_CUSTOM_RESET_RPC_METHOD', paramStructure: 'either', params: [], result: { name: 'result', schema: { type: 'null' } }, errors: [] },
    { name: 'sum', paramStructure: 'by-position', params: [], 'x-params-schema': { type: 'array', items: { type: 'integer' } }, result: { name: 'Int', schema: { type: 'integer' } }, errors: [] },
    { name: 'test.echo', paramStructure: 'either', params: [], 'x-params-schema': {}, result: { name: 'JSONValue', schema: {} }, errors: [] },
    {
      name: 'maybe',
      paramStructure: 'by-name',
      'x-params-optional': true,
      params: [{ name: 'a', required: false, schema: { type: 'integer', minimum: 0, maximum: 255 } }],
      result: { name: 'r', schema: { anyOf: [{ type: 'string' }, { type: 'null' }] } },
    },
  ],
};

/** The rest of the supported subset, and what is not supported. */
const EDGES = {
  openrpc: '1.2.6',
  info: { title: 'edge host', version: '2.0.0' },
  components: {
    schemas: {
      Node: {
        type: 'object',
        description: 'A tree node. A */ in a description must not end the comment.',
        properties: { value: { type: 'integer' }, children: { type: 'array', items: { $ref: '#/components/schemas/Node' } } },
        required: ['value', 'children'],
      },
      Color: { enum: ['red', 'green', 'blue'] },
      'Ping.Result': { type: 'object', properties: { x: { const: 1 } } },
    },
  },
  methods: [
    { name: 'tree.get', paramStructure: 'by-position', params: [{ name: 'depth', schema: { type: 'integer' } }], result: { name: 'tree', schema: { $ref: '#/components/schemas/Node' } } },
    {
      name: 'pair',
      paramStructure: 'by-position',
      params: [{ name: 'first', required: true, schema: { type: 'string' } }, { name: 'second', schema: { type: ['number', 'null'] } }],
      result: { name: 'r', schema: { type: 'array', items: [{ type: 'string' }, { type: 'integer' }], minItems: 1, additionalItems: false } },
    },
    {
      name: 'dict',
      params: [],
      'x-params-schema': { type: 'object', additionalProperties: { type: 'integer' } },
      result: { name: 'r', schema: { type: 'object', properties: { known: { type: 'string' }, maybe: { type: 'boolean' } }, required: ['known'], additionalProperties: { type: 'number' } } },
    },
    {
      name: 'closed',
      params: [],
      'x-params-schema': { type: 'object', additionalProperties: false },
      result: { name: 'r', schema: { type: 'object', properties: { 'a-b': { type: 'string' }, ok: { type: 'boolean', description: 'Two\nlines.' } } } },
    },
    {
      name: 'mixed',
      params: [],
      'x-params-schema': { oneOf: [{ type: 'array', items: { type: 'string' } }, { type: 'object', properties: { s: { type: 'string' } }, required: ['s'] }] },
      result: { name: 'r', schema: { allOf: [{ $ref: '#/components/schemas/Node' }, { type: 'object', properties: { color: { $ref: '#/components/schemas/Color' } } }] } },
    },
    {
      name: 'weird',
      params: [],
      'x-params-schema': { type: 'object', patternProperties: { '^x': {} } },
      result: { name: 'r', schema: { type: 'array', items: [{ $ref: 'http://example.com/s.json' }, { type: 'file' }], additionalItems: { anyOf: [{ type: 'string' }, { type: 'integer' }] } } },
      'x-derivation-problems': ['result: a hand-written init(from:)'],
    },
    {
      name: 'namespaces',
      params: [],
      // Shaped like session_connect's namespaces: the value's shape depends on the key's pattern.
      'x-params-schema': {
        type: 'object',
        properties: { count: { type: 'integer' } },
        patternProperties: {
          '^[a-z]+$': { type: 'object', properties: { chains: { type: 'array', items: { type: 'string' } } }, required: ['chains'] },
          '^[a-z]+:[0-9]+$': { type: 'object', properties: { chains: false } },
        },
        additionalProperties: false,
      },
      result: { name: 'r', schema: { type: 'object', patternProperties: { '^n': { type: 'number' } }, additionalProperties: { type: 'string' } } },
    },
    {
      name: 'links',
      params: [],
      'x-params-schema': {
        type: 'object',
        properties: {
          // As the host's PeerMetadata.url: typed, and branches that only add constraints.
          url: { type: ['string', 'null'], maxLength: 2048, anyOf: [{ maxLength: 0 }, { pattern: '^https?://' }] },
          size: { type: 'integer', allOf: [{ minimum: 0 }, { maximum: 10 }] },
          tag: { oneOf: [{ not: { const: 'x' } }, { type: 'string' }] },
        },
        required: ['url'],
      },
      result: { name: 'r', schema: { type: 'object', maxProperties: 0 } },
    },
    {
      name: 'inner',
      params: [],
      // As session_request's inner request: a branch whose only member says nothing TypeScript can.
      'x-params-schema': {
        type: 'object',
        properties: { method: { type: 'string' }, params: {} },
        required: ['method'],
        anyOf: [{ properties: { method: { not: { const: 'sign' } } } }, { properties: { params: { type: 'string' } }, required: ['params'] }],
      },
      result: { name: 'r', schema: { type: 'string', allOf: [{ format: 'date-time' }] } },
    },
    { name: 'loose', params: [], 'x-params-schema': { anyOf: [{ properties: { a: { minimum: 1 } } }, { type: 'object' }] }, result: { name: 'r', schema: { type: 'object', patternProperties: { '^x': {} } } } },
    { name: 'lists', params: [], 'x-params-schema': { type: 'array', items: { type: 'array', items: { type: ['string', 'null'] } } }, result: { name: 'r', schema: { title: 'Ping.Result', type: 'array', maxItems: 0 } } },
    { name: 'it\'s "quoted"', params: [], result: { name: 'r', schema: { const: { a: [1, 'two', null], 'b c': true } } } },
    { name: 'big', params: [], result: { name: 'r', schema: { type: 'integer', minimum: -9223372036854775808, maximum: 9223372036854775807 } } },
  ],
};

/**
 * @param {string[]} args
 * @param {string} [input] stdin
 */
function runScript(args, input = '') {
  const run = spawnSync(process.execPath, [SCRIPT, ...args], { input, encoding: 'utf8' });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe('the declarations for the sample document', () => {
  const output = declarationsFromOpenRPC(SAMPLE);

  test('a header naming the document and saying it is generated, then the imports', () => {
    const [first, second, third, imports, classes] = output.split('\n');
    assert.match(first, /^\/\/ TypeScript declarations for ping-host 1\.0\.0, generated from its OpenRPC document$/);
    assert.match(`${second}\n${third}`, /Generated: do not edit/);
    assert.equal(imports, 'import type { JsonValue, NativeMethod, NativeRpcId } from \'wallet-bridge\';');
    // The base class of the declared errors' classes (typed-errors.test.js has them).
    assert.equal(classes, 'import { NativeRpcError } from \'wallet-bridge\';');
  });

  test('params and results named from titles, or from the method; a NativeMethod per method', () => {
    for (const declaration of [
      'export type PingParams = {\n  pingParam1: string;\n  pingParam2: readonly string[];\n} | readonly [string, readonly string[], ...JsonValue[]];',
      'export type PingResult = {\n  pong: string;\n};',
      '/**\n * Answers a ping with a pong.\n * Errors: -32050 "Empty ping" (EmptyPingError).\n */\nexport type MyCustomPingRpcMethod = NativeMethod<\'MY_CUSTOM_PING_RPC_METHOD\', PingParams, PingResult>;',
      // No params, no x-params-schema: takes none.
      'export type MyCustomResetRpcParams = undefined;',
      'export type MyCustomResetRpcResult = null;',
      'export type SumParams = readonly number[];',
      '/** Not in the type: integer. */\nexport type SumResult = number;',
      // {} is any JSON, never `any`; as params, the object or array part of it.
      'export type TestEchoParams = readonly JsonValue[] | { [key: string]: JsonValue };',
      'export type TestEchoResult = JsonValue;',
      'export type TestEchoMethod = NativeMethod<\'test.echo\', TestEchoParams, TestEchoResult>;',
      'export type MaybeParams = {\n  /** Not in the type: integer, minimum 0, maximum 255. */\n  a?: number;\n};',
      'export type MaybeResult = string | null;',
      // x-params-optional: the whole params may be left out.
      'export type MaybeMethod = NativeMethod<\'maybe\', MaybeParams | undefined, MaybeResult>;',
    ]) {
      assert.ok(output.includes(declaration), `missing:\n${declaration}\nin:\n${output}`);
    }
    assert.doesNotMatch(output, /\bany\b/);
  });

  test('HostMethods lists every method in document order', () => {
    assert.ok(output.endsWith([
      'export interface HostMethods {',
      '  \'MY_CUSTOM_PING_RPC_METHOD\': { params: PingParams; result: PingResult };',
      '  \'MY_CUSTOM_RESET_RPC_METHOD\': { params: MyCustomResetRpcParams; result: MyCustomResetRpcResult };',
      '  \'sum\': { params: SumParams; result: SumResult };',
      '  \'test.echo\': { params: TestEchoParams; result: TestEchoResult };',
      '  \'maybe\': { params: MaybeParams | undefined; result: MaybeResult };',
      '}',
      '',
    ].join('\n')), output);
  });

  test('deterministic: the same document gives the same text', () => {
    assert.equal(declarationsFromOpenRPC(structuredClone(SAMPLE)), output);
  });

  test('x-params-schema wins over the content descriptors', () => {
    const method = { ...SAMPLE.methods[0], 'x-params-schema': { type: 'array', title: 'Other', items: { type: 'boolean' } } };
    const other = declarationsFromOpenRPC({ ...SAMPLE, methods: [method] });
    assert.ok(other.includes('export type Other = readonly boolean[];'), other);
    assert.ok(other.includes('NativeMethod<\'MY_CUSTOM_PING_RPC_METHOD\', Other, PingResult>'), other);
  });

  test('importFrom names the module NativeMethod comes from', () => {
    const vendored = declarationsFromOpenRPC(SAMPLE, { importFrom: './vendor/wallet-bridge/src/index.js' });
    assert.match(vendored, /^import type \{ JsonValue, NativeMethod, NativeRpcId \} from '\.\/vendor\/wallet-bridge\/src\/index\.js';$/m);
    assert.match(vendored, /^import \{ NativeRpcError \} from '\.\/vendor\/wallet-bridge\/src\/index\.js';$/m);
    // Nothing needs JsonValue here, so it is not imported (an unused import fails noUnusedLocals).
    const reset = declarationsFromOpenRPC({ ...SAMPLE, methods: [SAMPLE.methods[1]] });
    assert.match(reset, /^import type \{ NativeMethod \} from 'wallet-bridge';$/m);
  });
});

describe('the declarations for the rest of the subset', () => {
  const output = declarationsFromOpenRPC(EDGES);

  test('components, $ref, tuples, index signatures, unions, intersections, enums, consts', () => {
    for (const declaration of [
      // components.schemas: their names; a $ref to one is that name, recursion included.
      '/** A tree node. A *\\/ in a description must not end the comment. */\nexport type Node = {\n  /** Not in the type: integer. */\n  value: number;\n  children: Node[];\n};',
      'export type Color = \'red\' | \'green\' | \'blue\';',
      'export type PingResult = {\n  x?: 1;\n};',
      'export type TreeGetResult = Node;',
      // by-position descriptors: a labelled tuple, optional from the last required one on.
      'export type TreeGetParams = readonly [depth?: number];',
      'export type PairParams = readonly [first: string, second?: number | null];',
      // Int64's bounds, rounded by JSON.parse: said to be approximate.
      '/** Not in the type: integer, minimum about -9223372036854776000, maximum about 9223372036854776000. */\nexport type BigResult = number;',
      // items as a list: minItems required elements, additionalItems false: no more.
      'export type PairResult = [string, number?];',
      'export type DictParams = {\n  [key: string]: number;\n};',
      // The index signature admits the members' types too, as TypeScript requires.
      'export type DictResult = {\n  known: string;\n  maybe?: boolean;\n  [key: string]: number | string | boolean | undefined;\n};',
      'export type ClosedParams = {\n  [key: string]: never;\n};',
      'export type ClosedResult = {\n  \'a-b\'?: string;\n  /**\n   * Two\n   * lines.\n   */\n  ok?: boolean;\n};',
      'export type MixedParams = readonly string[] | {\n  s: string;\n};',
      'export type MixedResult = Node & {\n  color?: Color;\n};',
      'export type ListsParams = readonly (readonly (string | null)[])[];',
      // The title "Ping.Result" is a component's name already: the method's own name instead.
      'export type ListsResult = [];',
      'export type ItSQuotedResult = { a: [1, \'two\', null]; \'b c\': true };',
      // patternProperties: an index signature of the patterns' types, admitting the listed members.
      'export type NamespacesParams = {\n  /** Not in the type: integer. */\n  count?: number;\n  [key: string]: {\n    chains: readonly string[];\n  } | {\n    chains?: never;\n  } | number | undefined;\n};',
      'export type NamespacesResult = {\n  [key: string]: number | string;\n};',
      // Branches that only add constraints: the typed part, the branches named in the comment.
      '  /** Not in the type: maxLength 2048, anyOf (maxLength 0 | pattern "^https?://"). */\n  url: string | null;',
      '  /** Not in the type: integer, minimum 0, maximum 10. */\n  size?: number;',
      // A branch that says nothing makes the union say nothing: any JSON, not a union with it.
      '  /** Not in the type: oneOf. */\n  tag?: JsonValue;',
      'export type LinksResult = {\n  [key: string]: never;\n};',
      '/** Not in the type: anyOf. */\nexport type InnerParams = {\n  method: string;\n  params?: JsonValue;\n};',
      '/** Not in the type: format "date-time". */\nexport type InnerResult = string;',
      '/** Not in the type: anyOf. */\nexport type LooseParams = readonly JsonValue[] | { [key: string]: JsonValue };',
      'export type ItSQuotedMethod = NativeMethod<\'it\\\'s "quoted"\', ItSQuotedParams, ItSQuotedResult>;',
    ]) {
      assert.ok(output.includes(declaration), `missing:\n${declaration}\nin:\n${output}`);
    }
  });

  test('the key patterns are named in the doc comment', () => {
    for (const declaration of [
      '/** Keys other than those listed match "^[a-z]+$" or "^[a-z]+:[0-9]+$". */\nexport type NamespacesParams = {',
      '/** Keys that match "^n" hold those patterns\' types; other keys additionalProperties. */\nexport type NamespacesResult = {',
      // A pattern of any JSON: an index signature of JsonValue, not a JsonValue.
      '/** Keys match "^x" (the schema allows other keys too; the type does not). */\nexport type WeirdParams = {\n  [key: string]: JsonValue;\n};',
      '/** Keys match "^x" (the schema allows other keys too; the type does not). */\nexport type LooseResult = {\n  [key: string]: JsonValue;\n};',
    ]) {
      assert.ok(output.includes(declaration), `missing:\n${declaration}\nin:\n${output}`);
    }
  });

  test('no JsonValue is intersected with a type', () => {
    assert.doesNotMatch(output, /& \(?JsonValue|JsonValue\)? &/);
  });

  test('what is not translated is JsonValue with a comment saying what', () => {
    assert.ok(output.includes('JsonValue /* not translated: $ref "http://example.com/s.json" (only #/components/schemas/<name> is) */?'), output);
    assert.ok(output.includes('JsonValue /* not translated: type "file" */?'), output);
    assert.ok(output.includes('...(string | number)[]]'), output);
    assert.ok(output.includes('/** The host could not describe all of this method (x-derivation-problems): result: a hand-written init(from:). */\nexport type WeirdMethod'), output);
    assert.doesNotMatch(output, /\bany\b/);
  });
});

describe('a document it cannot read is refused, saying where', () => {
  const base = { openrpc: '1.2.6', info: { title: 't', version: '1' } };
  /** @type {Array<[string, unknown, RegExp]>} */
  const cases = [
    ['not an object', [], /^malformed OpenRPC document: the document is an object, not an array$/],
    ['no methods', base, /methods: must be an array, not nothing/],
    ['no info', { openrpc: '1.2.6', methods: [] }, /info: must be an object with a title and a version/],
    ['a method without params', { ...base, methods: [{ name: 'a' }] }, /methods\[0\]\.params: must be an array of content descriptors/],
    ['two methods of one name', { ...base, methods: [{ name: 'a', params: [] }, { name: 'a', params: [] }] }, /methods\[1\]\.name: "a" is the name of an earlier method too/],
    ['an unknown paramStructure', { ...base, methods: [{ name: 'a', params: [], paramStructure: 'named' }] }, /methods\[0\]\.paramStructure: must be one of by-name, by-position, either/],
    ['a schema that is a string', { ...base, methods: [{ name: 'a', params: [], result: { name: 'r', schema: { type: 'object', properties: { b: 'string' } } } }] },
      /methods\[0\] \(a\)\.result\.schema\.properties\.b: a schema is an object or a boolean, not a string/],
    ['a $ref to no component', { ...base, methods: [{ name: 'a', params: [], result: { name: 'r', schema: { $ref: '#/components/schemas/Missing' } } }] },
      /methods\[0\] \(a\)\.result\.schema\.\$ref: "#\/components\/schemas\/Missing" names no entry of components\.schemas/],
    ['required that is not a list', { ...base, methods: [{ name: 'a', params: [], 'x-params-schema': { type: 'object', required: 'b' } }] },
      /methods\[0\] \(a\)\.x-params-schema\.required: must be an array of strings/],
  ];
  for (const [what, document, message] of cases) {
    test(what, () => {
      assert.throws(() => declarationsFromOpenRPC(document), (error) => error instanceof TypeError && message.test(error.message));
    });
  }
});

describe('tsc --strict compiles the declarations, and refuses wrong uses of them', () => {
  test('through NativeMethod and sendNativeRpcRequest', { skip: tscMissing, timeout: 120_000 }, () => {
    const dir = temporaryFolder('wallet-bridge-openrpc-');
    writeFileSync(join(dir, 'host-methods.d.ts'), declarationsFromOpenRPC(SAMPLE, { importFrom: INDEX }));
    writeFileSync(join(dir, 'edge-methods.d.ts'), declarationsFromOpenRPC(EDGES, { importFrom: INDEX }));
    writeFileSync(join(dir, 'consumer.ts'), `
import { sendNativeRpcRequest, type JsonValue } from ${JSON.stringify(INDEX)};
import type { HostMethods, MaybeMethod, MyCustomPingRpcMethod, MyCustomResetRpcMethod, PingParams, SumMethod, TestEchoMethod } from './host-methods.js';
import type { ClosedParams, Color, DictResult, InnerParams, LinksParams, LinksResult, MixedParams, NamespacesParams, NamespacesResult, Node, PairParams, PairResult, TreeGetMethod } from './edge-methods.js';

const PING: MyCustomPingRpcMethod = 'MY_CUSTOM_PING_RPC_METHOD';
const RESET: MyCustomResetRpcMethod = 'MY_CUSTOM_RESET_RPC_METHOD';
const SUM: SumMethod = 'sum';
const ECHO: TestEchoMethod = 'test.echo';
const MAYBE: MaybeMethod = 'maybe';
const TREE: TreeGetMethod = 'tree.get';

export async function rightUses(): Promise<void> {
  const pong: string = (await sendNativeRpcRequest({ method: PING, params: { pingParam1: 'a', pingParam2: ['b'] as const } })).pong;
  await sendNativeRpcRequest({ method: PING, params: ['a', ['b']] });
  const reset: null = await sendNativeRpcRequest({ method: RESET });
  const total: number = await sendNativeRpcRequest({ method: SUM, params: [1, 2, 3] as const });
  const echoed: JsonValue = await sendNativeRpcRequest({ method: ECHO, params: { nested: [1, 'two', null] } });
  await sendNativeRpcRequest({ method: ECHO, params: [true] });
  const maybe: string | null = await sendNativeRpcRequest({ method: MAYBE });
  await sendNativeRpcRequest({ method: MAYBE, params: { a: 7 } });
  await sendNativeRpcRequest({ method: MAYBE, params: {} });
  const tree: Node = await sendNativeRpcRequest({ method: TREE, params: [3] });
  await sendNativeRpcRequest({ method: TREE, params: [] });
  const params: HostMethods['MY_CUSTOM_PING_RPC_METHOD']['params'] = { pingParam1: 'x', pingParam2: [] };
  const sameParams: PingParams = params;
  const resetParams: HostMethods['MY_CUSTOM_RESET_RPC_METHOD']['params'] = undefined;
  const nested: Node = { value: 1, children: [{ value: 2, children: [] }] };
  const color: Color = 'green';
  const pairs: PairParams[] = [['a'], ['a', 1], ['a', null]];
  const pairResults: PairResult[] = [['a'], ['a', 2]];
  const dict: DictResult = { known: 'k', maybe: true, extra: 3 };
  const closed: ClosedParams = {};
  const mixed: MixedParams[] = [['a'], { s: 'b' }];
  const namespaces: NamespacesParams = { count: 2, solana: { chains: ['solana:1'] as const }, 'solana:1': {} };
  const numbered: NamespacesResult = { n1: 1, other: 'text' };
  const links: LinksParams[] = [{ url: 'https://example.org' }, { url: null, size: 3, tag: { any: ['json'] } }];
  const noMembers: LinksResult = {};
  const inner: InnerParams[] = [{ method: 'sign', params: 'x' }, { method: 'other' }];
  void [pong, reset, total, echoed, maybe, tree, sameParams, resetParams, nested, color, pairs, pairResults, dict, closed, mixed, namespaces, numbered, links, noMembers, inner];
}

export async function wrongUses(): Promise<void> {
  // @ts-expect-error pingParam2 is a list of strings
  await sendNativeRpcRequest({ method: PING, params: { pingParam1: 'a', pingParam2: 'b' } });
  // @ts-expect-error pingParam1 is required
  await sendNativeRpcRequest({ method: PING, params: { pingParam2: [] } });
  // @ts-expect-error ping's params are required
  await sendNativeRpcRequest({ method: PING });
  // @ts-expect-error pong is a string
  const pong: number = (await sendNativeRpcRequest({ method: PING, params: { pingParam1: 'a', pingParam2: [] } })).pong;
  // @ts-expect-error reset takes no params
  await sendNativeRpcRequest({ method: RESET, params: {} });
  // @ts-expect-error reset answers null
  const reset: string = await sendNativeRpcRequest({ method: RESET });
  // @ts-expect-error sum adds numbers
  await sendNativeRpcRequest({ method: SUM, params: ['1'] });
  // @ts-expect-error params are an object or an array, even for any JSON
  await sendNativeRpcRequest({ method: ECHO, params: 'text' });
  // @ts-expect-error a JsonValue, not any: no member without a check
  (await sendNativeRpcRequest({ method: ECHO, params: [] })).anything;
  // @ts-expect-error a is a number
  await sendNativeRpcRequest({ method: MAYBE, params: { a: 'x' } });
  // @ts-expect-error the name is the method's own
  const wrongName: SumMethod = 'subtract';
  // @ts-expect-error children is required
  const leaf: Node = { value: 1 };
  // @ts-expect-error not one of the enum
  const color: Color = 'purple';
  // @ts-expect-error first is required
  const none: PairParams = [];
  // @ts-expect-error two positions at most
  const three: PairParams = ['a', 1, 2];
  // @ts-expect-error additionalItems false
  const longer: PairResult = ['a', 1, 2];
  // @ts-expect-error an extra member is a number (or, as TypeScript needs, of a listed member's type)
  const dict: DictResult = { known: 'k', extra: null };
  // @ts-expect-error no members at all
  const closed: ClosedParams = { a: 1 };
  // @ts-expect-error s is required in the object form
  const mixed: MixedParams = {};
  // @ts-expect-error a key's value is one of the patterns' types: chains is a list
  const namespaces: NamespacesParams = { solana: { chains: 'solana:1' } };
  // @ts-expect-error a listed member keeps its own type
  const count: NamespacesParams = { count: 'two' };
  // @ts-expect-error other keys hold a number or a string
  const numbered: NamespacesResult = { n1: true };
  // @ts-expect-error url is a string or null: its constraint-only branches do not widen it
  const link: LinksParams = { url: 5 };
  // @ts-expect-error url is required
  const noUrl: LinksParams = {};
  // @ts-expect-error maxProperties 0: no members
  const members: LinksResult = { a: 1 };
  // @ts-expect-error method is required: the left-out anyOf loosens nothing else
  const noMethod: InnerParams = { params: 'x' };
  void [pong, reset, wrongName, leaf, color, none, three, longer, dict, closed, mixed, namespaces, count, numbered, link, noUrl, members, noMethod];
}
`);
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        target: 'ES2022',
        module: 'ES2022',
        moduleResolution: 'node',
        lib: ['ES2022', 'DOM'],
        noUnusedLocals: true,
        skipLibCheck: false,
        types: [],
      },
      files: ['consumer.ts', 'host-methods.d.ts', 'edge-methods.d.ts'],
    }));
    const run = spawnSync(tsc, ['-p', join(dir, 'tsconfig.json')], { encoding: 'utf8' });
    assert.equal(run.error, undefined);
    assert.equal(run.status, 0, `tsc failed:\n${run.stdout}${run.stderr}`);
  });
});

describe("the conformance host's own document (rpc.discover, over real pipes)", () => {
  // subtract takes `[42, 23]` or `{"minuend": 42, "subtrahend": 23}` (the JSON-RPC
  // specification's example): its generated params type must take both, and an extra position,
  // which the host ignores as it ignores an unknown member.
  test('a method that takes named or positional params is typed both ways', { skip: tscMissing, timeout: 120_000 }, () => {
    requireHost();
    const run = spawnSync(HOST_PATH, [CHROME_ORIGIN], { input: encodeFrame({ jsonrpc: '2.0', id: 1, method: 'rpc.discover' }), timeout: 30_000 });
    assert.equal(run.error, undefined);
    const length = endianness() === 'LE' ? run.stdout.readUInt32LE(0) : run.stdout.readUInt32BE(0);
    const document = JSON.parse(run.stdout.subarray(4, 4 + length).toString('utf8')).result;
    const dir = temporaryFolder('wallet-bridge-openrpc-');
    writeFileSync(join(dir, 'conformance.d.ts'), declarationsFromOpenRPC(document, { importFrom: INDEX }));
    writeFileSync(join(dir, 'consumer.ts'), `
import { sendNativeRpcRequest } from ${JSON.stringify(INDEX)};
import type { SubtractMethod } from './conformance.js';

const SUBTRACT: SubtractMethod = 'subtract';

export async function uses(): Promise<number[]> {
  return [
    await sendNativeRpcRequest({ method: SUBTRACT, params: [40, 2] }),
    await sendNativeRpcRequest({ method: SUBTRACT, params: [40, 2] as const }),
    await sendNativeRpcRequest({ method: SUBTRACT, params: { minuend: 40, subtrahend: 2 } }),
    await sendNativeRpcRequest({ method: SUBTRACT, params: [40, 2, 7] }),
  ];
}

export async function wrongUses(): Promise<void> {
  // @ts-expect-error the positions are numbers
  await sendNativeRpcRequest({ method: SUBTRACT, params: ['40', 2] });
  // @ts-expect-error both positions are required
  await sendNativeRpcRequest({ method: SUBTRACT, params: [40] });
  // @ts-expect-error subtrahend is required
  await sendNativeRpcRequest({ method: SUBTRACT, params: { minuend: 40 } });
}
`);
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { strict: true, noEmit: true, target: 'ES2022', module: 'ES2022', moduleResolution: 'node', lib: ['ES2022', 'DOM'], types: [] },
      files: ['consumer.ts', 'conformance.d.ts'],
    }));
    const compiled = spawnSync(tsc, ['-p', join(dir, 'tsconfig.json')], { encoding: 'utf8' });
    assert.equal(compiled.error, undefined);
    assert.equal(compiled.status, 0, `tsc failed:\n${compiled.stdout}${compiled.stderr}`);
  });
});

describe('error class names: valid and distinct whatever the messages say', () => {
  // Each message, and the class and HostErrorCode key it gives. The prefix or suffix "Error" goes
  // (a class name ends in one already), and a leading digit gets an underscore after that, not
  // before, and a number that sets a name apart follows a digit after an underscore; what leaves no name (no letter or digit, or only "Error") is named by its code; the
  // names of the built-in errors and of the module's own imports are not taken; letters of any
  // script are kept (they are identifiers' letters in JavaScript and TypeScript).
  const cases = [
    [-32001, 'Error 404', '_404Error', '_404'],
    [-32002, 'Error', 'CodeMinus32002Error', 'codeMinus32002'],
    [-32003, '', 'CodeMinus32003Error', 'codeMinus32003'],
    [-32004, 'Error error', 'CodeMinus32004Error', 'codeMinus32004'],
    [-32005, '404 not found', '_404NotFoundError', '_404NotFound'],
    [-32006, 'Not found', 'NotFoundError', 'notFound'],
    [-32007, 'not-found', 'NotFound2Error', 'notFound2'],
    [-32008, 'Type', 'Type2Error', 'type'],
    [-32009, 'Syntax error', 'Syntax2Error', 'syntax'],
    [-32010, 'Native RPC', 'NativeRpc2Error', 'nativeRpc'],
    [-32011, 'Café fermé', 'CaféFerméError', 'caféFermé'],
    [-32012, 'Ошибка диска', 'ОшибкаДискаError', 'ошибкаДиска'],
    [-32013, '磁盘已满', '磁盘已满Error', '磁盘已满'],
    [-32014, '!!!', 'CodeMinus32014Error', 'codeMinus32014'],
    [-32015, 'Error: 2 many', '_2ManyError', '_2Many'],
    [-32016, 'delete', 'DeleteError', 'delete'],
    [5, 'Error', 'Code5Error', 'code5'],
    [-32017, 'Error 404!', '_404_2Error', '_404_2'],
  ];
  const document = {
    openrpc: '1.2.6',
    info: { title: 'odd-errors', version: '1.0.0' },
    methods: [{ name: 'odd', params: [], result: { name: 'result', schema: { type: 'null' } }, errors: cases.map(([code, message]) => ({ code, message })) }],
  };

  test('the names', () => {
    const module = errorModuleFromOpenRPC(document, { importFrom: INDEX });
    for (const [code, message, className, key] of cases) {
      assert.match(module, new RegExp(`^export class ${className} extends NativeRpcError \\{\\n  static code = ${code};$`, 'mu'), `${JSON.stringify(message)} gives ${className}`);
      assert.match(module, new RegExp(`^  ${key}: ${code},$`, 'mu'), `${JSON.stringify(message)} gives the key ${key}`);
    }
  });

  test('node checks and imports the module: every class exported under its name, every code keyed', () => {
    const dir = temporaryFolder('wallet-bridge-openrpc-');
    const file = join(dir, 'odd-errors.js');
    writeFileSync(file, errorModuleFromOpenRPC(document, { importFrom: pathToFileURL(INDEX).href }));
    const check = spawnSync(process.execPath, ['--check', file], { encoding: 'utf8' });
    assert.equal(check.status, 0, `node --check failed:\n${check.stderr}`);
    const load = spawnSync(process.execPath, ['--input-type=module', '-e', `
const module = await import(${JSON.stringify(pathToFileURL(file).href)});
const classes = Object.entries(module).filter(([name]) => name !== 'HostErrorCode').map(([name, value]) => [name, value.code, new value().name]);
console.log(JSON.stringify({ classes, codes: module.HostErrorCode }));`], { encoding: 'utf8' });
    assert.equal(load.status, 0, `importing the module failed:\n${load.stderr}`);
    const { classes, codes } = JSON.parse(load.stdout);
    assert.deepEqual(new Map(classes.map(([name, code, errorName]) => [code, [name, errorName]])), new Map(cases.map(([code, , className]) => [code, [className, className]])));
    assert.deepEqual(codes, Object.fromEntries(cases.map(([code, , , key]) => [key, code])));
  });

  test('tsc --strict compiles the declarations and the module', { skip: tscMissing, timeout: 120_000 }, () => {
    const dir = temporaryFolder('wallet-bridge-openrpc-');
    writeFileSync(join(dir, 'odd-errors.d.ts'), declarationsFromOpenRPC(document, { importFrom: INDEX }));
    writeFileSync(join(dir, 'consumer.ts'), `import { HostErrorCode, ${cases.map(([, , className]) => className).join(', ')} } from './odd-errors.js';\nvoid [HostErrorCode, ${cases.map(([, , className]) => className).join(', ')}];\n`);
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { strict: true, noEmit: true, target: 'ES2022', module: 'ES2022', moduleResolution: 'node', lib: ['ES2022', 'DOM'], skipLibCheck: false, types: [] },
      files: ['consumer.ts', 'odd-errors.d.ts'],
    }));
    const run = spawnSync(tsc, ['-p', join(dir, 'tsconfig.json')], { encoding: 'utf8' });
    assert.equal(run.error, undefined);
    assert.equal(run.status, 0, `tsc failed:\n${run.stdout}${run.stderr}`);
  });
});

describe('the command', () => {
  const expected = declarationsFromOpenRPC(SAMPLE);

  test('reads stdin (no argument, or -) and a file, and writes stdout', () => {
    const dir = temporaryFolder('wallet-bridge-openrpc-');
    const file = join(dir, 'openrpc.json');
    writeFileSync(file, JSON.stringify(SAMPLE));
    for (const args of [[], ['-'], [file]]) {
      const run = runScript(args, args.length === 1 && args[0] === file ? '' : JSON.stringify(SAMPLE));
      assert.equal(run.status, 0, run.stderr);
      assert.equal(run.stdout, expected);
      assert.equal(run.stderr, '');
    }
  });

  test('--out writes the file and nothing to stdout; --import-from names the module', () => {
    const out = join(temporaryFolder('wallet-bridge-openrpc-'), 'host-methods.d.ts');
    const run = runScript(['--out', out, '--import-from', './wb.js'], JSON.stringify(SAMPLE));
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout, '');
    assert.equal(readFileSync(out, 'utf8'), declarationsFromOpenRPC(SAMPLE, { importFrom: './wb.js' }));
  });

  test('a malformed document: exit 1, why on stderr, nothing on stdout, no file', () => {
    const out = join(temporaryFolder('wallet-bridge-openrpc-'), 'host-methods.d.ts');
    const malformed = runScript(['--out', out], JSON.stringify({ ...SAMPLE, methods: [{ name: 'a' }] }));
    assert.equal(malformed.status, 1);
    assert.equal(malformed.stdout, '');
    assert.equal(malformed.stderr, 'openrpc-to-ts: stdin: malformed OpenRPC document: methods[0].params: must be an array of content descriptors, not nothing\n');
    assert.equal(existsSync(out), false);

    const notJson = runScript([], '{"openrpc": ');
    assert.equal(notJson.status, 1);
    assert.equal(notJson.stdout, '');
    assert.match(notJson.stderr, /^openrpc-to-ts: stdin: not JSON: /);

    const missing = runScript([join(temporaryFolder('wallet-bridge-openrpc-'), 'absent.json')]);
    assert.equal(missing.status, 1);
    assert.equal(missing.stdout, '');
    assert.match(missing.stderr, /absent\.json: ENOENT/);
  });

  test('a wrong argument is a usage error (exit 2)', () => {
    const run = runScript(['--outfile', 'x']);
    assert.equal(run.status, 2);
    assert.equal(run.stdout, '');
    assert.match(run.stderr, /unknown option --outfile\nusage: openrpc-to-ts\.js/);
  });
});
