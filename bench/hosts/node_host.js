#!/usr/bin/env node
// The Node reference host: stdlib only, the usual shape of a Node native-messaging host
// (collect stdin chunks, cut frames, JSON.parse, JSON.stringify, one write of header and body).
// It answers the benchmark's requests with exactly the bytes wallet-bridge sends and keeps
// serving until end of input, as a connectNative host must.
'use strict';
const os = require('os');

const MAX_INBOUND = 64 * 1024 * 1024;
const MAX_OUTBOUND = 1048576;
const LE = os.endianness() === 'LE';  // the length is in native byte order

// The conformance host's two test accounts (public keys of seeds 0x01 x 32 and 0x02 x 32).
const ADDRESSES = [
  'iojj3XQJ8ZX9UtstPLpdcspnCb8dlBIb83SIAbQPb1w=',
  'gTl3Dqh9F19Wo1Rmw0x+zMuNipG07jeiXfYPW4/Js5Q=',
];

function send(json) {
  const body = Buffer.from(json, 'utf8');
  const frame = Buffer.allocUnsafe(4 + body.length);
  if (LE) frame.writeUInt32LE(body.length, 0); else frame.writeUInt32BE(body.length, 0);
  body.copy(frame, 4);
  process.stdout.write(frame);  // synchronous for pipes on Linux
}

const result = (id, value) => JSON.stringify({ jsonrpc: '2.0', id, result: value });
const error = (id, code, data, message) => JSON.stringify({ jsonrpc: '2.0', id, error: { code, data, message } });

function handle(request) {
  const id = request.id === undefined ? null : request.id;
  const params = request.params || {};
  switch (request.method) {
    case 'NATIVE_GET_ACCOUNTS_METHOD':
      return result(id, { addresses: ADDRESSES });
    case 'test.measure':
      return result(id, { bytes: Buffer.byteLength(params.data, 'utf8') });
    case 'test.echo': {
      const reply = result(id, request.params === undefined ? {} : request.params);
      const bytes = Buffer.byteLength(reply, 'utf8');
      if (bytes > MAX_OUTBOUND) return error(id, -32000, { bytes, limit: MAX_OUTBOUND }, 'Response too large');
      return reply;
    }
    case 'test.large': {
      const reply = result(id, 'x'.repeat(params.bytes));
      const bytes = Buffer.byteLength(reply, 'utf8');
      // The browser would drop the port: answer the error wallet-bridge answers instead.
      if (bytes > MAX_OUTBOUND) return error(id, -32000, { bytes, limit: MAX_OUTBOUND }, 'Response too large');
      return reply;
    }
    default:
      return error(id, -32601, { problem: `no method named "${String(request.method).slice(0, 128)}"` }, 'Method not found');
  }
}

// Chunks are kept in a list and joined once a whole frame is in, so a 60 MiB frame is copied
// once rather than once per 64 KiB chunk.
let chunks = [];
let buffered = 0;
process.stdin.on('data', (chunk) => {
  chunks.push(chunk);
  buffered += chunk.length;
  for (;;) {
    if (buffered < 4) return;
    if (chunks[0].length < 4) { chunks = [Buffer.concat(chunks)]; }
    const length = LE ? chunks[0].readUInt32LE(0) : chunks[0].readUInt32BE(0);
    if (length > MAX_INBOUND) {
      send(error(null, -32004, { problem: 'frame too large' }, 'Request too large'));
      process.exit(1);
    }
    if (buffered < 4 + length) return;
    const all = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, buffered);
    const body = all.subarray(4, 4 + length);
    const rest = all.subarray(4 + length);
    chunks = rest.length ? [rest] : [];
    buffered = rest.length;
    send(handle(JSON.parse(body.toString('utf8'))));
  }
});
process.stdin.on('end', () => process.exit(0));
