// The session methods' declarations, generated from the shipped host's OpenRPC document by the
// package's own generator (src/openrpc-types.js): src/session-methods.d.ts and its error module
// src/session-methods.js; and their schemas, src/session-schemas.js, which src/sessions.js holds
// what it sends and receives to (src/json-schema.js). scripts/generate-session-types.sh writes
// them; session-types.test.js fails when the committed files are not what the host describes now.
import { declarationsFromOpenRPC, errorModuleFromOpenRPC } from '../src/openrpc-types.js';

/** The files, relative to js/src, and what they are generated from. */
export const SESSION_TYPES_DTS = 'session-methods.d.ts';
export const SESSION_TYPES_JS = 'session-methods.js';
export const SESSION_SCHEMAS_JS = 'session-schemas.js';

/**
 * `document` with only its `session_*` methods (docs/sessions.md): walletlib's methods have
 * their own hand-written models.
 * @param {any} document
 */
export function sessionDocument(document) {
  return { ...document, methods: document.methods.filter((/** @type {any} */ method) => method.name.startsWith('session_')) };
}

/**
 * The three files' text for the shipped host's `document`.
 * @param {any} document
 * @returns {{ declarations: string, errors: string, schemas: string }}
 */
export function sessionTypes(document) {
  const sessions = sessionDocument(document);
  return {
    declarations: declarationsFromOpenRPC(sessions, { importFrom: './index.js' }),
    errors: errorModuleFromOpenRPC(sessions, { importFrom: './index.js' }),
    schemas: schemaModule(document, sessions),
  };
}

/** Keywords that only annotate: the checker has no use for them. */
const ANNOTATIONS = new Set(['title', 'description', '$comment', 'examples', 'default']);

/**
 * `schema` without its annotations, at every level where a schema stands (never a member named
 * `description` under `properties`).
 * @param {unknown} schema
 * @returns {unknown}
 */
function checked(schema) {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return schema;
  /** @type {Record<string, unknown>} */
  const kept = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (ANNOTATIONS.has(keyword)) continue;
    if (keyword === 'properties' || keyword === 'patternProperties') {
      kept[keyword] = Object.fromEntries(Object.entries(/** @type {object} */ (value)).map(([name, inner]) => [name, checked(inner)]));
    } else if (keyword === 'anyOf' || keyword === 'allOf' || keyword === 'oneOf' || (keyword === 'items' && Array.isArray(value))) {
      kept[keyword] = /** @type {unknown[]} */ (value).map(checked);
    } else if (['items', 'additionalItems', 'additionalProperties', 'not'].includes(keyword)) {
      kept[keyword] = checked(value);
    } else {
      kept[keyword] = value;
    }
  }
  return kept;
}

/**
 * Which inner methods answer with each of session_request's result shapes, by the shape's
 * title. The host's document lists each shape once, in its table's order, without naming the
 * methods that answer with it (two may share one); the generator fails on a shape this does not
 * name, or a name the document no longer has, so a new or renamed shape cannot go unchecked.
 */
export const INNER_RESULT_METHODS = Object.freeze({
  SignMessageResult: ['solana_signMessage'],
  SignTransactionResult: ['solana_signTransaction'],
  SignAllTransactionsResult: ['solana_signAllTransactions'],
  SignInResult: ['solana_signIn'],
  SessionAccounts: ['solana_getAccounts', 'solana_requestAccounts'],
  EthereumSignature: ['personal_sign', 'eth_signTypedData_v4'],
  EthereumSignedTransaction: ['eth_signTransaction'],
  EthereumChainId: ['eth_chainId'],
  EthereumAccounts: ['eth_accounts'],
});

/**
 * session_request's inner methods' result schemas, by method name, from the shapes its result
 * lists (`anyOf`, each titled).
 * @param {any} request the session_request method
 * @returns {Record<string, unknown>}
 */
function innerResults(request) {
  const shapes = request?.result?.schema?.anyOf;
  if (!Array.isArray(shapes)) throw new Error('session_request\'s result lists no shapes (anyOf): the generator needs them');
  /** @type {Record<string, unknown>} */
  const results = {};
  const titles = new Set();
  for (const shape of shapes) {
    const methods = /** @type {Record<string, string[]>} */ (INNER_RESULT_METHODS)[shape.title];
    if (methods === undefined) {
      throw new Error(`session_request's result has a shape titled ${JSON.stringify(shape.title)} that INNER_RESULT_METHODS `
        + '(js/test/session-types.js) does not name: say which inner methods answer with it');
    }
    titles.add(shape.title);
    for (const method of methods) results[method] = checked(shape);
  }
  const gone = Object.keys(INNER_RESULT_METHODS).filter((title) => !titles.has(title));
  if (gone.length > 0) throw new Error(`session_request's result no longer has the shapes ${gone.join(', ')}: update INNER_RESULT_METHODS`);
  // A method whose params the host describes has a result too: one sharing a shape with another
  // would otherwise be missed.
  const described = (request['x-params-schema']?.properties?.request?.anyOf ?? [])
    .map((/** @type {any} */ branch) => branch?.properties?.method?.const).filter((/** @type {unknown} */ name) => typeof name === 'string');
  const unnamed = described.filter((/** @type {string} */ name) => !Object.hasOwn(results, name));
  if (unnamed.length > 0) throw new Error(`session_request's params describe ${unnamed.join(', ')}, which INNER_RESULT_METHODS gives no result shape`);
  return results;
}

/**
 * src/session-schemas.js: each session method's params schema (the whole params value) and
 * result schema, and each inner method's result schema, as the host states them.
 * @param {any} document the whole document (its info names the host)
 * @param {any} sessions its session methods
 */
function schemaModule(document, sessions) {
  /** @type {Record<string, { params: unknown, result: unknown }>} */
  const schemas = {};
  for (const method of sessions.methods) {
    schemas[method.name] = { params: checked(method['x-params-schema'] ?? true), result: checked(method.result?.schema ?? true) };
  }
  const request = sessions.methods.find((/** @type {any} */ method) => method.name === 'session_request');
  const { title, version } = document.info;
  return [
    `// The session methods' JSON Schemas, from ${title} ${version}'s rpc.discover (OpenRPC ${document.openrpc}),`,
    '// without their annotations. Generated by scripts/generate-session-types.sh: do not edit.',
    '// sessions.js holds the params it sends and the results it receives to them (json-schema.js).',
    '',
    '/** Each session method\'s whole params and its result, by method name. */',
    `export const SESSION_SCHEMAS = Object.freeze(${JSON.stringify(schemas, null, 1)});`,
    '',
    '/** The result of each inner method of session_request, by the inner method\'s name. */',
    `export const SESSION_REQUEST_RESULTS = Object.freeze(${JSON.stringify(innerResults(request), null, 1)});`,
    '',
  ].join('\n');
}
