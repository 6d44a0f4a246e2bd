// The package's types as a strict TypeScript consumer sees them: runs `tsc -p
// test/types/tsconfig.json` on test/types/consumer.ts, whose correct uses must compile and whose
// `@ts-expect-error` lines must be refused. So `node --test` fails when the types regress.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { tsc, tscMissing } from './tsc.js';

const project = fileURLToPath(new URL('./types/tsconfig.json', import.meta.url));
const skip = tscMissing('the strict type consumer was not checked');

test('a strict TypeScript consumer: custom methods typed end to end, wrong params and results refused', { skip, timeout: 120_000 }, () => {
  const run = spawnSync(tsc, ['-p', project], { encoding: 'utf8' });
  assert.equal(run.error, undefined);
  assert.equal(run.status, 0, `tsc -p ${project} failed:\n${run.stdout}${run.stderr}`);
});
