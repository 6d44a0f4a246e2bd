"""The documentation against the code it describes, where a list in one can silently fall behind
the other.

- docs/agent.md's socket protocol names every method of the agent's protocol
  (Sources/WalletBridgeAgent/AgentProtocol.swift) in its table of methods.
- Every libFuzzer target (a `fuzz-<name>` folder under fuzz/Sources) is in fuzz/README.md's table,
  in the `--long` row of SECURITY.md's tests, in scripts/fuzz.sh's default list, and has seeds and
  a dictionary; none of these lists a target that does not exist.
- scripts/test-guide.sh runs every shell block of docs/your-own-host.md: a block fenced in a way it
  would skip (```bash, ```shell, an indented fence) fails it instead.
"""
import os
import re
import subprocess

from wallet_helpers import REPO


def section(text, heading):
    """The text under `heading` (a Markdown heading line) up to the next heading of any level."""
    start = text.index(heading + "\n") + len(heading) + 1
    end = re.search(r"^#{1,6} ", text[start:], re.M)
    return text[start:start + end.start()] if end else text[start:]


def table_first_cells(text):
    """The first cell of each row of the Markdown tables in `text`."""
    return [line.split("|")[1].strip() for line in text.splitlines() if line.startswith("|") and not line.startswith("|---")]


def test_every_agent_protocol_method_is_in_agent_md():
    source = (REPO / "Sources/WalletBridgeAgent/AgentProtocol.swift").read_text()
    methods = set(re.findall(r'static let name = "(agent\.[A-Za-z]+)"', source))
    assert {"agent.hello", "agent.status", "agent.sessions", "agent.revoke", "agent.revokeAll", "agent.subscribe",
            "agent.accountsIfConnected", "agent.lock", "agent.stop"} <= methods, methods
    protocol = section((REPO / "docs/agent.md").read_text(), "## The socket protocol")
    documented = set()
    for cell in table_first_cells(protocol):
        documented |= set(re.findall(r"`(agent\.[A-Za-z]+)`", cell))
    # agent.hello has its own paragraph and example, above the table.
    assert "`agent.hello`" in protocol
    missing = methods - documented - {"agent.hello"}
    assert not missing, f"docs/agent.md's protocol table lacks {sorted(missing)}"
    assert not documented - methods, f"docs/agent.md documents methods the agent does not have: {sorted(documented - methods)}"


def fuzz_targets():
    return {path.name.removeprefix("fuzz-") for path in (REPO / "fuzz/Sources").iterdir() if path.name.startswith("fuzz-")}


def test_every_fuzz_target_is_listed_everywhere_and_nothing_else_is():
    targets = fuzz_targets()
    assert {"frame-decoder", "json-rpc", "keystore", "agent-protocol", "eip712"} <= targets, targets

    readme = (REPO / "fuzz/README.md").read_text()
    in_readme = {m for cell in table_first_cells(readme) for m in re.findall(r"^`fuzz-([a-z0-9-]+)`$", cell)}
    assert in_readme == targets, f"fuzz/README.md's table: {sorted(in_readme)}, fuzz/Sources: {sorted(targets)}"

    security = (REPO / "SECURITY.md").read_text()
    rows = [line for line in security.splitlines() if line.startswith("|") and "scripts/fuzz.sh --long" in line]
    assert len(rows) == 1, rows
    test_cell = rows[0].split("|")[2]
    in_security = set(re.findall(r"`([a-z0-9-]+)`", test_cell))
    assert in_security == targets, f"SECURITY.md's --long row: {sorted(in_security)}, fuzz/Sources: {sorted(targets)}"

    script = (REPO / "scripts/fuzz.sh").read_text()
    defaults = re.search(r"targets=\(([a-z0-9 -]+)\)", script)
    assert defaults and set(defaults.group(1).split()) == targets, defaults and defaults.group(1)
    comment = re.search(r"^# Targets may follow the mode: ([a-z0-9, -]+) \(default: all\)\.$", script, re.M)
    assert comment and set(comment.group(1).split(", ")) == targets, comment and comment.group(1)

    for target in targets:
        assert any((REPO / "fuzz/corpus" / target).iterdir()), f"no seeds for {target}"
        assert (REPO / "fuzz/dict" / f"{target}.dict").is_file(), f"no dictionary for {target}"


def guide_check(tmp_path, text):
    guide = tmp_path / "guide.md"
    guide.write_text(text)
    return subprocess.run(["bash", str(REPO / "scripts/test-guide.sh")], capture_output=True, text=True, timeout=60,
                          env=dict(os.environ, GUIDE=str(guide), GUIDE_CHECK_ONLY="1"), stdin=subprocess.DEVNULL)


def test_the_guide_test_refuses_a_shell_block_it_would_not_run(tmp_path):
    runnable = "".join(f"```sh\necho {n}\n```\n\n" for n in range(8)) + "```sh (root)\nsudo true\n```\n```json\n{}\n```\n"
    accepted = guide_check(tmp_path, runnable)
    assert accepted.returncode == 0, accepted.stderr
    assert (REPO / "docs/your-own-host.md").read_text().count("```sh\n") >= 8
    real = subprocess.run(["bash", str(REPO / "scripts/test-guide.sh")], capture_output=True, text=True, timeout=60,
                          env=dict(os.environ, GUIDE_CHECK_ONLY="1"), stdin=subprocess.DEVNULL)
    assert real.returncode == 0, real.stderr
    for fence in ["```bash", "```shell", "```console", "```sh title=x", "   ```sh", "```zsh"]:
        refused = guide_check(tmp_path, runnable + f"\n{fence}\nrm -rf ~\n```\n")
        assert refused.returncode == 1, (fence, refused.stderr)
        assert "would not be run: fence it exactly ```sh" in refused.stderr, (fence, refused.stderr)
