"""scripts/headless_browser.py's scratch user (issue 35): a browser started with it writes
nothing into the caller's folders, its cache and runtime folder included."""
import os
import stat
import sys

from wallet_helpers import REPO

sys.path.insert(0, str(REPO / "scripts"))
import headless_browser  # noqa: E402

FOLDERS = ("HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME", "XDG_RUNTIME_DIR")


def test_every_folder_a_browser_writes_is_the_scratch_users(tmp_path):
    caller = {name: f"/the/callers/{name}" for name in FOLDERS}
    env = headless_browser.scratch_env(dict(caller, PATH="/usr/bin", KEEP="me"), str(tmp_path), REPORT="r")
    for name in FOLDERS:
        assert env[name].startswith(str(tmp_path) + os.sep), (name, env[name])
    assert os.path.isdir(env["HOME"]) and os.path.isdir(env["XDG_RUNTIME_DIR"])
    assert stat.S_IMODE(os.stat(env["XDG_RUNTIME_DIR"]).st_mode) == 0o700
    assert env["PATH"] == "/usr/bin" and env["KEEP"] == "me" and env["REPORT"] == "r"
