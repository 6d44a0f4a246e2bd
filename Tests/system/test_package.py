"""The Debian package: what scripts/package-deb.sh builds, looked at from outside.

The package is built once per session (scripts/package-deb.sh, which builds the static release
binary with scripts/build-release.sh: about a minute and a half from nothing, seconds when the
build is up to date), with extension IDs of the test's own, and then only read: `dpkg-deb -c`,
`-I` and `-x` into a temporary folder. Nothing is installed on this machine.

So is a package of another host (the conformance host, built static, as a "notes" host), and the
RPM spec and Arch PKGBUILD examples of packaging/examples are built or run the same way.
"""
import gzip
import io
import json
import os
import re
import shutil
import signal
import subprocess
import tarfile
from pathlib import Path

import pytest

from wallet_helpers import wait_until

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "scripts" / "package-deb.sh"
CATALOG = REPO / "Sources" / "WalletBridgeCLI" / "Install" / "BrowserCatalog.swift"
HOST_NAME = "com.walletbridge.host"
BINARY = "/usr/bin/wallet-bridge"
DOC = "/usr/share/doc/wallet-bridge"

# The IDs the package is built with: two of each, given unsorted and with one repeated, to see
# them sorted and deduplicated as `wallet-bridge install` writes them.
CHROME_IDS = ["pppppppppppppppppppppppppppppppp", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"]
FIREFOX_IDS = ["wallet@example.org", "{01234567-89ab-cdef-0123-456789abcdef}"]
ORIGINS = sorted(f"chrome-extension://{id}/" for id in CHROME_IDS)
ADDONS = sorted(FIREFOX_IDS)


# Every file the package must hold besides the manifests.
# (The man pages, one per command and subcommand, are counted from the binary: man_pages().)
EXPECTED_FILES = {
    BINARY,
    "/usr/share/bash-completion/completions/wallet-bridge",
    "/usr/share/zsh/vendor-completions/_wallet-bridge",
    "/usr/share/fish/vendor_completions.d/wallet-bridge.fish",
    "/usr/lib/systemd/user/wallet-bridge-agent.service",
    "/usr/lib/systemd/user/wallet-bridge-agent.socket",
    f"{DOC}/README.md",
    f"{DOC}/SECURITY.md",
    *(f"{DOC}/{path.name}" for path in (REPO / "docs").glob("*.md")),
    f"{DOC}/README.Debian",
    f"{DOC}/changelog.gz",  # CHANGELOG.md, under Debian's name for the upstream changelog
    f"{DOC}/changelog.Debian.gz",
    f"{DOC}/copyright",
    "/usr/share/lintian/overrides/wallet-bridge",
}


def run(*args, **kwargs):
    kwargs.setdefault("capture_output", True)
    kwargs.setdefault("text", True)
    kwargs.setdefault("timeout", 900)
    return subprocess.run([str(a) for a in args], **kwargs)


def swift_env():
    """PATH with Swift on it: package-deb.sh runs swift build."""
    env = dict(os.environ)
    if not shutil.which("swift") and Path("/opt/swift/usr/bin/swift").exists():
        env["PATH"] = "/opt/swift/usr/bin:" + env.get("PATH", "")
    return env


@pytest.fixture(scope="session")
def deb(tmp_path_factory):
    for tool in ("dpkg-deb", "dpkg-parsechangelog"):
        if not shutil.which(tool):
            pytest.fail(f"{tool} is missing (Debian: apt-get install dpkg-dev)")
    if not shutil.which("swift", path=swift_env()["PATH"]):
        pytest.fail("swift is not on PATH: the package is built from the release binary")
    output = tmp_path_factory.mktemp("deb")
    args = [SCRIPT, "--output", output]
    for id in CHROME_IDS + [CHROME_IDS[0]]:
        args += ["--chrome-extension", id]
    for id in FIREFOX_IDS:
        args += ["--firefox-addon", id]
    result = run("bash", *args, cwd=REPO, env=swift_env())
    assert result.returncode == 0, f"package-deb.sh failed:\n{result.stderr[-4000:]}"
    path = Path(result.stdout.strip())
    assert path.parent == output and path.is_file(), f"package-deb.sh printed {result.stdout!r}"
    return path


@pytest.fixture(scope="session")
def tree(deb, tmp_path_factory):
    """The package's files, unpacked with dpkg-deb -x (as they would be on /)."""
    root = tmp_path_factory.mktemp("root")
    result = run("dpkg-deb", "-x", deb, root)
    assert result.returncode == 0, result.stderr
    return root


@pytest.fixture(scope="session")
def listing(deb):
    """`dpkg-deb -c`: path -> (mode string, owner/group)."""
    result = run("dpkg-deb", "-c", deb)
    assert result.returncode == 0, result.stderr
    entries = {}
    for line in result.stdout.splitlines():
        fields = line.split(None, 5)
        path = fields[5].split(" -> ")[0]
        entries["/" + path.removeprefix("./").rstrip("/")] = (fields[0], fields[1])
    return entries


def control_field(deb, name):
    result = run("dpkg-deb", "-f", deb, name)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def man_pages(tree):
    """{page name: command as typed}: wallet-bridge and each subcommand but help, by the binary's
    own description of its commands (what the manual generator reads)."""
    dump = json.loads(run(tree / BINARY.lstrip("/"), "--experimental-dump-help").stdout)
    pages = {}

    def walk(command, words):
        pages["-".join(words)] = " ".join(words)
        for sub in command.get("subcommands") or []:
            if sub.get("shouldDisplay", True) and sub["commandName"] != "help":
                walk(sub, words + [sub["commandName"]])

    walk(dump["command"], ["wallet-bridge"])
    return pages


def system_folders():
    """{folder: family}: where `install --system` writes, and so `install --root` stages: each
    browser's first system-wide folder in BrowserCatalog.swift."""
    return {folders[0]: family for _, family, folders in catalog_entries() if folders}


# --- The browser catalog, read from the Swift source ---------------------------------------------

def _strip_comments(source):
    """Swift source without // and /* */ comments; string literals kept."""
    out, i = [], 0
    while i < len(source):
        if source.startswith("//", i):
            i = source.find("\n", i)
            i = len(source) if i < 0 else i
        elif source.startswith("/*", i):
            i = source.index("*/", i) + 2
        elif source[i] == '"':
            j = i + 1
            while source[j] != '"':
                j += 2 if source[j] == "\\" else 1
            out.append(source[i:j + 1])
            i = j + 1
        else:
            out.append(source[i])
            i += 1
    return "".join(out)


def _balanced(text, start):
    """The text from the bracket at `start` to its match, both included."""
    pairs = {"(": ")", "[": "]"}
    stack, i = [], start
    while True:
        c = text[i]
        if c == '"':
            i = text.index('"', i + 1)
        elif c in pairs:
            stack.append(pairs[c])
        elif stack and c == stack[-1]:
            stack.pop()
            if not stack:
                return text[start:i + 1]
        i += 1


def catalog_entries():
    """[(browser id, family, [system folders])] from BrowserCatalog.all."""
    source = _strip_comments(CATALOG.read_text())
    start = re.search(r"static let all: \[Browser\] = ", source)
    assert start, "BrowserCatalog.all not found"
    body = _balanced(source, start.end())[1:-1]
    entries, depth, i = [], 0, 0
    while i < len(body):
        c = body[i]
        if c in " \n\t,":
            i += 1
            continue
        call = re.match(r"(Browser|\.\w+)\(", body[i:])
        assert call, f"BrowserCatalog.all: an entry this test cannot read: {body[i:i + 80]!r}"
        args = _balanced(body, i + call.end() - 1)
        i += call.end() - 1 + len(args)
        if call.group(1) == "Browser":
            id = re.search(r'\bid: "([^"]+)"', args).group(1)
            family = re.search(r"\bfamily: \.(\w+)", args).group(1)
            folders = re.search(r"\bsystemHostFolders: (\[[^\]]*\])", args).group(1)
            folders = re.findall(r'"([^"]+)"', folders)
        elif call.group(1) == ".chromium":
            id = re.match(r'\(\s*"([^"]+)"', args).group(1)
            family = "chromium"
            system = re.search(r'\bsystem: ("[^"]*"|\[[^\]]*\])', args)
            assert system, f"{id}: no system: argument"
            folders = re.findall(r'"([^"]+)"', system.group(1))
        else:
            pytest.fail(f"BrowserCatalog.all uses {call.group(1)}(…), which this test does not know: "
                        "teach catalog_entries() to read it")
        entries.append((id, family, folders))
    return entries


# --- Tests ------------------------------------------------------------------------------------

def test_the_catalog_parser_sees_the_known_browsers():
    entries = {id: (family, folders) for id, family, folders in catalog_entries()}
    assert entries["firefox"] == ("firefox", ["/usr/lib/mozilla/native-messaging-hosts",
                                              "/usr/lib64/mozilla/native-messaging-hosts"])
    assert entries["chromium"] == ("chromium", ["/etc/chromium/native-messaging-hosts"])
    assert entries["chrome"][1] == ["/etc/opt/chrome/native-messaging-hosts"]


def test_package_folders_are_each_browsers_first_system_folder(listing):
    """The manifests come from `install --root`, which writes where `install --system` does: each
    browser's first system-wide folder (/usr/lib64/mozilla, Firefox's second, is for RPM
    distributions: packaging/examples/notes-host.spec stages it)."""
    folders = system_folders()
    assert "/usr/lib64/mozilla/native-messaging-hosts" not in folders
    assert len(folders) == 6, folders
    manifests = {path for path, (mode, _) in listing.items() if path.endswith(".json")}
    assert manifests == {f"{folder}/{HOST_NAME}.json" for folder in folders}


def test_versions_agree(deb, tree):
    binary = run(tree / BINARY.lstrip("/"), "--version").stdout.strip()
    package = control_field(deb, "Version")
    js = json.loads((REPO / "js" / "package.json").read_text())["version"]
    changelog = re.search(r"^## \[(\d[^\]]*)\]", (REPO / "CHANGELOG.md").read_text(), re.M).group(1)
    swift = re.search(r'current = "([^"]+)"',
                      (REPO / "Sources/WalletBridgeKeys/Support/WalletBridgeVersion.swift").read_text()).group(1)
    assert package.rsplit("-", 1)[0] == binary == js == changelog == swift
    assert deb.name == f"wallet-bridge_{package}_{control_field(deb, 'Architecture')}.deb"
    debian = gzip.decompress((tree / DOC.lstrip("/") / "changelog.Debian.gz").read_bytes()).decode()
    assert debian.startswith(f"wallet-bridge ({package}) ")
    assert gzip.decompress((tree / DOC.lstrip("/") / "changelog.gz").read_bytes()) == (REPO / "CHANGELOG.md").read_bytes()


def test_a_version_mismatch_stops_the_build(tmp_path):
    fake = tmp_path / "wallet-bridge"
    fake.write_text("#!/bin/sh\necho 9.9.9\n")
    fake.chmod(0o755)
    result = run("bash", SCRIPT, "--binary", fake, "--output", tmp_path / "out", cwd=REPO)
    assert result.returncode != 0
    assert "the binary is version 9.9.9" in result.stderr
    assert "js/package.json says" in result.stderr and "scripts/set-version.sh" in result.stderr
    assert not (tmp_path / "out").exists()


def test_bad_extension_ids_are_refused(tmp_path):
    for option, value in [("--chrome-extension", "abc"), ("--firefox-addon", "not an id")]:
        result = run("bash", SCRIPT, option, value, "--output", tmp_path, cwd=REPO)
        assert result.returncode != 0 and f"{option} {value}:" in result.stderr


def test_package_lists_every_file(listing, tree):
    files = {path for path, (mode, _) in listing.items() if mode.startswith("-")}
    manifests = {f"{folder}/{HOST_NAME}.json" for folder in system_folders()}
    pages = {f"/usr/share/man/man1/{name}.1.gz" for name in man_pages(tree)}
    assert len(pages) > 20 and "/usr/share/man/man1/wallet-bridge-keys-create.1.gz" in pages
    assert EXPECTED_FILES | manifests | pages == files
    for path, (mode, owner) in listing.items():
        assert owner == "root/root", path
        wanted = "drwxr-xr-x" if mode.startswith("d") else "-rwxr-xr-x" if path == BINARY else "-rw-r--r--"
        assert mode == wanted, path


def test_control_file(deb):
    assert control_field(deb, "Package") == "wallet-bridge"
    assert control_field(deb, "Architecture") == run("dpkg", "--print-architecture").stdout.strip()
    built_using = control_field(deb, "Built-Using")
    for source in ("glibc", "libsodium", "nettle", "libsecp256k1"):
        assert re.search(rf"\b{source} \(= [^)]+\)", built_using), built_using


def test_conffiles_are_the_manifests_under_etc(deb, tmp_path):
    result = run("dpkg-deb", "-e", deb, tmp_path / "DEBIAN")
    assert result.returncode == 0, result.stderr
    conffiles = (tmp_path / "DEBIAN" / "conffiles").read_text().split()
    wanted = sorted(f"{folder}/{HOST_NAME}.json" for folder in system_folders()
                    if folder.startswith("/etc/"))
    assert conffiles == wanted
    assert set(os.listdir(tmp_path / "DEBIAN")) == {"control", "conffiles", "md5sums", "prerm"}, \
        "one maintainer script, prerm, which stops running agents"
    assert os.access(tmp_path / "DEBIAN" / "prerm", os.X_OK)


def test_prerm_ends_agents_and_leaves_other_processes(tmp_path):
    """packaging/prerm, run as dpkg runs it (sh, with "remove"), ends a process whose binary is
    /usr/bin/wallet-bridge and whose command is `… agent …`, and no other. A stand-in binary at
    /usr/bin/wallet-bridge would touch this machine, so the script is run with that path
    rewritten to a scratch copy of sleep."""
    stand_in = tmp_path / "wallet-bridge"
    shutil.copy("/bin/sleep", stand_in)
    script = (REPO / "packaging" / "prerm").read_text().replace("/usr/bin/wallet-bridge", str(stand_in))
    (tmp_path / "prerm").write_text(script)
    agent = subprocess.Popen(["bash", "-c", f'exec -a "{stand_in} agent" {stand_in} 300'])
    host = subprocess.Popen([str(stand_in), "301"])
    try:
        # Until bash's exec, the agent's command line is bash's, which the script must not match.
        renamed = f"{stand_in} agent".encode()
        cmdline = Path(f"/proc/{agent.pid}/cmdline")
        assert wait_until(lambda: cmdline.read_bytes().split(b"\0")[0] == renamed, timeout=10)
        assert run("sh", tmp_path / "prerm", "upgrade").returncode == 0
        assert agent.wait(10) == -signal.SIGTERM
        assert host.poll() is None, "a host a browser started is left alone"
    finally:
        for process in (agent, host):
            process.kill()
            process.wait()


def scratch_dpkg(tmp_path):
    """A scratch root for dpkg (never this machine's /): (root, its dpkg database folder, the dpkg
    command that installs into it)."""
    root = tmp_path / "root"
    admin = root / "var/lib/dpkg"
    for folder in ("info", "updates", "triggers"):
        (admin / folder).mkdir(parents=True)
    (admin / "status").touch()
    (admin / "available").touch()
    dpkg = ["dpkg", f"--root={root}", "--force-script-chrootless"] + ([] if os.getuid() == 0 else ["--force-not-root"])
    return root, admin, dpkg


def test_install_remove_and_purge_in_a_scratch_root(deb, tmp_path):
    """dpkg itself, with --root on a scratch folder (never this machine's /): the files land,
    `remove` keeps only the conffiles, `purge` leaves nothing."""
    root, admin, dpkg = scratch_dpkg(tmp_path)

    def files():
        return sorted("/" + str(path.relative_to(root)) for path in root.rglob("*")
                      if not path.is_dir() and admin not in path.parents)

    result = run(*dpkg, "--install", deb)
    assert result.returncode == 0, result.stdout + result.stderr
    listed = {"/" + line.split()[-1].removeprefix("./") for line in run("dpkg-deb", "-c", deb).stdout.splitlines()
              if line.startswith("-")}
    assert set(files()) == listed
    result = run(*dpkg, "--remove", "wallet-bridge")
    assert result.returncode == 0, result.stdout + result.stderr
    assert files() == sorted(f"{folder}/{HOST_NAME}.json" for folder in system_folders()
                             if folder.startswith("/etc/"))
    result = run(*dpkg, "--purge", "wallet-bridge")
    assert result.returncode == 0, result.stdout + result.stderr
    assert files() == []


def test_manifests(tree):
    for folder, family in system_folders().items():
        path = tree / folder.lstrip("/") / f"{HOST_NAME}.json"
        manifest = json.loads(path.read_text())
        allow_key = "allowed_extensions" if family == "firefox" else "allowed_origins"
        assert manifest == {
            "name": HOST_NAME,
            "description": "wallet-bridge: a wallet for browser extensions",
            "path": BINARY,
            "type": "stdio",
            allow_key: ADDONS if family == "firefox" else ORIGINS,
        }, path


def test_manifests_are_byte_for_byte_what_install_writes(tree, tmp_path):
    """The packaged binary's own `install`, into a scratch root, writes the same bytes."""
    home, root = tmp_path / "home", tmp_path / "root"
    home.mkdir()
    root.mkdir()
    binary = tree / BINARY.lstrip("/")
    args = [binary, "install", "--browser", "firefox", "--browser", "chromium", "--binary", binary]
    for id in CHROME_IDS:
        args += ["--chrome-extension", id]
    for id in FIREFOX_IDS:
        args += ["--firefox-addon", id]
    env = {"HOME": str(home), "PATH": "/usr/bin:/bin", "WALLET_BRIDGE_SYSTEM_ROOT": str(root)}
    result = run(*args, env=env)
    assert result.returncode == 0, result.stderr
    written = {
        "firefox": home / ".mozilla/native-messaging-hosts" / f"{HOST_NAME}.json",
        "chromium": home / ".config/chromium/NativeMessagingHosts" / f"{HOST_NAME}.json",
    }
    packaged = {
        "firefox": tree / "usr/lib/mozilla/native-messaging-hosts" / f"{HOST_NAME}.json",
        "chromium": tree / "etc/chromium/native-messaging-hosts" / f"{HOST_NAME}.json",
    }
    for family in written:
        bytes_written = written[family].read_bytes().replace(str(binary).encode(), BINARY.encode())
        assert bytes_written == packaged[family].read_bytes(), family


def test_readme_debian_names_the_ids(tree):
    text = (tree / DOC.lstrip("/") / "README.Debian").read_text()
    for id in ORIGINS + ADDONS:
        assert id in text
    for folder in system_folders():
        assert folder in text
    assert "@" + "ALLOWED@" not in text and "@" + "FOLDERS@" not in text


def render_man_page(page):
    """The page as man shows it (plain text), after checking it renders with no warning."""
    env = {**os.environ, "LC_ALL": "C.UTF-8", "MANWIDTH": "80", "MANPAGER": "cat"}
    if shutil.which("man"):
        # What lintian runs: any message on stderr is a groff or mdoc warning.
        result = run("man", "--warnings", "-E", "UTF-8", "-l", "-Tutf8", "-Z", page, env=env)
        assert result.returncode == 0 and not result.stderr.strip(), f"{page.name}: {result.stderr}"
        result = run("man", "-l", page, env=env)
    elif shutil.which("groff"):
        result = run("groff", "-mandoc", "-Tutf8", "-ww", input=gzip.decompress(page.read_bytes()).decode())
        assert not result.stderr.strip(), f"{page.name}: {result.stderr}"
    else:
        pytest.skip("neither man nor groff is installed (apt-get install man-db)")
    assert result.returncode == 0, result.stderr
    return re.sub(r".\x08", "", result.stdout)


def test_man_pages_render_and_name_the_subcommands(tree):
    man1 = tree / "usr/share/man/man1"
    pages = man_pages(tree)
    for name, command in pages.items():
        text = render_man_page(man1 / f"{name}.1.gz")
        # NAME is the page's name (whatis needs one word); the synopsis is the command as typed.
        assert re.search(rf"^NAME\n\s+{re.escape(name)} [—-] \S", text, re.M), f"{name}:\n{text[:400]}"
        assert re.search(rf"^SYNOPSIS\n\s+{re.escape(command)}\b", text, re.M), f"{name}:\n{text[:400]}"
        assert re.search(r"^wallet-bridge \d+\.\d+\.\d+ ", text, re.M), f"{name}: no release in the footer"
        if shutil.which("lexgrog"):
            result = run("lexgrog", man1 / f"{name}.1.gz", env={"PATH": os.environ["PATH"], "LC_ALL": "C.UTF-8"})
            assert result.returncode == 0, f"{name}: whatis cannot parse it: {result.stdout}"
    # wallet-bridge(1) is the whole reference: every subcommand, then SEE ALSO their pages.
    text = render_man_page(man1 / "wallet-bridge.1.gz")
    help_text = run(tree / BINARY.lstrip("/"), "--help").stdout
    subcommands = re.findall(r"^  ([a-z][a-z-]+) ", help_text.split("SUBCOMMANDS:")[1], re.M)
    assert len(subcommands) >= 10, help_text
    for name in subcommands:
        assert re.search(rf"\b{name}\b", text), f"the man page does not mention {name}"
    see_also = text.split("SEE ALSO")[1]
    for name in subcommands:
        if name != "help":
            assert f"wallet-bridge-{name}(1)" in re.sub(r"\s+", "", see_also), f"SEE ALSO lacks {name}"


@pytest.mark.parametrize("shell, path", [
    ("bash", "usr/share/bash-completion/completions/wallet-bridge"),
    ("zsh", "usr/share/zsh/vendor-completions/_wallet-bridge"),
    ("fish", "usr/share/fish/vendor_completions.d/wallet-bridge.fish"),
])
def test_completion_scripts_parse(tree, shell, path):
    script = tree / path
    assert "wallet-bridge" in script.read_text()
    if not shutil.which(shell):
        pytest.skip(f"{shell} is not installed (apt-get install {shell}); its completion is not checked")
    result = run(shell, "-n", script)
    assert result.returncode == 0, result.stderr


def test_bash_completion_completes_subcommands(tree):
    if not shutil.which("bash"):
        pytest.skip("bash is not installed")
    script = tree / "usr/share/bash-completion/completions/wallet-bridge"
    probe = (f'source "{script}"; COMP_WORDS=(wallet-bridge ""); COMP_CWORD=1; COMP_LINE="wallet-bridge "; '
             f'COMP_POINT=${{#COMP_LINE}}; _wallet-bridge wallet-bridge "" wallet-bridge; printf "%s\\n" "${{COMPREPLY[@]}}"')
    result = run("bash", "-c", probe)
    if result.returncode != 0 and "command not found" in result.stderr:
        pytest.skip("the generated script needs bash-completion's helpers: " + result.stderr.strip())
    assert {"install", "doctor", "keys"} <= set(result.stdout.split()), result.stdout + result.stderr


def test_systemd_units_start_the_installed_binary(tree, tmp_path):
    units = tree / "usr/lib/systemd/user"
    service = (units / "wallet-bridge-agent.service").read_text()
    assert re.findall(r"^ExecStart=(\S+)", service, re.M) == [BINARY]
    for unit in units.iterdir():
        for link in re.findall(r"^Documentation=file://(\S+)", unit.read_text(), re.M):
            assert (tree / link.lstrip("/")).is_file(), f"{unit.name}: {link} is not in the package"
    if shutil.which("systemd-analyze"):
        runtime = tmp_path / "runtime"
        runtime.mkdir(mode=0o700)
        result = run("systemd-analyze", "--user", "verify", *sorted(units.iterdir()),
                     env={**os.environ, "XDG_RUNTIME_DIR": str(runtime)})
        # verify complains about ExecStart's binary, which is not on this machine's /usr/bin.
        problems = [line for line in result.stderr.splitlines() if BINARY not in line and line.strip()]
        assert not problems, result.stderr


def test_the_packaged_binary_is_static_stripped_and_works(tree):
    binary = tree / BINARY.lstrip("/")
    headers = run("readelf", "-lW", binary).stdout
    assert "INTERP" not in headers, "dynamically linked"
    sections = run("readelf", "-SW", binary).stdout
    assert ".symtab" not in sections and ".debug_info" not in sections, "not stripped"
    # rpc.discover walks every method's Swift types: a stripped binary must still describe itself.
    result = run(binary, "describe", "--host", binary, timeout=60)
    assert result.returncode == 0, result.stderr
    methods = {method["name"] for method in json.loads(result.stdout)["methods"]}
    assert {"NATIVE_GET_ACCOUNTS_METHOD", "NATIVE_SIGN_PAYLOADS_METHOD"} <= methods, methods


# The test-only environment switches: compiled into test (debug) builds alone (Package.swift,
# WALLET_BRIDGE_TEST_HOOKS).
TEST_ONLY_VARIABLES = ("WALLET_BRIDGE_TEST_WEAK_KDF", "WALLET_BRIDGE_TEST_SLOW_WRITE_MS")


def test_the_packaged_binary_neither_names_nor_honours_the_test_only_switches(tree, tmp_path):
    from wallet_helpers import binary_path
    binary = tree / BINARY.lstrip("/")
    shipped = binary.read_bytes()
    tested = Path(binary_path()).read_bytes()
    for name in TEST_ONLY_VARIABLES:
        assert name.encode() not in shipped, f"the shipped binary names {name}"
        assert name.encode() in tested, f"the test build {binary_path()} lost {name}"
    # Set anyway, the weak KDF switch changes nothing: a new keystore gets the users' limits
    # (libsodium's MODERATE, 3 passes), and no test-only warning is printed.
    passphrase = tmp_path / "passphrase"
    passphrase.write_text("scratch keystore only\n")
    keystore = tmp_path / "keystore.json"
    env = {"HOME": str(tmp_path), "PATH": os.environ["PATH"], "WALLET_BRIDGE_KEYSTORE": str(keystore),
           "WALLET_BRIDGE_TEST_WEAK_KDF": "1"}
    result = run(binary, "keys", "create", "--label", "main", "--passphrase-file", passphrase, env=env, timeout=60)
    assert result.returncode == 0, result.stderr
    assert "WALLET_BRIDGE_TEST" not in result.stderr, result.stderr
    assert json.loads(keystore.read_text())["kdf"]["opslimit"] == 3


def test_copyright_is_machine_readable(tree):
    text = (tree / DOC.lstrip("/") / "copyright").read_text()
    assert text.startswith("Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n")
    assert re.search(r"^Files: \*\nCopyright: .+\nLicense: Apache-2\.0$", text, re.M)
    assert "/usr/share/common-licenses/Apache-2.0" in text


def test_lintian_reports_nothing_beyond_the_overrides(deb):
    if not shutil.which("lintian"):
        pytest.fail("lintian is missing: apt-get install lintian (scripts/install-deps.sh --test)")
    result = run("lintian", "--info", "--pedantic", "--display-experimental", deb, timeout=600)
    tags = [line for line in result.stdout.splitlines() if re.match(r"^[EW]: ", line)]
    assert not tags, "lintian:\n" + result.stdout
    assert result.returncode == 0, result.stdout + result.stderr
    # Every override is still needed: an unused one hides nothing and should go.
    unused = [line for line in result.stdout.splitlines() if "unused-override" in line]
    assert not unused, "\n".join(unused)


# --- Another host's package: the conformance host, shipped as a "notes" host ---------------------

NOTES_HOST = "com.example.notes"
NOTES_BINARY = "/usr/bin/notes-host"
NOTES_DESCRIPTION = "Notes: keeps an extension's notes"
NOTES_CHROME = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
NOTES_FIREFOX = "notes@example.org"
NOTES_MAINTAINER = "Notes Developer <dev@example.org>"
EXAMPLES = REPO / "packaging" / "examples"


def stager():
    """The wallet-bridge that stages manifests: the debug build the other system tests use."""
    from wallet_helpers import binary_path
    return Path(binary_path())


@pytest.fixture(scope="session")
def static_host():
    """The conformance host built as a shipped host is: static (scripts/build-release.sh --product),
    from the release build the wallet's package already made."""
    result = run("bash", REPO / "scripts" / "build-release.sh", "--product", "wallet-bridge-conformance-host",
                 cwd=REPO, env=swift_env())
    assert result.returncode == 0, result.stderr[-4000:]
    return Path(result.stdout.strip())


@pytest.fixture(scope="session")
def notes_sources(tmp_path_factory, static_host):
    """A folder as a developer would have it: the binary under its own name, and its licence."""
    folder = tmp_path_factory.mktemp("notes-src")
    shutil.copy(static_host, folder / "notes-host")
    (folder / "copyright").write_text(
        "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n"
        "Upstream-Name: notes-host\n\nFiles: *\nCopyright: 2026 Notes Developer\nLicense: Apache-2.0\n"
        " On Debian systems, the full text of the Apache License 2.0 is in\n"
        " /usr/share/common-licenses/Apache-2.0.\n")
    shutil.copy(REPO / "LICENSE", folder / "LICENSE")
    return folder


def notes_package_args(sources, output, *extra):
    return ["bash", SCRIPT, "--binary", sources / "notes-host", "--name", NOTES_HOST,
            "--description", NOTES_DESCRIPTION, "--copyright", sources / "copyright",
            "--maintainer", NOTES_MAINTAINER, "--chrome-extension", NOTES_CHROME,
            "--firefox-addon", NOTES_FIREFOX, "--wallet-bridge", stager(), "--output", output, *extra]


@pytest.fixture(scope="session")
def notes_deb(notes_sources, tmp_path_factory):
    output = tmp_path_factory.mktemp("notes-deb")
    # The conformance host answers --version with nothing: the version is given.
    result = run(*notes_package_args(notes_sources, output, "--version", "1.2.0",
                                     "--homepage", "https://example.org/notes"), cwd=REPO, env=swift_env())
    assert result.returncode == 0, f"package-deb.sh failed:\n{result.stderr[-4000:]}"
    path = Path(result.stdout.strip())
    assert path == output / f"notes-host_1.2.0-1_{run('dpkg', '--print-architecture').stdout.strip()}.deb"
    return path


def staged(tmp_path, *args):
    """{path: content} of what `wallet-bridge install --root` stages with these arguments."""
    root = tmp_path / "staged"
    result = run(stager(), "install", "--root", root, *args)
    assert result.returncode == 0, result.stderr
    return {"/" + str(path.relative_to(root)): path.read_text() for path in root.rglob("*") if path.is_file()}


def notes_stage_args():
    return ["--name", NOTES_HOST, "--description", NOTES_DESCRIPTION, "--binary", NOTES_BINARY,
            "--chrome-extension", NOTES_CHROME, "--firefox-addon", NOTES_FIREFOX]


def test_another_hosts_package_holds_its_binary_its_manifests_and_nothing_of_the_wallet(notes_deb, tmp_path):
    tree = tmp_path / "tree"
    assert run("dpkg-deb", "-x", notes_deb, tree).returncode == 0
    files = {"/" + str(path.relative_to(tree)) for path in tree.rglob("*") if path.is_file()}
    manifests = staged(tmp_path, *notes_stage_args())
    assert files == {NOTES_BINARY, "/usr/share/doc/notes-host/copyright", "/usr/share/doc/notes-host/changelog.Debian.gz",
                     "/usr/share/lintian/overrides/notes-host"} | set(manifests)
    assert {f"{folder}/{NOTES_HOST}.json" for folder in system_folders()} == set(manifests)
    for path, content in manifests.items():
        assert (tree / path.lstrip("/")).read_text() == content, path
        manifest = json.loads(content)
        assert manifest["path"] == NOTES_BINARY and manifest["name"] == NOTES_HOST
        assert manifest["description"] == NOTES_DESCRIPTION
    assert not any("wallet-bridge" in path or "walletbridge" in path for path in files), files
    # The packaged (stripped) host still answers, as a browser would start it.
    result = run(stager(), "call", "--host", tree / NOTES_BINARY.lstrip("/"), "--raw", "subtract", "[5, 3]")
    assert result.returncode == 0 and result.stdout == '{"jsonrpc":"2.0","id":1,"result":2}\n', result.stdout + result.stderr
    changelog = gzip.decompress((tree / "usr/share/doc/notes-host/changelog.Debian.gz").read_bytes()).decode()
    assert changelog.startswith("notes-host (1.2.0-1) unstable; urgency=medium\n") and f" -- {NOTES_MAINTAINER}  " in changelog


def test_another_hosts_control_file_and_conffiles(notes_deb, tmp_path):
    assert control_field(notes_deb, "Package") == "notes-host"
    assert control_field(notes_deb, "Version") == "1.2.0-1"
    assert control_field(notes_deb, "Maintainer") == NOTES_MAINTAINER
    assert control_field(notes_deb, "Homepage") == "https://example.org/notes"
    assert control_field(notes_deb, "Built-Using") == "" and control_field(notes_deb, "Depends") == ""
    description = control_field(notes_deb, "Description")
    assert description.startswith(f"native-messaging host {NOTES_HOST}\n") and NOTES_BINARY in description
    assert run("dpkg-deb", "-e", notes_deb, tmp_path / "DEBIAN").returncode == 0
    assert set(os.listdir(tmp_path / "DEBIAN")) == {"control", "conffiles", "md5sums"}, "no maintainer script"
    assert (tmp_path / "DEBIAN/conffiles").read_text().split() == sorted(
        f"{folder}/{NOTES_HOST}.json" for folder in system_folders() if folder.startswith("/etc/"))


def test_another_hosts_package_is_lintian_clean(notes_deb):
    if not shutil.which("lintian"):
        pytest.fail("lintian is missing: apt-get install lintian (scripts/install-deps.sh --test)")
    result = run("lintian", "--info", "--pedantic", "--display-experimental", notes_deb, timeout=600)
    tags = [line for line in result.stdout.splitlines() if re.match(r"^[EW]: ", line)]
    # A man page is the developer's to write (--man-page FILE); nothing else may be reported.
    assert [tag for tag in tags if "no-manual-page" not in tag] == [], "lintian:\n" + result.stdout
    assert result.returncode == 0, result.stdout + result.stderr
    assert "unused-override" not in result.stdout, result.stdout


def test_another_hosts_package_installs_and_purges_in_a_scratch_root(notes_deb, tmp_path):
    root, admin, dpkg = scratch_dpkg(tmp_path)
    result = run(*dpkg, "--install", notes_deb)
    assert result.returncode == 0, result.stdout + result.stderr
    assert (root / NOTES_BINARY.lstrip("/")).is_file()
    result = run(*dpkg, "--purge", "notes-host")
    assert result.returncode == 0, result.stdout + result.stderr
    assert [path for path in root.rglob("*") if not path.is_dir() and admin not in path.parents] == []


def test_a_chrome_only_host_gets_no_firefox_manifests(notes_sources, tmp_path):
    """Also: without --description the manifests say what `install` says for any host (one rule,
    Installer's), not the package's --summary; --depends and a --long-description with line
    breaks land in the control file as values, never as fields of their own."""
    result = run("bash", SCRIPT, "--binary", notes_sources / "notes-host", "--name", NOTES_HOST, "--version", "2.0",
                 "--copyright", notes_sources / "copyright", "--maintainer", NOTES_MAINTAINER, "--package", "notes-chrome",
                 "--command", "notes", "--chrome-extension", NOTES_CHROME, "--wallet-bridge", stager(),
                 "--summary", "Notes for Chrome", "--depends", "python3 (>= 3.11), libfoo1:any | libbar2",
                 "--long-description", "Keeps notes.\nPre-Depends: evil-pkg\n\nA second paragraph.",
                 "--output", tmp_path, cwd=REPO, env=swift_env())
    assert result.returncode == 0, result.stderr[-4000:]
    deb = Path(result.stdout.strip())
    listing = run("dpkg-deb", "-c", deb).stdout
    paths = {line.split()[-1].removeprefix(".") for line in listing.splitlines() if line.startswith("-")}
    assert "/usr/bin/notes" in paths and "/usr/share/doc/notes-chrome/copyright" in paths
    assert {path for path in paths if path.endswith(".json")} == {
        f"{folder}/{NOTES_HOST}.json" for folder, family in system_folders().items() if family == "chromium"}
    assert control_field(deb, "Enhances") == "chromium"
    tree = tmp_path / "tree"
    assert run("dpkg-deb", "-x", deb, tree).returncode == 0
    manifest = json.loads((tree / "etc/chromium/native-messaging-hosts" / f"{NOTES_HOST}.json").read_text())
    assert manifest["description"] == f"{NOTES_HOST}: a native messaging host (notes)"
    assert manifest["allowed_origins"] == [f"chrome-extension://{NOTES_CHROME}/"]
    assert control_field(deb, "Depends") == "python3 (>= 3.11), libfoo1:any | libbar2"
    assert control_field(deb, "Pre-Depends") == ""
    description = control_field(deb, "Description")
    assert description.startswith("Notes for Chrome\n Keeps notes.\n Pre-Depends: evil-pkg\n .\n A second paragraph.\n"), description


def test_paths_are_the_callers_wherever_the_script_is(notes_sources, tmp_path):
    """A developer runs the script from their own project (through .build/checkouts/wallet-bridge):
    relative paths are taken from their folder, and the package lands in their .build/deb."""
    project = tmp_path / "notes"
    project.mkdir()
    for name in ("notes-host", "copyright"):
        shutil.copy(notes_sources / name, project / name)
    (project / "notes-host.1").write_text('.TH NOTES-HOST 1\n.SH NAME\nnotes-host \\- keeps notes\n')
    args = ["bash", SCRIPT, "--binary", "./notes-host", "--name", NOTES_HOST, "--version", "3.0", "--copyright", "copyright",
            "--man-page", "notes-host.1", "--maintainer", NOTES_MAINTAINER, "--firefox-addon", NOTES_FIREFOX,
            "--wallet-bridge", os.path.relpath(stager(), project)]
    result = run(*args, cwd=project, env=swift_env())
    assert result.returncode == 0, result.stderr[-4000:]
    deb = project / ".build/deb" / f"notes-host_3.0-1_{run('dpkg', '--print-architecture').stdout.strip()}.deb"
    assert result.stdout == f"{deb}\n" and deb.is_file()
    assert "./usr/share/man/man1/notes-host.1.gz" in run("dpkg-deb", "-c", deb).stdout
    result = run(*args, "--output", "out", cwd=project, env=swift_env())
    assert result.returncode == 0, result.stderr[-4000:]
    assert result.stdout == f"{project / 'out' / deb.name}\n"


def test_control_characters_and_malformed_fields_are_refused(tmp_path):
    """No value may add a line to the control file or the changelog (a field of its own, such as
    Pre-Depends), and Homepage and Depends must be what their fields hold."""
    host = fake_binary(tmp_path, "notes-host", "echo 1.0\n")
    copyright = tmp_path / "copyright"
    copyright.write_text("Files: *\n")
    base = ["bash", SCRIPT, "--binary", host, "--name", NOTES_HOST, "--copyright", copyright,
            "--firefox-addon", NOTES_FIREFOX, "--wallet-bridge", stager(), "--output", tmp_path / "out"]
    injected = "Eve <eve@example.org>\nPre-Depends: evil-pkg"
    cases = [
        (["--maintainer", injected], {}, "--maintainer: the value contains a control character"),
        (["--maintainer", NOTES_MAINTAINER, "--homepage", "https://example.org\nPre-Depends: evil-pkg"], {}, "--homepage: the value contains a control character"),
        (["--maintainer", NOTES_MAINTAINER, "--depends", "libc6\nPre-Depends: evil-pkg"], {}, "--depends: the value contains a control character"),
        (["--maintainer", NOTES_MAINTAINER, "--summary", "Notes\tfor you"], {}, "--summary: the value contains a control character"),
        (["--maintainer", NOTES_MAINTAINER, "--long-description", "Notes\rfor you"], {}, "--long-description: the value contains a control character"),
        (["--maintainer", NOTES_MAINTAINER, "--version", "1.0\n"], {}, "--version: the value contains a control character"),
        ([], {"DEBFULLNAME": "Eve\nPre-Depends: evil-pkg", "DEBEMAIL": "eve@example.org"}, "DEBFULLNAME or DEBEMAIL contains a control character"),
        ([], {"DEBFULLNAME": "Eve", "DEBEMAIL": "eve@example.org\nPre-Depends: evil-pkg"}, "DEBFULLNAME or DEBEMAIL contains a control character"),
        (["--maintainer", NOTES_MAINTAINER, "--homepage", "javascript:alert(1)"], {}, "--homepage javascript:alert(1): not an http:// or https:// URL"),
        (["--maintainer", NOTES_MAINTAINER, "--homepage", "https://example.org/a b"], {}, "not an http:// or https:// URL"),
        (["--maintainer", NOTES_MAINTAINER, "--depends", "libc6; evil"], {}, "--depends libc6; evil: not a Debian dependency list"),
        (["--maintainer", NOTES_MAINTAINER, "--depends", "libc6 (>= 2.36"], {}, "not a Debian dependency list"),
        (["--maintainer", NOTES_MAINTAINER, "--depends", "Libc6"], {}, "not a Debian dependency list"),
        # Checked by install --root alone, as install checks them.
        (["--maintainer", NOTES_MAINTAINER, "--chrome-extension", "abc"], {}, '--chrome-extension abc: "abc" is not an extension ID'),
        (["--maintainer", NOTES_MAINTAINER, "--description", "   "], {}, "--description: the description is empty"),
        (["--maintainer", NOTES_MAINTAINER, "--description", "two\nlines"], {}, "--description: the value contains a control character"),
    ]
    for args, env, message in cases:
        result = run(*base, *args, cwd=REPO, env={**swift_env(), "DEBFULLNAME": "", "DEBEMAIL": "", **env})
        assert result.returncode != 0 and message in result.stderr, f"{args} {env}: {result.stderr}"
        assert result.stdout == "", result.stdout
    assert not (tmp_path / "out").exists()


def fake_binary(tmp_path, name, script):
    path = tmp_path / name
    path.write_text("#!/bin/sh\n" + script)
    path.chmod(0o755)
    return path


def test_another_hosts_package_refuses_with_what_to_do(tmp_path):
    silent = fake_binary(tmp_path, "notes-host", "exit 0\n")
    copyright = tmp_path / "copyright"
    copyright.write_text("Files: *\n")
    base = ["bash", SCRIPT, "--binary", silent, "--name", NOTES_HOST, "--copyright", copyright,
            "--maintainer", NOTES_MAINTAINER, "--firefox-addon", NOTES_FIREFOX, "--output", tmp_path / "out"]
    cases = [
        (base, f"{silent} --version printed nothing: pass the package's version with --version VERSION"),
        (base + ["--version", "v1"], 'the version "v1" is not a Debian upstream version'),
        ([a for a in base if a not in ("--name", NOTES_HOST)], "--name is missing: the host name the extension passes to connectNative"),
        (base[:-6] + ["--output", tmp_path / "out"], "no extension may use the host: give --chrome-extension ID and/or --firefox-addon ID"),
        ([a for a in base if a not in ("--copyright", copyright)], "--copyright is missing: a package needs a copyright file"),
        ([a for a in base if a not in ("--maintainer", NOTES_MAINTAINER)], "--maintainer is missing: give --maintainer 'Full Name <email>'"),
        (base + ["--package", "Notes"], "--package Notes: not a Debian package name"),
        (base + ["--version", "1.0", "--summary", "x" * 81], "--summary: 81 characters"),
    ]
    for args, message in cases:
        result = run(*args, cwd=REPO, env={**swift_env(), "DEBFULLNAME": "", "DEBEMAIL": ""})
        assert result.returncode != 0 and message in result.stderr, f"{args}: {result.stderr}"
    # A host built as `swift build` builds it needs Swift's shared libraries, which Debian lacks.
    dynamic = stager().parent / "wallet-bridge-conformance-host"
    result = run(*base[:2], "--binary", dynamic, *base[4:], "--version", "1.0", cwd=REPO, env=swift_env())
    assert result.returncode != 0 and "needs Swift's shared libraries (libswift" in result.stderr, result.stderr
    assert "scripts/build-release.sh --product NAME" in result.stderr
    assert not (tmp_path / "out").exists()


# --- The RPM spec and the Arch PKGBUILD examples ------------------------------------------------

def spec_value(text, name):
    return re.search(rf"^%global {name}\s+(.+)$", text, re.M).group(1).strip()


def test_the_rpm_spec_builds_a_package_of_exactly_what_install_root_stages(notes_sources, tmp_path):
    if not shutil.which("rpmbuild"):
        pytest.fail("rpmbuild is missing: apt-get install rpm (scripts/install-deps.sh --test)")
    spec = EXAMPLES / "notes-host.spec"
    text = spec.read_text()
    result = run("rpmbuild", "-bb", spec, "--define", f"_sourcedir {notes_sources}", "--define", f"_topdir {tmp_path / 'top'}",
                 "--define", f"_rpmdir {tmp_path / 'rpms'}", "--define", f"wallet_bridge {stager()}",
                 env={**os.environ, "HOME": str(tmp_path)})
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    [package] = list((tmp_path / "rpms").rglob("notes-host-1.0.0-1.*.rpm"))
    query = run("rpm", "-qp", "--qf", "[%{FILENAMES} %{FILEMODES:perms}\n]", package)
    files = {line.split()[0] for line in query.stdout.splitlines() if line.split()[1].startswith("-")}
    args = ["--name", spec_value(text, "host_name"), "--description", spec_value(text, "host_description"),
            "--binary", NOTES_BINARY]
    firefox = ["--firefox-addon", spec_value(text, "firefox_addon")]
    manifests = staged(tmp_path / "a", *args, "--chrome-extension", spec_value(text, "chrome_extension"), *firefox)
    manifests |= staged(tmp_path / "b", *args, "--browser-dir", "firefox:/usr/lib64/mozilla/native-messaging-hosts", *firefox)
    licence = {path for path in files if path.startswith("/usr/share/licenses/") and path.endswith("/LICENSE")}
    assert len(licence) == 1, files
    assert files == {NOTES_BINARY} | licence | set(manifests)
    configs = set(run("rpm", "-qp", "--configfiles", package).stdout.split())
    assert configs == {path for path in manifests if path.startswith("/etc/")}
    # The payload, through rpm's own rpm2archive (a tar on stdout): each file as staged.
    archive = subprocess.run(["rpm2archive", "-"], stdin=package.open("rb"), capture_output=True)
    assert archive.returncode == 0, archive.stderr
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        payload = {"/" + member.name.removeprefix("./"): member for member in tar.getmembers() if member.isfile()}
        for path, content in manifests.items():
            assert tar.extractfile(payload[path]).read().decode() == content, path
        assert payload[NOTES_BINARY].mode & 0o777 == 0o755
        # Stripped by rpmbuild (brp-strip), and still a host that answers.
        host = tmp_path / "notes-host"
        host.write_bytes(tar.extractfile(payload[NOTES_BINARY]).read())
    host.chmod(0o755)
    result = run(stager(), "call", "--host", host, "--raw", "subtract", "[5, 3]")
    assert result.stdout == '{"jsonrpc":"2.0","id":1,"result":2}\n', result.stdout + result.stderr


def test_the_pkgbuild_packages_exactly_what_install_root_stages(notes_sources, tmp_path):
    """makepkg refuses to run as root (as CI runs), so its package() runs in bash as makepkg runs it:
    with srcdir and pkgdir set, in a shell that sourced the PKGBUILD."""
    pkgdir = tmp_path / "pkg"
    pkgdir.mkdir()
    script = f'set -e; source "{EXAMPLES / "PKGBUILD"}"; srcdir="{notes_sources}"; pkgdir="{pkgdir}"; cd "$srcdir"; package >&2; ' \
             'printf "%s\\n" "${backup[@]}"; printf "%s\\n" "$_host_name" "$_host_description" "$_chrome_extension" "$_firefox_addon"'
    result = run("bash", "-c", script, env={**os.environ, "WALLET_BRIDGE": str(stager())})
    assert result.returncode == 0, result.stderr
    *backup, host, description, chrome, firefox = result.stdout.splitlines()
    files = {"/" + str(path.relative_to(pkgdir)) for path in pkgdir.rglob("*") if path.is_file()}
    manifests = staged(tmp_path, "--name", host, "--description", description, "--binary", NOTES_BINARY,
                       "--chrome-extension", chrome, "--firefox-addon", firefox)
    assert files == {NOTES_BINARY, "/usr/share/licenses/notes-host/LICENSE"} | set(manifests)
    for path, content in manifests.items():
        assert (pkgdir / path.lstrip("/")).read_text() == content, path
    assert sorted("/" + path for path in backup) == sorted(path for path in manifests if path.startswith("/etc/"))
