// The shipped host's OpenRPC document, asked of the real built binary: what the tests that
// hold the JS package to the host (models.test.js, session-types.test.js) compare against.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { endianness } from 'node:os';
import { join } from 'node:path';

const ORIGIN = 'chrome-extension://abcdefghijklmnopabcdefghijklmnop/';

/**
 * The shipped host's answer to rpc.discover, asked as a browser would: one native-messaging
 * frame in, one out, then stdin closed (the host then exits). A scratch home, so it reads no
 * configuration and writes nothing of the user's.
 * @param {string} host the built `wallet-bridge`
 * @param {string} scratch
 */
export function discover(host, scratch) {
  /** @type {Record<string, string>} */
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: scratch };
  for (const [name, folder] of [['XDG_CONFIG_HOME', 'config'], ['XDG_DATA_HOME', 'data'], ['XDG_RUNTIME_DIR', 'runtime']]) {
    env[name] = join(scratch, folder);
    mkdirSync(env[name], { mode: 0o700 });
  }
  const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'rpc.discover' }), 'utf8');
  const header = Buffer.alloc(4);
  const littleEndian = endianness() === 'LE';
  if (littleEndian) header.writeUInt32LE(body.length); else header.writeUInt32BE(body.length);
  const run = spawnSync(host, [ORIGIN], { input: Buffer.concat([header, body]), env, timeout: 30_000 });
  assert.equal(run.error, undefined, `running ${host}: ${run.error?.message}`);
  const stderr = run.stderr.toString('utf8');
  assert.ok(run.stdout.length >= 4, `${host} answered no frame (exit ${run.status}):\n${stderr}`);
  const length = littleEndian ? run.stdout.readUInt32LE(0) : run.stdout.readUInt32BE(0);
  assert.equal(run.stdout.length, 4 + length, `${host} answered ${run.stdout.length} bytes for a frame of ${length}:\n${stderr}`);
  const reply = JSON.parse(run.stdout.subarray(4).toString('utf8'));
  assert.equal(reply.id, 1);
  assert.ok(reply.result !== undefined, `rpc.discover failed: ${JSON.stringify(reply.error)}\n${stderr}`);
  return reply.result;
}
