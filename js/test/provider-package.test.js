// wallet-bridge/provider as a package entry point, and the reference wallet extension
// (examples/wallet-extension) as scripts/build-wallet-extension.sh assembles it: every file it
// names is there, every module it loads (static imports, and the content script's dynamic
// ones) is inside it and web-accessible where a page or content script loads it, the Chromium
// key gives the documented ID, and the build script keeps the output folder rules.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const js = fileURLToPath(new URL('../', import.meta.url));
const root = resolve(js, '..');
const example = join(root, 'examples/wallet-extension');
const script = join(root, 'scripts/build-wallet-extension.sh');
const CHROMIUM_ID = 'lomginbgokjlanbmjnnlmfopcncfonip';
const FIREFOX_ID = 'wallet@wallet-bridge.dev';
const scratch = mkdtempSync(join(tmpdir(), 'wallet-extension-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

test('wallet-bridge/provider: exported by name, and its index.js exports exactly what its index.d.ts declares', async () => {
  const manifest = JSON.parse(readFileSync(join(js, 'package.json'), 'utf8'));
  assert.deepEqual(manifest.exports['./provider'], { types: './src/provider/index.d.ts', default: './src/provider/index.js' });
  const byName = await import('wallet-bridge/provider');
  const declared = [...readFileSync(join(js, 'src/provider/index.d.ts'), 'utf8').matchAll(/^export (?:const|function|class) (\w+)/gm)].map((m) => m[1]);
  assert.deepEqual([...new Set(declared)].sort(), Object.keys(byName).sort());
  for (const name of ['installPageProviders', 'startContentScript', 'startWalletBackground']) assert.equal(typeof byName[name], 'function', name);
});

/** @param {string} file */
const staticImports = (file) => [...readFileSync(file, 'utf8').matchAll(/^\s*(?:import|export|\})[^'"]*from\s+'([^']+)'/gm)].map((m) => m[1]);

test('wallet-bridge/provider imports only the package\'s own modules, nothing of Node and nothing of wallet-bridge/testing', () => {
  const folder = join(js, 'src/provider');
  for (const file of readdirSync(folder).filter((name) => name.endsWith('.js'))) {
    for (const specifier of staticImports(join(folder, file))) {
      assert.match(specifier, /^\.\.?\/[\w-]+\.js$/, `${file} imports ${specifier}`);
      assert.ok(!/testing|fixture-runner/.test(specifier), `${file} imports ${specifier}`);
      assert.ok(existsSync(join(folder, specifier)), `${file} imports ${specifier}, which is not there`);
    }
  }
});

/**
 * Runs the build script.
 * @param {string[]} args
 * @param {Record<string, string>} [env]
 */
function build(args, env = {}) {
  return spawnSync('bash', [script, ...args], { encoding: 'utf8', env: { ...process.env, ...env } });
}

/**
 * Every module a file of the built extension loads: static imports, and `import(runtime.getURL('x'))`.
 * @param {string} out
 * @param {string} file relative to out
 * @returns {string[]} paths relative to out
 */
function loads(out, file) {
  const text = readFileSync(join(out, file), 'utf8');
  const found = staticImports(join(out, file)).map((specifier) => relative(out, resolve(dirname(join(out, file)), specifier)));
  for (const [, path] of text.matchAll(/import\(runtime\.getURL\('([^']+)'\)\)/g)) found.push(path);
  return found;
}

/**
 * The modules reachable from `entry`, and check each one is in the folder.
 * @param {string} out
 * @param {string} entry
 */
function reachable(out, entry) {
  const seen = new Set([entry]);
  const queue = [entry];
  while (queue.length > 0) {
    const file = /** @type {string} */ (queue.shift());
    assert.ok(existsSync(join(out, file)), `${file} is loaded but not in the extension`);
    for (const next of loads(out, file)) {
      if (!seen.has(next)) {
        seen.add(next);
        queue.push(next);
      }
    }
  }
  return seen;
}

/**
 * Chrome's web_accessible_resources matching: `*` is any run of characters, `/` included.
 * @param {string[]} patterns
 * @param {string} path
 */
const accessible = (patterns, path) => patterns.some((pattern) => new RegExp(`^${pattern.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`).test(path));

for (const browser of ['chromium', 'firefox']) {
  test(`build-wallet-extension.sh ${browser}: the manifest's files, every module each part loads, web-accessible where pages load them`, () => {
    const out = join(scratch, browser);
    const run = build([browser, out]);
    assert.equal(run.status, 0, run.stderr);
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'));
    assert.equal(manifest.manifest_version, 3);
    assert.ok(manifest.permissions.includes('nativeMessaging'));
    // Never in private windows: a site there must not share its normal session (the background refuses them too).
    assert.equal(manifest.incognito, 'not_allowed');
    const background = browser === 'chromium' ? manifest.background.service_worker : manifest.background.scripts[0];
    assert.equal(manifest.background.type, 'module');
    const [content] = manifest.content_scripts;
    assert.equal(content.run_at, 'document_start');
    assert.deepEqual(content.matches, ['http://*/*', 'https://*/*']);
    const named = [background, ...content.js, manifest.action.default_popup, ...Object.values(manifest.icons), ...Object.values(manifest.action.default_icon)];
    for (const file of named) assert.ok(existsSync(join(out, file)), `the manifest names ${file}, which is not there`);
    // The content script is a classic script: no static import, its modules by dynamic import.
    assert.deepEqual(staticImports(join(out, content.js[0])), []);
    const resources = manifest.web_accessible_resources[0].resources;
    assert.deepEqual(manifest.web_accessible_resources[0].matches, content.matches);
    // What the content script and the page load must be web-accessible; the background's and popup's need not be.
    const pageSide = new Set([...reachable(out, content.js[0]), ...reachable(out, 'page.js')]);
    pageSide.delete(content.js[0]);
    for (const file of pageSide) assert.ok(accessible(resources, file), `${file} is loaded by the content script or the page, and not web-accessible`);
    assert.ok(pageSide.has('page.js') && pageSide.has('wallet-bridge/provider/page.js') && pageSide.has('wallet-bridge/base58.js'), [...pageSide].join(' '));
    // The content script injects page.js by its URL, so it must be one of them.
    assert.match(readFileSync(join(out, content.js[0]), 'utf8'), /pageScriptUrl: runtime\.getURL\('page\.js'\)/);
    const backgroundSide = reachable(out, background);
    assert.ok(backgroundSide.has('wallet-bridge/provider/background.js') && backgroundSide.has('wallet-bridge/client.js'));
    const popupScript = /src="([^"]+)"/.exec(readFileSync(join(out, manifest.action.default_popup), 'utf8'))?.[1];
    assert.equal(popupScript, 'popup.js');
    reachable(out, 'popup.js');
    // Nothing of the test runner ships.
    assert.ok(!existsSync(join(out, 'wallet-bridge/testing.js')) && !existsSync(join(out, 'wallet-bridge/fixture-runner.js')));
    if (browser === 'firefox') {
      assert.equal(manifest.browser_specific_settings.gecko.id, FIREFOX_ID);
      assert.equal(manifest.key, undefined);
    } else {
      // The key fixes the ID: the first 32 hex digits of the SHA-256 of the key's DER, written a-p.
      const digest = createHash('sha256').update(Buffer.from(manifest.key, 'base64')).digest('hex').slice(0, 32);
      assert.equal([...digest].map((digit) => String.fromCharCode(97 + Number.parseInt(digit, 16))).join(''), CHROMIUM_ID);
    }
  });
}

test('the extension\'s settings: the wallet host\'s name, and the EIP-6963 icon as a data: URI of its PNG icon', async () => {
  const config = await import(join(example, 'config.js'));
  assert.equal(config.HOST_NAME, 'com.walletbridge.host');
  const png = readFileSync(join(example, 'icons/icon-96.png'));
  assert.equal(config.INFO.icon, `data:image/png;base64,${png.toString('base64')}`);
  assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  // EIP-6963's uuid is per page: none fixed here, page.js makes one each time it runs.
  assert.equal(config.INFO.uuid, undefined);
  assert.match(readFileSync(join(example, 'page.js'), 'utf8'), /uuid: crypto\.randomUUID\(\)/);
  const readme = readFileSync(join(example, 'README.md'), 'utf8');
  assert.ok(readme.includes(CHROMIUM_ID) && readme.includes(FIREFOX_ID), 'the README names both IDs');
});

test('build-wallet-extension.sh: WALLET_BRIDGE_HOST_NAME names another host; a name no browser takes is refused', () => {
  const out = join(scratch, 'renamed');
  const run = build(['firefox', out], { WALLET_BRIDGE_HOST_NAME: 'org.example.test_wallet' });
  assert.equal(run.status, 0, run.stderr);
  assert.match(readFileSync(join(out, 'config.js'), 'utf8'), /^export const HOST_NAME = 'org\.example\.test_wallet';$/m);
  const bad = build(['firefox', join(scratch, 'bad')], { WALLET_BRIDGE_HOST_NAME: "x'; alert(1); '" });
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /not a native host name/);
});

test('build-wallet-extension.sh: the output folder rules (a folder of yours, the sources, the checkout), and usage', () => {
  const mine = join(scratch, 'mine');
  mkdirSync(mine);
  writeFileSync(join(mine, 'keep.txt'), 'mine');
  const refused = build(['chromium', mine]);
  assert.equal(refused.status, 2);
  assert.match(refused.stderr, /was not written by this script/);
  assert.equal(readFileSync(join(mine, 'keep.txt'), 'utf8'), 'mine');
  for (const inside of [join(example, 'out'), join(js, 'src/out'), root]) {
    const run = build(['chromium', inside]);
    assert.equal(run.status, 2, inside);
    assert.ok(!existsSync(join(example, 'out')) && !existsSync(join(js, 'src/out')));
  }
  assert.equal(build(['safari']).status, 2);
  // A second run replaces its own output.
  const out = join(scratch, 'twice');
  assert.equal(build(['chromium', out]).status, 0);
  writeFileSync(join(out, 'stale.js'), '');
  assert.equal(build(['chromium', out]).status, 0);
  assert.ok(!existsSync(join(out, 'stale.js')));
});
