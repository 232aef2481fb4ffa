#!/usr/bin/env bash
# Makes sure the e2e suite has its browser and fonts: Debian's Chromium (Playwright cannot download
# its own here) and Noto CJK, without which zh and ko pages render as boxes in screenshots.
set -euo pipefail

INSTALL='apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium fonts-noto-cjk'

has_chromium() { [[ -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ]]; }
# grep reads the whole list (no -q): under pipefail an early exit of grep would kill fc-list with
# SIGPIPE and make the check fail at random even with the fonts installed.
has_cjk_fonts() { command -v fc-list >/dev/null 2>&1 && fc-list | grep -ci 'Noto Sans CJK' >/dev/null; }

if has_chromium && has_cjk_fonts; then
  echo "ensure-browser: chromium and Noto CJK fonts are present"
  exit 0
fi

missing=()
has_chromium || missing+=(chromium)
has_cjk_fonts || missing+=(fonts-noto-cjk)

if [[ "$(id -u)" -ne 0 ]]; then
  echo "ensure-browser: missing ${missing[*]}; run as root:" >&2
  echo "$INSTALL" >&2
  exit 1
fi

echo "ensure-browser: installing ${missing[*]}"
if ! { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium fonts-noto-cjk; }; then
  echo "ensure-browser: the install failed (apt's message is above); fix that and run:" >&2
  echo "$INSTALL" >&2
  exit 1
fi

if ! has_chromium || ! has_cjk_fonts; then
  echo "ensure-browser: chromium or the Noto CJK fonts are still missing after the install" >&2
  exit 1
fi
