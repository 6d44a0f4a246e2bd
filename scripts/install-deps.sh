#!/usr/bin/env bash
# Installs the Debian packages wallet-bridge needs, skipping what is already there.
#   scripts/install-deps.sh            build and run: libsodium, pinentry
#   scripts/install-deps.sh --test     also what the tests use: TypeScript, Python's cryptography
#                                      and pytest, and the headless browsers for end-to-end tests
set -euo pipefail

packages=(libsodium-dev pkg-config pinentry-tty)
if [[ "${1:-}" == "--test" ]]; then
  packages+=(node-typescript nodejs python3 zip chromium firefox-esr)
fi

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if ((${#missing[@]})); then
  sudo=""
  [[ $(id -u) -ne 0 ]] && sudo="sudo"
  echo "installing: ${missing[*]}" >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >&2
fi

if [[ "${1:-}" == "--test" ]]; then
  # The independent Ed25519 used to verify signatures, and the runner of the system tests.
  python3 -c 'import cryptography, pytest' 2>/dev/null || python3 -m pip install -q cryptography pytest >&2
fi
