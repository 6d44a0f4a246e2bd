// The session methods' declarations, generated from the shipped host's OpenRPC document by the
// package's own generator (src/openrpc-types.js): src/session-methods.d.ts and its error module
// src/session-methods.js. scripts/generate-session-types.sh writes them; session-types.test.js
// fails when the committed files are not what the host describes now.
import { declarationsFromOpenRPC, errorModuleFromOpenRPC } from '../src/openrpc-types.js';

/** The files, relative to js/src, and what they are generated from. */
export const SESSION_TYPES_DTS = 'session-methods.d.ts';
export const SESSION_TYPES_JS = 'session-methods.js';

/**
 * `document` with only its `session_*` methods (docs/sessions.md): walletlib's methods have
 * their own hand-written models.
 * @param {any} document
 */
export function sessionDocument(document) {
  return { ...document, methods: document.methods.filter((/** @type {any} */ method) => method.name.startsWith('session_')) };
}

/**
 * The two files' text for the shipped host's `document`.
 * @param {any} document
 * @returns {{ declarations: string, errors: string }}
 */
export function sessionTypes(document) {
  const sessions = sessionDocument(document);
  return {
    declarations: declarationsFromOpenRPC(sessions, { importFrom: './index.js' }),
    errors: errorModuleFromOpenRPC(sessions, { importFrom: './index.js' }),
  };
}
