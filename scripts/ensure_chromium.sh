#!/usr/bin/env bash
# The browser tests (tests/web/test_browser*.py) drive a real Chromium through Playwright.
# Playwright's own browser download cannot run here, so they use Debian's
# 'chromium-headless-shell' package. This installs it when it is missing. Idempotent, and
# instant when the binary is there or $ORDNANCE_CHROMIUM names another one.
set -euo pipefail

if [ -n "${ORDNANCE_CHROMIUM:-}" ] && [ -x "${ORDNANCE_CHROMIUM}" ]; then
  exit 0
fi
if [ -x /usr/lib/chromium/chromium-headless-shell ] || command -v chromium-headless-shell >/dev/null; then
  exit 0
fi
if ! command -v apt-get >/dev/null; then
  echo "ensure_chromium: install Chromium's headless shell or set ORDNANCE_CHROMIUM" >&2
  exit 1
fi
sudo=""
if [ "$(id -u)" != 0 ]; then
  sudo="sudo"
fi
echo "ensure_chromium: installing Debian's chromium-headless-shell for the browser tests" >&2
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get -o DPkg::Lock::Timeout=900 update -qq
$sudo apt-get -o DPkg::Lock::Timeout=900 install -y -qq --no-install-recommends chromium-headless-shell fonts-dejavu-core >/dev/null
