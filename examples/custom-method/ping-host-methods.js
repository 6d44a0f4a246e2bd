// Error classes for ping-host 1.0.0, generated from its OpenRPC document
// (OpenRPC 1.2.6) by wallet-bridge-types (js/bin/openrpc-to-ts.js --js).
// Generated: do not edit. Generate it again when the host changes. Importing it registers each
// class for the methods that declare its error, so the client rejects with it; the declarations
// written from the same document, beside this file under the same name, type it.
import { NativeRpcError, registerNativeRpcErrorClass } from '../../js/src/index.js';

/** The code of each error the methods declare, by name. */
export const HostErrorCode = Object.freeze({
  emptyPing: -32050,
  noNotesFolder: -32051,
});

/** -32050 "Empty ping", declared by MY_CUSTOM_PING_RPC_METHOD. */
export class EmptyPingError extends NativeRpcError {
  static code = -32050;

  /** @param {Partial<ConstructorParameters<typeof NativeRpcError>[0]>} [fields] the code and message are the declared ones unless given */
  constructor(fields = {}) {
    super({ ...fields, code: -32050, message: fields.message ?? 'Empty ping' });
    this.name = 'EmptyPingError';
  }
}
registerNativeRpcErrorClass(-32050, EmptyPingError, { methods: ['MY_CUSTOM_PING_RPC_METHOD'] });

/** -32051 "No notes folder", declared by notes.list, notes.save. */
export class NoNotesFolderError extends NativeRpcError {
  static code = -32051;

  /** @param {Partial<ConstructorParameters<typeof NativeRpcError>[0]>} [fields] the code and message are the declared ones unless given */
  constructor(fields = {}) {
    super({ ...fields, code: -32051, message: fields.message ?? 'No notes folder' });
    this.name = 'NoNotesFolderError';
  }
}
registerNativeRpcErrorClass(-32051, NoNotesFolderError, { methods: ['notes.list', 'notes.save'] });
