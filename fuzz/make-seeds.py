#!/usr/bin/env python3
"""Writes the seed corpora: every small request body in Tests/Fixtures for fuzz-json-rpc, a few
chunked streams for fuzz-frame-decoder, solders-built Solana transactions for
fuzz-solana-transaction (so run it with "$(scripts/python-env.sh)"). (The keystore seeds are real
files made by `wallet-bridge keys`, committed as they are.) Run after changing the fixtures."""
import base64, glob, json, os, struct, sys

sys.set_int_max_str_digits(0)
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def write(folder, name, data):
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name), "wb") as out:
        out.write(data)


def json_rpc_seeds():
    folder = os.path.join(HERE, "corpus", "json-rpc")
    count = 0
    for path in sorted(glob.glob(os.path.join(ROOT, "Tests", "Fixtures", "*.json"))):
        with open(path) as fixture:
            cases = json.load(fixture)["cases"]
        for case in cases:
            if "request" in case:
                body = json.dumps(case["request"], separators=(",", ":"), ensure_ascii=False).encode()
            elif "request_text" in case:
                body = case["request_text"].encode()
            elif "request_base64" in case:
                body = base64.b64decode(case["request_base64"])
            else:
                continue
            if len(body) <= 16384:  # the fuzzer grows inputs itself; small seeds mutate faster
                write(folder, os.path.basename(path)[:-5] + "-" + case["name"], body)
                count += 1
    return count


def frame(body):
    return struct.pack("<I", len(body)) + body


def frame_decoder_seeds():
    # Byte 0: read size - 1; byte 1: maximum / 4; then the stream (see FrameDecoderTarget.swift).
    seeds = {
        "one-frame-bytewise": bytes([0, 255]) + frame(b'{"jsonrpc":"2.0","method":"sum","params":[1],"id":1}'),
        "two-frames-chunk-7": bytes([6, 255]) + frame(b"[]") + frame(b"{}"),
        "empty-frame": bytes([15, 1]) + frame(b""),
        "over-maximum": bytes([3, 2]) + frame(b"0123456789"),
        "max-uint32-header": bytes([255, 255]) + b"\xff\xff\xff\xff",
        "truncated-body": bytes([1, 100]) + struct.pack("<I", 50) + b"abc",
        "split-header": bytes([1, 10]) + frame(b"x") + frame(b"yz") + b"\x03\x00",
    }
    for name, data in seeds.items():
        write(os.path.join(HERE, "corpus", "frame-decoder"), name, data)
    return len(seeds)


def agent_protocol_seeds():
    # One client's whole stream to the agent (see AgentProtocolTarget.swift): the hello first.
    def message(value):
        return frame(value if isinstance(value, bytes) else json.dumps(value, separators=(",", ":")).encode())

    def hello(version=1, keystore="/fuzz/keystore.json"):
        return message({"jsonrpc": "2.0", "id": 0, "method": "agent.hello", "params": {
            "version": version, "arguments": ["chrome-extension://abcdefghijklmnopabcdefghijklmnop/"],
            "browser_pid": None, "keystore": keystore}})

    accounts = message({"jsonrpc": "2.0", "id": 1, "method": "NATIVE_GET_ACCOUNTS_METHOD"})
    seeds = {
        "hello-only": hello(),
        "hello-then-get-accounts": hello() + accounts,
        "hello-then-batch": hello() + message([{"jsonrpc": "2.0", "id": 1, "method": "NATIVE_GET_ACCOUNTS_METHOD"},
                                               {"jsonrpc": "2.0", "method": "x"}]),
        "hello-then-unknown-and-status": hello() + message({"jsonrpc": "2.0", "id": "s", "method": "agent.status"})
        + message({"jsonrpc": "2.0", "id": 2, "method": "nope", "params": []}),
        "hello-wrong-version": hello(99) + accounts,
        "hello-wrong-keystore": hello(1, "/elsewhere/keystore.json") + accounts,
        "no-hello": accounts,
        "hello-no-params": message({"jsonrpc": "2.0", "id": 0, "method": "agent.hello"}),
        "hello-then-partial-frame": hello() + struct.pack("<I", 100) + b'{"jsonrpc"',
        "hello-then-huge-header": hello() + b"\xff\xff\xff\x7f",
        "garbage": b"GET / HTTP/1.1\r\n\r\n",
        "hello-then-not-json": hello() + message(b"{not json"),
    }
    for name, data in seeds.items():
        write(os.path.join(HERE, "corpus", "agent-protocol"), name, data)
    return len(seeds)


def evm_transaction_seeds():
    # Unsigned transactions of the three kinds as eth-account serializes them (the vectors of
    # Tests/Support/make-evm-vectors.py), and calldata for each decoded call behind 0xFF and a
    # contract byte (see EthereumTransactionFuzzing.swift). Needs eth-account and eth-abi: run
    # with "$(scripts/python-env.sh)".
    import importlib.util
    spec = importlib.util.spec_from_file_location("vectors", os.path.join(ROOT, "Tests", "Support", "make-evm-vectors.py"))
    vectors = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(vectors)
    folder = os.path.join(HERE, "corpus", "evm-transaction")
    count = 0
    for vector in vectors.transactions():
        write(folder, vector["name"], bytes.fromhex(vector["unsigned"][2:]))
        count += 1
    for name, data in vectors.CALLDATA.items():
        # USDC, Permit2, or a contract not in the table (see the Swift side): the review's
        # long token ids and amounts go to the last, where they are shown raw.
        contract = 1 if name.startswith("permit2") else 2 if name.endswith(("ENS", "NFT", "Max")) else 0
        write(folder, "calldata-" + name, bytes([0xFF, contract]) + bytes.fromhex(data[2:]))
        count += 1
    return count


def solana_transaction_seeds():
    # The transactions solders builds for the decoder's tests, and each one's message alone (as
    # SignPayloads may carry it). Needs solders: run with "$(scripts/python-env.sh)".
    sys.path.insert(0, os.path.join(ROOT, "Tests", "Support"))
    import solana_vectors
    folder = os.path.join(HERE, "corpus", "solana-transaction")
    count = 0
    for name, data in solana_vectors.vectors().items():
        write(folder, name, data)
        count += 1
        signatures = data[0]  # below 128 in every vector: a one-byte compact-u16
        if len(data) <= 1232:
            write(folder, name + "-message", data[1 + 64 * signatures:])
            count += 1
    return count


if __name__ == "__main__":
    print(f"json-rpc: {json_rpc_seeds()} seeds, frame-decoder: {frame_decoder_seeds()} seeds, "
          f"agent-protocol: {agent_protocol_seeds()} seeds, evm-transaction: {evm_transaction_seeds()} seeds, "
          f"solana-transaction: {solana_transaction_seeds()} seeds")
