/**
 * TypeScript declarations from a host's OpenRPC document (what `rpc.discover` answers, and
 * `wallet-bridge describe` prints): one NativeMethod type per method, so an extension's calls
 * are typed by what the host says it takes and returns. bin/openrpc-to-ts.js is the command;
 * README.md, "Types from the host's OpenRPC document", the guide. No I/O and no imports here.
 *
 * JSON Schema (draft-07) maps to TypeScript as a superset: a constraint TypeScript cannot state
 * (minimum, pattern, not, …), or a combinator branch made only of such constraints, is left out
 * of the type and named in its doc comment, so a type never refuses a value the schema allows
 * (one exception: patternProperties without additionalProperties types only the patterns' keys,
 * and its comment says so). What cannot be translated at all becomes JsonValue with a comment
 * saying what; never `any`.
 */

/** Names the output defines or imports itself; a component or title never takes them. */
const RESERVED = ['JsonValue', 'NativeMethod', 'NativeRpcError', 'NativeRpcId', 'HostMethods', 'HostErrorCode', 'Extract', 'registerNativeRpcErrorClass'];
/** JavaScript's own error classes: an error class of the host's never shadows one. */
const BUILT_IN_ERRORS = ['Error', 'AggregateError', 'EvalError', 'InternalError', 'RangeError', 'ReferenceError', 'SuppressedError', 'SyntaxError', 'TypeError', 'URIError'];
const PARAM_STRUCTURES = ['by-name', 'by-position', 'either'];
const TYPE_NAMES = ['string', 'number', 'integer', 'boolean', 'null', 'array', 'object'];
/** Keywords that change nothing a value may be. */
const ANNOTATIONS = ['title', 'description', '$comment', '$schema', '$id', 'default', 'examples', 'readOnly', 'writeOnly', 'deprecated', 'definitions', 'contentMediaType', 'contentEncoding'];
/** Keywords translated into the type. */
const TRANSLATED = ['type', 'properties', 'required', 'additionalProperties', 'patternProperties', 'items', 'additionalItems', 'enum', 'const', 'anyOf', 'oneOf', 'allOf', '$ref'];
/** Keywords that only narrow what a value may be: left out of the type, named in its comment. */
const NARROWING = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'minLength', 'maxLength', 'pattern', 'format',
  'minProperties', 'maxProperties', 'minItems', 'maxItems', 'uniqueItems', 'contains', 'propertyNames', 'dependencies', 'not', 'if', 'then', 'else'];
const OBJECT_KEYWORDS = ['properties', 'required', 'additionalProperties', 'patternProperties'];
const COMPONENT_REF = '#/components/schemas/';
const DESCRIPTOR_REF = '#/components/contentDescriptors/';
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * A type expression and how tightly it binds: 0 a union, 1 an intersection, 2 `readonly …`,
 * 3 anything that can take `[]` as it is.
 * @typedef {{ text: string, precedence: number }} TypeText
 *
 * @typedef {object} Slot a place in the schema being translated
 * @property {string} path for messages, e.g. `methods[0] (ping).result.schema.properties.pong`
 * @property {string} indent of the line the type starts on
 * @property {boolean} readonly arrays and tuples as `readonly` (params: so `as const` values fit)
 *
 * @typedef {object} MethodPlan
 * @property {string} name
 * @property {string} path
 * @property {Record<string, any>} method
 * @property {string} base PascalCase of the name, made unique
 * @property {string} paramsName
 * @property {string} resultName
 *
 * @typedef {object} ErrorPlan one error the document declares: a code and its message
 * @property {number} code
 * @property {string} message
 * @property {string} className e.g. `EmptyPingError`
 * @property {string} key its name in HostErrorCode, e.g. `emptyPing`
 * @property {string[]} methods the methods that declare it
 */

/**
 * The declarations for an OpenRPC document, as the text of a .d.ts (or .ts) file. Throws a
 * TypeError starting "malformed OpenRPC document" (and saying where) for a document it cannot
 * read.
 * @param {unknown} document the parsed JSON
 * @param {{ importFrom?: string }} [options] where NativeMethod and JsonValue are imported from
 *   (default 'wallet-bridge')
 * @returns {string}
 */
export function declarationsFromOpenRPC(document, options = {}) {
  const importFrom = options.importFrom ?? 'wallet-bridge';
  if (typeof importFrom !== 'string' || importFrom === '') throw new TypeError('importFrom must be a module specifier');
  return new Generator(checkDocument(document)).emit(importFrom);
}

/**
 * The error module for an OpenRPC document, as the text of a .js file (an ES module, typed by
 * the declarations `declarationsFromOpenRPC` writes for the same document, when they sit beside
 * it under the same name): `HostErrorCode`, and a NativeRpcError subclass for each error a method
 * declares, each registered (registerNativeRpcErrorClass) for the methods that declare it, so
 * the client rejects with it. Throws as declarationsFromOpenRPC does.
 * @param {unknown} document the parsed JSON
 * @param {{ importFrom?: string }} [options] where NativeRpcError and registerNativeRpcErrorClass
 *   are imported from (default 'wallet-bridge')
 * @returns {string}
 */
export function errorModuleFromOpenRPC(document, options = {}) {
  const importFrom = options.importFrom ?? 'wallet-bridge';
  if (typeof importFrom !== 'string' || importFrom === '') throw new TypeError('importFrom must be a module specifier');
  return new Generator(checkDocument(document)).emitErrorModule(importFrom);
}

/**
 * @param {unknown} document
 * @returns {Record<string, any>}
 */
function checkDocument(document) {
  if (!isObject(document)) malformed('', `the document is an object, not ${kind(document)}`);
  if (typeof document.openrpc !== 'string') malformed('openrpc', 'must be the specification version, a string');
  const { info, methods, components } = document;
  if (!isObject(info) || typeof info.title !== 'string' || typeof info.version !== 'string') malformed('info', 'must be an object with a title and a version, both strings');
  if (!Array.isArray(methods)) malformed('methods', `must be an array, not ${kind(methods)}`);
  if (components !== undefined && !isObject(components)) malformed('components', 'must be an object');
  for (const group of ['schemas', 'contentDescriptors']) {
    if (components?.[group] !== undefined && !isObject(components[group])) malformed(`components.${group}`, 'must be an object');
  }
  const names = new Set();
  methods.forEach((method, index) => {
    const path = `methods[${index}]`;
    if (!isObject(method)) malformed(path, `a method is an object, not ${kind(method)}`);
    if (typeof method.name !== 'string' || method.name === '') malformed(`${path}.name`, 'must be a non-empty string');
    if (names.has(method.name)) malformed(`${path}.name`, `"${method.name}" is the name of an earlier method too; names are unique`);
    names.add(method.name);
    if (!Array.isArray(method.params)) malformed(`${path}.params`, `must be an array of content descriptors, not ${kind(method.params)}`);
    if (method.paramStructure !== undefined && !PARAM_STRUCTURES.includes(method.paramStructure)) {
      malformed(`${path}.paramStructure`, `must be one of ${PARAM_STRUCTURES.join(', ')}`);
    }
    if (method['x-params-optional'] !== undefined && typeof method['x-params-optional'] !== 'boolean') malformed(`${path}.x-params-optional`, 'must be a boolean');
    for (const member of ['summary', 'description']) {
      if (method[member] !== undefined && typeof method[member] !== 'string') malformed(`${path}.${member}`, 'must be a string');
    }
    if (method.errors !== undefined && !Array.isArray(method.errors)) malformed(`${path}.errors`, 'must be an array');
  });
  return document;
}

class Generator {
  /** @param {Record<string, any>} document */
  constructor(document) {
    this.document = document;
    /** @type {Record<string, unknown>} */
    this.schemas = document.components?.schemas ?? {};
    /** @type {Record<string, unknown>} */
    this.descriptors = document.components?.contentDescriptors ?? {};
    this.usesJsonValue = false;
    /** @type {ErrorPlan[] | undefined} made on first use */
    this.errorList = undefined;
    const taken = new Set(RESERVED);
    /** @param {string} wanted */
    const unique = (wanted) => {
      let name = wanted;
      for (let n = 2; taken.has(name); n += 1) name = `${wanted}${n}`;
      taken.add(name);
      return name;
    };
    /** Component key → type name. @type {Map<string, string>} */
    this.componentNames = new Map();
    for (const key of Object.keys(this.schemas)) {
      this.componentNames.set(key, unique(IDENTIFIER.test(key) && /^[A-Z]/.test(key) ? key : pascalCase(key) || 'Schema'));
    }
    // Every method's fallback names are reserved first, so a title never takes one that
    // another method may need, and the output does not depend on which titles are present.
    /** @type {MethodPlan[]} */
    this.methods = this.document.methods.map((/** @type {Record<string, any>} */ method, /** @type {number} */ index) => {
      // A name that already ends in "method" (walletlib's NATIVE_…_METHOD) does not say it twice.
      const stem = pascalCase(method.name).replace(/(.)Method$/, '$1') || 'Method';
      let base = stem;
      for (let n = 2; ['Method', 'Params', 'Result'].some((suffix) => taken.has(base + suffix)); n += 1) base = `${stem}${n}`;
      for (const suffix of ['Method', 'Params', 'Result']) taken.add(base + suffix);
      return { name: method.name, path: `methods[${index}] (${method.name})`, method, base, paramsName: `${base}Params`, resultName: `${base}Result` };
    });
    for (const plan of this.methods) {
      /**
       * A title's name unless another generated type has it; the method's own fallback otherwise.
       * @param {unknown} schema
       * @param {string} fallback
       */
      const named = (schema, fallback) => {
        const title = isObject(schema) && typeof schema.title === 'string' ? pascalCase(schema.title) : '';
        if (title === '' || (taken.has(title) && title !== fallback)) return fallback;
        taken.add(title);
        return title;
      };
      const paramsSchema = plan.method['x-params-schema'];
      if (paramsSchema !== undefined) plan.paramsName = named(paramsSchema, plan.paramsName);
      const result = plan.method.result === undefined ? undefined : this.descriptor(plan.method.result, `${plan.path}.result`);
      if (result !== undefined) plan.resultName = named(result.schema, plan.resultName);
    }
  }

  /**
   * @param {string} importFrom
   * @returns {string}
   */
  emit(importFrom) {
    const errors = this.errorPlans();
    /** @type {string[]} */
    const blocks = [];
    const componentKeys = Object.keys(this.schemas);
    if (componentKeys.length > 0) blocks.push('// ---- components.schemas');
    for (const key of componentKeys) {
      const slot = { path: `components.schemas.${key}`, indent: '', readonly: false };
      const type = this.type(this.schemas[key], slot);
      blocks.push(`${docComment(this.schemaDoc(this.schemas[key]), '')}export type ${this.componentNames.get(key)} = ${type.text};`);
    }
    /** @type {string[]} */
    const hostMethods = [];
    for (const plan of this.methods) {
      const { method, path } = plan;
      blocks.push(`// ---- ${oneLine(plan.name)}`);
      const params = this.params(plan);
      blocks.push(`${docComment(params.doc, '')}export type ${plan.paramsName} = ${params.text};`);
      const result = method.result === undefined ? undefined : this.descriptor(method.result, `${path}.result`);
      const resultSlot = { path: `${path}.result.schema`, indent: '', readonly: false };
      const resultType = result === undefined ? this.jsonValue('no result descriptor') : this.type(result.schema, resultSlot);
      const resultDoc = result === undefined ? [] : [...text(result.description ?? result.summary), ...this.schemaDoc(result.schema)];
      blocks.push(`${docComment(resultDoc, '')}export type ${plan.resultName} = ${resultType.text};`);
      const paramsUse = method['x-params-optional'] === true ? `${plan.paramsName} | undefined` : plan.paramsName;
      blocks.push(`${docComment(this.methodDoc(plan), '')}export type ${plan.base}Method = NativeMethod<${tsString(plan.name)}, ${paramsUse}, ${plan.resultName}>;`);
      hostMethods.push(`  ${tsString(plan.name)}: { params: ${paramsUse}; result: ${plan.resultName} };`);
    }
    if (errors.length > 0) {
      blocks.push('// ---- errors (their classes are defined by the error module, openrpc-to-ts --js)');
      blocks.push(`/** The code of each error the methods declare, by name. */\nexport declare const HostErrorCode: Readonly<{\n${errors.map((error) => `  ${error.key}: ${error.code};`).join('\n')}\n}>;`);
      for (const error of errors) {
        blocks.push(`${docComment(errorDoc(error), '')}export declare class ${error.className} extends NativeRpcError {\n`
          + '  /** The code and message are the declared ones unless given. */\n'
          + '  constructor(fields?: { message?: string; data?: JsonValue; id?: NativeRpcId | null; method?: string });\n'
          + `  static readonly code: ${error.code};\n`
          + `  code: ${error.code};\n}`);
      }
      this.usesJsonValue = true;
    }
    const { title, version } = this.document.info;
    blocks.push(`/** Every method of ${oneLine(title).replace(/\*\//g, '*\\/')}, by name: the params it takes and the result it answers with. */\n`
      + `export interface HostMethods {\n${hostMethods.join('\n')}${hostMethods.length > 0 ? '\n' : ''}}`);
    const imports = [...(this.usesJsonValue ? ['JsonValue'] : []), 'NativeMethod', ...(errors.length > 0 ? ['NativeRpcId'] : [])].join(', ');
    const header = [
      `// TypeScript declarations for ${oneLine(title)} ${oneLine(version)}, generated from its OpenRPC document`,
      `// (OpenRPC ${oneLine(this.document.openrpc)}) by wallet-bridge-types (js/bin/openrpc-to-ts.js).`,
      '// Generated: do not edit. Generate it again when the host changes.',
      `import type { ${imports} } from ${tsString(importFrom)};`,
      ...(errors.length > 0 ? [`import { NativeRpcError } from ${tsString(importFrom)};`] : []),
    ].join('\n');
    return `${[header, ...blocks].join('\n\n')}\n`;
  }

  /**
   * The error module's text (errorModuleFromOpenRPC).
   * @param {string} importFrom
   * @returns {string}
   */
  emitErrorModule(importFrom) {
    const errors = this.errorPlans();
    const { title, version } = this.document.info;
    const lines = [
      `// Error classes for ${oneLine(title)} ${oneLine(version)}, generated from its OpenRPC document`,
      `// (OpenRPC ${oneLine(this.document.openrpc)}) by wallet-bridge-types (js/bin/openrpc-to-ts.js --js).`,
      '// Generated: do not edit. Generate it again when the host changes. Importing it registers each',
      '// class for the methods that declare its error, so the client rejects with it; the declarations',
      '// written from the same document, beside this file under the same name, type it.',
      `import { NativeRpcError, registerNativeRpcErrorClass } from ${tsString(importFrom)};`,
      '',
      '/** The code of each error the methods declare, by name. */',
      `export const HostErrorCode = Object.freeze({${errors.map((error) => `\n  ${error.key}: ${error.code},`).join('')}${errors.length > 0 ? '\n' : ''}});`,
    ];
    for (const error of errors) {
      lines.push(
        '',
        docComment(errorDoc(error), '').trimEnd(),
        `export class ${error.className} extends NativeRpcError {`,
        `  static code = ${error.code};`,
        '',
        '  /** @param {Partial<ConstructorParameters<typeof NativeRpcError>[0]>} [fields] the code and message are the declared ones unless given */',
        '  constructor(fields = {}) {',
        `    super({ ...fields, code: ${error.code}, message: fields.message ?? ${tsString(error.message)} });`,
        `    this.name = ${tsString(error.className)};`,
        '  }',
        '}',
        `registerNativeRpcErrorClass(${error.code}, ${error.className}, { methods: [${error.methods.map(tsString).join(', ')}] });`,
      );
    }
    return `${lines.join('\n')}\n`;
  }

  /**
   * The errors the methods declare, one per code and message, in document order: each named
   * from its message (`Empty ping` → EmptyPingError, `emptyPing`;
   * `Error: disk full` → DiskFullError; `Error 404` → _404Error), else by its code (`Error`,
   * `` or `!!!` with code -32001 → CodeMinus32001Error); a name already taken (by a type, an
   * import, a built-in error such as TypeError, or an earlier error) gets a number
   * (`not-found` after `Not found` → NotFound2Error; `Error 404!` after `Error 404` →
   * _404_2Error). A method that declares one
   * code twice keeps the first (a reply carries the code only, so the client cannot tell them
   * apart). Only errors with an integer code and a string message are read.
   * @returns {ErrorPlan[]}
   */
  errorPlans() {
    if (this.errorList !== undefined) return this.errorList;
    /** @type {Map<string, ErrorPlan>} */
    const byCodeAndMessage = new Map();
    const classNames = new Set([...RESERVED, ...BUILT_IN_ERRORS, ...this.typeNames()]);
    const keys = new Set();
    for (const plan of this.methods) {
      const seen = new Set();
      for (const error of plan.method.errors ?? []) {
        if (!isObject(error) || !Number.isSafeInteger(error.code) || typeof error.message !== 'string' || seen.has(error.code)) continue;
        seen.add(error.code);
        const id = `${error.code} ${error.message}`;
        const known = byCodeAndMessage.get(id);
        if (known !== undefined) {
          known.methods.push(plan.name);
          continue;
        }
        const stem = errorStem(error.message) || `Code${String(error.code).replace('-', 'Minus')}`;
        // A number after a digit is set apart: `_404_2Error`, not `_4042Error`.
        const numbered = /\p{Nd}$/u.test(stem) ? `${stem}_` : stem;
        let className = `${stem}Error`;
        for (let n = 2; classNames.has(className); n += 1) className = `${numbered}${n}Error`;
        classNames.add(className);
        const keyStem = stem.charAt(0).toLowerCase() + stem.slice(1);
        const keyNumbered = numbered.charAt(0).toLowerCase() + numbered.slice(1);
        let key = keyStem;
        for (let n = 2; keys.has(key); n += 1) key = `${keyNumbered}${n}`;
        keys.add(key);
        byCodeAndMessage.set(id, { code: error.code, message: error.message, className, key, methods: [plan.name] });
      }
    }
    this.errorList = [...byCodeAndMessage.values()];
    return this.errorList;
  }

  /**
   * Every type name the declarations define, so an error class never takes one.
   * @returns {string[]}
   */
  typeNames() {
    return [...this.componentNames.values(), ...this.methods.flatMap((plan) => [plan.paramsName, plan.resultName, `${plan.base}Method`])];
  }

  /**
   * The params type: `x-params-schema` when present (the exact schema of the whole params),
   * else built from the content descriptors; `undefined` for a method that takes none. Always
   * an object or array type (or undefined), as NativeMethod requires.
   * @param {MethodPlan} plan
   * @returns {{ text: string, doc: string[] }}
   */
  params({ method, path }) {
    const whole = method['x-params-schema'];
    if (whole !== undefined) {
      const slot = { path: `${path}.x-params-schema`, indent: '', readonly: true };
      const type = this.type(whole, slot);
      const doc = this.schemaDoc(whole);
      if (this.isObjectLike(whole, new Set())) return { text: type.text, doc };
      // JSON-RPC params are an object or an array (2.0, section 4.2), so that is all of the
      // schema's values that can be params.
      const text = type.text === 'JsonValue' ? 'readonly JsonValue[] | { [key: string]: JsonValue }' : `Extract<${type.text}, object>`;
      return { text, doc };
    }
    /** @type {Array<ReturnType<Generator['descriptor']>>} */
    const descriptors = method.params.map((/** @type {unknown} */ descriptor, /** @type {number} */ index) => this.descriptor(descriptor, `${path}.params[${index}]`));
    if (descriptors.length === 0) return { text: 'undefined', doc: ['Takes no params.'] };
    if (method.paramStructure === 'by-position') {
      const labelled = descriptors.every((descriptor) => IDENTIFIER.test(descriptor.name))
        && new Set(descriptors.map((descriptor) => descriptor.name)).size === descriptors.length;
      // A position can be left out only if every later one is.
      const required = descriptors.reduce((last, descriptor, index) => (descriptor.required === true ? index + 1 : last), 0);
      const elements = descriptors.map((descriptor, index) => {
        const type = this.type(descriptor.schema, { path: `${path}.params[${index}].schema`, indent: '', readonly: true });
        const optional = index >= required;
        if (labelled) return `${descriptor.name}${optional ? '?' : ''}: ${type.text}`;
        return optional ? `${wrap(type, 3)}?` : type.text;
      });
      return { text: `readonly [${elements.join(', ')}]`, doc: ['Params by position.'] };
    }
    const members = descriptors.map((descriptor, index) => {
      const slot = { path: `${path}.params[${index}].schema`, indent: '  ', readonly: true };
      return {
        key: descriptor.name,
        optional: descriptor.required !== true,
        type: this.type(descriptor.schema, slot).text,
        doc: [...text(descriptor.description ?? descriptor.summary), ...this.schemaDoc(descriptor.schema)],
      };
    });
    return { text: objectLiteral(members, null, ''), doc: method.paramStructure === 'either' ? ['Params by name (the host also takes them by position, in this order).'] : [] };
  }

  /**
   * A content descriptor, a `$ref` to one resolved.
   * @param {unknown} value
   * @param {string} path
   * @returns {{ name: string, schema: unknown, required?: boolean, description?: string, summary?: string }}
   */
  descriptor(value, path) {
    let descriptor = value;
    if (isObject(descriptor) && typeof descriptor.$ref === 'string') {
      const ref = descriptor.$ref;
      const key = ref.startsWith(DESCRIPTOR_REF) ? unescapePointer(ref.slice(DESCRIPTOR_REF.length)) : null;
      if (key === null || !Object.hasOwn(this.descriptors, key)) malformed(path, `$ref ${JSON.stringify(ref)} names no entry of components.contentDescriptors`);
      descriptor = this.descriptors[key];
    }
    if (!isObject(descriptor)) malformed(path, `a content descriptor is an object, not ${kind(descriptor)}`);
    if (typeof descriptor.name !== 'string') malformed(`${path}.name`, 'must be a string');
    if (!('schema' in descriptor)) malformed(path, 'has no schema');
    if (descriptor.required !== undefined && typeof descriptor.required !== 'boolean') malformed(`${path}.required`, 'must be a boolean');
    for (const member of ['summary', 'description']) {
      if (descriptor[member] !== undefined && typeof descriptor[member] !== 'string') malformed(`${path}.${member}`, 'must be a string');
    }
    return /** @type {any} */ (descriptor);
  }

  /**
   * The type of a schema.
   * @param {unknown} schema
   * @param {Slot} slot
   * @returns {TypeText}
   */
  type(schema, slot) {
    if (schema === true) return this.jsonValue();
    if (schema === false) return atom('never');
    if (!isObject(schema)) malformed(slot.path, `a schema is an object or a boolean, not ${kind(schema)}`);
    for (const member of ['title', 'description']) {
      if (schema[member] !== undefined && typeof schema[member] !== 'string') malformed(`${slot.path}.${member}`, 'must be a string');
    }
    if ('$ref' in schema) return this.reference(schema.$ref, slot);  // draft-07: siblings of $ref are ignored

    /** @type {TypeText[]} */
    const parts = [];
    const own = this.ownType(schema, slot);
    if (own !== null) parts.push(own);
    // A branch that says nothing TypeScript can say (`{ maxLength: 0 }`) admits every value, and
    // so does its union: the union is left out (schemaDoc names it), not intersected as JsonValue.
    // Likewise an allOf member that says nothing takes nothing away.
    for (const combinator of /** @type {const} */ (['anyOf', 'oneOf'])) {
      if (!(combinator in schema)) continue;
      const members = this.members(schema, combinator, slot);
      if (!members.some(saysNothing)) parts.push(union(members.map((member, index) => this.type(member, { ...slot, path: `${slot.path}.${combinator}[${index}]` }))));
    }
    if ('allOf' in schema) {
      this.members(schema, 'allOf', slot).forEach((member, index) => {
        if (!saysNothing(member)) parts.push(this.type(member, { ...slot, path: `${slot.path}.allOf[${index}]` }));
      });
    }
    if (parts.length === 0) return this.jsonValue();
    return parts.length === 1 ? parts[0] : intersection(parts);
  }

  /**
   * What `type`, `enum`, `const` and the object and array keywords say, or null if none is there.
   * @param {Record<string, unknown>} schema
   * @param {Slot} slot
   * @returns {TypeText | null}
   */
  ownType(schema, slot) {
    if ('const' in schema) return literal(schema.const);
    if ('enum' in schema) {
      if (!Array.isArray(schema.enum)) malformed(`${slot.path}.enum`, 'must be an array');
      return schema.enum.length === 0 ? atom('never') : union(schema.enum.map(literal));
    }
    /** @type {unknown[]} */
    let types;
    if ('type' in schema) {
      types = Array.isArray(schema.type) ? schema.type : [schema.type];
      if (types.length === 0 || types.some((type) => typeof type !== 'string')) malformed(`${slot.path}.type`, 'must be a type name or an array of them');
    } else if (OBJECT_KEYWORDS.some((keyword) => keyword in schema)) {
      types = ['object'];  // no type, but object keywords: what the schema is about
    } else if (['items', 'additionalItems'].some((keyword) => keyword in schema)) {
      types = ['array'];
    } else {
      return null;
    }
    /** @type {TypeText[]} */
    const alternatives = [];
    for (const type of new Set(types.map((name) => (name === 'integer' ? 'number' : name)))) {
      if (!TYPE_NAMES.includes(/** @type {string} */ (type))) {
        alternatives.push(this.jsonValue(`type ${JSON.stringify(type)}`));
      } else if (type === 'object') {
        alternatives.push(this.objectType(schema, slot));
      } else if (type === 'array') {
        alternatives.push(this.arrayType(schema, slot));
      } else {
        alternatives.push(atom(/** @type {string} */ (type)));
      }
    }
    return union(alternatives);
  }

  /**
   * @param {Record<string, unknown>} schema
   * @param {Slot} slot
   * @returns {TypeText}
   */
  objectType(schema, slot) {
    const { properties = {}, required = [], additionalProperties, patternProperties = {} } = schema;
    if (!isObject(properties)) malformed(`${slot.path}.properties`, 'must be an object of schemas');
    if (!Array.isArray(required) || required.some((key) => typeof key !== 'string')) malformed(`${slot.path}.required`, 'must be an array of strings');
    if (!isObject(patternProperties)) malformed(`${slot.path}.patternProperties`, 'must be an object of schemas');
    // No member at all, as maxItems 0 is no element.
    if (schema.maxProperties === 0) return atom(objectLiteral([], 'never', slot.indent));
    const inner = `${slot.indent}  `;
    const keys = [...new Set([...Object.keys(properties), ...required])];
    // What a key that is not listed may hold: each pattern's type (TypeScript cannot tie a type
    // to a key pattern, so their union), then additionalProperties'.
    /** @type {TypeText[]} */
    const others = Object.entries(patternProperties).map(([pattern, member]) => this.type(member, { ...slot, path: `${slot.path}.patternProperties.${pattern}`, indent: inner }));
    if (additionalProperties === undefined || additionalProperties === true) {
      // Without properties or patterns, any object: an index signature. With properties only,
      // the listed members, as TypeScript types usually are (extra members still type-check
      // where not a literal); with patterns and no additionalProperties, the patterns' keys.
      if (others.length === 0 ? keys.length === 0 : additionalProperties === true) others.push(this.jsonValue());
    } else if (additionalProperties !== false) {
      others.push(this.type(additionalProperties, { ...slot, path: `${slot.path}.additionalProperties`, indent: inner }));
    }
    const additional = others.length === 0 ? null : (others.some((other) => other.text === 'JsonValue') ? this.jsonValue() : union(others));
    const members = keys.map((key) => {
      const listed = Object.hasOwn(properties, key);
      const memberSlot = { ...slot, path: `${slot.path}.properties.${key}`, indent: inner };
      return {
        key,
        optional: !required.includes(key),
        // A required key that is not listed holds what any other key may.
        type: listed ? this.type(properties[key], memberSlot).text : (additional ?? this.jsonValue()).text,
        doc: listed ? this.schemaDoc(properties[key]) : [],
      };
    });
    /** @type {string | null} */
    let index = null;
    if (additional !== null) {
      // An index signature must admit every member's type, an optional member's undefined too.
      const types = [additional.text, ...(additional.text === 'JsonValue' ? [] : members.map((member) => member.type))];
      if (members.some((member) => member.optional)) types.push('undefined');
      index = [...new Set(types)].join(' | ');
    } else if (keys.length === 0 && additionalProperties === false) {
      index = 'never';
    }
    return atom(objectLiteral(members, index, slot.indent));
  }

  /**
   * @param {Record<string, unknown>} schema
   * @param {Slot} slot
   * @returns {TypeText}
   */
  arrayType(schema, slot) {
    const { items, additionalItems, minItems = 0, maxItems } = schema;
    const readonly = slot.readonly ? 'readonly ' : '';
    if (Array.isArray(items)) {
      if (typeof minItems !== 'number' || !Number.isInteger(minItems) || minItems < 0) malformed(`${slot.path}.minItems`, 'must be a non-negative integer');
      const elements = items.map((item, index) => {
        const type = this.type(item, { ...slot, path: `${slot.path}.items[${index}]` });
        return index < minItems ? type.text : `${wrap(type, 3)}?`;
      });
      if (additionalItems === undefined || additionalItems === true) {
        elements.push(`...${this.jsonValue().text}[]`);
      } else if (additionalItems !== false) {
        elements.push(`...${wrap(this.type(additionalItems, { ...slot, path: `${slot.path}.additionalItems` }), 3)}[]`);
      }
      return { text: `${readonly}[${elements.join(', ')}]`, precedence: slot.readonly ? 2 : 3 };
    }
    if (maxItems === 0) return { text: `${readonly}[]`, precedence: slot.readonly ? 2 : 3 };
    const element = items === undefined ? this.jsonValue() : this.type(items, { ...slot, path: `${slot.path}.items` });
    return { text: `${readonly}${wrap(element, 3)}[]`, precedence: slot.readonly ? 2 : 3 };
  }

  /**
   * A combinator's branches, checked to be a list (each is checked when translated).
   * @param {Record<string, unknown>} schema
   * @param {'anyOf' | 'oneOf' | 'allOf'} combinator
   * @param {Slot} slot
   * @returns {unknown[]}
   */
  members(schema, combinator, slot) {
    const members = schema[combinator];
    if (!Array.isArray(members) || members.length === 0) malformed(`${slot.path}.${combinator}`, 'must be a non-empty array of schemas');
    return members;
  }

  /**
   * @param {unknown} ref
   * @param {Slot} slot
   * @returns {TypeText}
   */
  reference(ref, slot) {
    if (typeof ref !== 'string') malformed(`${slot.path}.$ref`, 'must be a string');
    if (!ref.startsWith(COMPONENT_REF) || ref.slice(COMPONENT_REF.length).includes('/')) {
      return this.jsonValue(`$ref ${JSON.stringify(ref)} (only #/components/schemas/<name> is)`);
    }
    const name = this.componentNames.get(unescapePointer(ref.slice(COMPONENT_REF.length)));
    if (name === undefined) malformed(`${slot.path}.$ref`, `${JSON.stringify(ref)} names no entry of components.schemas`);
    return atom(name);
  }

  /**
   * Whether every value of a schema is an object or an array, as params must be.
   * @param {unknown} schema
   * @param {Set<string>} seen components being looked through (a cycle is no answer)
   * @returns {boolean}
   */
  isObjectLike(schema, seen) {
    if (!isObject(schema)) return schema === false;
    if (typeof schema.$ref === 'string') {
      const key = schema.$ref.startsWith(COMPONENT_REF) ? unescapePointer(schema.$ref.slice(COMPONENT_REF.length)) : null;
      if (key === null || seen.has(key) || !Object.hasOwn(this.schemas, key)) return false;
      return this.isObjectLike(this.schemas[key], new Set([...seen, key]));
    }
    /** @param {unknown} value */
    const objectValue = (value) => typeof value === 'object' && value !== null;
    if ('const' in schema) return objectValue(schema.const);
    if (Array.isArray(schema.enum)) return schema.enum.every(objectValue);
    const types = 'type' in schema ? (Array.isArray(schema.type) ? schema.type : [schema.type]) : null;
    if (types !== null && types.every((type) => type === 'object' || type === 'array')) return true;
    if (types === null && [...OBJECT_KEYWORDS, 'items', 'additionalItems'].some((keyword) => keyword in schema)) return true;
    // As type() reads them: a branch that says nothing is left out, and makes its union anything.
    for (const combinator of ['anyOf', 'oneOf']) {
      const members = schema[combinator];
      if (Array.isArray(members) && members.length > 0 && members.every((member) => !saysNothing(member) && this.isObjectLike(member, seen))) return true;
    }
    return Array.isArray(schema.allOf) && schema.allOf.some((member) => !saysNothing(member) && this.isObjectLike(member, seen));
  }

  /**
   * The doc comment lines for a schema in a slot that has one: its description, then what the
   * type leaves out.
   * @param {unknown} schema
   * @returns {string[]}
   */
  schemaDoc(schema) {
    if (!isObject(schema) || '$ref' in schema) return [];
    const left = notInType(schema);
    const unknown = Object.keys(schema).filter((keyword) => !keyword.startsWith('x-') && ![...ANNOTATIONS, ...TRANSLATED, ...NARROWING].includes(keyword));
    return [
      ...text(schema.description),
      ...keysDoc(schema),
      ...(left.length > 0 ? [`Not in the type: ${left.join(', ')}.`] : []),
      ...(unknown.length > 0 ? [`Not draft-07, ignored: ${unknown.join(', ')}.`] : []),
    ];
  }

  /**
   * @param {MethodPlan} plan
   * @returns {string[]}
   */
  methodDoc({ method }) {
    // The name is in the declaration already: a comment only when there is more to say.
    const lines = [...text(method.summary), ...text(method.description)];
    const errors = this.errorPlans().filter((error) => error.methods.includes(method.name));
    if (errors.length > 0) lines.push(`Errors: ${errors.map((error) => `${error.code} ${JSON.stringify(error.message)} (${error.className})`).join(', ')}.`);
    if (method['x-params-optional'] === true) lines.push('Params may be left out.');
    const problems = method['x-derivation-problems'];
    if (Array.isArray(problems) && problems.length > 0) {
      lines.push(`The host could not describe all of this method (x-derivation-problems): ${problems.map(String).join('; ')}.`);
    }
    return lines;
  }

  /**
   * @param {string} [untranslated] what was not translated, said in a comment
   * @returns {TypeText}
   */
  jsonValue(untranslated) {
    this.usesJsonValue = true;
    return atom(untranslated === undefined ? 'JsonValue' : `JsonValue /* not translated: ${untranslated.replace(/\*\//g, '*\\/')} */`);
  }
}

/**
 * Whether a schema admits every value as far as TypeScript can tell: only annotations, keywords
 * that narrow (`{ maxLength: 0 }`, `{ pattern: … }`, `{ not: … }`), keywords draft-07 does not
 * have, and properties and branches that say nothing either. Such a branch makes its anyOf or
 * oneOf admit everything, and takes nothing away from an allOf, so type() leaves it out.
 * @param {unknown} schema
 * @returns {boolean}
 */
function saysNothing(schema) {
  if (schema === true) return true;
  if (!isObject(schema)) return false;
  return Object.entries(schema).every(([keyword, value]) => {
    if (keyword === 'properties') return isObject(value) && Object.values(value).every(saysNothing);
    if (keyword === 'anyOf' || keyword === 'oneOf') return Array.isArray(value) && value.some(saysNothing);
    if (keyword === 'allOf') return Array.isArray(value) && value.every(saysNothing);
    return !TRANSLATED.includes(keyword);
  });
}

/**
 * What a schema says that its type leaves out, e.g. `['integer', 'minimum 0']`: its narrowing
 * keywords (one whose value is a schema by name only), and the branches type() left out.
 * @param {Record<string, unknown>} schema
 * @returns {string[]}
 */
function notInType(schema) {
  /** @type {string[]} */
  const left = [];
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.includes('integer') && !types.includes('number')) left.push('integer');
  const objectTyped = 'type' in schema ? types.includes('object') : OBJECT_KEYWORDS.some((keyword) => keyword in schema);
  for (const keyword of NARROWING) {
    if (!(keyword in schema)) continue;
    const value = schema[keyword];
    // A tuple's minItems and maxItems are in the type already, and so are maxItems 0 and
    // (for an object) maxProperties 0.
    if ((keyword === 'minItems' || keyword === 'maxItems') && Array.isArray(schema.items)) continue;
    if (keyword === 'maxItems' && value === 0) continue;
    if (keyword === 'maxProperties' && value === 0 && objectTyped) continue;
    left.push(value !== null && typeof value === 'object' ? keyword : `${keyword} ${boundText(value)}`);
  }
  for (const combinator of ['anyOf', 'oneOf']) {
    const branches = schema[combinator];
    if (!Array.isArray(branches) || !branches.some(saysNothing)) continue;
    const said = branches.map(branchText);
    left.push(said.every((branch) => branch !== null) ? `${combinator} (${said.join(' | ')})` : combinator);
  }
  if (Array.isArray(schema.allOf)) {
    // Each member holds too: what the left-out ones say is said of this value.
    for (const member of schema.allOf.filter(saysNothing)) left.push(branchText(member) ?? 'allOf');
  }
  return left;
}

/**
 * A keyword's value as the doc comment writes it. An integer beyond 2^53 was rounded when the
 * document was parsed (a 64-bit bound, 9223372036854775807, reads as 9223372036854776000), so
 * it is written with "about": the schema's exact bound is in the document.
 * @param {unknown} value
 */
function boundText(value) {
  const text = JSON.stringify(value);
  return typeof value === 'number' && Number.isInteger(value) && !Number.isSafeInteger(value) ? `about ${text}` : text;
}

/**
 * A left-out branch in words, `maxLength 0`, when it is only narrowing keywords; else null.
 * @param {unknown} branch
 * @returns {string | null}
 */
function branchText(branch) {
  if (branch === true) return 'anything';
  if (!isObject(branch) || Object.keys(branch).some((keyword) => !keyword.startsWith('x-') && !ANNOTATIONS.includes(keyword) && !NARROWING.includes(keyword))) return null;
  const said = notInType(branch);
  return said.length > 0 ? said.join(', ') : 'anything';
}

/**
 * The doc line for an object schema's patternProperties: which keys the index signature is for.
 * @param {Record<string, unknown>} schema
 * @returns {string[]}
 */
function keysDoc(schema) {
  const patterns = isObject(schema.patternProperties) ? Object.keys(schema.patternProperties).map((pattern) => JSON.stringify(pattern)) : [];
  if (patterns.length === 0) return [];
  const listed = isObject(schema.properties) && Object.keys(schema.properties).length > 0 ? ' other than those listed' : '';
  const { additionalProperties } = schema;
  if (additionalProperties === false) return [`Keys${listed} match ${patterns.join(' or ')}.`];
  if (additionalProperties === undefined) return [`Keys${listed} match ${patterns.join(' or ')} (the schema allows other keys too; the type does not).`];
  return [`Keys${listed} that match ${patterns.join(' or ')} hold those patterns' types; other keys additionalProperties.`];
}

/**
 * @param {string} path
 * @param {string} problem
 * @returns {never}
 */
function malformed(path, problem) {
  throw new TypeError(`malformed OpenRPC document: ${path === '' ? '' : `${path}: `}${problem}`);
}

/**
 * `{ a: T; b?: U; [key: string]: V }`, one member a line.
 * @param {Array<{ key: string, optional: boolean, type: string, doc: string[] }>} members
 * @param {string | null} index the index signature's value type, if any
 * @param {string} indent of the line the literal starts on
 */
function objectLiteral(members, index, indent) {
  const inner = `${indent}  `;
  const lines = members.map((member) => `${docComment(member.doc, inner)}${inner}${IDENTIFIER.test(member.key) ? member.key : tsString(member.key)}${member.optional ? '?' : ''}: ${member.type};`);
  if (index !== null) lines.push(`${inner}[key: string]: ${index};`);
  return lines.length === 0 ? '{}' : `{\n${lines.join('\n')}\n${indent}}`;
}

/**
 * The doc comment of an error's class: its code and message, and the methods that declare it.
 * @param {ErrorPlan} error
 * @returns {string[]}
 */
function errorDoc(error) {
  return [`${error.code} ${JSON.stringify(oneLine(error.message))}, declared by ${error.methods.map(oneLine).join(', ')}.`];
}

/**
 * A doc comment on lines of its own, each starting with `indent`; '' for no lines.
 * @param {string[]} lines
 * @param {string} indent
 */
function docComment(lines, indent) {
  const safe = lines.map((line) => line.replace(/\*\//g, '*\\/'));
  if (safe.length === 0) return '';
  if (safe.length === 1) return `${indent}/** ${safe[0]} */\n`;
  return `${indent}/**\n${safe.map((line) => `${indent} *${line === '' ? '' : ` ${line}`}`).join('\n')}\n${indent} */\n`;
}

/**
 * A JSON value as a literal type.
 * @param {unknown} value
 * @returns {TypeText}
 */
function literal(value) {
  if (typeof value === 'string') return atom(tsString(value));
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return atom(JSON.stringify(value));
  if (Array.isArray(value)) return atom(`[${value.map((element) => literal(element).text).join(', ')}]`);
  if (isObject(value)) {
    return atom(`{ ${Object.entries(value).map(([key, member]) => `${IDENTIFIER.test(key) ? key : tsString(key)}: ${literal(member).text}`).join('; ')} }`);
  }
  throw new TypeError(`not a JSON value: ${kind(value)}`);
}

/** @param {TypeText[]} parts */
function union(parts) {
  const texts = [...new Set(parts.map((part) => part.text))];
  if (texts.length === 1) return parts.find((part) => part.text === texts[0]) ?? atom(texts[0]);
  return { text: texts.join(' | '), precedence: 0 };
}

/** @param {TypeText[]} parts */
function intersection(parts) {
  return { text: parts.map((part) => wrap(part, 1)).join(' & '), precedence: 1 };
}

/**
 * The type's text, in parentheses if it binds less tightly than `precedence` needs.
 * @param {TypeText} type
 * @param {number} precedence
 */
function wrap(type, precedence) {
  return type.precedence < precedence ? `(${type.text})` : type.text;
}

/** @param {string} text */
function atom(text) {
  return { text, precedence: 3 };
}

/**
 * `Ping.Result` → `PingResult`, `test.echo` → `TestEcho`, `MY_CUSTOM_PING` → `MyCustomPing`;
 * a word already in mixed case keeps it (`signMessage` → `SignMessage`).
 * @param {string} text
 */
function pascalCase(text) {
  return identifierStart(pascalWords(text));
}

/**
 * The words of `text` (its runs of letters, of any script, and decimal digits) joined in
 * PascalCase, as they are: it may start with a digit, or be empty.
 * @param {string} text
 */
function pascalWords(text) {
  const words = text.normalize('NFC').split(/[^\p{L}\p{Nd}]+/u).filter(Boolean);
  return words.map((word) => {
    const cased = word === word.toUpperCase() ? word.toLowerCase() : word;
    return cased.charAt(0).toUpperCase() + cased.slice(1);
  }).join('');
}

/**
 * `name` made an identifier's start: an underscore before a leading digit (`404NotFound` →
 * `_404NotFound`). Letters and decimal digits are all identifier characters in JavaScript and
 * TypeScript, so nothing else is needed.
 * @param {string} name
 */
function identifierStart(name) {
  return /^\p{Nd}/u.test(name) ? `_${name}` : name;
}

/**
 * An error class's name without the `Error` it ends in, from the error's message: its words,
 * less an `Error` before or after them (`Error: disk full`, `Disk full error` → `DiskFull`), made
 * an identifier after that (`Error 404` → `_404`); empty when no word is left (`Error`, `!!!`).
 * @param {string} message
 */
function errorStem(message) {
  let stem = pascalWords(message);
  for (let before = ''; before !== stem;) {
    before = stem;
    stem = stem.replace(/^Error(?!\p{Ll})/u, '').replace(/(.)Error$/u, '$1');
    if (stem === 'Error') stem = '';
  }
  return identifierStart(stem);
}

/**
 * A TypeScript string literal in single quotes.
 * @param {string} value
 */
function tsString(value) {
  return `'${JSON.stringify(value).slice(1, -1).replace(/\\"/g, '"').replace(/'/g, "\\'")}'`;
}

/** @param {string} value */
function oneLine(value) {
  return String(value).replace(/\s+/g, ' ').trim();
}

/**
 * The lines of an optional text.
 * @param {unknown} value
 * @returns {string[]}
 */
function text(value) {
  return typeof value === 'string' && value.trim() !== '' ? value.trim().split(/\r?\n/) : [];
}

/** @param {string} token a JSON Pointer token */
function unescapePointer(token) {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

/**
 * @param {unknown} value
 * @returns {value is Record<string, any>}
 */
function isObject(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** @param {unknown} value */
function kind(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return value === undefined ? 'nothing' : `a ${typeof value}`;
}
