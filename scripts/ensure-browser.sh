#!/usr/bin/env bash
# Makes sure the e2e suite has its browsers and fonts: Debian's Chromium and its headless shell
# (Playwright cannot download its own here) and Noto CJK, without which zh and ko pages render as
# boxes in screenshots. The suite drives the headless shell (e2e/support/browser.ts); the full
# Chromium stays for Lighthouse (`npm run bench:web`) and for a developer's own look.
set -euo pipefail

PACKAGES='chromium chromium-headless-shell fonts-noto-cjk'
INSTALL="apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y $PACKAGES"

has_chromium() { [[ -x /usr/bin/chromium ]]; }
# The browser the e2e suite launches: CHROMIUM_PATH when a developer points it elsewhere.
has_headless_shell() { [[ -x "${CHROMIUM_PATH:-/usr/lib/chromium/chromium-headless-shell}" ]]; }
# grep reads the whole list (no -q): under pipefail an early exit of grep would kill fc-list with
# SIGPIPE and make the check fail at random even with the fonts installed.
has_cjk_fonts() { command -v fc-list >/dev/null 2>&1 && fc-list | grep -ci 'Noto Sans CJK' >/dev/null; }

if has_chromium && has_headless_shell && has_cjk_fonts; then
  echo "ensure-browser: chromium, its headless shell and Noto CJK fonts are present"
  exit 0
fi

missing=()
has_chromium || missing+=(chromium)
has_headless_shell || missing+=(chromium-headless-shell)
has_cjk_fonts || missing+=(fonts-noto-cjk)

if [[ "$(id -u)" -ne 0 ]]; then
  echo "ensure-browser: missing ${missing[*]}; run as root:" >&2
  echo "$INSTALL" >&2
  exit 1
fi

echo "ensure-browser: installing ${missing[*]}"
# All three at once, so chromium and its headless shell come at the same version.
if ! { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y $PACKAGES; }; then
  echo "ensure-browser: the install failed (apt's message is above); fix that and run:" >&2
  echo "$INSTALL" >&2
  exit 1
fi

if ! has_chromium || ! has_headless_shell || ! has_cjk_fonts; then
  echo "ensure-browser: chromium, its headless shell or the Noto CJK fonts are still missing after the install" >&2
  exit 1
fi
