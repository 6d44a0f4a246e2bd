// Checks a value against a JSON Schema: the draft-07 subset the host's rpc.discover uses (type,
// enum, const, properties, required, additionalProperties, patternProperties, items,
// additionalItems, the counts and bounds, pattern, anyOf, allOf, not). The params the session
// methods send, and the results they receive, are held to the schemas generated from the host's
// document (session-schemas.js), so a constraint the host states reaches the client without being
// written again. A keyword outside the subset (format, $ref) is not checked.
import { describe, isPlainObject } from './protocol.js';

/** @typedef {boolean | Record<string, unknown>} Schema */

/**
 * What is wrong with `value` under `schema`, naming the place (`field`, '' for the value
 * itself, which is then called `whole`), or null when it validates.
 * @param {unknown} schema
 * @param {unknown} value
 * @param {string} [field]
 * @param {string} [whole] what the value itself is called (a reply's "the result")
 * @returns {string | null}
 */
export function schemaProblem(schema, value, field = '', whole = 'the value') {
  if (schema === true || schema === undefined) return null;
  const place = field === '' ? whole : field;
  if (schema === false) return `${place} must not be there`;
  if (!isPlainObject(schema)) return null;
  return typeProblem(schema, value, place)
    ?? valueProblem(schema, value, place)
    ?? stringProblem(schema, value, place)
    ?? numberProblem(schema, value, place)
    ?? arrayProblem(schema, value, field, whole)
    ?? objectProblem(schema, value, field, whole)
    ?? combinedProblem(schema, value, field, whole);
}

/** The JSON type of a value as a schema's `type` names it. */
const TYPES = /** @type {const} */ (['null', 'boolean', 'object', 'array', 'number', 'integer', 'string']);

/**
 * @param {unknown} value
 * @param {string} type
 */
function hasType(value, type) {
  switch (type) {
    case 'null': return value === null;
    case 'boolean': return typeof value === 'boolean';
    case 'object': return isPlainObject(value);
    case 'array': return Array.isArray(value);
    case 'number': return typeof value === 'number' && Number.isFinite(value);
    case 'integer': return typeof value === 'number' && Number.isInteger(value);
    case 'string': return typeof value === 'string';
    default: return true;
  }
}

/** @param {string} type */
function article(type) {
  if (type === 'null') return 'null';
  const noun = type === 'integer' ? 'whole number' : type;
  return `${/^[aeiou]/.test(noun) ? 'an' : 'a'} ${noun}`;
}

/**
 * @param {Record<string, unknown>} schema
 * @param {unknown} value
 * @param {string} place
 */
function typeProblem(schema, value, place) {
  if (schema.type === undefined) return null;
  const types = /** @type {string[]} */ (Array.isArray(schema.type) ? schema.type : [schema.type]);
  if (types.some((type) => !TYPES.includes(/** @type {any} */ (type)) || hasType(value, type))) return null;
  const shown = typeof value === 'number' ? `${value}` : describe(value);
  return `${place} is ${shown}, not ${types.map(article).join(' or ')}`;
}

/**
 * @param {unknown} a
 * @param {unknown} b
 */
function same(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * @param {Record<string, unknown>} schema
 * @param {unknown} value
 * @param {string} place
 */
function valueProblem(schema, value, place) {
  if (Array.isArray(schema.enum) && !schema.enum.some((allowed) => same(allowed, value))) {
    return `${place} is ${shownValue(value)}, not one of ${schema.enum.map((allowed) => JSON.stringify(allowed)).join(', ')}`;
  }
  if (schema.const !== undefined && !same(schema.const, value)) return `${place} is ${shownValue(value)}, not ${JSON.stringify(schema.const)}`;
  return null;
}

/** @param {unknown} value */
function shownValue(value) {
  if (typeof value === 'string') return value.length <= 40 ? JSON.stringify(value) : `${JSON.stringify(value.slice(0, 40))}…`;
  if (typeof value === 'number' || typeof value === 'boolean') return `${value}`;
  return describe(value);
}

/** Compiled patterns, by source. */
const PATTERNS = new Map();

/** @param {string} source */
function pattern(source) {
  let compiled = PATTERNS.get(source);
  if (compiled === undefined) {
    // With `u`, as JSON Schema's patterns are Unicode (ECMA-262) ones; every pattern of the
    // host's document compiles so (session-schemas.test.js).
    compiled = new RegExp(source, 'u');
    PATTERNS.set(source, compiled);
  }
  return /** @type {RegExp} */ (compiled);
}

/**
 * @param {Record<string, unknown>} schema
 * @param {unknown} value
 * @param {string} place
 */
function stringProblem(schema, value, place) {
  if (typeof value !== 'string') return null;
  if (typeof schema.minLength === 'number' || typeof schema.maxLength === 'number') {
    // JSON Schema counts characters as code points; counted only where a limit asks.
    const length = [...value].length;
    if (typeof schema.minLength === 'number' && length < schema.minLength) return `${place} is ${length} characters, fewer than ${schema.minLength}`;
    if (typeof schema.maxLength === 'number' && length > schema.maxLength) return `${place} is ${length} characters, more than ${schema.maxLength}`;
  }
  if (typeof schema.pattern === 'string' && !pattern(schema.pattern).test(value)) return `${place} is ${shownValue(value)}, which does not match ${schema.pattern}`;
  return null;
}

/**
 * @param {Record<string, unknown>} schema
 * @param {unknown} value
 * @param {string} place
 */
function numberProblem(schema, value, place) {
  if (typeof value !== 'number') return null;
  if (typeof schema.minimum === 'number' && value < schema.minimum) return `${place} is ${value}, less than ${schema.minimum}`;
  if (typeof schema.maximum === 'number' && value > schema.maximum) return `${place} is ${value}, more than ${schema.maximum}`;
  return null;
}

/**
 * @param {Record<string, unknown>} schema
 * @param {unknown} value
 * @param {string} field
 * @param {string} whole
 */
function arrayProblem(schema, value, field, whole) {
  if (!Array.isArray(value)) return null;
  const place = field === '' ? whole : field;
  if (typeof schema.minItems === 'number' && value.length < schema.minItems) return `${place} holds ${value.length} items, fewer than ${schema.minItems}`;
  if (typeof schema.maxItems === 'number' && value.length > schema.maxItems) return `${place} holds ${value.length} items, more than ${schema.maxItems}`;
  if (schema.uniqueItems === true) {
    const seen = new Set(value.map((item) => JSON.stringify(item)));
    if (seen.size !== value.length) return `${place} holds an item twice`;
  }
  for (const [index, item] of value.entries()) {
    const itemSchema = Array.isArray(schema.items)
      ? (index < schema.items.length ? schema.items[index] : schema.additionalItems)
      : schema.items;
    const problem = schemaProblem(itemSchema, item, `${field}[${index}]`);
    if (problem !== null) return problem;
  }
  return null;
}

/**
 * @param {string} field
 * @param {string} key
 */
function memberPlace(field, key) {
  const name = key.length <= 40 && /^[A-Za-z_$][\w$]*$/.test(key) ? key : shownValue(key);
  if (field === '') return name;
  return name === key ? `${field}.${key}` : `${field}[${name}]`;
}

/**
 * @param {Record<string, unknown>} schema
 * @param {unknown} value
 * @param {string} field
 * @param {string} whole
 */
function objectProblem(schema, value, field, whole) {
  if (!isPlainObject(value)) return null;
  const place = field === '' ? whole : field;
  const keys = Object.keys(value);
  if (typeof schema.minProperties === 'number' && keys.length < schema.minProperties) return `${place} has ${keys.length} members, fewer than ${schema.minProperties}`;
  if (typeof schema.maxProperties === 'number' && keys.length > schema.maxProperties) return `${place} has ${keys.length} members, more than ${schema.maxProperties}`;
  for (const key of Array.isArray(schema.required) ? schema.required : []) {
    if (!Object.hasOwn(value, key)) return `${memberPlace(field, key)} is missing`;
  }
  const properties = isPlainObject(schema.properties) ? schema.properties : {};
  const patterns = isPlainObject(schema.patternProperties) ? Object.entries(schema.patternProperties) : [];
  for (const key of keys) {
    const place = memberPlace(field, key);
    let matched = false;
    if (Object.hasOwn(properties, key)) {
      matched = true;
      const problem = schemaProblem(properties[key], value[key], place);
      if (problem !== null) return problem;
    }
    for (const [source, patternSchema] of patterns) {
      if (!pattern(source).test(key)) continue;
      matched = true;
      const problem = schemaProblem(patternSchema, value[key], place);
      if (problem !== null) return problem;
    }
    if (!matched && schema.additionalProperties !== undefined) {
      const problem = schema.additionalProperties === false
        ? `${field === '' ? whole : field} has the member ${shownValue(key)}, which it may not`
        : schemaProblem(schema.additionalProperties, value[key], place);
      if (problem !== null) return problem;
    }
  }
  return null;
}

/**
 * The place a problem names: its words before what is said of it.
 * @param {string} problem
 */
function placeOf(problem) {
  return /^(.*?) (?:is|holds|has|must) /.exec(problem)?.[1] ?? '';
}

/**
 * @param {Record<string, unknown>} schema
 * @param {unknown} value
 * @param {string} field
 * @param {string} whole
 */
function combinedProblem(schema, value, field, whole) {
  const place = field === '' ? whole : field;
  for (const part of Array.isArray(schema.allOf) ? schema.allOf : []) {
    const problem = schemaProblem(part, value, field, whole);
    if (problem !== null) return problem;
  }
  if (Array.isArray(schema.anyOf)) {
    const problems = schema.anyOf.map((branch) => schemaProblem(branch, value, field, whole));
    if (!problems.includes(null)) {
      // One branch that is not just null: its problem says most (a member that may be null).
      const real = schema.anyOf.filter((branch) => !(isPlainObject(branch) && branch.type === 'null'));
      if (real.length === 1) return problems[schema.anyOf.indexOf(real[0])];
      // The branch that got furthest inside the value (an inner request whose method matched
      // and whose params did not) says what is wrong; else none did.
      const deepest = /** @type {string[]} */ (problems).reduce((best, problem) => (placeOf(problem).length > placeOf(best).length ? problem : best));
      if (placeOf(deepest).length > place.length) return deepest;
      return `${place} is none of the ${schema.anyOf.length} forms it may take (${problems[0]})`;
    }
  }
  if (schema.not !== undefined && schemaProblem(schema.not, value, field, whole) === null) return `${place} is a form it may not take`;
  return null;
}
