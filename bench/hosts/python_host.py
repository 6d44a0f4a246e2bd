#!/usr/bin/env python3
# The Python reference host, in the shape of MDN's native-messaging example (ping_pong.py):
# stdlib only, sys.stdin.buffer.read for the length and the body, json.loads, json.dumps,
# one write of header and body, flush. It answers the benchmark's requests with exactly the
# bytes wallet-bridge sends and loops until end of input, as a connectNative host must.
import json
import struct
import sys

MAX_INBOUND = 64 * 1024 * 1024
MAX_OUTBOUND = 1048576

# The conformance host's two test accounts (public keys of seeds 0x01 x 32 and 0x02 x 32).
ADDRESSES = [
    "iojj3XQJ8ZX9UtstPLpdcspnCb8dlBIb83SIAbQPb1w=",
    "gTl3Dqh9F19Wo1Rmw0x+zMuNipG07jeiXfYPW4/Js5Q=",
]


def get_message():
    raw_length = sys.stdin.buffer.read(4)
    if len(raw_length) < 4:
        sys.exit(0)  # end of input: the browser closed the port
    message_length = struct.unpack("@I", raw_length)[0]
    if message_length > MAX_INBOUND:
        send_message(error(None, -32004, {"problem": "frame too large"}, "Request too large"))
        sys.exit(1)
    body = sys.stdin.buffer.read(message_length)
    if len(body) < message_length:
        sys.exit(0)
    return json.loads(body.decode("utf-8"))


def encode(message):
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def send_message(encoded):
    sys.stdout.buffer.write(struct.pack("@I", len(encoded)) + encoded)
    sys.stdout.buffer.flush()


def error(request_id, code, data, message):
    return encode({"jsonrpc": "2.0", "id": request_id, "error": {"code": code, "data": data, "message": message}})


def result(request_id, value):
    return encode({"jsonrpc": "2.0", "id": request_id, "result": value})


def handle(request):
    request_id = request.get("id")
    method = request.get("method")
    params = request.get("params", {})
    if method == "NATIVE_GET_ACCOUNTS_METHOD":
        return result(request_id, {"addresses": ADDRESSES})
    if method == "test.measure":
        data = params["data"]
        return result(request_id, {"bytes": len(data) if data.isascii() else len(data.encode("utf-8"))})
    if method == "test.echo":
        reply = result(request_id, params)
        if len(reply) > MAX_OUTBOUND:
            return error(request_id, -32000, {"bytes": len(reply), "limit": MAX_OUTBOUND}, "Response too large")
        return reply
    if method == "test.large":
        reply = result(request_id, "x" * params["bytes"])
        if len(reply) > MAX_OUTBOUND:
            # The browser would drop the port: answer the error wallet-bridge answers instead.
            return error(request_id, -32000, {"bytes": len(reply), "limit": MAX_OUTBOUND}, "Response too large")
        return reply
    return error(request_id, -32601, {"problem": 'no method named "%s"' % str(method)[:128]}, "Method not found")


while True:
    send_message(handle(get_message()))
