#!/usr/bin/env python3
"""Generates the shared conformance fixtures. Edit the cases here, run it, commit both."""
import json, base64, os, sys

sys.set_int_max_str_digits(0)  # the corpus holds 10,000-digit numbers
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives import serialization

# Writes Tests/Fixtures/*.json. Expected signatures come from Python's cryptography package, an
# Ed25519 implementation independent of the libsodium the host uses.
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'Tests', 'Fixtures')
def b64(b): return base64.b64encode(b).decode()
def key(seed):
    k = Ed25519PrivateKey.from_private_bytes(seed)
    pub = k.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return k, b64(pub)
KA, A = key(bytes([1]*32)); KB, B = key(bytes([2]*32))
def signed(k, payload): return b64(payload + k.sign(payload))

def req(method, params=None, id=None, notify=False):
    r = {"jsonrpc": "2.0", "method": method}
    if params is not None: r["params"] = params
    if not notify: r["id"] = id
    return r
def ok(id, result): return {"jsonrpc": "2.0", "id": id, "result": result}
def err(id, code, message, data=None):
    # Every error's data is an object (README, "Error codes"): a sentence is its "problem".
    if isinstance(data, str): data = {"problem": data}
    e = {"code": code, "message": message}
    if data is not None: e["data"] = data
    return {"jsonrpc": "2.0", "id": id, "error": e}
def case(name, rule, response, **kw):
    c = {"name": name, "rule": rule}
    c.update(kw); c["response"] = response
    return c
def write(fname, description, cases):
    names = [c["name"] for c in cases]; assert len(names) == len(set(names)), fname
    with open(os.path.join(OUT, fname), 'w') as f:
        json.dump({"description": description, "cases": cases}, f, indent=2, ensure_ascii=False); f.write('\n')
    return len(cases)
IR = lambda id, d: err(id, -32600, "Invalid Request", d)
PE = lambda d: err(None, -32700, "Parse error", d)
total = 0

# --- jsonrpc-spec-examples.json: section 7 of jsonrpc.org/specification
sp = []
sp.append(case("positional-params", "7: rpc call with positional parameters", ok(1, 19), request=req("subtract", [42, 23], 1)))
sp.append(case("positional-params-reversed", "7: rpc call with positional parameters", ok(2, -19), request=req("subtract", [23, 42], 2)))
sp.append(case("named-params", "7: rpc call with named parameters", ok(3, 19), request=req("subtract", {"subtrahend": 23, "minuend": 42}, 3)))
sp.append(case("named-params-other-order", "7: rpc call with named parameters", ok(4, 19), request=req("subtract", {"minuend": 42, "subtrahend": 23}, 4)))
sp.append(case("notification", "7: a Notification is not answered", None, request=req("update", [1, 2, 3, 4, 5], notify=True)))
sp.append(case("notification-unknown-method", "7: a Notification is not answered, even for a method that does not exist", None, request=req("foobar", notify=True)))
sp.append(case("non-existent-method", "7: rpc call of non-existent method", err("1", -32601, "Method not found", 'no method named "foobar"'), request=req("foobar", id="1")))
sp.append(case("invalid-json", "7: rpc call with invalid JSON", PE("expected ',' or '}' at byte 39"), request_text='{"jsonrpc": "2.0", "method": "foobar, "params": "bar", "baz]'))
sp.append(case("invalid-request-object", "7: rpc call with invalid Request object", IR(None, "method must be a string, not number"), request_text='{"jsonrpc": "2.0", "method": 1, "params": "bar"}'))
sp.append(case("batch-invalid-json", "7: rpc call Batch, invalid JSON", PE("expected ':' at byte 101"), request_text='[\n  {"jsonrpc": "2.0", "method": "sum", "params": [1,2,4], "id": "1"},\n  {"jsonrpc": "2.0", "method"\n]'))
sp.append(case("batch-empty", "7: rpc call with an empty Array gets one error, not an array", IR(None, "a batch must not be empty"), request=[]))
sp.append(case("batch-invalid-not-empty", "7: rpc call with an invalid Batch (but not empty)", [IR(None, "a request must be an object, not number")], request=[1]))
sp.append(case("batch-invalid", "7: rpc call with invalid Batch: one error per entry", [IR(None, "a request must be an object, not number")] * 3, request=[1, 2, 3]))
sp.append(case("batch-mixed", "7: rpc call Batch: results, errors and notifications, one array in one frame", [
    ok("1", 7), ok("2", 19), IR(None, "jsonrpc must be exactly \"2.0\""),
    err("5", -32601, "Method not found", 'no method named "foo.get"'), ok("9", ["hello", 5])],
    request=[req("sum", [1, 2, 4], "1"), req("notify_hello", [7], notify=True), req("subtract", [42, 23], "2"),
             {"foo": "boo"}, req("foo.get", {"name": "myself"}, "5"), req("get_data", id="9")]))
sp.append(case("batch-all-notifications", "7: rpc call Batch (all notifications) gets no reply", None,
    request=[req("notify_sum", [1, 2, 4], notify=True), req("notify_hello", [7], notify=True)]))
total += write("jsonrpc-spec-examples.json", "The examples of section 7 of the JSON-RPC 2.0 specification, word for word.", sp)

# --- requests.json: request validation and id echo
rq = []
rq.append(case("id-string", "4: an id may be a string, echoed as is", ok("abc", 3), request=req("sum", [1, 2], "abc")))
rq.append(case("id-integer", "4: an id may be a number", ok(1, 3), request=req("sum", [1, 2], 1)))
rq.append(case("id-fraction", "4: a fractional id is echoed exactly, distinct from 1", ok(1.5, 3), request_text='{"jsonrpc":"2.0","method":"sum","params":[1,2],"id":1.5}', response_text_includes=['"id":1.5,']))
rq.append(case("id-string-one", "4: \"1\" stays a string, distinct from the number 1", ok("1", 3), request=req("sum", [1, 2], "1"), response_text_includes=['"id":"1"']))
rq.append(case("id-lexeme-kept", "4: a number id is echoed with its exact lexeme", ok(1.5, 3), request_text='{"jsonrpc":"2.0","method":"sum","params":[1,2],"id":1.50}', response_text_includes=['"id":1.50,']))
rq.append(case("id-exponent", "4: an exponent id is echoed with its exact lexeme", ok(1000, 3), request_text='{"jsonrpc":"2.0","method":"sum","params":[1,2],"id":1e3}', response_text_includes=['"id":1e3,']))
big = "1234567890" * 4
rq.append(case("id-big-integer", "4: an integer id beyond 64 bits is echoed digit for digit", ok(int(big), 3), request_text='{"jsonrpc":"2.0","method":"sum","params":[1,2],"id":%s}' % big, response_text_includes=['"id":%s,' % big]))
rq.append(case("id-negative", "4: a negative id is echoed", ok(-7, 3), request=req("sum", [1, 2], -7)))
rq.append(case("id-null", "4: id null is a request, not a notification, and is answered", ok(None, 3), request=req("sum", [1, 2], None)))
rq.append(case("id-empty-string", "4: an empty string is a valid id", ok("", 3), request=req("sum", [1, 2], "")))
rq.append(case("id-unicode-string", "4: a string id keeps its characters", ok("ключ-🔑", 3), request=req("sum", [1, 2], "ключ-🔑")))
for n, v in [("object", {"a": 1}), ("array", [1]), ("boolean", True)]:
    rq.append(case("id-" + n, "4: an id that is not a string, number or null is an Invalid Request, answered with id null", IR(None, "id must be a string, a number or null, not " + n), request=req("sum", [1, 2], v)))
rq.append(case("jsonrpc-wrong-version", "4: jsonrpc must be exactly \"2.0\"; the id is still echoed", IR(5, 'jsonrpc must be exactly "2.0"'), request={"jsonrpc": "1.0", "method": "sum", "params": [1], "id": 5}))
rq.append(case("jsonrpc-missing", "4: a request without jsonrpc is invalid", IR(5, 'jsonrpc must be exactly "2.0"'), request={"method": "sum", "params": [1], "id": 5}))
rq.append(case("jsonrpc-number", "4: jsonrpc must be the string \"2.0\", not a number", IR(5, 'jsonrpc must be exactly "2.0"'), request_text='{"jsonrpc":2.0,"method":"sum","params":[1],"id":5}'))
rq.append(case("method-missing", "4: method is required", IR(6, "method is missing"), request={"jsonrpc": "2.0", "params": [1], "id": 6}))
for n, v in [("null", None), ("number", 1), ("array", ["sum"]), ("object", {"name": "sum"}), ("boolean", False)]:
    rq.append(case("method-" + n, "4: method must be a string", IR(7, "method must be a string, not " + n), request={"jsonrpc": "2.0", "method": v, "id": 7}))
for n, v in [("string", "bar"), ("number", 3), ("null", None), ("boolean", True)]:
    rq.append(case("params-" + n, "4.2: params must be an object or an array", IR(8, "params must be an object or an array, not " + n), request={"jsonrpc": "2.0", "method": "test.echo", "params": v, "id": 8}))
rq.append(case("params-omitted", "4: params may be omitted", ok(9, ["hello", 5]), request=req("get_data", id=9)))
rq.append(case("extra-member-ignored", "4: members the specification does not define are ignored", ok(10, 3), request={"jsonrpc": "2.0", "method": "sum", "params": [1, 2], "id": 10, "extra": True}))
for n, v in [("string", "hello"), ("number", 42), ("null", None), ("boolean", True)]:
    rq.append(case("top-level-" + n, "4: a request must be an object (or a batch array)", IR(None, "a request must be an object, not " + n), request=v))
rq.append(case("reserved-rpc-method", "4: names beginning with rpc. are reserved; none is registered", err(11, -32601, "Method not found", 'no method named "rpc.secret"'), request=req("rpc.secret", id=11)))
# rpc.discover is the one rpc. name a host answers (OpenRPC): its document is checked by the
# system tests and `wallet-bridge conform`, not pinned here, where every new method would change it.
rq.append(case("rpc-discover-takes-no-params", "OpenRPC: rpc.discover takes no params", err(14, -32602, "Invalid params", {"problem": "this method takes no parameters"}), request=req("rpc.discover", {"x": 1}, 14)))
rq.append(case("rpc-discover-notification", "4.1: rpc.discover as a notification is not answered", None, request=req("rpc.discover", notify=True)))
rq.append(case("method-case-sensitive", "method names are matched exactly, case included", err(12, -32601, "Method not found", 'no method named "Subtract"'), request=req("Subtract", [2, 1], 12)))
rq.append(case("invalid-request-without-id-answered", "5: an invalid request is answered even without an id (it is not a valid notification)", IR(None, "params must be an object or an array, not string"), request={"jsonrpc": "2.0", "method": "sum", "params": "x"}))
rq.append(case("notification-failing-handler", "4.1: a notification is never answered, even when its handler fails", None, request=req("test.fail", notify=True)))
rq.append(case("notification-invalid-params", "4.1: a notification is never answered, even with params that do not decode", None, request=req("subtract", {"x": 1}, notify=True)))
rq.append(case("echo-object", "params and result are real JSON values, not JSON strings", ok(13, {"a": [1, "two", None, True], "b": {"c": 1.25}}), request=req("test.echo", {"a": [1, "two", None, True], "b": {"c": 1.25}}, 13)))
total += write("requests.json", "Request validation (JSON-RPC 2.0 section 4) and exact id echo.", rq)

# --- params.json: -32602
pa = []
IP = lambda id, d: err(id, -32602, "Invalid params", d)
pa.append(case("missing-field", "params that do not decode are -32602, naming the field", IP(1, {"field": "subtrahend", "problem": "required field is missing"}), request=req("subtract", {"minuend": 1}, 1)))
pa.append(case("wrong-type-positional", "-32602 names the position and the expected type", IP(2, {"field": "[0]", "problem": "expected integer"}), request=req("subtract", ["a", 1], 2)))
pa.append(case("object-for-array", "-32602 when an object comes where an array is expected", IP(3, {"problem": "expected array"}), request=req("sum", {"a": 1}, 3)))
pa.append(case("wrong-type-field", "-32602 names the field", IP(4, {"field": "ms", "problem": "expected integer"}), request=req("test.sleep", {"ms": "x"}, 4)))
pa.append(case("null-field", "-32602 for null where a value is required", IP(5, {"field": "ms", "problem": "expected integer, found null or nothing"}), request=req("test.sleep", {"ms": None}, 5)))
pa.append(case("no-params-method-given-params", "-32602 when a method that takes no parameters gets some", IP(6, {"problem": "this method takes no parameters"}), request=req("get_data", [1], 6)))
pa.append(case("sign-missing-address", "SignPayloads needs address", IP(7, {"field": "address", "problem": "required field is missing"}), request=req("NATIVE_SIGN_PAYLOADS_METHOD", {"payloads": ["AA=="]}, 7)))
pa.append(case("sign-payloads-not-array", "SignPayloads payloads must be an array", IP(8, {"field": "payloads", "problem": "expected array"}), request=req("NATIVE_SIGN_PAYLOADS_METHOD", {"address": A, "payloads": "AA=="}, 8)))
pa.append(case("sign-payload-not-string", "each payload must be a string", IP(9, {"field": "payloads[1]", "problem": "expected string"}), request=req("NATIVE_SIGN_PAYLOADS_METHOD", {"address": A, "payloads": ["AA==", 5]}, 9)))
pa.append(case("get-accounts-with-params", "GetAccounts takes no parameters", IP(10, {"problem": "this method takes no parameters"}), request=req("NATIVE_GET_ACCOUNTS_METHOD", {"x": 1}, 10)))
pa.append(case("enum-value", "a value among a field's choices is taken", ok(11, {"mode": "guest"}), request=req("test.setMode", {"mode": "guest"}, 11)))
pa.append(case("enum-value-not-a-choice", "-32602 for a value that is not one of the field's choices, in the host's words, listing them", IP(12, {"field": "mode", "problem": 'expected one of "user", "guest"'}), request=req("test.setMode", {"mode": "admin"}, 12)))
total += write("params.json", "Params that do not decode into the method's type: -32602 with the problem in error.data.", pa)

# --- errors.json: the catalogue
er = []
er.append(case("unexpected-handler-error", "an unexpected handler error is -32603 and its details stay off the wire", err(1, -32603, "Internal error"), request=req("test.fail", id=1)))
for code, msg in [(-3, "Payload not signed"), (-1, "Authorization failed"), (-6, "Too many payloads")]:
    er.append(case("handler-error%d" % code, "a handler's RPCError goes out as thrown", err(2, code, msg), request=req("test.error", {"code": code, "message": msg}, 2)))
er.append(case("handler-error-custom-with-data", "a custom code with data is passed through", err(3, 42, "Custom failure", {"why": ["a", 1]}), request=req("test.error", {"code": 42, "message": "Custom failure", "data": {"why": ["a", 1]}}, 3)))
er.append(case("method-not-found", "-32601 names the method", err(4, -32601, "Method not found", 'no method named "nope"'), request=req("nope", id=4)))
er.append(case("small-result", "a result within the limit is sent", ok(5, "x" * 10), request=req("test.large", {"bytes": 10}, 5)))
er.append(case("response-too-large", "a reply over 1,048,576 bytes becomes -32000 for the same id", err(6, -32000, "Response too large", {"bytes": 1048576 + 36, "limit": 1048576}), request=req("test.large", {"bytes": 1048576}, 6)))
er.append(case("response-too-large-in-batch", "an oversized batch entry is replaced by -32000 for its id", [ok(1, "x"), err(2, -32000, "Response too large", {"bytes": 1100000 + 36, "limit": 1048576})], request=[req("test.large", {"bytes": 1}, 1), req("test.large", {"bytes": 1100000}, 2)]))
er.append(case("batch-reply-too-large", "a batch whose joined reply is over the limit gets one -32000 with id null", err(None, -32000, "Response too large", {"bytes": 2 * (600000 + 36) + 3, "limit": 1048576}), request=[req("test.large", {"bytes": 600000}, 1), req("test.large", {"bytes": 600000}, 2)]))
er.append(case("request-timeout", "a handler still running after the request timeout is answered with -32001", err(7, -32001, "Request timed out"), request=req("test.hang", id=7), env={"WALLET_BRIDGE_REQUEST_TIMEOUT_MS": "200"}))
er.append(case("overloaded", "a request beyond the in-flight limit is shed with -32003", [ok(1, {"slept": 50}), err(2, -32003, "Host overloaded", "the limit of 1 requests in flight is reached")], request=[req("test.sleep", {"ms": 50}, 1), req("test.sleep", {"ms": 50}, 2)], env={"WALLET_BRIDGE_MAX_IN_FLIGHT": "1"}))
er.append(case("batch-too-many-entries", "a batch above the configured size is one -32600", IR(None, "a batch of 3 requests exceeds the limit of 2"), request=[req("sum", [1], 1), req("sum", [2], 2), req("sum", [3], 3)], env={"WALLET_BRIDGE_MAX_BATCH": "2"}))
er.append(case("context-chrome", "the handler's context names the Chrome caller from argv", ok("c1", {"caller": "chrome-extension://abcdefghijklmnopabcdefghijklmnop/", "id": "c1", "method": "test.context"}), request=req("test.context", id="c1"), args=["chrome-extension://abcdefghijklmnopabcdefghijklmnop/"]))
er.append(case("context-chrome-parent-window", "Chrome may add --parent-window after the origin", ok("c2", {"caller": "chrome-extension://abcdefghijklmnopabcdefghijklmnop/", "id": "c2", "method": "test.context"}), request=req("test.context", id="c2"), args=["chrome-extension://abcdefghijklmnopabcdefghijklmnop/", "--parent-window=0"]))
er.append(case("context-firefox", "the handler's context names the Firefox add-on from argv", ok(3, {"caller": "wallet@example.org", "id": 3, "method": "test.context"}), request=req("test.context", id=3), args=["/home/u/.mozilla/native-messaging-hosts/com.walletbridge.host.json", "wallet@example.org"]))
er.append(case("context-unidentified", "started with no arguments the caller is unidentified", ok(4, {"caller": None, "id": 4, "method": "test.context"}), request=req("test.context", id=4)))
total += write("errors.json", "The error catalogue: every code the host core sends, and the handler context.", er)

# --- parse.json
pr = []
pr.append(case("trailing-comma", "RFC 8259: no trailing commas", PE("expected a string key at byte 17"), request_text='{"jsonrpc":"2.0",}'))
pr.append(case("single-quotes", "RFC 8259: strings use double quotes", PE("expected a string key at byte 1"), request_text="{'jsonrpc':'2.0'}"))
pr.append(case("nan", "RFC 8259: NaN is not JSON", PE("unexpected character at byte 12"), request_text='{"params":[NaN]}'.replace('{"params":[', '{"params": [')))
pr.append(case("leading-zero", "RFC 8259: no leading zeros", PE("expected ',' or '}' at byte 7"), request_text='{"id":01}'))
pr.append(case("trailing-garbage", "one JSON value per frame", PE("unexpected data after the JSON value at byte 3"), request_text='{} x'))
pr.append(case("empty-body", "a zero-length frame is not JSON", PE("unexpected end of input at byte 0"), request_text=''))
pr.append(case("whitespace-only", "whitespace alone is not JSON", PE("unexpected end of input at byte 3"), request_text=' \n\t'))
pr.append(case("byte-order-mark", "RFC 8259 8.1: a BOM is rejected (browsers never send one)", PE("a UTF-8 byte-order mark is not allowed at byte 0"), request_base64=b64(b'\xef\xbb\xbf' + json.dumps(req("sum", [1], 1)).encode())))
pr.append(case("invalid-utf8-in-string", "RFC 8259 8.1: text must be UTF-8", PE("invalid UTF-8 in string at byte 49"), request_base64=b64(b'{"jsonrpc":"2.0","method":"test.echo","params":["\xff\xfe"],"id":1}'.replace(b'"test.echo","params":["', b'"test.echo","params":["'))))
pr.append(case("invalid-utf8-outside-string", "bytes outside strings must be JSON syntax", PE("unexpected character at byte 0"), request_base64=b64(b'\xc3\x28')))
pr.append(case("lone-surrogate", "a lone UTF-16 surrogate escape cannot become text", PE("unpaired UTF-16 surrogate at byte 55"), request_text='{"jsonrpc":"2.0","method":"test.echo","params":["\\ud800"],"id":1}'))
pr.append(case("surrogate-pair", "an escaped surrogate pair is one character", ok(1, ["😀"]), request_text='{"jsonrpc":"2.0","method":"test.echo","params":["\\ud83d\\ude00"],"id":1}'))
pr.append(case("escapes", "every JSON escape decodes", ok(1, ["\"\\/\b\f\n\r\t\u0000é"]), request_text='{"jsonrpc":"2.0","method":"test.echo","params":["\\"\\\\\\/\\b\\f\\n\\r\\t\\u0000\\u00e9"],"id":1}'))
pr.append(case("raw-control-character", "RFC 8259: control characters in strings must be escaped", PE("unescaped control character in string at byte 49"), request_base64=b64(b'{"jsonrpc":"2.0","method":"test.echo","params":["\x00"],"id":1}')))
pr.append(case("duplicate-key", "duplicate keys are rejected: parsers disagree on which one wins", PE('duplicate key "method" at byte 32'), request_text='{"jsonrpc":"2.0","method":"sum","method":"subtract","params":[1,2],"id":1}'))
pr.append(case("duplicate-key-nested", "duplicate keys are rejected at any depth", PE('duplicate key "a" at byte 54'), request_text='{"jsonrpc":"2.0","method":"test.echo","params":{"a":1,"a":2},"id":1}'))
deep_ok = "[" * 126 + "]" * 126
pr.append(case("nesting-at-limit", "nesting up to 128 levels (request object included) is accepted", ok(1, [json.loads(deep_ok)]), request_text='{"jsonrpc":"2.0","method":"test.echo","params":[%s],"id":1}' % deep_ok))
deep_bad = "[" * 128 + "]" * 128
pr.append(case("nesting-over-limit", "deeper nesting is a parse error, not a stack overflow", PE("nesting deeper than 128 levels at byte %d" % (47 + 127)), request_text='{"jsonrpc":"2.0","method":"test.echo","params":[%s],"id":1}' % deep_bad))
digits = "9" * 1000
pr.append(case("long-number-id", "a 1,000-digit id is echoed exactly", ok(int(digits), 3), request_text='{"jsonrpc":"2.0","method":"sum","params":[1,2],"id":%s}' % digits, response_text_includes=['"id":%s,' % digits]))
pr.append(case("number-fraction-no-digits", "RFC 8259: a fraction needs digits", PE("invalid number: digit expected after '.' at byte 8"), request_text='{"id":1.}'))
pr.append(case("truncated-literal", "literals must be complete", PE("invalid literal at byte 0"), request_text='nul '))
total += write("parse.json", "Bodies that are not acceptable JSON: -32700 with id null, and the host keeps serving.", pr)

# --- framing.json
def frame(body): return len(body).to_bytes(4, 'little') + body
fr = []
fr.append(case("length-zero", "a zero-length frame is a parse error and the stream stays in sync", PE("unexpected end of input at byte 0"), stream_base64=b64(frame(b''))))
fr.append(case("length-one", "a one-byte frame is read as such", IR(None, "a request must be an object, not number"), stream_base64=b64(frame(b'1'))))
# Padded past the sentinel's 76 bytes, so the sentinel fits under the same limit.
small = json.dumps(req("sum", [1, 2], 1), separators=(',', ':')).encode().ljust(80)
fr.append(case("length-at-limit", "a frame exactly at the configured maximum is accepted", ok(1, 3), stream_base64=b64(frame(small)), env={"WALLET_BRIDGE_MAX_FRAME_BYTES": str(len(small))}))
fr.append(case("length-over-limit", "a header above the maximum is refused before allocation: one error frame, then exit 1", err(None, -32004, "Request too large", "frame of %d bytes exceeds the limit of %d bytes" % (len(small), len(small) - 1)), stream_base64=b64(frame(small)), env={"WALLET_BRIDGE_MAX_FRAME_BYTES": str(len(small) - 1)}, exit_code=1))
fr.append(case("length-max-uint32", "a header of 2^32-1 is refused at once", err(None, -32004, "Request too large", "frame of 4294967295 bytes exceeds the limit of 67108864 bytes"), stream_base64=b64(b'\xff\xff\xff\xff'), exit_code=1))
fr.append(case("length-just-over-default", "64 MiB + 1 is over the default maximum", err(None, -32004, "Request too large", "frame of 67108865 bytes exceeds the limit of 67108864 bytes"), stream_base64=b64((64 * 1048576 + 1).to_bytes(4, 'little')), exit_code=1))
fr.append(case("truncated-header", "end of input inside a header: no reply, exit 0", None, stream_base64=b64(b'\x10\x00'), exit_code=0))
fr.append(case("truncated-body", "end of input inside a body: no reply, exit 0", None, stream_base64=b64((100).to_bytes(4, 'little') + b'{"jsonrpc"'), exit_code=0))
fr.append(case("stray-text-as-length", "text where a header belongs reads as a huge length, as browsers see it", err(None, -32004, "Request too large", "frame of %d bytes exceeds the limit of 67108864 bytes" % int.from_bytes(b"/hom", "little")), stream_base64=b64(b'/home/user\n'), exit_code=1))
total += write("framing.json", "Native-messaging framing: lengths, limits and truncation.", fr)

# --- wallet.json
wa = []
GA, SP = "NATIVE_GET_ACCOUNTS_METHOD", "NATIVE_SIGN_PAYLOADS_METHOD"
hello, world = b"hello", bytes(range(256))
wa.append(case("get-accounts", "GetAccounts lists base64 public keys", ok(1, {"addresses": [A, B]}), request=req(GA, id=1)))
wa.append(case("get-accounts-empty-object", "GetAccounts accepts params {}", ok(2, {"addresses": [A, B]}), request=req(GA, {}, 2)))
wa.append(case("get-accounts-empty-array", "GetAccounts accepts params []", ok(3, {"addresses": [A, B]}), request=req(GA, [], 3)))
wa.append(case("sign-one", "each signed payload is base64(payload || 64-byte Ed25519 signature)", ok(4, {"signed_payloads": [signed(KA, hello)]}), request=req(SP, {"address": A, "payloads": [b64(hello)]}, 4)))
wa.append(case("sign-two-in-order", "signed payloads come back in request order", ok(5, {"signed_payloads": [signed(KB, hello), signed(KB, world)]}), request=req(SP, {"address": B, "payloads": [b64(hello), b64(world)]}, 5)))
wa.append(case("sign-unknown-address", "an address not in the wallet is -32602", IP(6, {"field": "address", "problem": "no account with this address"}), request=req(SP, {"address": b64(bytes(32)), "payloads": [b64(hello)]}, 6)))
wa.append(case("sign-empty-payloads", "no payloads is -2 with data.valid", err(7, -2, "Invalid payloads", {"valid": []}), request=req(SP, {"address": A, "payloads": []}, 7)))
wa.append(case("sign-bad-base64", "a payload that is not base64 is -2; data.valid marks which", err(8, -2, "Invalid payloads", {"valid": [True, False, True]}), request=req(SP, {"address": A, "payloads": [b64(hello), "not base64!", b64(world)]}, 8)))
wa.append(case("sign-empty-payload", "an empty payload is -2", err(9, -2, "Invalid payloads", {"valid": [False]}), request=req(SP, {"address": A, "payloads": [""]}, 9)))
wa.append(case("sign-base64url", "payloads are standard base64, not base64url", err(10, -2, "Invalid payloads", {"valid": [False]}), request=req(SP, {"address": A, "payloads": ["-_-_"]}, 10)))
wa.append(case("sign-unpadded", "payloads are padded base64", err(11, -2, "Invalid payloads", {"valid": [False]}), request=req(SP, {"address": A, "payloads": ["aGVsbG8"]}, 11)))
wa.append(case("sign-noncanonical-base64", "payloads are canonical base64: bits set after the last byte are refused", err(13, -2, "Invalid payloads", {"valid": [True, False]}), request=req(SP, {"address": A, "payloads": ["QQ==", "QR=="]}, 13)))
wa.append(case("sign-extra-padding", "payloads are canonical base64: at most two '=' of padding", err(14, -2, "Invalid payloads", {"valid": [False]}), request=req(SP, {"address": A, "payloads": ["QUJD===="]}, 14)))
wa.append(case("sign-too-many", "more payloads than the maximum is -6 (the test wallet allows 16)", err(12, -6, "Too many payloads", {"count": 17, "max": 16}), request=req(SP, {"address": A, "payloads": [b64(hello)] * 17}, 12)))
wa.append(case("sign-as-notification", "a notification is never answered, even SignPayloads", None, request=req(SP, {"address": A, "payloads": [b64(hello)]}, notify=True)))
wa.append(case("batch-accounts-then-sign", "the built-in methods work in a batch", [ok("a", {"addresses": [A, B]}), ok("s", {"signed_payloads": [signed(KA, world)]})], request=[req(GA, id="a"), req(SP, {"address": A, "payloads": [b64(world)]}, "s")]))
total += write("wallet.json", "GetAccounts and SignPayloads against the in-memory test wallet (seeds 0x01 x32 and 0x02 x32); signatures computed with Python's cryptography package.", wa)

# --- custom-methods.json: a developer's own method, ported from walletlib's README
cm = []
cm.append(case("walletlib-ping", "a custom method with typed params and result", ok(1, {"pong": "pong: ping (2 more)"}), request=req("MY_CUSTOM_PING_RPC_METHOD", {"pingParam1": "ping", "pingParam2": ["a", "b"]}, 1)))
cm.append(case("walletlib-ping-missing-field", "a custom method's params are checked like any other", IP(2, {"field": "pingParam2", "problem": "required field is missing"}), request=req("MY_CUSTOM_PING_RPC_METHOD", {"pingParam1": "ping"}, 2)))
cm.append(case("walletlib-ping-as-string-params", "walletlib sent params as a JSON string; here that is an Invalid Request", IR(3, "params must be an object or an array, not string"), request=req("MY_CUSTOM_PING_RPC_METHOD", '{"pingParam1":"ping","pingParam2":[]}', 3)))
total += write("custom-methods.json", "A developer's own method registered in one line (walletlib's MY_CUSTOM_PING_RPC_METHOD example).", cm)

# --- hostile.json: inputs an attacker controls, each with its documented outcome
ho = []
valid = json.dumps(req("sum", [1, 2], 1), separators=(',', ':')).encode()
def string_start(body, needle):
    """Offset where the string holding `needle` begins (the parser reports invalid UTF-8 there)."""
    at = body.index(needle)
    return body.rindex(b'"', 0, at) + 1
# truncation: end of input is the end of the session, never a crash; exit 0
ho.append(case("truncated-header-1-byte", "end of input after 1 header byte: no reply, exit 0", None, stream_base64=b64(b'\x05'), exit_code=0))
ho.append(case("truncated-header-3-bytes", "end of input after 3 header bytes: no reply, exit 0", None, stream_base64=b64(b'\x05\x00\x00'), exit_code=0))
ho.append(case("truncated-body-one-short", "a body one byte short: no reply, exit 0", None, stream_base64=b64(frame(valid)[:-1]), exit_code=0))
ho.append(case("truncated-after-a-whole-frame", "a whole frame is answered even when a truncated one follows", ok(1, 3), stream_base64=b64(frame(valid) + b'\x20\x00\x00\x00{"js'), exit_code=0))
ho.append(case("empty-input", "no bytes at all: no reply, exit 0", None, stream_base64="", exit_code=0))
# lengths
ho.append(case("length-2-pow-31", "a header of 2^31 is refused before any allocation", err(None, -32004, "Request too large", "frame of 2147483648 bytes exceeds the limit of 67108864 bytes"), stream_base64=b64((2**31).to_bytes(4, 'little')), exit_code=1))
ho.append(case("length-at-default-max-then-eof", "a header of exactly 64 MiB with no body reserves nothing and ends cleanly", None, stream_base64=b64((64 * 1048576).to_bytes(4, 'little') + b'{'), exit_code=0))
ho.append(case("length-over-small-max", "the maximum is configurable", err(None, -32004, "Request too large", "frame of 1025 bytes exceeds the limit of 1024 bytes"), stream_base64=b64((1025).to_bytes(4, 'little')), env={"WALLET_BRIDGE_MAX_FRAME_BYTES": "1024"}, exit_code=1))
# invalid UTF-8
def bad_utf8(name, rule, raw_string):
    body = b'{"jsonrpc":"2.0","method":"test.echo","params":["' + raw_string + b'"],"id":1}'
    return case(name, rule, PE("invalid UTF-8 in string at byte %d" % string_start(body, raw_string)), request_base64=b64(body))
ho.append(bad_utf8("utf8-overlong-slash", "overlong encodings are invalid UTF-8", b'a\xc0\xafb'))
ho.append(bad_utf8("utf8-encoded-surrogate", "UTF-8-encoded surrogates are invalid", b'\xed\xa0\x80'))
ho.append(bad_utf8("utf8-truncated-sequence", "a multi-byte sequence cut short is invalid", b'x\xe2\x82'))
ho.append(bad_utf8("utf8-f5-byte", "bytes F5..FF never occur in UTF-8", b'\xf5\x80\x80\x80'))
ho.append(bad_utf8("utf8-lone-continuation", "a continuation byte alone is invalid", b'\x80'))
ho.append(bad_utf8("utf8-after-escape", "invalid UTF-8 after an escape is still caught", b'\\n\xff'))
key_body = b'{"jsonrpc":"2.0","method":"sum","params":[1],"id":1,"\xff":1}'
ho.append(case("utf8-invalid-in-key", "keys must be UTF-8 too", PE("invalid UTF-8 in string at byte %d" % string_start(key_body, b'\xff')), request_base64=b64(key_body)))
method_body = b'{"jsonrpc":"2.0","method":"su\xffm","params":[1],"id":1}'
ho.append(case("utf8-invalid-in-method", "method names must be UTF-8", PE("invalid UTF-8 in string at byte %d" % string_start(method_body, b'su\xff')), request_base64=b64(method_body)))
ho.append(case("utf16le-body", "a UTF-16 body is not UTF-8 JSON", PE("expected a string key at byte 1"), request_base64=b64('{"jsonrpc":"2.0"}'.encode('utf-16-le'))))
ho.append(case("bom-alone", "a lone byte-order mark is rejected", PE("a UTF-8 byte-order mark is not allowed at byte 0"), request_base64=b64(b'\xef\xbb\xbf')))
ho.append(case("bom-inside-string", "U+FEFF inside a string is an ordinary character", ok(1, ["\ufeff"]), request_base64=b64(b'{"jsonrpc":"2.0","method":"test.echo","params":["\xef\xbb\xbf"],"id":1}')))
# nesting
ho.append(case("nested-arrays-100000", "100,000 nested arrays: a parse error at the limit, not a stack overflow", PE("nesting deeper than 128 levels at byte 128"), request_text="[" * 100000))
ho.append(case("nested-objects-100000", "100,000 nested objects: a parse error at the limit", PE("nesting deeper than 128 levels at byte %d" % (128 * 5)), request_text='{"a":' * 100000))
ho.append(case("nested-in-params-100000", "deep nesting inside params is refused the same way", PE("nesting deeper than 128 levels at byte %d" % (47 + 127)), request_text='{"jsonrpc":"2.0","method":"test.echo","params":' + "[" * 100000))
# numbers
d10k = "7" * 10000
ho.append(case("number-10000-digit-id", "a 10,000-digit id is echoed digit for digit", ok(int(d10k), 3), request_text='{"jsonrpc":"2.0","method":"sum","params":[1,2],"id":%s}' % d10k, response_text_includes=['"id":%s,' % d10k]))
ho.append(case("number-10000-digits-for-int", "a 10,000-digit number for an integer field is -32602, not a crash", IP(4, {"field": "[0]", "problem": "expected an integer in -9223372036854775808...9223372036854775807, found a 10000-character number"}), request_text='{"jsonrpc":"2.0","method":"sum","params":[%s],"id":4}' % d10k))
ho.append(case("number-10000-digit-echo", "arbitrary JSON params keep their number lexemes", ok(5, [int(d10k)]), request_text='{"jsonrpc":"2.0","method":"test.echo","params":[%s],"id":5}' % d10k, response_text_includes=['"result":[%s]' % d10k]))
ho.append(case("number-fraction-for-int", "1.5 for an integer field is refused, not rounded", IP(6, {"field": "[0]", "problem": "expected an integer in -9223372036854775808...9223372036854775807, found 1.5"}), request=req("sum", [1.5], 6)))
ho.append(case("number-overflow-exponent-for-int", "1e400 for an integer field is refused", IP(7, {"field": "ms", "problem": "expected an integer in -9223372036854775808...9223372036854775807, found 1e400"}), request_text='{"jsonrpc":"2.0","method":"test.sleep","params":{"ms":1e400},"id":7}'))
ho.append(case("number-negative-zero-id", "-0 is echoed as -0", ok(0, 3), request_text='{"jsonrpc":"2.0","method":"sum","params":[1,2],"id":-0}', response_text_includes=['"id":-0,']))
ho.append(case("number-huge-exponent-notification", "a huge exponent where an integer belongs, in a notification: no reply, no crash", None, request_text='{"jsonrpc":"2.0","method":"update","params":[1e99999999999999999999]}'))
# Found by fuzz-json-rpc: a number that no Double holds, inside a struct result, once failed
# with -32603 because the result went through JSONEncoder.
big_id = 123456789012345678901234567890
ho.append(case("number-huge-id-inside-result", "an id beyond 64 bits comes back digit for digit inside a handler's result too", ok(big_id, {"caller": None, "id": big_id, "method": "test.context"}), request_text='{"jsonrpc":"2.0","method":"test.context","id":%d}' % big_id, response_text_includes=['"result":{"caller":null,"id":%d,' % big_id]))
ho.append(case("number-plus-sign", "RFC 8259: no leading +", PE("unexpected character at byte 6"), request_text='{"id":+1}'))
ho.append(case("number-hex", "RFC 8259: no hex", PE("expected ',' or '}' at byte 7"), request_text='{"id":0x1F}'))
ho.append(case("number-infinity", "Infinity is not JSON", PE("unexpected character at byte 6"), request_text='{"id":Infinity}'))
# duplicate keys: the parser reports the offset of the repeated key
def dup(name, rule, text, key):
    first = text.index('"%s"' % key) if '"%s"' % key in text else None
    at = text.index('"%s"' % key, first + 1) if first is not None and text.count('"%s"' % key) > 1 else text.index('"\\u0069d"')
    return case(name, rule, PE('duplicate key "%s" at byte %d' % (key, at)), request_text=text)
ho.append(dup("duplicate-id", "a duplicate id key is rejected", '{"jsonrpc":"2.0","method":"sum","id":1,"id":2,"params":[1]}', "id"))
ho.append(dup("duplicate-jsonrpc", "a duplicate jsonrpc key is rejected", '{"jsonrpc":"2.0","jsonrpc":"1.0","method":"sum","params":[1],"id":1}', "jsonrpc"))
ho.append(dup("duplicate-params", "a duplicate params key is rejected", '{"jsonrpc":"2.0","method":"sum","params":[1],"params":[2],"id":1}', "params"))
ho.append(dup("duplicate-key-by-escape", "keys that differ only in escaping are duplicates", '{"jsonrpc":"2.0","method":"sum","id":1,"\\u0069d":2,"params":[1]}', "id"))
ho.append(dup("duplicate-in-batch-entry", "a duplicate key anywhere rejects the whole frame", '[{"jsonrpc":"2.0","method":"sum","params":[1],"id":1,"id":1}]', "id"))
# huge strings
big = "x" * 100000
ho.append(case("huge-method-name", "a 100,000-character method name: -32601 quoting only its start", err(8, -32601, "Method not found", 'no method named "%s"' % ("x" * 128)), request=req(big, id=8)))
ho.append(case("huge-string-for-int", "a 100,000-character string for an integer field", IP(9, {"field": "[0]", "problem": "expected integer"}), request=req("sum", [big], 9)))
ho.append(case("huge-string-id", "a 100,000-character id is echoed", ok(big, 3), request=req("sum", [1, 2], big)))
ho.append(case("huge-unknown-key", "a 100,000-character unknown member is ignored", ok(10, 3), request={"jsonrpc": "2.0", "method": "sum", "params": [1, 2], "id": 10, big: True}))
ho.append(case("lots-of-whitespace", "whitespace around tokens is allowed in any amount", ok(11, 3), request_text=" " * 50000 + '{"jsonrpc" : "2.0" ,\n"method":"sum",\t"params":[1,2],"id":11}' + "\n" * 50000))
# NUL bytes
ho.append(case("nul-in-method", "an escaped NUL in a method name is just a character", err(12, -32601, "Method not found", 'no method named "a\u0000b"'), request=req("a\u0000b", id=12)))
ho.append(case("nul-after-json", "a raw NUL after the value is trailing data", PE("unexpected data after the JSON value at byte %d" % len(valid)), request_base64=b64(valid + b'\x00')))
ho.append(case("nul-before-json", "a raw NUL before the value", PE("unexpected character at byte 0"), request_base64=b64(b'\x00' + valid)))
ho.append(case("nul-in-id", "an escaped NUL in a string id is echoed", ok("a\u0000b", 3), request=req("sum", [1, 2], "a\u0000b")))
ho.append(case("nul-only-body", "a body of NUL bytes", PE("unexpected character at byte 0"), request_base64=b64(b'\x00' * 16)))
# every wrong type in every field
for n, v in [("null", None), ("true", True), ("array", ["2.0"]), ("object", {"v": "2.0"}), ("2.00", "2.00"), ("2", "2"), ("padded", " 2.0"), ("empty", "")]:
    ho.append(case("jsonrpc-" + n, "jsonrpc must be exactly the string \"2.0\"", IR(13, 'jsonrpc must be exactly "2.0"'), request={"jsonrpc": v, "method": "sum", "params": [1], "id": 13}))
ho.append(case("method-empty-string", "an empty method name is a string and simply not found", err(14, -32601, "Method not found", 'no method named ""'), request=req("", id=14)))
ho.append(case("id-nested-object", "an object id is refused however deep", IR(None, "id must be a string, a number or null, not object"), request=req("sum", [1], {"a": {"b": [1]}})))
SP_ = "NATIVE_SIGN_PAYLOADS_METHOD"
for n, params, problem in [
    ("sign-address-number", {"address": 5, "payloads": ["AA=="]}, {"field": "address", "problem": "expected string"}),
    ("sign-address-null", {"address": None, "payloads": ["AA=="]}, {"field": "address", "problem": "expected string, found null or nothing"}),
    ("sign-address-array", {"address": [A], "payloads": ["AA=="]}, {"field": "address", "problem": "expected string"}),
    ("sign-payloads-null", {"address": A, "payloads": None}, {"field": "payloads", "problem": "expected array, found null or nothing"}),
    ("sign-payloads-object", {"address": A, "payloads": {"0": "AA=="}}, {"field": "payloads", "problem": "expected array"}),
    ("sign-payloads-nested", {"address": A, "payloads": [["AA=="]]}, {"field": "payloads[0]", "problem": "expected string"}),
    ("sign-payload-null", {"address": A, "payloads": [None]}, {"field": "payloads[0]", "problem": "expected string, found null or nothing"}),
    ("sign-payload-bool", {"address": A, "payloads": [True]}, {"field": "payloads[0]", "problem": "expected string"}),
    ("sign-params-array", [A, ["AA=="]], {"problem": "expected object"}),
]:
    ho.append(case(n, "every field of SignPayloads refuses every wrong type with -32602", IP(15, problem), request=req(SP_, params, 15)))
ho.append(case("sign-params-empty-array", "params [] for object-shaped params reads as {}: accepted exactly when {} is, so here the missing address is named", IP(15, {"field": "address", "problem": "required field is missing"}), request=req(SP_, [], 15)))
ho.append(case("sign-address-empty", "an empty address matches no account", IP(16, {"field": "address", "problem": "no account with this address"}), request=req(SP_, {"address": "", "payloads": ["AA=="]}, 16)))
ho.append(case("sign-address-short-key", "a 31-byte key matches no account", IP(17, {"field": "address", "problem": "no account with this address"}), request=req(SP_, {"address": b64(bytes(31)), "payloads": ["AA=="]}, 17)))
ho.append(case("sign-address-secret-looking", "an address is never treated as key material", IP(18, {"field": "address", "problem": "no account with this address"}), request=req(SP_, {"address": b64(bytes([1] * 64)), "payloads": ["AA=="]}, 18)))
for n, v, problem in [("bool", True, "expected integer"), ("array", [1], "expected integer"), ("object", {"n": 1}, "expected integer"), ("string", "10", "expected integer")]:
    ho.append(case("sleep-ms-" + n, "a wrong type for an integer field", IP(19, {"field": "ms", "problem": problem}), request=req("test.sleep", {"ms": v}, 19)))
ho.append(case("subtract-too-few", "a missing positional param", IP(20, {"field": "[1]", "problem": "expected integer, found null or nothing"}), request=req("subtract", [1], 20)))
ho.append(case("get-accounts-string-params", "params of the wrong kind are an Invalid Request before any method runs", IR(21, "params must be an object or an array, not string"), request=req("NATIVE_GET_ACCOUNTS_METHOD", "{}", 21)))
# batches
ho.append(case("batch-100000-entries", "a batch of 100,000 entries is refused whole, not run", IR(None, "a batch of 100000 requests exceeds the limit of 1024"), request_text="[" + ",".join(["1"] * 100000) + "]"))
ho.append(case("batch-at-limit-notifications", "a batch of exactly 1024 notifications runs and gets no reply", None, request=[req("update", [1], notify=True)] * 1024))
ho.append(case("batch-over-limit-by-one", "1025 entries is over the default limit", IR(None, "a batch of 1025 requests exceeds the limit of 1024"), request=[req("update", [1], notify=True)] * 1025))
ho.append(case("batch-nested", "a batch inside a batch is an invalid entry", [IR(None, "a request must be an object, not array")], request=[[req("sum", [1], 1)]]))
ho.append(case("batch-null-entry", "a null entry is invalid", [IR(None, "a request must be an object, not null")], request=[None]))
ho.append(case("batch-duplicate-ids", "duplicate ids in a batch are each answered", [ok(1, 1), ok(1, 2)], request=[req("sum", [1], 1), req("sum", [2], 1)]))
ho.append(case("batch-invalid-and-notification", "an invalid entry is answered while a notification beside it is not", [IR(None, "a request must be an object, not number")], request=[1, req("update", [1], notify=True)]))
total += write("hostile.json", "Hostile input: truncation, extreme lengths, invalid UTF-8, deep nesting, huge numbers and strings, duplicate keys, NUL bytes, every wrong type in every field, huge batches. Each with its documented outcome; after every case that keeps the framing, the host goes on serving.", ho)

# --- sessions.json: the session methods of docs/sessions.md against the conformance host's
# sessions (Sources/WalletBridgeConformance/TestSessions.swift, README "The host they run
# against"): the test keys, a clock fixed at WALLET_BRIDGE_TEST_NOW (default 1800000000), the
# n-th session opened named n in 64 hex digits, one pre-seeded session, and a person who answers
# as WALLET_BRIDGE_TEST_CONSENT says (approve by default).
#
# The JS suite's port transport runs the cases that share args and env on one host, in this
# order, so each case must also hold after the cases before it with the same args and env:
# every successful session_connect has a caller of its own (its topic is then always the first),
# session_list of the pre-seeded session comes before session_extend moves its expiry, and
# session_disconnect of it comes last (the one with a reason uses Chrome's argv with
# --parent-window, the same caller on another host).
B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
def b58(data):
    """Base58 (Bitcoin alphabet), written here from its definition, not taken from the host's."""
    n, text = int.from_bytes(data, "big"), ""
    while n: n, digit = divmod(n, 58); text = B58[digit] + text
    return "1" * (len(data) - len(data.lstrip(b"\0"))) + text
assert b58(bytes(32)) == "1" * 32 and b58(b"\0\x01") == "12" and b58(b"hello world") == "StV1DL6CwTryKyV"
A58, B58_ = b58(base64.b64decode(A)), b58(base64.b64decode(B))
def sig58(k, message): return b58(k.sign(message))

NOW, DAY, WEEK = 1800000000, 86400, 604800
M, D, T = "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp", "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1", "solana:4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z"
SIGN, GET, REQ_ACCOUNTS, CHANGED = "solana_signMessage", "solana_getAccounts", "solana_requestAccounts", "accountsChanged"
P = "chrome-extension://abcdefghijklmnopabcdefghijklmnop/"   # the pre-seeded session's caller
Q = "chrome-extension://ponmlkjihgfedcbaponmlkjihgfedcba/"   # another extension, with no session
def chrome(letter): return "chrome-extension://%s/" % (letter * 32)
FIREFOX_MANIFEST = "/home/u/.mozilla/native-messaging-hosts/com.walletbridge.host.json"
SEED = "5eed" * 16
def topic(n): return "%064x" % n
def ns(chains, methods, events): return {"chains": chains, "methods": methods, "events": events}
def granted(chains, methods, events, keys=(A58, B58_)):
    return {**ns(chains, methods, events), "accounts": ["%s:%s" % (c, k) for c in chains for k in keys]}
def meta(name, description="", url="", icons=()): return {"name": name, "description": description, "url": url, "icons": list(icons)}
WALLET = meta("wallet-bridge", "A desktop wallet for browser extensions, through native messaging")
def session(topic_, namespaces, required, optional, expiry, metadata):
    return {"topic": topic_, "namespaces": namespaces, "requiredNamespaces": required, "optionalNamespaces": optional,
            "expiry": expiry, "self": {"metadata": metadata}, "peer": {"metadata": WALLET}}
def preseeded(keys=(A58, B58_), expiry=NOW - DAY + WEEK):
    return session(SEED, {"solana": granted([M, D], [SIGN, GET], [CHANGED], keys)}, {"solana": ns([M], [SIGN, GET], [CHANGED])},
                   {"solana": ns([D], [SIGN], [])}, expiry,
                   meta("Fixture dApp", "The conformance host's pre-seeded session", "https://example.org", ["https://example.org/icon.png"]))
DAPP = meta("Example dApp", "Signs in with Solana", "https://example.org", ["https://example.org/icon.png"])
PROPOSAL = {"requiredNamespaces": {"solana": ns([M], [SIGN], [CHANGED])}, "metadata": DAPP}
def proposal(required=None, optional=None, metadata=DAPP):
    p = {}
    if required is not None: p["requiredNamespaces"] = required
    if optional is not None: p["optionalNamespaces"] = optional
    if metadata is not None: p["metadata"] = metadata
    return p
def in_session(inner, chain=M, topic_=SEED, expiry=None):
    p = {"topic": topic_, "chainId": chain, "request": inner}
    if expiry is not None: p["expiry"] = expiry
    return p
def sign_message(message, pubkey=A58): return {"method": SIGN, "params": {"message": b58(message), "pubkey": pubkey}}
def invalid(id, field, problem): return IP(id, {"field": field, "problem": problem})
E7001 = lambda id: err(id, 7001, "No session for topic")
CONSENT = "WALLET_BRIDGE_TEST_CONSENT"
TOPIC_PROBLEM = "expected 64 lowercase hex digits"
EXPIRY_WINDOW = "must be between 5 minutes and 7 days from now"
SC, SL, SR, SE, SD = "session_connect", "session_list", "session_request", "session_extend", "session_disconnect"
se = []

# session_connect: the answer is the whole session.
se.append(case("connect", "session_connect: the session holds the required namespaces and what the wallet supports of the optional ones (unsupported chains, methods and namespaces dropped); its accounts are every key on every chain, chain by chain; required and optional namespaces and the extension's metadata come back as proposed; it lasts the 7-day lifetime from now; `self` is the caller, `peer` the wallet",
    ok(1, session(topic(1), {"solana": granted([M, D], [SIGN, "solana_signTransaction"], [CHANGED])},
                  {"solana": ns([M], [SIGN], [CHANGED])},
                  {"solana": ns([D, "solana:notarealgenesishash"], [SIGN, "solana_signTransaction", "solana_signAndSendTransaction"], []), "cosmos": ns(["cosmos:cosmoshub-4"], ["cosmos_signDirect"], [])},
                  NOW + WEEK, DAPP)),
    args=[chrome("b")],
    request=req(SC, proposal({"solana": ns([M], [SIGN], [CHANGED])},
                             {"solana": ns([D, "solana:notarealgenesishash"], [SIGN, "solana_signTransaction", "solana_signAndSendTransaction"], []), "cosmos": ns(["cosmos:cosmoshub-4"], ["cosmos_signDirect"], [])}), 1)))
se.append(case("connect-chain-id-key", "session_connect: a namespace keyed by a chain id stands for that one chain, and the session names it under its namespace; metadata's description, url and icons default to empty",
    ok(2, session(topic(1), {"solana": granted([M], [SIGN, GET], [])}, {"solana": ns([M], [SIGN, GET], [])}, {}, NOW + WEEK, meta("Chain-keyed dApp"))),
    args=[chrome("c")], request=req(SC, proposal({M: {"methods": [SIGN, GET], "events": []}}, metadata={"name": "Chain-keyed dApp"}), 2)))
se.append(case("connect-optional-only", "session_connect: requiredNamespaces may be left out when optionalNamespaces ask for a supported chain (here from a Firefox add-on, named by argv's second member)",
    ok(3, session(topic(1), {"solana": granted([D, T], [GET], [CHANGED])}, {}, {"solana": ns([D, T], [GET], [CHANGED])}, NOW + WEEK, meta("Optional dApp", url="https://optional.example"))),
    args=[FIREFOX_MANIFEST, "dapp@example.org"],
    request=req(SC, proposal(optional={"solana": ns([D, T], [GET], [CHANGED])}, metadata={"name": "Optional dApp", "url": "https://optional.example"}), 3)))
# Refused before anyone is asked.
se.append(case("connect-unsupported-chains", "session_connect: required chains the wallet does not support are 5100, data.chains listing every one", err(4, 5100, "Unsupported chains", {"chains": ["solana:notarealgenesishash", "solana:anotherfakechain"]}),
    args=[Q], request=req(SC, proposal({"solana": ns([M, "solana:notarealgenesishash", "solana:anotherfakechain"], [SIGN], [])}), 4)))
se.append(case("connect-unsupported-methods", "session_connect: required methods the wallet does not support are 5101, data.methods listing every one; a method that sends (the wallet has no network) also gets data.problem saying what to use instead",
    err(5, 5101, "Unsupported methods", {"methods": ["solana_signAndSendTransaction", "solana_getBalance"],
        "problem": "the wallet has no network and sends nothing, so it offers no solana_signAndSendTransaction: sign with solana_signTransaction, then send the signed transaction from the extension (sendTransaction)"}),
    args=[Q], request=req(SC, proposal({"solana": ns([M], [SIGN, "solana_signTransaction", "solana_signAndSendTransaction", "solana_getBalance"], [])}), 5)))
se.append(case("connect-unsupported-events", "session_connect: required events the wallet does not support are 5102, data.events listing them", err(6, 5102, "Unsupported events", {"events": ["chainChanged"]}),
    args=[Q], request=req(SC, proposal({"solana": ns([M], [SIGN], [CHANGED, "chainChanged"])}), 6)))
se.append(case("connect-unsupported-chains-before-methods", "session_connect: unsupported chains (5100) are answered before unsupported methods (5101)", err(7, 5100, "Unsupported chains", {"chains": ["solana:notarealgenesishash"]}),
    args=[Q], request=req(SC, proposal({"solana": ns(["solana:notarealgenesishash"], ["solana_signAndSendTransaction"], [])}), 7)))
se.append(case("connect-unsupported-namespace", "session_connect: a required namespace the wallet does not support (cosmos) is 5104, data.namespaces naming it", err(8, 5104, "Unsupported namespace key", {"namespaces": ["cosmos"]}),
    args=[Q], request=req(SC, proposal({"cosmos": ns(["cosmos:cosmoshub-4"], ["cosmos_signDirect"], [])}), 8)))
se.append(case("connect-unsupported-namespace-chain-key", "session_connect: a required chain id key of another namespace is 5104 for that namespace", err(9, 5104, "Unsupported namespace key", {"namespaces": ["cosmos"]}),
    args=[Q], request=req(SC, proposal({"cosmos:cosmoshub-4": {"methods": ["cosmos_signDirect"], "events": []}}), 9)))
se.append(case("connect-unsupported-namespace-first", "session_connect: an unsupported namespace (5104) is answered before unsupported chains (5100)", err(10, 5104, "Unsupported namespace key", {"namespaces": ["cosmos"]}),
    args=[Q], request=req(SC, proposal({"cosmos": ns(["cosmos:cosmoshub-4"], ["cosmos_signDirect"], []), "solana": ns(["solana:notarealgenesishash"], [SIGN], [])}), 10)))
# -32602: the first fault, named by its path.
for n, (name, rule, params, field, problem) in enumerate([
    ("params-array", "params must be an object", [PROPOSAL], "params", "expected an object"),
    ("metadata-missing", "metadata is required", proposal({"solana": ns([M], [SIGN], [])}, metadata=None), "metadata", "required: an object with at least a name"),
    ("metadata-name-empty", "metadata.name must not be empty", proposal({"solana": ns([M], [SIGN], [])}, metadata={"name": ""}), "metadata.name", "must not be empty"),
    ("metadata-name-too-long", "metadata.name is 1 to 100 characters", proposal({"solana": ns([M], [SIGN], [])}, metadata={"name": "x" * 101}), "metadata.name", "longer than 100 characters"),
    ("metadata-icon-not-string", "metadata.icons holds strings, each named by its index", proposal({"solana": ns([M], [SIGN], [])}, metadata={"name": "x", "icons": ["https://example.org/icon.png", 5]}), "metadata.icons[1]", "expected a string, found number"),
    ("chain-not-caip2", "a chain must be a CAIP-2 chain id", proposal({"solana": ns([M, "mainnet"], [SIGN], [])}), "requiredNamespaces.solana.chains[1]", "not a CAIP-2 chain id (namespace:reference)"),
    ("chain-of-another-namespace", "a namespace's chains are of that namespace", proposal({"solana": ns(["eip155:1"], [SIGN], [])}), "requiredNamespaces.solana.chains[0]", 'a chain of the "eip155" namespace, listed under "solana"'),
    ("key-uppercase", "a key is a CAIP-2 namespace (lowercase) or chain id", proposal({"Solana": ns([M], [SIGN], [])}), "requiredNamespaces.Solana", "a key must be a CAIP-2 namespace (3 to 8 of [-a-z0-9]) or chain id (namespace:reference)"),
    ("chain-key-with-chains", "a chain id key stands for one chain and has no chains member", proposal({M: ns([M], [SIGN], [])}), "requiredNamespaces.%s.chains" % M, "a key that is a chain id stands for that one chain; leave chains out, or key by the namespace"),
    ("chains-empty", "a namespace lists at least one chain", proposal({"solana": ns([], [SIGN], [])}), "requiredNamespaces.solana.chains", "a namespace must list at least one chain"),
    ("methods-missing", "methods is required in a namespace", proposal({"solana": {"chains": [M], "events": []}}), "requiredNamespaces.solana.methods", "required: an array of strings"),
    ("event-empty", "an event name must not be empty", proposal({"solana": ns([M], [SIGN], [""])}), "requiredNamespaces.solana.events[0]", "must not be empty"),
    ("optional-not-object", "optionalNamespaces is an object of namespaces", proposal({"solana": ns([M], [SIGN], [])}, "solana"), "optionalNamespaces", "expected an object of namespaces, found string"),
    ("no-chain", "requiredNamespaces and optionalNamespaces together must ask for a chain", proposal(), "requiredNamespaces", "a session needs at least one supported chain, and requiredNamespaces and optionalNamespaces together ask for none"),
    ("no-supported-chain", "optional namespaces the wallet does not support leave no chain", proposal(optional={"cosmos": ns(["cosmos:cosmoshub-4"], ["cosmos_signDirect"], [])}), "requiredNamespaces", "a session needs at least one supported chain, and requiredNamespaces and optionalNamespaces together ask for none"),
]):
    se.append(case("connect-invalid-" + name, "session_connect: -32602 names the field: " + rule, invalid(100 + n, field, problem), args=[Q], request=req(SC, params, 100 + n)))
# The person, and the keystore.
se.append(case("connect-rejected", "session_connect: the person rejecting the proposal is 5000", err(11, 5000, "User rejected"), args=[Q], env={CONSENT: "reject"}, request=req(SC, PROPOSAL, 11)))
se.append(case("connect-nobody-to-ask", "session_connect: when nobody can be asked it is -1 with data.reason no_prompt and the fix", err(12, -1, "Authorization failed", {"reason": "no_prompt", "fix": "set WALLET_BRIDGE_TEST_CONSENT to approve, reject or hang"}),
    args=[Q], env={CONSENT: "unavailable"}, request=req(SC, PROPOSAL, 12)))
se.append(case("connect-no-key", "session_connect: a wallet with no key is 5103, before anyone is asked", err(13, 5103, "Unsupported accounts", {"problem": "the wallet has no key: `wallet-bridge keys create` makes one"}),
    args=[Q], env={"WALLET_BRIDGE_TEST_WALLET": "empty", CONSENT: "reject"}, request=req(SC, PROPOSAL, 13)))
se.append(case("connect-no-key-after-namespaces", "session_connect: the namespaces are checked before the keys (5100 before 5103)", err(14, 5100, "Unsupported chains", {"chains": ["solana:notarealgenesishash"]}),
    args=[Q], env={"WALLET_BRIDGE_TEST_WALLET": "empty"}, request=req(SC, proposal({"solana": ns(["solana:notarealgenesishash"], [SIGN], [])}), 14)))
se.append(case("connect-unanswered", "session_connect: a proposal nobody answers in time (5 minutes; here WALLET_BRIDGE_TEST_PROPOSAL_TIMEOUT_MS) is 8000", err(15, 8000, "Session request expired"),
    args=[Q], env={CONSENT: "hang", "WALLET_BRIDGE_TEST_PROPOSAL_TIMEOUT_MS": "200"}, request=req(SC, PROPOSAL, 15)))

# session_list: the caller's sessions only.
se.append(case("list", "session_list: the caller's live sessions, with the keys as accounts", ok(20, {"sessions": [preseeded()]}), args=[P], request=req(SL, {}, 20)))
se.append(case("list-params-omitted", "session_list: params may be left out", ok(21, {"sessions": [preseeded()]}), args=[P], request=req(SL, id=21)))
se.append(case("list-other-caller", "session_list: another extension sees none of them", ok(22, {"sessions": []}), args=[Q], request=req(SL, {}, 22)))
se.append(case("list-firefox", "session_list: a Firefox add-on sees none of a Chrome extension's", ok(23, {"sessions": []}), args=[FIREFOX_MANIFEST, "wallet@example.org"], request=req(SL, {}, 23)))
se.append(case("list-unidentified", "session_list: a caller the browser did not name sees none", ok(24, {"sessions": []}), request=req(SL, {}, 24)))
se.append(case("list-no-key", "session_list: accounts are the keys when read: none for a wallet with no key", ok(25, {"sessions": [preseeded(keys=())]}), args=[P], env={"WALLET_BRIDGE_TEST_WALLET": "empty"}, request=req(SL, {}, 25)))
se.append(case("list-params-array", "session_list: empty array params mean none, as walletlib sends them", ok(26, {"sessions": [preseeded()]}), args=[P], request=req(SL, [], 26)))
se.append(case("list-params-nonempty-array", "session_list: params other than an object or an empty array are invalid", invalid(27, "params", "expected an object"), args=[P], request=req(SL, [1], 27)))

# session_request
hello, text, binary = b"hello", "Sign in to example.org".encode(), b"\0\0\x01binary\xff"
se.append(case("request-sign-message", "session_request solana_signMessage: the 64-byte Ed25519 signature of the message bytes, base58", ok(30, {"signature": sig58(KA, hello)}), args=[P], request=req(SR, in_session(sign_message(hello)), 30)))
se.append(case("request-sign-message-devnet-second-key", "session_request solana_signMessage: on any chain of the session, with any of its accounts", ok(31, {"signature": sig58(KB, text)}), args=[P], request=req(SR, in_session(sign_message(text, B58_), D), 31)))
se.append(case("request-sign-message-leading-zeros", "session_request solana_signMessage: base58 keeps leading zero bytes (as 1s)", ok(32, {"signature": sig58(KA, binary)}), args=[P], request=req(SR, in_session(sign_message(binary)), 32)))
se.append(case("request-get-accounts", "session_request solana_getAccounts: every key as {pubkey}", ok(33, [{"pubkey": A58}, {"pubkey": B58_}]), args=[P], request=req(SR, in_session({"method": GET}), 33)))
se.append(case("request-get-accounts-devnet", "session_request solana_getAccounts: the same keys on every chain", ok(34, [{"pubkey": A58}, {"pubkey": B58_}]), args=[P], request=req(SR, in_session({"method": GET}, D), 34)))
se.append(case("request-expiry-shortest", "session_request: an expiry 5 minutes from now is accepted", ok(35, {"signature": sig58(KA, hello)}), args=[P], request=req(SR, in_session(sign_message(hello), expiry=NOW + 300), 35)))
se.append(case("request-expiry-longest", "session_request: an expiry 7 days from now is accepted", ok(36, [{"pubkey": A58}, {"pubkey": B58_}]), args=[P], request=req(SR, in_session({"method": GET}, expiry=NOW + WEEK), 36)))
se.append(case("request-no-key", "session_request solana_getAccounts: none in a wallet with no key", ok(37, []), args=[P], env={"WALLET_BRIDGE_TEST_WALLET": "empty"}, request=req(SR, in_session({"method": GET}), 37)))
se.append(case("request-unknown-topic", "session_request: a topic with no session is 7001", E7001(38), args=[P], request=req(SR, in_session({"method": GET}, topic_="f" * 64), 38)))
se.append(case("request-other-callers-topic", "session_request: another extension's topic is 7001, as if unknown", E7001(39), args=[Q], request=req(SR, in_session({"method": GET}), 39)))
se.append(case("request-unidentified-caller", "session_request: a caller the browser did not name has no session: 7001", E7001(40), request=req(SR, in_session({"method": GET}), 40)))
se.append(case("request-topic-before-chain", "session_request: the topic is checked first (7001 before 3005)", E7001(41), args=[P], request=req(SR, in_session({"method": "solana_signTransaction"}, T, "f" * 64), 41)))
se.append(case("request-unauthorized-chain", "session_request: a chain the session does not hold is 3005, data.chainId naming it", err(42, 3005, "Unauthorized chain", {"chainId": T}), args=[P], request=req(SR, in_session({"method": GET}, T), 42)))
se.append(case("request-unauthorized-chain-namespace", "session_request: a chain of a namespace the session does not hold is 3005", err(43, 3005, "Unauthorized chain", {"chainId": "eip155:1"}), args=[P], request=req(SR, in_session({"method": GET}, "eip155:1"), 43)))
se.append(case("request-unauthorized-method", "session_request: a method the session does not allow is 3001, data.method naming it", err(44, 3001, "Unauthorized method", {"method": "solana_signTransaction"}), args=[P], request=req(SR, in_session({"method": "solana_signTransaction", "params": {}}), 44)))
se.append(case("request-unauthorized-method-supported", "session_request: a method the wallet supports but the session was not granted is 3001", err(45, 3001, "Unauthorized method", {"method": REQ_ACCOUNTS}), args=[P], request=req(SR, in_session({"method": REQ_ACCOUNTS}), 45)))
se.append(case("request-chain-before-method", "session_request: the chain is checked before the method (3005 before 3001)", err(46, 3005, "Unauthorized chain", {"chainId": T}), args=[P], request=req(SR, in_session({"method": "solana_signTransaction"}, T), 46)))
se.append(case("request-method-before-expiry", "session_request: the method is checked before the expiry (3001 before -32602)", err(47, 3001, "Unauthorized method", {"method": "solana_signTransaction"}), args=[P], request=req(SR, in_session({"method": "solana_signTransaction"}, expiry=NOW), 47)))
se.append(case("request-unknown-account", "session_request solana_signMessage: a pubkey that is not one of the session's accounts is 4100", err(48, 4100, "Unauthorized", {"problem": "the session holds no account with this public key", "accounts": [A58, B58_]}), args=[P], request=req(SR, in_session(sign_message(hello, b58(bytes(32)))), 48)))
se.append(case("request-unknown-account-no-key", "session_request solana_signMessage: with no key no account is the session's: 4100", err(49, 4100, "Unauthorized", {"problem": "the session holds no account with this public key", "accounts": []}), args=[P], env={"WALLET_BRIDGE_TEST_WALLET": "empty"}, request=req(SR, in_session(sign_message(hello)), 49)))
se.append(case("request-declined", "session_request solana_signMessage: the person declining is 4001", err(50, 4001, "User rejected the request"), args=[P], env={CONSENT: "reject"}, request=req(SR, in_session(sign_message(hello)), 50)))
for n, (name, rule, params, field, problem) in enumerate([
    ("expiry-too-soon", "an expiry under 5 minutes from now", in_session({"method": GET}, expiry=NOW + 299), "expiry", EXPIRY_WINDOW),
    ("expiry-too-late", "an expiry over 7 days from now", in_session({"method": GET}, expiry=NOW + WEEK + 1), "expiry", EXPIRY_WINDOW),
    ("expiry-past", "an expiry in the past", in_session({"method": GET}, expiry=NOW - 1), "expiry", EXPIRY_WINDOW),
    ("expiry-fraction", "an expiry that is not whole seconds", in_session({"method": GET}, expiry=NOW + 600.5), "expiry", "expected whole seconds since the Unix epoch"),
    ("expiry-string", "an expiry that is not a number", in_session({"method": GET}, expiry=str(NOW + 600)), "expiry", "expected whole seconds since the Unix epoch"),
    ("topic-uppercase", "a topic with uppercase hex digits", in_session({"method": GET}, topic_=SEED.upper()), "topic", TOPIC_PROBLEM),
    ("topic-short", "a topic of 63 hex digits", in_session({"method": GET}, topic_=SEED[:63]), "topic", TOPIC_PROBLEM),
    ("topic-missing", "no topic", {"chainId": M, "request": {"method": GET}}, "topic", TOPIC_PROBLEM),
    ("topic-number", "a topic that is not a string", in_session({"method": GET}, topic_=5), "topic", TOPIC_PROBLEM),
    ("chain-id", "a chainId that is not a CAIP-2 chain id", in_session({"method": GET}, "solana"), "chainId", "expected a CAIP-2 chain id such as " + M),
    ("request-method", "a request without a method", in_session({"params": {}}), "request.method", "expected a string"),
    ("sign-params-missing", "solana_signMessage without params", in_session({"method": SIGN}), "request.params", 'expected {"message", "pubkey"}'),
    ("sign-message-not-base58", "a message that is not base58 (0, O, I and l are not in its alphabet)", in_session({"method": SIGN, "params": {"message": "0OIl", "pubkey": A58}}), "request.params.message", "expected the message's bytes in base58, 1 to 16384 bytes"),
    ("sign-message-empty", "an empty message", in_session({"method": SIGN, "params": {"message": "", "pubkey": A58}}), "request.params.message", "expected the message's bytes in base58, 1 to 16384 bytes"),
    ("sign-pubkey-short", "a pubkey of 31 bytes", in_session({"method": SIGN, "params": {"message": b58(hello), "pubkey": b58(bytes([7]) * 31)}}), "request.params.pubkey", "expected a base58 public key (32 bytes, at most 44 characters)"),
    ("params-array", "params that are not an object", [SEED], "params", "expected an object"),
]):
    se.append(case("request-invalid-" + name, "session_request: -32602 names the field: " + rule, invalid(200 + n, field, problem), args=[P], request=req(SR, params, 200 + n)))

# session_extend
se.append(case("extend", "session_extend: the session now lasts the lifetime (7 days) from now; the answer is its new expiry", ok(60, {"expiry": NOW + WEEK}), args=[P], request=req(SE, {"topic": SEED}, 60)))
se.append(case("extend-unknown-topic", "session_extend: a topic with no session is 7001", E7001(61), args=[P], request=req(SE, {"topic": "f" * 64}, 61)))
se.append(case("extend-other-callers-topic", "session_extend: another extension's topic is 7001", E7001(62), args=[Q], request=req(SE, {"topic": SEED}, 62)))
se.append(case("extend-invalid-topic", "session_extend: -32602 names the topic when it is not 64 lowercase hex digits", invalid(63, "topic", TOPIC_PROBLEM), args=[P], request=req(SE, {"topic": "5eed"}, 63)))

# session_disconnect: the successful one last (see above).
REASON_PROBLEM = 'expected {"code": integer, "message": string of at most 256 bytes}'
for n, (name, rule, reason) in enumerate([
    ("reason-code-string", "a code that is not a number", {"code": "6000", "message": "User disconnected"}),
    ("reason-code-fraction", "a code that is not an integer", {"code": 6000.5, "message": "User disconnected"}),
    ("reason-message-missing", "a reason without a message", {"code": 6000}),
    ("reason-message-too-long", "a message over 256 bytes", {"code": 6000, "message": "é" * 129}),
    ("reason-not-object", "a reason that is not an object", "User disconnected"),
]):
    se.append(case("disconnect-invalid-" + name, "session_disconnect: -32602 names the reason, checked before the topic's session: " + rule, invalid(300 + n, "reason", REASON_PROBLEM), args=[P], request=req(SD, {"topic": SEED, "reason": reason}, 300 + n)))
se.append(case("disconnect-invalid-topic", "session_disconnect: -32602 names the topic when it is not 64 lowercase hex digits", invalid(70, "topic", TOPIC_PROBLEM), args=[P], request=req(SD, {"topic": SEED.upper()}, 70)))
se.append(case("disconnect-unknown-topic", "session_disconnect: a topic with no session is 7001", E7001(71), args=[P], request=req(SD, {"topic": "f" * 64}, 71)))
se.append(case("disconnect-other-callers-topic", "session_disconnect: another extension cannot end the session: 7001", E7001(72), args=[Q], request=req(SD, {"topic": SEED}, 72)))
se.append(case("disconnect-with-reason", "session_disconnect: a reason of the extension's own is accepted; the answer is {} (Chrome's argv may add --parent-window: the caller is the same)", ok(73, {}),
    args=[P, "--parent-window=0"], request=req(SD, {"topic": SEED, "reason": {"code": 6000, "message": "Signed out"}}, 73)))
se.append(case("disconnect", "session_disconnect: the session is deleted; the answer is {}", ok(74, {}), args=[P], request=req(SD, {"topic": SEED}, 74)))
# Sessions per site (docs/sessions.md "Sessions per site"): the pre-seeded caller P also holds a
# session for the site https://app.example.org (topic 5173 x 16). A session belongs to (caller,
# origin): P without an origin, P for another site, and another extension for the same site see
# none of it, and its topic is 7001 to them exactly as an unknown one. Its session_list comes
# before its session_extend, and its session_disconnect last, as for the pre-seeded session.
SITE, OTHER_SITE, SITE_TOPIC = "https://app.example.org", "https://other.example.org", "5173" * 16
ORIGIN_PROBLEM = "expected a web origin such as https://app.example.com (scheme, host and port only)"
def with_origin(params, origin): return {**params, "origin": origin}
site_session = {**session(SITE_TOPIC, {"solana": granted([M], [SIGN, GET], [CHANGED])}, {"solana": ns([M], [SIGN, GET], [CHANGED])}, {},
                          NOW - DAY + WEEK, meta("Fixture Site", "The conformance host's pre-seeded session of a site", SITE)),
                "origin": SITE}
LOCAL_SITE = "http://127.0.0.1:8123"
se.append(case("connect-site", "session_connect with origin: the session is for that site, as the extension reports it, and says so in origin",
    ok(400, {**session(topic(1), {"solana": granted([M], [SIGN], [CHANGED])}, {"solana": ns([M], [SIGN], [CHANGED])}, {}, NOW + WEEK, DAPP),
             "origin": LOCAL_SITE}),
    args=[chrome("s")], request=req(SC, with_origin(PROPOSAL, LOCAL_SITE), 400)))
for n, (name, rule, origin) in enumerate([
    ("trailing-slash", "a slash after the host (what sender.url has, not sender.origin)", SITE + "/"),
    ("path", "a path", SITE + "/login"),
    ("query", "a query", SITE + "?next=1"),
    ("uppercase-host", "a host with uppercase letters (the browser writes it lowercase)", "https://App.example.org"),
    ("uppercase-scheme", "a scheme with uppercase letters", "HTTPS://app.example.org"),
    ("default-port", "the scheme's default port (the browser leaves it out)", "https://app.example.org:443"),
    ("port-leading-zero", "a port with a leading zero", "http://127.0.0.1:08123"),
    ("port-too-large", "a port over 65535", "http://127.0.0.1:65536"),
    ("other-scheme", "a scheme other than http and https", "chrome-extension://abcdefghijklmnopabcdefghijklmnop"),
    ("opaque", "the opaque origin, null as a string", "null"),
    ("userinfo", "a user name before the host", "https://user@app.example.org"),
    ("ipv4-short", "an IPv4 address not in dotted decimal (the browser writes 127.0.0.1)", "http://127.1"),
    ("ipv4-hex", "an IPv4 address in hex", "http://0x7f.0.0.1"),
    ("ipv6-uppercase", "an IPv6 address with uppercase hex", "http://[::ABCD]"),
    ("ipv6-invalid", "an IPv6 address inet_pton cannot read", "http://[1:2:3]"),
    ("empty-label", "an empty label (a trailing dot)", "https://app.example.org."),
    ("unicode", "a host that is not ASCII (the browser writes punycode)", "https://bücher.example"),
    ("too-long", "more than 255 bytes", "https://" + "a" * 60 + "." + "b" * 60 + "." + "c" * 60 + "." + "d" * 60 + ".example"),
    ("empty", "an empty string", ""),
    ("number", "not a string", 8123),
]):
    se.append(case("connect-invalid-origin-" + name, "session_connect: -32602 names origin, which must be a web origin as the browser serializes it: not " + rule,
                   invalid(410 + n, "origin", ORIGIN_PROBLEM), args=[Q], request=req(SC, with_origin(PROPOSAL, origin), 410 + n)))
se.append(case("list-site", "session_list with origin: the caller's sessions for that site only (its own session without a site is not among them)",
    ok(440, {"sessions": [site_session]}), args=[P], request=req(SL, {"origin": SITE}, 440)))
se.append(case("list-site-other-site", "session_list: a site the caller has no session for sees none (another site's, or the caller's own, are not its)",
    ok(441, {"sessions": []}), args=[P], request=req(SL, {"origin": OTHER_SITE}, 441)))
se.append(case("list-site-other-caller", "session_list: another extension sees none of a site's sessions, even for the same site",
    ok(442, {"sessions": []}), args=[Q], request=req(SL, {"origin": SITE}, 442)))
for n, (name, origin) in enumerate([("ipv6", "http://[::1]:8080"), ("localhost", "http://localhost:3000"), ("punycode", "https://xn--bcher-kva.example")]):
    se.append(case("list-site-" + name, "session_list: an origin the browser could report is taken (%s)" % origin,
                   ok(443 + n, {"sessions": []}), args=[P], request=req(SL, {"origin": origin}, 443 + n)))
se.append(case("list-invalid-origin", "session_list: -32602 names origin when it is not a web origin", invalid(447, "origin", ORIGIN_PROBLEM),
    args=[P], request=req(SL, {"origin": SITE + "/"}, 447)))
se.append(case("request-site", "session_request with origin: the site's session is used as any other",
    ok(450, [{"pubkey": A58}, {"pubkey": B58_}]), args=[P], request=req(SR, with_origin(in_session({"method": GET}, topic_=SITE_TOPIC), SITE), 450)))
se.append(case("request-site-sign-message", "session_request with origin: solana_signMessage in the site's session (its dialog names the site)",
    ok(451, {"signature": sig58(KA, hello)}), args=[P], request=req(SR, with_origin(in_session(sign_message(hello), topic_=SITE_TOPIC), SITE), 451)))
se.append(case("request-site-without-origin", "session_request: a site's session is 7001 to the same extension without that origin, as if unknown",
    E7001(452), args=[P], request=req(SR, in_session({"method": GET}, topic_=SITE_TOPIC), 452)))
se.append(case("request-other-sites-topic", "session_request: a site's session is 7001 to the same extension for another site, as if unknown",
    E7001(453), args=[P], request=req(SR, with_origin(in_session({"method": GET}, topic_=SITE_TOPIC), OTHER_SITE), 453)))
se.append(case("request-own-topic-for-a-site", "session_request: the extension's own session (no site) is 7001 for a site",
    E7001(454), args=[P], request=req(SR, with_origin(in_session({"method": GET}), SITE), 454)))
se.append(case("request-site-other-caller", "session_request: a site's session is 7001 to another extension, even for the same site",
    E7001(455), args=[Q], request=req(SR, with_origin(in_session({"method": GET}, topic_=SITE_TOPIC), SITE), 455)))
se.append(case("request-invalid-origin", "session_request: -32602 names origin when it is not a web origin, before the topic is looked up",
    invalid(456, "origin", ORIGIN_PROBLEM), args=[P], request=req(SR, with_origin(in_session({"method": GET}, topic_=SITE_TOPIC), "app.example.org"), 456)))
se.append(case("extend-other-sites-topic", "session_extend: a site's session is 7001 for another site", E7001(460), args=[P],
    request=req(SE, {"topic": SITE_TOPIC, "origin": OTHER_SITE}, 460)))
se.append(case("extend-site-without-origin", "session_extend: a site's session is 7001 without its origin", E7001(461), args=[P],
    request=req(SE, {"topic": SITE_TOPIC}, 461)))
se.append(case("extend-invalid-origin", "session_extend: -32602 names origin when it is not a web origin", invalid(462, "origin", ORIGIN_PROBLEM), args=[P],
    request=req(SE, {"topic": SITE_TOPIC, "origin": SITE + ":443"}, 462)))
se.append(case("extend-site", "session_extend with origin: the site's session now lasts the lifetime from now", ok(463, {"expiry": NOW + WEEK}), args=[P],
    request=req(SE, {"topic": SITE_TOPIC, "origin": SITE}, 463)))
se.append(case("disconnect-other-sites-topic", "session_disconnect: another site cannot end a site's session: 7001", E7001(470), args=[P],
    request=req(SD, {"topic": SITE_TOPIC, "origin": OTHER_SITE}, 470)))
se.append(case("disconnect-site-without-origin", "session_disconnect: the extension without the site's origin cannot end its session: 7001", E7001(471), args=[P],
    request=req(SD, {"topic": SITE_TOPIC}, 471)))
se.append(case("disconnect-site-other-caller", "session_disconnect: another extension cannot end a site's session, even for the same site: 7001", E7001(472), args=[Q],
    request=req(SD, {"topic": SITE_TOPIC, "origin": SITE}, 472)))
se.append(case("disconnect-invalid-origin", "session_disconnect: -32602 names origin when it is not a web origin", invalid(473, "origin", ORIGIN_PROBLEM), args=[P],
    request=req(SD, {"topic": SITE_TOPIC, "origin": "HTTPS://APP.EXAMPLE.ORG"}, 473)))
se.append(case("disconnect-site", "session_disconnect with origin: the site's session is deleted; the answer is {}", ok(474, {}), args=[P],
    request=req(SD, {"topic": SITE_TOPIC, "origin": SITE}, 474)))
# solana_signTransaction and solana_signAllTransactions, against the pre-seeded session for
# transactions (topic 501a x 16, caller chrome-extension://ponm x 8/: mainnet and devnet, every
# Solana method). The transactions are built by solders (Solana's own Rust types, PyPI), an
# implementation independent of the host's decoder; the expected signatures come from Python's
# cryptography and are checked against solders' own signing of the same transaction.
from solders.keypair import Keypair
from solders.pubkey import Pubkey
from solders.hash import Hash
from solders.message import Message, MessageV0
from solders.transaction import Transaction, VersionedTransaction
from solders.signature import Signature
from solders.system_program import transfer, TransferParams
from solders.compute_budget import set_compute_unit_limit, set_compute_unit_price
TX_CALLER, TX_TOPIC = "chrome-extension://%s/" % ("ponm" * 8), "501a" * 16
KX = Ed25519PrivateKey.from_private_bytes(bytes([3] * 32))   # a signer that is no key of the wallet
SOL_A, SOL_B, SOL_X = (Keypair.from_seed(bytes([n] * 32)) for n in (1, 2, 3))
assert str(SOL_A.pubkey()) == A58 and str(SOL_B.pubkey()) == B58_
X58 = str(SOL_X.pubkey())
RECIPIENT = Pubkey(bytes([9] * 32))
BLOCKHASH = Hash(bytes([7] * 32))
def short58(text): return text if len(text) <= 12 else "%s…%s" % (text[:4], text[-4:])
def legacy(instructions, payer):
    return Message.new_with_blockhash(instructions, payer.pubkey(), BLOCKHASH)
def pay(source, lamports): return transfer(TransferParams(from_pubkey=source.pubkey(), to_pubkey=RECIPIENT, lamports=lamports))
def unsigned(message):
    """The wire form with every signature slot zero, as a dApp sends a transaction to sign."""
    if isinstance(message, MessageV0):
        return bytes(VersionedTransaction.populate(message, [Signature.default()] * message.header.num_required_signatures))
    return bytes(Transaction.new_unsigned(message))
def message_bytes(message): return bytes([0x80]) + bytes(message) if isinstance(message, MessageV0) else bytes(message)
def signed_by(message, keypairs, base=None):
    """solders' own signed transaction (the slots of `keypairs` filled, the others as in `base`)."""
    if isinstance(message, MessageV0):
        sigs = list(VersionedTransaction.from_bytes(base).signatures) if base else [Signature.default()] * message.header.num_required_signatures
        keys = message.account_keys
        for kp in keypairs: sigs[keys.index(kp.pubkey())] = kp.sign_message(message_bytes(message))
        return bytes(VersionedTransaction.populate(message, sigs))
    tx = Transaction.from_bytes(base) if base else Transaction.new_unsigned(message)
    tx.partial_sign(keypairs, BLOCKHASH)
    return bytes(tx)
def sol_tx(method, params, chain=M): return in_session({"method": method, "params": params}, chain, TX_TOPIC)
SIGN_TX, SIGN_ALL = "solana_signTransaction", "solana_signAllTransactions"
transfer_message = legacy([pay(SOL_A, 1_500_000_000)], SOL_A)
assert message_bytes(transfer_message) == bytes(Transaction.new_unsigned(transfer_message).message_data())
v0_message = MessageV0.try_compile(SOL_A.pubkey(), [set_compute_unit_limit(200_000), set_compute_unit_price(7), pay(SOL_A, 5_000_000)], [], BLOCKHASH)
partial_message = legacy([pay(SOL_A, 2_000_000)], SOL_X)                       # X pays the fee, A transfers
two_signers = legacy([pay(SOL_A, 1_000), pay(SOL_B, 2_000)], SOL_A)             # A and B both sign
strangers = legacy([pay(SOL_X, 3_000)], SOL_X)                                   # no key of the wallet signs
b_only = legacy([pay(SOL_B, 4_000)], SOL_B)
def expect_signed(message, key, keypair, base=None):
    """The answer for `key` (cryptography) signing `message`, checked against solders' own."""
    signature = key.sign(message_bytes(message))
    whole = signed_by(message, [keypair], base)
    assert signature in whole
    return {"signature": b58(signature), "transaction": b64(whole)}
X_SIGNED_PARTIAL = signed_by(partial_message, [SOL_X])
tx_cases = [
    ("sign-transfer", "solana_signTransaction: a legacy transfer whose fee payer and signer is the session's first key: the answer is its base58 signature and the whole transaction, base64, with it in its slot",
     ok(400, expect_signed(transfer_message, KA, SOL_A)), {"transaction": b64(unsigned(transfer_message))}, {}),
    ("sign-version-0", "solana_signTransaction: a version-0 message (compute budget and a transfer) is signed the same way",
     ok(401, expect_signed(v0_message, KA, SOL_A)), {"transaction": b64(unsigned(v0_message))}, {}),
    ("sign-partial", "solana_signTransaction: partial signing: another signer's signature already present (the fee payer's, not a key of the wallet) is kept, and the session's key fills its own slot",
     ok(402, expect_signed(partial_message, KA, SOL_A, X_SIGNED_PARTIAL)), {"transaction": b64(X_SIGNED_PARTIAL)}, {}),
    ("sign-pubkey-second-signer", "solana_signTransaction: pubkey chooses which of the session's keys signs (here the second signer); the first signer's slot stays empty",
     ok(403, expect_signed(two_signers, KB, SOL_B)), {"transaction": b64(unsigned(two_signers)), "pubkey": B58_}, {}),
    ("sign-first-session-signer", "solana_signTransaction: without pubkey, the first required signer that is a key of the session signs",
     ok(404, expect_signed(two_signers, KA, SOL_A)), {"transaction": b64(unsigned(two_signers))}, {}),
    ("sign-devnet", "solana_signTransaction: on another chain of the session the same transaction gets the same signature (the wallet signs; the extension picks the cluster)",
     ok(405, expect_signed(transfer_message, KA, SOL_A)), {"transaction": b64(unsigned(transfer_message))}, {"chain": D}),
]
for name, rule, response, params, extra in tx_cases:
    se.append(case("request-" + name, rule, response, args=[TX_CALLER], request=req(SR, sol_tx(SIGN_TX, params, extra.get("chain", M)), response["id"])))
batch = [transfer_message, v0_message]
batch_answers = [expect_signed(m, KA, SOL_A) for m in batch]
se.append(case("request-sign-all", "solana_signAllTransactions: one answer for the batch: the signed transactions and the signatures, in the order asked",
    ok(410, {"transactions": [a["transaction"] for a in batch_answers], "signatures": [a["signature"] for a in batch_answers]}),
    args=[TX_CALLER], request=req(SR, sol_tx(SIGN_ALL, {"transactions": [b64(unsigned(m)) for m in batch]}), 410)))
se.append(case("request-sign-transaction-declined", "solana_signTransaction: the person declining is 4001", err(411, 4001, "User rejected the request"),
    args=[TX_CALLER], env={CONSENT: "reject"}, request=req(SR, sol_tx(SIGN_TX, {"transaction": b64(unsigned(transfer_message))}), 411)))
se.append(case("request-sign-transaction-unknown-pubkey", "solana_signTransaction: a pubkey that is not one of the session's accounts is 4100, as for a message",
    err(412, 4100, "Unauthorized", {"problem": "the session holds no account with this public key", "accounts": [A58, B58_]}),
    args=[TX_CALLER], request=req(SR, sol_tx(SIGN_TX, {"transaction": b64(unsigned(strangers)), "pubkey": X58}), 412)))
TX_PROBLEM = "expected standard base64 of a serialized transaction (legacy or version 0)"
MESSAGE_ONLY = ("this is a transaction message without its signatures: send the serialized transaction "
                "(a compact-u16 count and 64 zero bytes per signer before the message)")
# X's valid signature put in A's slot: a signature already in the wrong slot.
wrong_slot = bytearray(unsigned(partial_message)); wrong_slot[1 + 64:1 + 128] = SOL_X.sign_message(message_bytes(partial_message)).__bytes__()
assert unsigned(partial_message)[0] == 2
for n, (name, rule, method, params, field, problem) in enumerate([
    ("not-a-signer", "a transaction none of whose signers is a key of the session", SIGN_TX, {"transaction": b64(unsigned(strangers))},
     "request.params.transaction", "none of its signers (%s) is a key of this session" % short58(X58)),
    ("pubkey-not-a-signer", "a pubkey of the session that is not a required signer", SIGN_TX, {"transaction": b64(unsigned(transfer_message)), "pubkey": B58_},
     "request.params.pubkey", "%s is not a required signer of the transaction; its signers are %s" % (short58(B58_), short58(A58))),
    ("signature-in-wrong-slot", "a signature already present that is not its slot's signer's", SIGN_TX, {"transaction": b64(bytes(wrong_slot))},
     "request.params.transaction.signatures[1]", "is not a signature of this message by %s, the signer of slot 1: signatures already in the wrong slots, or for another message" % short58(A58)),
    ("transaction-too-long", "base64 longer than a transaction of 1232 bytes can be, refused unread", SIGN_TX, {"transaction": "A" * 1648},
     "request.params.transaction", "longer than a Solana transaction can be: at most 1232 bytes (1644 base64 characters)"),
    ("transaction-1233-bytes", "a transaction of 1233 bytes", SIGN_TX, {"transaction": b64(bytes(1233))},
     "request.params.transaction", "is 1,233 bytes, over the 1,232 a Solana transaction may be"),
    ("transaction-not-base64", "a transaction that is not base64", SIGN_TX, {"transaction": "not base64!"}, "request.params.transaction", TX_PROBLEM),
    ("transaction-missing", "no transaction", SIGN_TX, {"pubkey": A58}, "request.params.transaction", TX_PROBLEM),
    ("transaction-params-array", "params that are not an object", SIGN_TX, [b64(unsigned(transfer_message))],
     "request.params", 'expected {"transaction": base64 of a serialized transaction, "pubkey"?: base58}'),
    ("transaction-pubkey-short", "a pubkey of 31 bytes", SIGN_TX, {"transaction": b64(unsigned(transfer_message)), "pubkey": b58(bytes([7]) * 31)},
     "request.params.pubkey", "expected a base58 public key (32 bytes, at most 44 characters)"),
    ("sign-all-too-many", "more than 16 transactions", SIGN_ALL, {"transactions": [b64(unsigned(transfer_message))] * 17},
     "request.params.transactions", "expected 1 to 16 transactions, not 17"),
    ("sign-all-empty", "no transaction", SIGN_ALL, {"transactions": []}, "request.params.transactions", "expected 1 to 16 transactions, not 0"),
    ("message-without-signatures", "a legacy message sent without its signature slots (serializeMessage() for serialize())", SIGN_TX,
     {"transaction": b64(message_bytes(transfer_message))}, "request.params.transaction", MESSAGE_ONLY),
    ("v0-message-without-signatures", "a version-0 message sent without its signature slots", SIGN_TX,
     {"transaction": b64(message_bytes(v0_message))}, "request.params.transaction", MESSAGE_ONLY),
    ("sign-all-not-array", "transactions that are not an array", SIGN_ALL, {"transactions": b64(unsigned(transfer_message))},
     "request.params.transactions", "expected an array of base64 serialized transactions"),
    ("sign-all-bad-second", "one bad transaction refuses the whole batch, naming it", SIGN_ALL,
     {"transactions": [b64(unsigned(transfer_message)), "not base64!"]}, "request.params.transactions[1]", TX_PROBLEM),
    ("sign-all-other-signer", "a batch is signed by one key: a transaction the first one's key does not sign", SIGN_ALL,
     {"transactions": [b64(unsigned(transfer_message)), b64(unsigned(b_only))]}, "request.params.transactions[1]",
     "%s, the key that signs the first transaction, is not among its signers (%s); a batch is signed by one key" % (short58(A58), short58(B58_))),
]):
    se.append(case("request-invalid-" + name, "session_request %s: -32602 names the field, and nothing is signed: %s" % (method, rule),
                   invalid(420 + n, field, problem), args=[TX_CALLER], request=req(SR, sol_tx(method, params), 420 + n)))
se.append(case("request-sign-and-send-refused", "session_request: solana_signAndSendTransaction is no method of a session (3001): the wallet has no network; data.problem says what to do instead",
    err(440, 3001, "Unauthorized method", {"method": "solana_signAndSendTransaction", "problem": "the wallet has no network and sends nothing: sign with solana_signTransaction, then send the signed transaction from the extension (sendTransaction)"}),
    args=[TX_CALLER], request=req(SR, sol_tx("solana_signAndSendTransaction", {"transaction": b64(unsigned(transfer_message))}), 440)))
total += write("sessions.json", "The session methods (docs/sessions.md) against the conformance host's sessions: the test keys (seeds 0x01 x32 and 0x02 x32), a clock fixed at 1800000000, counted topics, one pre-seeded session for chrome-extension://abcdefghijklmnopabcdefghijklmnop/ (and one of its for the site https://app.example.org, and one with every Solana method for chrome-extension://ponm x 8/), and a person who answers as WALLET_BRIDGE_TEST_CONSENT says; signatures computed with Python's cryptography package, base58 written in the generator, transactions built by PyPI's solders.", se)
# --- ethereum.json: the eip155 methods inside a session, against the conformance host's
# pre-seeded Ethereum session (topic e155 x 16, caller chrome-extension://mnop x 8/: mainnet
# required, Polygon and Base optional, every eip155 method the wallet serves). Expected signatures come from PyPI's
# eth-account (run this generator with scripts/python-env.sh's python), an implementation
# independent of the host's libsecp256k1 and Keccak; EIP-712's own Mail example is also checked
# against the signature the EIP publishes.
from eth_account import Account
from eth_account.messages import encode_defunct, encode_typed_data
from eth_utils import keccak
COW_KEY, SECOND_KEY = keccak(b"cow"), bytes([2] * 32)
COW_ADDRESS, SECOND_ADDRESS = Account.from_key(COW_KEY).address, Account.from_key(SECOND_KEY).address
assert COW_ADDRESS == "0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826"  # "Cow" of EIP-712's example
ETH_CALLER = "chrome-extension://%s/" % ("mnop" * 8)
ETH_TOPIC = "e155" * 16
MAINNET, POLYGON, BASE = "eip155:1", "eip155:137", "eip155:8453"
def eth_in_session(method, params=None, chain=MAINNET):
    inner = {"method": method}
    if params is not None: inner["params"] = params
    return {"topic": ETH_TOPIC, "chainId": chain, "request": inner}
def hexsig(signed): return "0x" + bytes(signed.signature).hex()
def personal(key, message_bytes): return hexsig(Account.sign_message(encode_defunct(primitive=message_bytes), key))
def typed(key, data): return hexsig(Account.sign_message(encode_typed_data(full_message=data), key))
MAIL = {
    "types": {
        "EIP712Domain": [{"name": "name", "type": "string"}, {"name": "version", "type": "string"},
                         {"name": "chainId", "type": "uint256"}, {"name": "verifyingContract", "type": "address"}],
        "Person": [{"name": "name", "type": "string"}, {"name": "wallet", "type": "address"}],
        "Mail": [{"name": "from", "type": "Person"}, {"name": "to", "type": "Person"}, {"name": "contents", "type": "string"}],
    },
    "primaryType": "Mail",
    "domain": {"name": "Ether Mail", "version": "1", "chainId": 1, "verifyingContract": "0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC"},
    "message": {"from": {"name": "Cow", "wallet": "0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826"},
                "to": {"name": "Bob", "wallet": "0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB"}, "contents": "Hello, Bob!"},
}
# EIP-712's published signature of Mail by Cow: v 28, r and s as in the EIP's Example.js.
MAIL_SIGNATURE = "0x4355c47d63924e8a72e509b65029052eb6c299d53a04e167c5775fd466751c9d07299936d304c153f6443dfa05f40ff007d72911b6f72307f996231605b915621c"
assert typed(COW_KEY, MAIL) == MAIL_SIGNATURE
USDC_BASE = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"
def transfer_authorization(value, nonce_byte):
    """ERC-3009's TransferWithAuthorization, what a WalletConnect Pay action asks to sign on Base."""
    return {
        "types": {
            "EIP712Domain": [{"name": "name", "type": "string"}, {"name": "version", "type": "string"},
                             {"name": "chainId", "type": "uint256"}, {"name": "verifyingContract", "type": "address"}],
            "TransferWithAuthorization": [{"name": "from", "type": "address"}, {"name": "to", "type": "address"},
                                          {"name": "value", "type": "uint256"}, {"name": "validAfter", "type": "uint256"},
                                          {"name": "validBefore", "type": "uint256"}, {"name": "nonce", "type": "bytes32"}],
        },
        "primaryType": "TransferWithAuthorization",
        "domain": {"name": "USD Coin", "version": "2", "chainId": 8453, "verifyingContract": USDC_BASE},
        "message": {"from": COW_ADDRESS, "to": "0x1111111111111111111111111111111111111111", "value": str(value),
                    "validAfter": "0", "validBefore": "1800003600", "nonce": "0x" + bytes([nonce_byte] * 32).hex()},
    }
ACTIONS = [transfer_authorization(1_000_000, 0xA1), transfer_authorization(250_000, 0xB2), transfer_authorization(4_200_000, 0xC3)]
hello_eth = b"Hello, wallet-bridge"
siwe = ("example.org wants you to sign in with your Ethereum account:\n%s\n\nSign in to Example\n\nURI: https://example.org\n"
        "Version: 1\nChain ID: 1\nNonce: 32891756\nIssued At: 2027-01-15T08:00:00Z" % COW_ADDRESS)
et = []
et.append(case("eth-accounts", "eth_accounts: the session's Ethereum accounts, EIP-55 checksummed, in the order the keys were added", ok(1, [COW_ADDRESS, SECOND_ADDRESS]),
    args=[ETH_CALLER], request=req(SR, eth_in_session("eth_accounts", []), 1)))
et.append(case("eth-accounts-no-params", "eth_accounts: params may be left out", ok(2, [COW_ADDRESS, SECOND_ADDRESS]),
    args=[ETH_CALLER], request=req(SR, eth_in_session("eth_accounts"), 2)))
et.append(case("eth-chain-id-mainnet", "eth_chainId: the request's chain as a 0x quantity", ok(3, "0x1"), args=[ETH_CALLER], request=req(SR, eth_in_session("eth_chainId", []), 3)))
et.append(case("eth-chain-id-polygon", "eth_chainId: on any chain the session holds", ok(4, "0x89"), args=[ETH_CALLER], request=req(SR, eth_in_session("eth_chainId", [], POLYGON), 4)))
et.append(case("personal-sign-hex", "personal_sign: params [message in 0x-hex, address]; the EIP-191 signature, 65 bytes r||s||v in 0x-hex, v 27 or 28 (eth-account computed it)",
    ok(5, personal(COW_KEY, hello_eth)), args=[ETH_CALLER], request=req(SR, eth_in_session("personal_sign", ["0x" + hello_eth.hex(), COW_ADDRESS]), 5)))
et.append(case("personal-sign-text", "personal_sign: a message that is not 0x-hex is taken as UTF-8 text (a Sign-In-With-Ethereum message)",
    ok(6, personal(COW_KEY, siwe.encode())), args=[ETH_CALLER], request=req(SR, eth_in_session("personal_sign", [siwe, COW_ADDRESS]), 6)))
et.append(case("personal-sign-lowercase-address-second-key", "personal_sign: the address in any letter case, the second key, on Polygon",
    ok(7, personal(SECOND_KEY, bytes(range(256)))), args=[ETH_CALLER], request=req(SR, eth_in_session("personal_sign", ["0x" + bytes(range(256)).hex(), SECOND_ADDRESS.lower()], POLYGON), 7)))
et.append(case("sign-typed-data-mail", "eth_signTypedData_v4: EIP-712's own Mail example, typed data as a JSON string (as MetaMask sends it), signed by Cow: the signature the EIP publishes",
    ok(8, MAIL_SIGNATURE), args=[ETH_CALLER], request=req(SR, eth_in_session("eth_signTypedData_v4", [COW_ADDRESS, json.dumps(MAIL)]), 8)))
et.append(case("sign-typed-data-object", "eth_signTypedData_v4: typed data as an object signs the same",
    ok(9, MAIL_SIGNATURE), args=[ETH_CALLER], request=req(SR, eth_in_session("eth_signTypedData_v4", [COW_ADDRESS, MAIL]), 9)))
et.append(case("pay-actions-in-order", "WalletConnect Pay: a batch of eth_signTypedData_v4 requests (one per payment action, ERC-3009 on Base) is answered in the order of the actions",
    [ok(10 + i, typed(COW_KEY, action)) for i, action in enumerate(ACTIONS)], args=[ETH_CALLER],
    request=[req(SR, eth_in_session("eth_signTypedData_v4", [COW_ADDRESS, json.dumps(action)], BASE), 10 + i) for i, action in enumerate(ACTIONS)]))
wrong_chain = dict(MAIL, domain=dict(MAIL["domain"], chainId=137))
et.append(case("sign-typed-data-other-chain", "eth_signTypedData_v4: typed data that names another chain than the request's is -32602 on domain.chainId",
    invalid(20, "request.params[1].domain.chainId", "is 137, but the request is for eip155:1: typed data is signed only for the chain it names"),
    args=[ETH_CALLER], request=req(SR, eth_in_session("eth_signTypedData_v4", [COW_ADDRESS, wrong_chain]), 20)))
missing = json.loads(json.dumps(MAIL)); del missing["message"]["to"]["wallet"]
et.append(case("sign-typed-data-missing-field", "eth_signTypedData_v4: a message field its type declares but the message lacks is -32602 naming it",
    invalid(21, "request.params[1].message.to.wallet", "required: a value of type address"), args=[ETH_CALLER], request=req(SR, eth_in_session("eth_signTypedData_v4", [COW_ADDRESS, missing]), 21)))
et.append(case("personal-sign-unknown-account", "personal_sign: an address the session does not hold is 4100, listing its accounts",
    err(22, 4100, "Unauthorized", {"problem": "the session holds no account with this address", "accounts": [COW_ADDRESS, SECOND_ADDRESS]}),
    args=[ETH_CALLER], request=req(SR, eth_in_session("personal_sign", ["0x00", "0x" + "11" * 20]), 22)))
et.append(case("personal-sign-bad-checksum", "personal_sign: a mixed-case address whose EIP-55 checksum is wrong is -32602",
    invalid(23, "request.params[1]", "expected an Ethereum address: 0x and 40 hex digits (mixed case must be its EIP-55 checksum); personal_sign's params are [message, address]"),
    args=[ETH_CALLER], request=req(SR, eth_in_session("personal_sign", ["0x00", COW_ADDRESS[:2] + COW_ADDRESS[2].swapcase() + COW_ADDRESS[3:]]), 23)))
et.append(case("personal-sign-params-shape", "personal_sign: params other than [message, address] are -32602",
    invalid(24, "request.params", "expected [message, address]"), args=[ETH_CALLER], request=req(SR, eth_in_session("personal_sign", {"message": "0x00"}), 24)))
et.append(case("personal-sign-odd-hex", "personal_sign: 0x and an odd number of hex digits is those bytes after a leading zero nibble (0x123 is 0x01 0x23), as MetaMask and eth-account's hexstr= read it",
    ok(30, personal(COW_KEY, bytes.fromhex("0123"))), args=[ETH_CALLER], request=req(SR, eth_in_session("personal_sign", ["0x123", COW_ADDRESS]), 30)))
et.append(case("personal-sign-empty", "personal_sign: an empty message is -32602: there is nothing to sign (MetaMask refuses it too)",
    invalid(31, "request.params[0]", "the message is empty: there is nothing to sign"),
    args=[ETH_CALLER], request=req(SR, eth_in_session("personal_sign", ["", COW_ADDRESS]), 31)))
zero_x_org = "0x.org wants you to sign in with your Ethereum account:\n%s\n\nURI: https://0x.org\nVersion: 1\nChain ID: 1\nNonce: 7\nIssued At: 2027-01-15T08:00:00Z" % COW_ADDRESS
et.append(case("personal-sign-0x-text", "personal_sign: text that starts with 0x but is not all hex digits (a sign-in from 0x.org) is UTF-8 text, as MetaMask signs it",
    ok(32, personal(COW_KEY, zero_x_org.encode())), args=[ETH_CALLER], request=req(SR, eth_in_session("personal_sign", [zero_x_org, COW_ADDRESS]), 32)))
et.append(case("personal-sign-0x-alone", "personal_sign: 0x alone, with no digit, is the two characters of text \"0x\", as MetaMask signs it",
    ok(33, personal(COW_KEY, b"0x")), args=[ETH_CALLER], request=req(SR, eth_in_session("personal_sign", ["0x", COW_ADDRESS]), 33)))
et.append(case("personal-sign-declined", "personal_sign: the person declining is 4001", err(25, 4001, "User rejected the request"),
    args=[ETH_CALLER], env={CONSENT: "reject"}, request=req(SR, eth_in_session("personal_sign", ["0x00", COW_ADDRESS]), 25)))
et.append(case("eth-unauthorized-chain", "session_request: an eip155 chain the session does not hold is 3005", err(26, 3005, "Unauthorized chain", {"chainId": "eip155:10"}),
    args=[ETH_CALLER], request=req(SR, eth_in_session("eth_chainId", [], "eip155:10"), 26)))
et.append(case("connect-ethereum", "session_connect: an eip155 namespace gets the wallet's Ethereum accounts on every chain asked for (any EVM chain id), with the methods and events it supports",
    ok(27, {"topic": topic(1), "expiry": NOW + WEEK,
            "namespaces": {"eip155": {"chains": [MAINNET, "eip155:11155111"], "methods": ["personal_sign", "eth_signTypedData_v4"], "events": ["accountsChanged", "chainChanged"],
                                      "accounts": ["%s:%s" % (c, a) for c in [MAINNET, "eip155:11155111"] for a in [COW_ADDRESS, SECOND_ADDRESS]]}},
            "requiredNamespaces": {"eip155": ns([MAINNET, "eip155:11155111"], ["personal_sign", "eth_signTypedData_v4"], ["accountsChanged", "chainChanged"])},
            "optionalNamespaces": {}, "self": {"metadata": meta("Example Pay", url="https://pay.example.org")}, "peer": {"metadata": WALLET}}),
    args=[chrome("e")], request=req(SC, {"requiredNamespaces": {"eip155": ns([MAINNET, "eip155:11155111"], ["personal_sign", "eth_signTypedData_v4"], ["accountsChanged", "chainChanged"])},
                                         "metadata": meta("Example Pay", url="https://pay.example.org")}, 27)))
et.append(case("connect-ethereum-no-key", "session_connect: a required eip155 namespace when the wallet has no Ethereum key is 5103, saying how to make one",
    err(28, 5103, "Unsupported accounts", {"problem": "the wallet has no key for the eip155 namespace: `wallet-bridge keys create --type ethereum` makes one", "namespaces": ["eip155"]}),
    args=[chrome("f")], env={"WALLET_BRIDGE_TEST_WALLET": "solana-only"}, request=req(SC, {"requiredNamespaces": {"eip155": ns([MAINNET], ["personal_sign"], [])}, "metadata": meta("Example Pay")}, 28)))
# eth_signTransaction: eth-account signs the same transaction, and the answer must be its raw
# signed transaction byte for byte; eth_sendTransaction stays refused.
import rlp
from eth_account.typed_transactions import TypedTransaction
DEAD = "0x000000000000000000000000000000000000dEaD"
def q(n): return hex(n)
def raw_signed(tx, key=COW_KEY): return "0x" + bytes(Account.sign_transaction(tx, key).raw_transaction).hex()
fee_market = {"type": 2, "chainId": 1, "nonce": 7, "to": DEAD, "value": 10**16, "gas": 21000,
              "maxFeePerGas": 30 * 10**9, "maxPriorityFeePerGas": 1_500_000_000, "data": b""}
fee_market_request = {"from": COW_ADDRESS, "to": DEAD, "value": q(10**16), "gas": q(21000), "nonce": q(7),
                      "maxFeePerGas": q(30 * 10**9), "maxPriorityFeePerGas": q(1_500_000_000), "chainId": "0x1", "type": "0x2"}
legacy_tx = {"chainId": 1, "nonce": 0, "to": DEAD, "value": 1, "gas": 21000, "gasPrice": 20 * 10**9, "data": b""}
legacy_request = {"from": COW_ADDRESS, "to": DEAD, "value": "0x1", "gas": q(21000), "gasPrice": q(20 * 10**9), "nonce": "0x0"}
ACCESS = [{"address": DEAD, "storageKeys": ["0x" + "00" * 31 + "01"]}]
access_tx = {"type": 1, "chainId": 8453, "nonce": 3, "to": DEAD, "value": 0, "gas": 50000, "gasPrice": 10**9,
             "data": bytes.fromhex("a9059cbb" + "00" * 12 + "11" * 20 + "%064x" % 5), "accessList": ACCESS}
access_request = {"from": SECOND_ADDRESS, "to": DEAD, "value": "0x0", "gas": q(50000), "gasPrice": q(10**9), "nonce": "0x3",
                  "data": "0x" + access_tx["data"].hex(), "accessList": ACCESS, "chainId": q(8453)}
# The unsigned serialized form of fee_market, written here from EIP-1559 with rlp and checked
# against the hash eth-account signs.
unsigned_fee_market = bytes([2]) + rlp.encode([1, 7, 1_500_000_000, 30 * 10**9, 21000, bytes.fromhex(DEAD[2:]), 10**16, b"", []])
assert keccak(unsigned_fee_market) == TypedTransaction.from_dict(fee_market).hash()
et.append(case("sign-transaction-fee-market", "eth_signTransaction: an EIP-1559 transaction as an object of 0x-hex quantities: the answer is the raw signed transaction, byte for byte eth-account's, for eth_sendRawTransaction",
    ok(40, raw_signed(fee_market)), args=[ETH_CALLER], request=req(SR, eth_in_session("eth_signTransaction", [fee_market_request]), 40)))
et.append(case("sign-transaction-legacy", "eth_signTransaction: a legacy transaction (gasPrice, no chainId: the request's chain) is signed with EIP-155's replay protection",
    ok(41, raw_signed(legacy_tx)), args=[ETH_CALLER], request=req(SR, eth_in_session("eth_signTransaction", [legacy_request]), 41)))
et.append(case("sign-transaction-access-list", "eth_signTransaction: an EIP-2930 transaction (gasPrice and an access list) on Base by the second key, its calldata kept",
    ok(42, raw_signed(access_tx, SECOND_KEY)), args=[ETH_CALLER], request=req(SR, eth_in_session("eth_signTransaction", [access_request], BASE), 42)))
et.append(case("sign-transaction-serialized", "eth_signTransaction: an unsigned serialized transaction (0x and its hex) is signed by the session's first account",
    ok(43, raw_signed(fee_market)), args=[ETH_CALLER], request=req(SR, eth_in_session("eth_signTransaction", ["0x" + unsigned_fee_market.hex()]), 43)))
et.append(case("sign-transaction-unknown-from", "eth_signTransaction: a from that is none of the session's accounts is 4100",
    err(44, 4100, "Unauthorized", {"problem": "the session holds no account with this address", "accounts": [COW_ADDRESS, SECOND_ADDRESS]}),
    args=[ETH_CALLER], request=req(SR, eth_in_session("eth_signTransaction", [{**fee_market_request, "from": DEAD}]), 44)))
et.append(case("sign-transaction-params-shape", "eth_signTransaction: params other than [transaction] or [transaction, address] are -32602",
    invalid(45, "request.params", "expected [transaction] or [transaction, address]"), args=[ETH_CALLER], request=req(SR, eth_in_session("eth_signTransaction", fee_market_request), 45)))
et.append(case("sign-transaction-declined", "eth_signTransaction: the person declining is 4001", err(46, 4001, "User rejected the request"),
    args=[ETH_CALLER], env={CONSENT: "reject"}, request=req(SR, eth_in_session("eth_signTransaction", [fee_market_request]), 46)))
et.append(case("send-transaction-refused", "eth_sendTransaction is no method of a session (3001): the wallet has no network; data.problem says to sign with eth_signTransaction, then broadcast with eth_sendRawTransaction",
    err(47, 3001, "Unauthorized method", {"method": "eth_sendTransaction", "problem": "the wallet has no network and sends nothing: sign with eth_signTransaction, then broadcast the signed transaction with eth_sendRawTransaction from the extension"}),
    args=[ETH_CALLER], request=req(SR, eth_in_session("eth_sendTransaction", [fee_market_request]), 47)))
et.append(case("sign-transaction-serialized-address", "eth_signTransaction: [serialized, address]: a serialized transaction does not carry its sender, the second param names the session's account that signs it (here the second key, not the first)",
    ok(48, raw_signed(fee_market, SECOND_KEY)), args=[ETH_CALLER], request=req(SR, eth_in_session("eth_signTransaction", ["0x" + unsigned_fee_market.hex(), SECOND_ADDRESS]), 48)))
et.append(case("sign-transaction-serialized-address-unknown", "eth_signTransaction: [serialized, address] with an address the session does not hold is 4100",
    err(49, 4100, "Unauthorized", {"problem": "the session holds no account with this address", "accounts": [COW_ADDRESS, SECOND_ADDRESS]}),
    args=[ETH_CALLER], request=req(SR, eth_in_session("eth_signTransaction", ["0x" + unsigned_fee_market.hex(), DEAD]), 49)))
et.append(case("sign-transaction-address-not-from", "eth_signTransaction: [object, address] whose address is not the object's from is -32602 on request.params[1]",
    invalid(50, "request.params[1]", "is %s, but the transaction's from is %s: the account that signs is named once" % (SECOND_ADDRESS, COW_ADDRESS)),
    args=[ETH_CALLER], request=req(SR, eth_in_session("eth_signTransaction", [fee_market_request, SECOND_ADDRESS]), 50)))
total += write("ethereum.json", "Ethereum inside a session (eip155): eth_accounts, eth_chainId, personal_sign (EIP-191), eth_signTypedData_v4 (EIP-712) and eth_signTransaction against the conformance host's pre-seeded Ethereum session (topic e155 x 16, caller chrome-extension://mnop x 8/) and its test keys (Keccak-256 of \"cow\", EIP-712's example key, and 0x02 x 32); signatures computed with PyPI's eth-account, and EIP-712's Mail signature as the EIP publishes it.", et)
print("cases:", total)
