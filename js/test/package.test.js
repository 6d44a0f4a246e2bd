// The package as a consumer sees it: its manifest, its entry point, and the match between what
// index.js exports and what index.d.ts declares (TypeScript cannot check that direction itself,
// since it always reads the .d.ts for index.js).
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
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

test('src/ imports nothing outside itself: no runtime dependency, no Node built-in', () => {
  for (const file of readdirSync(`${root}src`).filter((name) => name.endsWith('.js'))) {
    const source = readFileSync(`${root}src/${file}`, 'utf8');
    for (const [, specifier] of source.matchAll(/^\s*(?:import|export)\b[^'"]*from\s+'([^']+)'/gm)) {
      assert.match(specifier, /^\.\/[\w-]+\.js$/, `${file} imports ${specifier}`);
    }
  }
});

test('every name the README imports from the package is exported', async () => {
  const readme = readFileSync(`${root}README.md`, 'utf8');
  const exported = new Set(Object.keys(await import('../src/index.js')));
  const imported = [];
  for (const [, block] of readme.matchAll(/```js\n([\s\S]*?)```/g)) {
    for (const [, names] of block.matchAll(/import \{([^}]*)\} from '[^']*wallet-bridge[^']*'/g)) {
      imported.push(...names.split(',').map((name) => name.trim()).filter(Boolean));
    }
  }
  assert.ok(imported.length >= 5, 'the README shows imports');
  for (const name of imported) assert.ok(exported.has(name), `README imports ${name}, which is not exported`);
});
