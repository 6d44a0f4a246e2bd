#!/usr/bin/env bash
# Installs the Debian packages wallet-bridge needs, skipping what is already there.
#   scripts/install-deps.sh            build and run: libsodium, nettle, a graphical pinentry
#   scripts/install-deps.sh --test     also what the tests use: TypeScript, Debian's Python with
#                                      cryptography and pytest, the headless browsers for
#                                      end-to-end tests, valgrind (scripts/make-link-order.sh),
#                                      OpenSSH's ssh-agent (the benchmarks compare signatures with
#                                      it), and lintian and rpm (the packages' tests: rpmbuild
#                                      builds the example spec)
#
# Everything comes from Debian's archive, Python's packages included: Debian's python3 refuses
# `pip install` outside a virtual environment (PEP 668), and the system tests run on
# /usr/bin/python3, so they pass whatever other python3 comes first on PATH.
set -euo pipefail

if ! command -v swift >/dev/null 2>&1; then
  cat >&2 <<'MISSING'
install-deps: the Swift toolchain is not on PATH.
wallet-bridge needs Swift 6.1 or newer (it is tested with 6.3.1). Debian does not package it for
bookworm: download the toolchain for Debian 12 from swift.org (Install > Linux), unpack it, put
its usr/bin on PATH, and run this again.
MISSING
  exit 1
fi

# pinentry-gtk2 asks for the passphrase in a window: a browser starts the host with no
# terminal, so a terminal pinentry (pinentry-tty, pinentry-curses) cannot ask there.
# openssl makes the Chromium key of a project `wallet-bridge new` writes.
packages=(libsodium-dev nettle-dev libsecp256k1-dev pkg-config pinentry-gtk2 openssl)
if [[ "${1:-}" == "--test" ]]; then
  packages+=(node-typescript nodejs python3 python3-venv python3-cryptography python3-pytest zip chromium firefox-esr xvfb xdotool imagemagick lintian dpkg-dev rpm man-db zsh fish valgrind openssh-client)
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
