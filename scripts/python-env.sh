#!/usr/bin/env bash
# Makes .build/python-env: a virtual environment of Debian's python3 (with Debian's
# cryptography and pytest, from scripts/install-deps.sh --test) plus the PyPI packages in
# Tests/system/requirements.txt. Debian's python refuses `pip install` outside a virtual
# environment (PEP 668). Prints the environment's python; does nothing when it is up to date.
set -euo pipefail
cd "$(dirname "$0")/.."

env_dir=.build/python-env
requirements=Tests/system/requirements.txt
stamp="$env_dir/requirements.sha256"
wanted=$(sha256sum "$requirements" | cut -d' ' -f1)

if [[ ! -x "$env_dir/bin/python" || "$(cat "$stamp" 2>/dev/null)" != "$wanted" ]]; then
  echo "python-env: installing $requirements into $env_dir" >&2
  rm -rf "$env_dir"
  /usr/bin/python3 -m venv --system-site-packages "$env_dir"
  "$env_dir/bin/python" -m pip install --quiet --disable-pip-version-check --requirement "$requirements" >&2
  echo "$wanted" > "$stamp"
fi
echo "$PWD/$env_dir/bin/python"
