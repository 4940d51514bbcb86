#!/usr/bin/env bash
# The browser tests drive Debian's Chromium through Playwright (browser downloads are not used).
# `npm test` runs this first: it installs Chromium when the machine has none.
set -euo pipefail
if [ -n "${USHER_CHROMIUM:-}" ]; then
  [ -x "$USHER_CHROMIUM" ] && exit 0
  echo "USHER_CHROMIUM is set to $USHER_CHROMIUM, which is not an executable Chromium." >&2
  exit 1
fi
CHROMIUM=/usr/bin/chromium
if [ -x "$CHROMIUM" ]; then exit 0; fi
if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null; then
  echo "The browser tests need Chromium at $CHROMIUM. Install it (Debian: apt-get install chromium)," >&2
  echo "or point USHER_CHROMIUM at a Chromium binary." >&2
  exit 1
fi
echo "Installing Debian's chromium for the browser tests…" >&2
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
"$CHROMIUM" --version >&2
