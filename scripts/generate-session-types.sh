#!/bin/sh
# Writes js/src/session-methods.d.ts and js/src/session-methods.js from the built host's
# rpc.discover (its session_* methods), with the JS package's own OpenRPC generator, and
# js/src/session-schemas.js, the schemas js/src/sessions.js checks against. Run it after changing
# a session method; js/test/session-types.test.js fails until then.
# WALLET_BRIDGE_BIN: the host to ask (default .build/debug/wallet-bridge; `swift build` first).
set -eu
cd "$(dirname "$0")/.."
exec node --input-type=module -e '
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { discover } from "./js/test/host-discover.js";
import { SESSION_SCHEMAS_JS, SESSION_TYPES_DTS, SESSION_TYPES_JS, sessionTypes } from "./js/test/session-types.js";
const host = process.env.WALLET_BRIDGE_BIN ?? ".build/debug/wallet-bridge";
const scratch = mkdtempSync(join(tmpdir(), "wallet-bridge-session-types-"));
let generated;
try { generated = sessionTypes(discover(host, scratch)); } finally { rmSync(scratch, { recursive: true, force: true }); }
const { declarations, errors, schemas } = generated;
writeFileSync(`js/src/${SESSION_TYPES_DTS}`, declarations);
writeFileSync(`js/src/${SESSION_TYPES_JS}`, errors);
writeFileSync(`js/src/${SESSION_SCHEMAS_JS}`, schemas);
'
