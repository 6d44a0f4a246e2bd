// The TypeScript compiler the type tests run (Debian's node-typescript, or TSC=path), and why a
// test is skipped where there is none.
import { spawnSync } from 'node:child_process';

export const tsc = process.env.TSC ?? 'tsc';

/**
 * False where `tsc` runs; else the reason to skip a test, ending with what went unchecked.
 * @param {string} unchecked what the skipped test would have checked
 * @returns {string | false}
 */
export function tscMissing(unchecked) {
  return spawnSync(tsc, ['--version'], { encoding: 'utf8' }).error ? `"${tsc}" is not installed (set TSC to its path): ${unchecked}` : false;
}
