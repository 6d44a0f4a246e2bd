"""The JS package's schema checker (js/src/json-schema.js) against an independent one.

The JS client holds what the session methods answer to the result schemas generated from the
host's rpc.discover (js/src/session-schemas.js). Here the same schemas judge the same values in
Python's jsonschema (Draft 7), and the two must agree on every value: valid sessions and inner
results as the host answers them, and each broken in one place.
"""
import copy
import json
import subprocess
from pathlib import Path

from jsonschema import Draft7Validator

REPO = Path(__file__).resolve().parents[2]
TOPIC = "ab" * 32
MAINNET = "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp"
DEVNET = "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1"
KEY = "4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T"
SIGNATURE = "5" * 87
ADDRESS = "0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826"

# Runs json-schema.js over [[schema, value], ...] read from stdin: null where a value validates,
# else the problem it names.
JUDGE = """
import { readFileSync } from 'node:fs';
import { schemaProblem } from './js/src/json-schema.js';
const pairs = JSON.parse(readFileSync(0, 'utf8'));
process.stdout.write(JSON.stringify(pairs.map(([schema, value]) => schemaProblem(schema, value))));
"""
SCHEMAS = """
import { SESSION_REQUEST_RESULTS, SESSION_SCHEMAS } from './js/src/session-schemas.js';
process.stdout.write(JSON.stringify({ methods: SESSION_SCHEMAS, inner: SESSION_REQUEST_RESULTS }));
"""


def node(script, stdin=""):
    done = subprocess.run(["node", "--input-type=module", "-e", script], input=stdin, capture_output=True, text=True,
                          cwd=REPO, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def session():
    """A session as the host answers it."""
    return {
        "topic": TOPIC,
        "namespaces": {"solana": {"chains": [MAINNET, DEVNET], "accounts": [f"{MAINNET}:{KEY}", f"{DEVNET}:{KEY}"],
                                  "methods": ["solana_signMessage"], "events": ["accountsChanged"]}},
        "requiredNamespaces": {"solana": {"chains": [MAINNET], "methods": ["solana_signMessage"], "events": []}},
        "optionalNamespaces": {},
        "expiry": 1_795_000_000,
        "self": {"metadata": {"name": "dApp", "description": "", "url": "", "icons": []}},
        "peer": {"metadata": {"name": "wallet-bridge", "description": "Keys", "url": "https://example.org",
                              "icons": ["https://example.org/i.png"]}},
        "origin": "https://app.example.com",
    }


def changed(value, path, new=None, remove=False):
    """`value` with the member at `path` (keys and indexes) replaced, or removed."""
    copied = copy.deepcopy(value)
    inner = copied
    for step in path[:-1]:
        inner = inner[step]
    if remove:
        del inner[path[-1]]
    else:
        inner[path[-1]] = new
    return copied


def session_values():
    good = session()
    ns = ["namespaces", "solana"]
    metadata = ["self", "metadata"]
    return [
        good,
        {**good, "extra": {"future": True}},
        changed(good, ["topic"], TOPIC.upper()),
        changed(good, ["topic"], TOPIC[:-1]),
        changed(good, ["namespaces"], {}),
        changed(good, ["namespaces"], {MAINNET: good["namespaces"]["solana"]}),
        changed(good, ["namespaces"], {"Solana": good["namespaces"]["solana"]}),
        changed(good, [*ns, "accounts"], remove=True),
        changed(good, [*ns, "accounts"], []),
        changed(good, [*ns, "accounts", 0], KEY),
        changed(good, [*ns, "chains"], []),
        changed(good, [*ns, "methods"], [1]),
        changed(good, [*ns, "methods"], [f"m{index}" for index in range(65)]),
        changed(good, [*ns, "events"], [""]),
        changed(good, [*ns, "events"], ["e" * 257]),
        changed(good, ["requiredNamespaces"], []),
        changed(good, ["optionalNamespaces"], remove=True),
        changed(good, ["requiredNamespaces", "solana", "accounts"], []),
        changed(good, ["expiry"], 1.5),
        changed(good, ["expiry"], "1795000000"),
        changed(good, ["expiry"], 1e20),
        changed(good, ["expiry"], 0),
        changed(good, ["expiry"], -1),
        changed(good, ["self"], remove=True),
        changed(good, ["peer", "metadata", "name"], remove=True),
        changed(good, [*metadata, "description"], remove=True),
        changed(good, [*metadata, "name"], ""),
        changed(good, [*metadata, "name"], "🔑" * 100),
        changed(good, [*metadata, "name"], "🔑" * 101),
        changed(good, [*metadata, "url"], "javascript:alert(1)"),
        changed(good, [*metadata, "url"], "HTTPS://example.org"),
        changed(good, [*metadata, "icons"], "https://example.org/i.png"),
        changed(good, [*metadata, "icons"], ["https://example.org/i.png"] * 9),
        changed(good, ["origin"], "https://app.example.com/"),
        changed(good, ["origin"], "https://App.example.com"),
        changed(good, ["origin"], "http://[::1]:8080"),
        changed(good, ["origin"], "https://app.example.com:0"),
        changed(good, ["origin"], remove=True),
        None,
        [],
    ]


def inner_values():
    transaction = "AQ" + "A" * 10 + "=="
    return {
        "solana_signMessage": [{"signature": SIGNATURE}, {"signature": "0" * 87}, {"signature": "5" * 63},
                               {"signature": "5" * 89}, {}, {"signature": 5}, [], None],
        "solana_signTransaction": [{"signature": SIGNATURE, "transaction": transaction},
                                   {"signature": SIGNATURE, "transaction": "not base64"},
                                   {"signature": SIGNATURE, "transaction": "A" * 1648},
                                   {"signature": SIGNATURE, "transaction": "AAA="}, {"signature": SIGNATURE}],
        "solana_signAllTransactions": [{"signatures": [SIGNATURE], "transactions": [transaction]},
                                       {"signatures": [], "transactions": []},
                                       {"signatures": [SIGNATURE], "transactions": ["AB"]},
                                       {"signatures": SIGNATURE, "transactions": [transaction]}, {"transactions": []}],
        "solana_signIn": [{"address": KEY, "message": "x wants you to sign in", "signature": SIGNATURE},
                          {"address": "xyz", "message": "m", "signature": SIGNATURE},
                          {"address": KEY, "message": 7, "signature": SIGNATURE}, {"address": KEY, "message": "m"}],
        "solana_getAccounts": [[{"pubkey": KEY}], [], [{"pubkey": "2g"}], [{}], {"pubkey": KEY}],
        "solana_requestAccounts": [[{"pubkey": KEY}, {"pubkey": KEY, "label": "extra"}], [KEY]],
        "personal_sign": ["0x" + "ab" * 64 + "1b", "0x" + "AB" * 64 + "1B", "0x" + "ab" * 64, "ab" * 65, 5],
        "eth_signTypedData_v4": ["0x" + "ab" * 64 + "1c", "0x" + "ab" * 66, None],
        "eth_signTransaction": ["0x02f8ab", "0x02F8AB", "0x02f", "0x", "02f8", 42],
        "eth_chainId": ["0x1", "0x89", "0x01", "0x0", "0x", "0X1", "1", 1],
        "eth_accounts": [[ADDRESS, ADDRESS.lower()], [], [ADDRESS[:-1]], [f"eip155:1:{ADDRESS}"], [None], {}],
    }


def test_the_js_checker_agrees_with_jsonschema_on_the_generated_result_schemas():
    schemas = node(SCHEMAS)
    methods, inner = schemas["methods"], schemas["inner"]
    sessions = session_values()
    pairs = [(methods["session_connect"]["result"], value) for value in sessions]
    pairs += [(methods["session_list"]["result"], {"sessions": [value]}) for value in sessions]
    pairs += [(methods["session_list"]["result"], value) for value in ({"sessions": []}, {"sessions": {}}, [], {})]
    pairs += [(methods["session_extend"]["result"], value) for value in
              ({"expiry": 1}, {}, {"expiry": 1.5}, {"expiry": "1"}, {"expiry": 1, "more": 2}, None)]
    pairs += [(methods["session_disconnect"]["result"], value) for value in ({}, {"a": 1}, None, [])]
    assert sorted(inner) == sorted(inner_values()), "a value list for every inner method the host serves"
    pairs += [(inner[method], value) for method, values in inner_values().items() for value in values]
    verdicts = node(JUDGE, json.dumps(pairs))
    disagreements = []
    for (schema, value), problem in zip(pairs, verdicts, strict=True):
        if (problem is None) != Draft7Validator(schema).is_valid(value):
            disagreements.append((json.dumps(value)[:120], problem))
    assert disagreements == []
    # Both kinds are there: values each side takes, and values each refuses.
    assert verdicts.count(None) >= 20 and len(verdicts) - verdicts.count(None) >= 60
