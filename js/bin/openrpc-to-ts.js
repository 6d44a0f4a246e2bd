#!/usr/bin/env node
// wallet-bridge-types: TypeScript declarations from a host's OpenRPC document.
//   wallet-bridge describe --host PATH | node js/bin/openrpc-to-ts.js > host-methods.d.ts
//   ... | node js/bin/openrpc-to-ts.js --out host-methods.d.ts --js host-methods.js   (error classes too)
// The work is src/openrpc-types.js; this reads, writes and reports. On a document it cannot
// read it prints why on stderr, nothing on stdout, writes no file, and exits 1.
import { readFileSync, writeFileSync } from 'node:fs';
import { declarationsFromOpenRPC, errorModuleFromOpenRPC } from '../src/openrpc-types.js';

const USAGE = `usage: openrpc-to-ts.js [FILE | -] [--out FILE] [--js FILE] [--import-from SPEC]

Reads an OpenRPC document (FILE, or stdin when FILE is - or absent) and writes TypeScript
declarations for its methods and their errors to stdout, or to --out FILE.
  --js FILE           also write the error module: HostErrorCode and a NativeRpcError subclass
                      for each declared error, registered so the client rejects with it. Give
                      it the name of the declarations (host-methods.js beside host-methods.d.ts)
  --import-from SPEC  where the package is imported from (default: wallet-bridge)
`;

/**
 * @param {string[]} args
 * @returns {{ input: string, out?: string, js?: string, importFrom?: string, help?: boolean }}
 */
function parseArguments(args) {
  /** @type {{ input: string, out?: string, js?: string, importFrom?: string, help?: boolean }} */
  const parsed = { input: '-' };
  let inputGiven = false;
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index];
    if (arg === '--help' || arg === '-h') {
      parsed.help = true;
    } else if (arg === '--out' || arg === '--js' || arg === '--import-from') {
      const value = args[index + 1];
      if (value === undefined) throw new UsageError(`${arg} needs a value`);
      index += 1;
      if (arg === '--out') parsed.out = value;
      else if (arg === '--js') parsed.js = value;
      else parsed.importFrom = value;
    } else if (arg.startsWith('-') && arg !== '-') {
      throw new UsageError(`unknown option ${arg}`);
    } else if (inputGiven) {
      throw new UsageError(`one input only, not ${arg} too`);
    } else {
      parsed.input = arg;
      inputGiven = true;
    }
  }
  return parsed;
}

class UsageError extends Error {}

function main() {
  /** @type {ReturnType<typeof parseArguments>} */
  let options;
  try {
    options = parseArguments(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`openrpc-to-ts: ${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  if (options.help) {
    process.stdout.write(USAGE);
    return;
  }
  const source = options.input === '-' ? 'stdin' : options.input;
  try {
    // fd 0 reads a pipe or a redirected file to its end.
    const text = readFileSync(options.input === '-' ? 0 : options.input, 'utf8');
    /** @type {unknown} */
    let document;
    try {
      document = JSON.parse(text);
    } catch (error) {
      throw new Error(`not JSON: ${error instanceof Error ? error.message : String(error)}`);
    }
    // Both made before either is written: a document it cannot read leaves no file behind.
    const declarations = declarationsFromOpenRPC(document, { importFrom: options.importFrom });
    const errorModule = options.js === undefined ? undefined : errorModuleFromOpenRPC(document, { importFrom: options.importFrom });
    if (options.out === undefined) process.stdout.write(declarations);
    else writeFileSync(options.out, declarations);
    if (options.js !== undefined && errorModule !== undefined) writeFileSync(options.js, errorModule);
  } catch (error) {
    process.stderr.write(`openrpc-to-ts: ${source}: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  }
}

main();
