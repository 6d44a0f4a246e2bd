// The package as a consumer sees it: its manifest, its entry point, and the match between what
// index.js exports and what index.d.ts declares (TypeScript cannot check that direction itself,
// since it always reads the .d.ts for index.js).
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));
const manifest = JSON.parse(readFileSync(`${root}package.json`, 'utf8'));

test('package.json: an ES module named wallet-bridge with exports and types, and no dependencies', () => {
  assert.equal(manifest.name, 'wallet-bridge');
  assert.equal(manifest.type, 'module');
  assert.equal(manifest.types, './src/index.d.ts');
  assert.deepEqual(manifest.exports['.'], { types: './src/index.d.ts', default: './src/index.js' });
  for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies', 'devDependencies']) {
    assert.equal(manifest[field], undefined, `${field} must stay empty: the package has none`);
  }
  assert.ok(existsSync(`${root}src/index.js`) && existsSync(`${root}src/index.d.ts`));
});

test('the package imports by its own name (no build step)', async () => {
  const byName = await import('wallet-bridge');
  const byPath = await import('../src/index.js');
  assert.equal(byName.sendNativeRpcRequest, byPath.sendNativeRpcRequest);
});

test('index.js exports exactly the values index.d.ts declares', async () => {
  const declarations = readFileSync(`${root}src/index.d.ts`, 'utf8');
  const declared = [...declarations.matchAll(/^export (?:const|function|class) (\w+)/gm)].map((m) => m[1]);
  const exported = Object.keys(await import('../src/index.js'));
  assert.deepEqual([...new Set(declared)].sort(), exported.sort());
});

/** @param {string} file a file in src/ */
const importsOf = (file) => [...readFileSync(`${root}src/${file}`, 'utf8').matchAll(/^\s*(?:import|export)\b[^'"]*from\s+'([^']+)'/gm)].map((m) => m[1]);

// wallet-bridge/testing runs under node --test, so it may use Node's built-ins; the files an
// extension loads may not.
const TESTING_ONLY = ['testing.js', 'fixture-runner.js'];

test('src/ imports nothing outside itself: no runtime dependency; Node built-ins only in wallet-bridge/testing', () => {
  for (const file of readdirSync(`${root}src`).filter((name) => name.endsWith('.js'))) {
    for (const specifier of importsOf(file)) {
      if (TESTING_ONLY.includes(file) && specifier.startsWith('node:')) continue;
      assert.match(specifier, /^\.\/[\w-]+\.js$/, `${file} imports ${specifier}`);
    }
  }
});

test('nothing index.js loads imports wallet-bridge/testing, so an extension never loads Node modules', () => {
  const seen = new Set(['index.js']);
  const queue = ['index.js'];
  while (queue.length > 0) {
    for (const specifier of importsOf(/** @type {string} */ (queue.shift()))) {
      const file = specifier.replace(/^\.\//, '');
      assert.ok(!TESTING_ONLY.includes(file) && !specifier.startsWith('node:'), `the extension's modules reach ${specifier}`);
      if (!seen.has(file)) {
        seen.add(file);
        queue.push(file);
      }
    }
  }
  assert.ok(seen.has('client.js') && seen.has('protocol.js'), 'the walk follows the imports');
});

test('wallet-bridge/testing: exported by name, and testing.js exports exactly what testing.d.ts declares', async () => {
  assert.deepEqual(manifest.exports['./testing'], { types: './src/testing.d.ts', default: './src/testing.js' });
  const byName = await import('wallet-bridge/testing');
  const declared = [...readFileSync(`${root}src/testing.d.ts`, 'utf8').matchAll(/^export (?:const|function|class) (\w+)/gm)].map((m) => m[1]);
  assert.deepEqual([...new Set(declared)].sort(), Object.keys(byName).sort());
});

test('bin: wallet-bridge-types is an executable Node script that ships', () => {
  assert.deepEqual(manifest.bin, { 'wallet-bridge-types': './bin/openrpc-to-ts.js' });
  assert.ok(manifest.files.includes('bin/'));
  const script = `${root}bin/openrpc-to-ts.js`;
  assert.match(readFileSync(script, 'utf8'), /^#!\/usr\/bin\/env node\n/);
  assert.ok((statSync(script).mode & 0o111) !== 0, 'the script is executable');
});

test('every name the README imports from the package is exported, by the entry point it names', async () => {
  const readme = readFileSync(`${root}README.md`, 'utf8');
  const exported = {
    main: new Set(Object.keys(await import('../src/index.js'))),
    testing: new Set(Object.keys(await import('../src/testing.js'))),
    provider: new Set(Object.keys(await import('../src/provider/index.js'))),
  };
  const imported = [];
  for (const [, block] of readme.matchAll(/```js\n([\s\S]*?)```/g)) {
    for (const [, names, specifier] of block.matchAll(/import \{([^}]*)\} from '([^']*wallet-bridge[^']*)'/g)) {
      const entry = /testing(\.js)?$/.test(specifier) ? 'testing' : /provider(\/index\.js)?$/.test(specifier) ? 'provider' : 'main';
      imported.push(...names.split(',').map((name) => ({ name: name.trim(), entry })).filter(({ name }) => name));
    }
  }
  assert.ok(imported.length >= 5, 'the README shows imports');
  assert.ok(imported.some(({ entry }) => entry === 'testing'), 'the README shows wallet-bridge/testing');
  for (const { name, entry } of imported) assert.ok(exported[entry].has(name), `README imports ${name} from the ${entry} entry point, which does not export it`);
});
