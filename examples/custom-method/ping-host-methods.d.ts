// TypeScript declarations for ping-host 1.0.0, generated from its OpenRPC document
// (OpenRPC 1.2.6) by wallet-bridge-types (js/bin/openrpc-to-ts.js).
// Generated: do not edit. Generate it again when the host changes.
import type { JsonValue, NativeMethod, NativeRpcId } from '../../js/src/index.js';
import { NativeRpcError } from '../../js/src/index.js';

// ---- MY_CUSTOM_PING_RPC_METHOD

export type PingParams = {
  pingParam1: string;
  pingParam2: readonly string[];
} | readonly [string, readonly string[], ...JsonValue[]];

export type PingResult = {
  pong: string;
};

/**
 * Answers a ping with a pong.
 * Errors: -32050 "Empty ping" (EmptyPingError).
 */
export type MyCustomPingRpcMethod = NativeMethod<'MY_CUSTOM_PING_RPC_METHOD', PingParams, PingResult>;

// ---- MY_CUSTOM_RESET_RPC_METHOD

/** Takes no params. */
export type MyCustomResetRpcParams = undefined;

export type MyCustomResetRpcResult = null;

export type MyCustomResetRpcMethod = NativeMethod<'MY_CUSTOM_RESET_RPC_METHOD', MyCustomResetRpcParams, MyCustomResetRpcResult>;

// ---- notes.list

/** Takes no params. */
export type NotesListParams = undefined;

export type ListNotesResult = {
  notes: string[];
};

/**
 * Lists the notes in the order saved.
 * Errors: -32051 "No notes folder" (NoNotesFolderError).
 */
export type NotesListMethod = NativeMethod<'notes.list', NotesListParams, ListNotesResult>;

// ---- notes.save

export type SaveNoteParams = {
  text: string;
};

export type SaveNoteResult = {
  /** Not in the type: integer, minimum about -9223372036854776000, maximum about 9223372036854776000. */
  count: number;
};

/**
 * Saves a note after the others.
 * Errors: -32051 "No notes folder" (NoNotesFolderError).
 */
export type NotesSaveMethod = NativeMethod<'notes.save', SaveNoteParams, SaveNoteResult>;

// ---- errors (their classes are defined by the error module, openrpc-to-ts --js)

/** The code of each error the methods declare, by name. */
export declare const HostErrorCode: Readonly<{
  emptyPing: -32050;
  noNotesFolder: -32051;
}>;

/** -32050 "Empty ping", declared by MY_CUSTOM_PING_RPC_METHOD. */
export declare class EmptyPingError extends NativeRpcError {
  /** The code and message are the declared ones unless given. */
  constructor(fields?: { message?: string; data?: JsonValue; id?: NativeRpcId | null; method?: string });
  static readonly code: -32050;
  code: -32050;
}

/** -32051 "No notes folder", declared by notes.list, notes.save. */
export declare class NoNotesFolderError extends NativeRpcError {
  /** The code and message are the declared ones unless given. */
  constructor(fields?: { message?: string; data?: JsonValue; id?: NativeRpcId | null; method?: string });
  static readonly code: -32051;
  code: -32051;
}

/** Every method of ping-host, by name: the params it takes and the result it answers with. */
export interface HostMethods {
  'MY_CUSTOM_PING_RPC_METHOD': { params: PingParams; result: PingResult };
  'MY_CUSTOM_RESET_RPC_METHOD': { params: MyCustomResetRpcParams; result: MyCustomResetRpcResult };
  'notes.list': { params: NotesListParams; result: ListNotesResult };
  'notes.save': { params: SaveNoteParams; result: SaveNoteResult };
}
