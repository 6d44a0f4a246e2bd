// The few Node APIs that src/fixture-runner.js and bin/openrpc-to-ts.js use, declared for
// `tsc -p js/tsconfig.json` only: Debian's tsc comes without @types/node, and the npm registry
// is out of reach. Signatures as in Node 20's documentation, narrowed to the forms used. Not
// shipped, and not needed by users of wallet-bridge/testing (src/testing.d.ts names no Node type).

declare module 'node:assert' {
  export class AssertionError extends Error {
    constructor(options: { message?: string; actual?: unknown; expected?: unknown; operator?: string });
    actual: unknown;
    expected: unknown;
    operator: string;
    generatedMessage: boolean;
  }
  export function deepStrictEqual(actual: unknown, expected: unknown, message?: string | Error): void;
}

declare module 'node:fs' {
  /** A path, a file: URL, or a file descriptor (0 is stdin). */
  export function readFileSync(path: string | URL | number, encoding: 'utf8'): string;
  export function writeFileSync(path: string | URL, data: string): void;
}

declare module 'node:test' {
  export interface TestOptions {
    /** true, or the reason shown for skipping. */
    skip?: boolean | string;
  }
  export interface TestContext {
    skip(message?: string): void;
  }
  export function describe(name: string, fn: () => void): Promise<void>;
  export function test(name: string, fn: (context: TestContext) => unknown): Promise<void>;
  export function test(name: string, options: TestOptions, fn: (context: TestContext) => unknown): Promise<void>;
}

declare var process: {
  argv: string[];
  exitCode: number | undefined;
  stdout: { write(chunk: string): boolean };
  stderr: { write(chunk: string): boolean };
};
