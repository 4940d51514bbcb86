#!/usr/bin/env bash
# The terminal UI's end-to-end test runs `usher tui` inside tmux (send-keys, capture-pane).
# `npm test` runs this first: it installs Debian's tmux when the machine has none.
set -euo pipefail
if command -v tmux >/dev/null; then exit 0; fi
if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null; then
  echo "The terminal UI's test needs tmux. Install it (Debian: apt-get install tmux)." >&2
  exit 1
fi
echo "Installing Debian's tmux for the terminal UI's test…" >&2
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq tmux >/dev/null
tmux -V >&2
