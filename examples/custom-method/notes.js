// The extension's side of notes.save and notes.list, methods with state (the Swift side is
// Sources/PingMethods/NotesMethods.swift; Fixtures/notes.json is the contract).
// In an extension, import from wherever you copied the package, e.g. './vendor/wallet-bridge/src/index.js'.
import { NativeProtocolError, sendNativeRpcRequest } from '../../js/src/index.js';

/**
 * @typedef {{ text: string }} SaveNoteParams
 * @typedef {{ count: number }} SaveNoteResult
 * @typedef {{ notes: string[] }} ListNotesResult
 */

/** @type {import('../../js/src/index.js').NativeMethod<'notes.save', SaveNoteParams, SaveNoteResult>} */
export const SAVE_NOTE = 'notes.save';

/** @type {import('../../js/src/index.js').NativeMethod<'notes.list', undefined, ListNotesResult>} */
export const LIST_NOTES = 'notes.list';

/** The host's own error when it has no notes folder (`noNotesFolder` in Swift). */
export const NO_NOTES_FOLDER = -32051;

/**
 * Saves one note after the others; resolves to how many there are now.
 * @param {string} text
 * @param {import('../../js/src/index.js').NativeClient} [client] left out: the default client
 * @returns {Promise<SaveNoteResult>}
 */
export async function saveNote(text, client) {
  const request = { method: SAVE_NOTE, params: { text } };
  const result = await (client ? client.request(request) : sendNativeRpcRequest(request));
  if (!Number.isInteger(result?.count)) {
    throw new NativeProtocolError({ kind: 'invalid-result', message: `${SAVE_NOTE} returned no count`, response: result, method: SAVE_NOTE });
  }
  return result;
}

/**
 * Every note, in the order saved, as `{ notes }`.
 * @param {import('../../js/src/index.js').NativeClient} [client] left out: the default client
 * @returns {Promise<ListNotesResult>}
 */
export async function listNotes(client) {
  const request = { method: LIST_NOTES };
  const result = await (client ? client.request(request) : sendNativeRpcRequest(request));
  if (!Array.isArray(result?.notes) || !result.notes.every((note) => typeof note === 'string')) {
    throw new NativeProtocolError({ kind: 'invalid-result', message: `${LIST_NOTES} returned no list of notes`, response: result, method: LIST_NOTES });
  }
  return result;
}
