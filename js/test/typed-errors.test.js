// Typed errors end to end (issue 35, item 5): a method's own errors, declared in the host's
// OpenRPC document, become constants and NativeRpcError subclasses in the module openrpc-to-ts
// writes (--js), which registers each for the methods that declare it; the client then rejects
// with that subclass, and the fixture runner accepts it (or an error caused by it). The
// registry is one per process: node --test runs each test file in its own, and the codes here
// are this file's.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { NativeRpcError, createNativeClient, registerNativeRpcErrorClass } from '../src/index.js';
import { declarationsFromOpenRPC, errorModuleFromOpenRPC } from '../src/openrpc-types.js';
import { checkFixtureCase } from '../src/testing.js';
import { fakeChrome, fakeFirefox, fakeWalletHost } from './fakes.js';
import { temporaryFolder } from './scratch.js';
import { tsc, tscMissing as missingCompiler } from './tsc.js';

const INDEX = fileURLToPath(new URL('../src/index.js', import.meta.url));
const SCRIPT = fileURLToPath(new URL('../bin/openrpc-to-ts.js', import.meta.url));
const tscMissing = missingCompiler('the generated module was not compiled');

/** A notes host, as the issue's developer wrote it: notes.delete with an error of its own. */
const NOTES = {
  openrpc: '1.2.6',
  info: { title: 'notes-host', version: '1.2.0' },
  methods: [
    {
      name: 'notes.delete',
      summary: 'Deletes a note.',
      paramStructure: 'by-name',
      params: [{ name: 'id', required: true, schema: { type: 'string' } }],
      result: { name: 'result', schema: { type: 'null' } },
      // A catalogue code that every method may get (the authorization's), and two of its own;
      // the same code twice: the first is the one.
      errors: [
        { code: -1, message: 'Authorization failed' },
        { code: -32040, message: 'Note not found', data: { id: 'n1' } },
        { code: -32041, message: 'Note is locked' },
        { code: -32041, message: 'Another meaning' },
      ],
    },
    {
      name: 'notes.save',
      paramStructure: 'by-name',
      params: [{ name: 'text', required: true, schema: { type: 'string' } }],
      result: { name: 'result', schema: { type: 'null' } },
      // The same error as notes.delete: one class, registered for both.
      errors: [{ code: -1, message: 'Authorization failed' }, { code: -32042, message: 'Error: disk full' }],
    },
    { name: 'notes.list', paramStructure: 'by-name', params: [], result: { name: 'result', schema: { type: 'array', items: { type: 'string' } } } },
  ],
};

/**
 * A fake host that answers `notes.*` with the error `error` names in its params, and
 * test.error as the shared fakes do.
 * @param {any} message
 */
function notesHost(message) {
  if (Array.isArray(message)) return message.map(notesHost);
  if (message.method.startsWith('notes.')) {
    return { jsonrpc: '2.0', id: message.id, error: { code: message.params.code, message: 'from the host', data: { id: 'n1' } } };
  }
  return fakeWalletHost(message);
}

/** @type {Promise<{ dir: string, module: any }> | undefined} */
let generatedOnce;

/**
 * The generated pair, written beside each other as a developer does, importing this package:
 * once, as an extension loads it once (a second copy's classes would be refused, as another
 * class for the same code and method).
 * @returns {Promise<{ dir: string, module: any }>}
 */
function generated() {
  generatedOnce ??= (async () => {
    const dir = temporaryFolder('wallet-bridge-typed-errors-');
    writeFileSync(join(dir, 'notes-methods.d.ts'), declarationsFromOpenRPC(NOTES, { importFrom: INDEX }));
    writeFileSync(join(dir, 'notes-methods.js'), errorModuleFromOpenRPC(NOTES, { importFrom: INDEX }));
    return { dir, module: await import(pathToFileURL(join(dir, 'notes-methods.js')).href) };
  })();
  return generatedOnce;
}

describe('the generated error module', () => {
  test('constants and a class per declared error, named from its message, registered for its methods', () => {
    const text = errorModuleFromOpenRPC(NOTES);
    assert.match(text, /^\/\/ Error classes for notes-host 1\.2\.0, generated from its OpenRPC document$/m);
    assert.match(text, /Generated: do not edit/);
    assert.match(text, /^import \{ NativeRpcError, registerNativeRpcErrorClass \} from 'wallet-bridge';$/m);
    assert.ok(text.includes([
      'export const HostErrorCode = Object.freeze({',
      '  authorizationFailed: -1,',
      '  noteNotFound: -32040,',
      '  noteIsLocked: -32041,',
      '  diskFull: -32042,',
      '});',
    ].join('\n')), text);
    assert.ok(text.includes([
      '/** -32040 "Note not found", declared by notes.delete. */',
      'export class NoteNotFoundError extends NativeRpcError {',
      '  static code = -32040;',
    ].join('\n')), text);
    assert.ok(text.includes('registerNativeRpcErrorClass(-1, AuthorizationFailedError, { methods: [\'notes.delete\', \'notes.save\'] });'), text);
    assert.ok(text.includes('registerNativeRpcErrorClass(-32040, NoteNotFoundError, { methods: [\'notes.delete\'] });'), text);
    // "Error: disk full" does not say Error twice; the second -32041 of one method is not a class.
    assert.ok(text.includes('export class DiskFullError extends NativeRpcError {'), text);
    assert.doesNotMatch(text, /AnotherMeaning/);
    assert.equal(errorModuleFromOpenRPC(structuredClone(NOTES)), text, 'deterministic');
  });

  test('the declarations declare the same names, and each method names its errors\' classes', () => {
    const text = declarationsFromOpenRPC(NOTES);
    assert.match(text, /^import \{ NativeRpcError \} from 'wallet-bridge';$/m);
    assert.ok(text.includes('export declare const HostErrorCode: Readonly<{\n  authorizationFailed: -1;\n  noteNotFound: -32040;\n  noteIsLocked: -32041;\n  diskFull: -32042;\n}>;'), text);
    assert.ok(text.includes('export declare class NoteNotFoundError extends NativeRpcError {\n'), text);
    assert.ok(text.includes('  static readonly code: -32040;\n  code: -32040;\n}'), text);
    assert.ok(text.includes(' * Errors: -1 "Authorization failed" (AuthorizationFailedError), -32040 "Note not found" (NoteNotFoundError), -32041 "Note is locked" (NoteIsLockedError).'), text);
    // A document that declares no errors gets neither.
    const none = declarationsFromOpenRPC({ ...NOTES, methods: [NOTES.methods[2]] });
    assert.doesNotMatch(none, /NativeRpcError|HostErrorCode/);
  });

  test('imported, it makes the client reject with the class for the methods that declare it, on both transports', async () => {
    const { module } = await generated();
    const { NoteNotFoundError, AuthorizationFailedError, DiskFullError, HostErrorCode } = module;
    assert.equal(HostErrorCode.noteNotFound, -32040);
    for (const [runtime, transport] of /** @type {const} */ ([[fakeFirefox, 'message'], [fakeChrome, 'port']])) {
      const client = createNativeClient({ application: 'notes', runtime: runtime({ notes: notesHost }), transport });
      await assert.rejects(client.request({ method: 'notes.delete', params: { code: -32040 } }), (error) => {
        assert.ok(error instanceof NoteNotFoundError, `${transport}: ${error}`);
        assert.ok(error instanceof NativeRpcError);
        assert.equal(error.name, 'NoteNotFoundError');
        // The host's own message and data, unchanged.
        assert.deepEqual(error.toJSON(), { code: -32040, message: 'from the host', data: { id: 'n1' } });
        assert.equal(error.method, 'notes.delete');
        return true;
      });
      await assert.rejects(client.request({ method: 'notes.save', params: { code: -1 } }), AuthorizationFailedError);
      await assert.rejects(client.request({ method: 'notes.save', params: { code: -32042 } }), DiskFullError);
      // notes.save does not declare -32040: a plain NativeRpcError, as is any code of a method
      // that declares none.
      await assert.rejects(client.request({ method: 'notes.save', params: { code: -32040 } }), (error) =>
        error instanceof NativeRpcError && error.constructor === NativeRpcError);
      await assert.rejects(client.request({ method: 'test.error', params: { code: -32040, message: 'x' } }), (error) =>
        error instanceof NativeRpcError && error.constructor === NativeRpcError);
      // A batch entry's error is typed the same way.
      const [entry] = await client.batch([{ method: 'notes.delete', params: { code: -32040 } }]);
      assert.ok(entry?.error instanceof NoteNotFoundError, `${transport}: ${entry?.error}`);
      client.close();
    }
  });

  test('a class can be made by hand (for fakes and tests): the declared code and message unless given', async () => {
    const { module: { NoteNotFoundError } } = await generated();
    const made = new NoteNotFoundError({ data: { id: 'n2' } });
    assert.deepEqual(made.toJSON(), { code: -32040, message: 'Note not found', data: { id: 'n2' } });
    assert.equal(NoteNotFoundError.code, -32040);
  });

  test('tsc --strict: the declarations type the classes, and the module itself checks', { skip: tscMissing, timeout: 120_000 }, async () => {
    const { dir } = await generated();
    writeFileSync(join(dir, 'consumer.ts'), `
import { createNativeClient } from ${JSON.stringify(INDEX)};
import { HostErrorCode, NoteNotFoundError, type NotesDeleteMethod } from './notes-methods.js';

const DELETE: NotesDeleteMethod = 'notes.delete';

export async function remove(id: string): Promise<string> {
  const client = createNativeClient({ application: 'notes' });
  try {
    await client.request({ method: DELETE, params: { id } });
    return 'deleted';
  } catch (error) {
    if (error instanceof NoteNotFoundError) {
      const code: -32040 = error.code;
      const same: typeof HostErrorCode.noteNotFound = code;
      return \`gone already (\${same}): \${error.message}\`;
    }
    throw error;
  }
}

export function wrongUses(): void {
  // @ts-expect-error the constant is the literal code
  const code: -1 = HostErrorCode.noteNotFound;
  // @ts-expect-error the constants are read-only
  HostErrorCode.noteNotFound = 5;
  // @ts-expect-error the code is the declared one: not a field to give
  void new NoteNotFoundError({ code: 1 });
  void code;
}
`);
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { strict: true, noEmit: true, target: 'ES2022', module: 'ES2022', moduleResolution: 'node', lib: ['ES2022', 'DOM'], noUnusedLocals: true, types: [] },
      files: ['consumer.ts', 'notes-methods.d.ts'],
    }));
    const typed = spawnSync(tsc, ['-p', join(dir, 'tsconfig.json')], { encoding: 'utf8' });
    assert.equal(typed.status, 0, `tsc failed:\n${typed.stdout}${typed.stderr}`);
    // The module as JavaScript, checked on its own (its JSDoc), as a project with checkJs does.
    const alone = temporaryFolder('wallet-bridge-typed-errors-');
    writeFileSync(join(alone, 'errors-only.js'), readFileSync(join(dir, 'notes-methods.js')));
    writeFileSync(join(alone, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { strict: true, noEmit: true, allowJs: true, checkJs: true, target: 'ES2022', module: 'ES2022', moduleResolution: 'node', lib: ['ES2022', 'DOM'], types: [] },
      files: ['errors-only.js'],
    }));
    const checked = spawnSync(tsc, ['-p', join(alone, 'tsconfig.json')], { encoding: 'utf8' });
    assert.equal(checked.status, 0, `tsc failed on the module:\n${checked.stdout}${checked.stderr}`);
  });

  test('the command writes the module with --js; a document it cannot read leaves neither file', () => {
    const dir = temporaryFolder('wallet-bridge-typed-errors-');
    const [out, js] = [join(dir, 'notes-methods.d.ts'), join(dir, 'notes-methods.js')];
    const run = spawnSync(process.execPath, [SCRIPT, '--out', out, '--js', js, '--import-from', './wb.js'], { input: JSON.stringify(NOTES), encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout, '');
    assert.equal(readFileSync(out, 'utf8'), declarationsFromOpenRPC(NOTES, { importFrom: './wb.js' }));
    assert.equal(readFileSync(js, 'utf8'), errorModuleFromOpenRPC(NOTES, { importFrom: './wb.js' }));

    const [badOut, badJs] = [join(dir, 'bad.d.ts'), join(dir, 'bad.js')];
    const bad = spawnSync(process.execPath, [SCRIPT, '--out', badOut, '--js', badJs], { input: JSON.stringify({ ...NOTES, methods: [{ name: 'x' }] }), encoding: 'utf8' });
    assert.equal(bad.status, 1);
    assert.equal(existsSync(badOut) || existsSync(badJs), false);
    const missing = spawnSync(process.execPath, [SCRIPT, '--js'], { input: '', encoding: 'utf8' });
    assert.equal(missing.status, 2);
    assert.match(missing.stderr, /--js needs a value/);
  });
});

describe('registerNativeRpcErrorClass', () => {
  class QuotaError extends NativeRpcError {}
  class OtherQuotaError extends NativeRpcError {}
  class SearchQuotaError extends NativeRpcError {}

  test('a class for any method, and one for a method, which wins', async () => {
    registerNativeRpcErrorClass(-32090, QuotaError);
    registerNativeRpcErrorClass(-32090, SearchQuotaError, { methods: ['search'] });
    const client = createNativeClient({ application: 'notes', runtime: fakeFirefox({ notes: notesHost }) });
    await assert.rejects(client.request({ method: 'test.error', params: { code: -32090, message: 'Over quota' } }), (error) => error.constructor === QuotaError);
    await assert.rejects(client.request({ method: 'notes.search', params: { code: -32090 } }), (error) => error.constructor === QuotaError);
    registerNativeRpcErrorClass(-32090, SearchQuotaError, { methods: ['notes.search'] });
    await assert.rejects(client.request({ method: 'notes.search', params: { code: -32090 } }), (error) => error.constructor === SearchQuotaError);
  });

  test('the same class again changes nothing; another class for a taken code is refused, and leaves nothing behind', async () => {
    registerNativeRpcErrorClass(-32091, QuotaError, { methods: ['notes.a'] });
    registerNativeRpcErrorClass(-32091, QuotaError, { methods: ['notes.a'] });
    assert.throws(() => registerNativeRpcErrorClass(-32091, OtherQuotaError, { methods: ['notes.b', 'notes.a'] }),
      { name: 'TypeError', message: 'error -32091 of notes.a is already QuotaError, not OtherQuotaError' });
    // notes.b was not registered by the refused call.
    const client = createNativeClient({ application: 'notes', runtime: fakeFirefox({ notes: notesHost }) });
    await assert.rejects(client.request({ method: 'notes.b', params: { code: -32091 } }), (error) => error.constructor === NativeRpcError);
  });

  test('what is not a NativeRpcError subclass, or not a code, is refused', () => {
    assert.throws(() => registerNativeRpcErrorClass(-32092, /** @type {any} */ (Error)), /must extend NativeRpcError/);
    assert.throws(() => registerNativeRpcErrorClass(-32092, NativeRpcError), /must extend NativeRpcError/);
    assert.throws(() => registerNativeRpcErrorClass(/** @type {any} */ ('-32092'), QuotaError), /an integer/);
    assert.throws(() => registerNativeRpcErrorClass(-32092, QuotaError, { methods: /** @type {any} */ ('notes.a') }), /list of method names/);
  });
});

describe('the fixture runner accepts the registered class', () => {
  const fixture = {
    name: 'delete-missing',
    rule: 'the method\'s own error',
    request: { jsonrpc: /** @type {const} */ ('2.0'), method: 'notes.delete', params: { id: 'n1' }, id: 1 },
    response: { jsonrpc: '2.0', id: 1, error: { code: -32040, message: 'Note not found', data: { id: 'n1' } } },
  };
  const options = (/** @type {any} */ call) => ({ file: 'notes.json', methods: { 'notes.delete': call } });
  /** @param {any} params @param {any} client */
  const deleteNote = (params, client) => client.request({ method: 'notes.delete', params });

  test('a rejection with the class, or with an error of the extension\'s own whose cause is one', async () => {
    const { module: { NoteNotFoundError } } = await generated();
    let rejected;
    assert.deepEqual(await checkFixtureCase(fixture, options(async (/** @type {any} */ params, /** @type {any} */ client) => {
      try {
        return await deleteNote(params, client);
      } catch (error) {
        rejected = error;
        throw error;
      }
    })), ['notes.delete sends the fixture\'s request', 'notes.delete rejects with the fixture\'s error']);
    assert.ok(rejected instanceof NoteNotFoundError, 'the runner\'s client threw the registered class');
    // The extension turns it into an error of its own, keeping the host's as the cause.
    class NotesUnavailable extends Error {}
    await checkFixtureCase(fixture, options((/** @type {any} */ params, /** @type {any} */ client) =>
      deleteNote(params, client).catch((error) => { throw new NotesUnavailable('cannot delete', { cause: error }); })));
  });

  test('a rejection that lost the class (a plain NativeRpcError made again) fails, naming the class', async () => {
    await generated();
    await assert.rejects(checkFixtureCase(fixture, options((/** @type {any} */ params, /** @type {any} */ client) =>
      deleteNote(params, client).catch((error) => { throw new NativeRpcError(error.toJSON()); }))),
    /notes\.delete rejects with the fixture's error: it rejected with NativeRpcError: Note not found, expected a NoteNotFoundError \(NativeRpcError\) -32040 "Note not found", or an error whose cause is one/);
  });
});
