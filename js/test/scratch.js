// Temporary folders for tests that write files (generated declarations, fixture files), all
// removed when the test file's tests are done.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';

const folders = /** @type {string[]} */ ([]);
after(() => { for (const folder of folders) rmSync(folder, { recursive: true, force: true }); });

/**
 * A fresh temporary folder, removed after the tests.
 * @param {string} prefix what the folder's name starts with, to tell whose it is
 * @returns {string}
 */
export function temporaryFolder(prefix) {
  const folder = mkdtempSync(join(tmpdir(), prefix));
  folders.push(folder);
  return folder;
}
