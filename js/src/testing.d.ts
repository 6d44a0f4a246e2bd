// Types of wallet-bridge/testing. Hand-written and kept honest by `tsc -p js/tsconfig.json`,
// where test/types-check.ts assigns the implementation (src/fixture-runner.js) to them.
import type { JsonValue, NativeClient } from './index.js';

export {};

/** One case of a fixture file, as docs/fixtures.md describes it. */
export interface FixtureCase {
  /** Unique within the file. */
  name: string;
  /** The rule it checks, in words. */
  rule?: string;
  /** The host's argv after argv[0] (the host's side only). */
  args?: string[];
  /**
   * Extra environment variables for the host (the host's side only), over the file's `env`;
   * `{tmpdir}` in a value is the file's temporary folder.
   */
  env?: { [name: string]: string };
  // Exactly one input:
  request?: JsonValue;
  request_text?: string;
  request_base64?: string;
  stream_base64?: string;
  /** The reply; null means no reply at all. */
  response: JsonValue;
  response_text_includes?: string[];
  /** The host must exit with this status after the input (framing cases). */
  exit_code?: number;
}

/** A fixture file, read and checked by loadFixtureFile. */
export interface FixtureFile {
  /** As given (a file: URL as its path), for messages. */
  path: string;
  /** The file's name, which names its suite. */
  name: string;
  description: string | undefined;
  /** The file's `env`, every case's (the host's side only); {} without one. */
  env: { [name: string]: string };
  /** The file's `setup` cases, run before its cases; [] without any. */
  setup: FixtureCase[];
  cases: FixtureCase[];
}

/**
 * The extension's side of one method: called with the fixture's `params` as written (`any`:
 * they are the fixture's, not yet checked against your types; a wrong shape fails the test,
 * not the compile) and a client whose replies come from the fixture. That client is also the
 * default client while the function runs, so code using `sendNativeRpcRequest` works too.
 */
export type FixtureMethod = (params: any, client: NativeClient) => unknown;

export interface FixtureMethodOptions {
  call: FixtureMethod;
  /**
   * Whether what `call` resolves to must deep-equal the fixture's `result` (default true).
   * false for a function that transforms the result: it must still resolve.
   */
  compareResult?: boolean;
}

export interface FixtureOptions {
  /** Your functions by method name. Cases of other methods get the generic checks. */
  methods?: { [method: string]: FixtureMethod | FixtureMethodOptions };
}

/** Reads a fixture file and checks its format; throws an Error naming the file and the case. */
export function loadFixtureFile(pathOrURL: string | URL): FixtureFile;

/**
 * Checks one case; resolves to what was checked, in words (empty when nothing can be checked
 * from the extension's side), or rejects with an AssertionError naming the case and the check.
 * `file` prefixes the messages. Checks must not overlap (each sets the default client).
 */
export function checkFixtureCase(fixtureCase: FixtureCase, options?: FixtureOptions & { file?: string }): Promise<string[]>;

/** Registers a node:test suite named after the file, with one test per case. */
export function runFixtureFile(pathOrURL: string | URL, options?: FixtureOptions): void;
