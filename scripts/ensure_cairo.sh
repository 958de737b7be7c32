#!/usr/bin/env bash
# PNG pictures come from cairosvg, the 'png' extra, which needs the system cairo library: the
# tour of `make run` draws its maps as PNG, and the map-picture tests of `make unit` write PNGs
# (kept as test artifacts). This makes sure the library is installed: Debian's 'libcairo2'
# package when it is missing. Idempotent, and instant when it is already there.
set -euo pipefail

if compgen -G "/usr/lib/*/libcairo.so.2" >/dev/null || compgen -G "/usr/lib/libcairo.so.2" >/dev/null \
   || { command -v ldconfig >/dev/null && ldconfig -p | grep -q 'libcairo\.so\.2 '; }; then
  exit 0
fi
if ! command -v apt-get >/dev/null; then
  echo "ensure_cairo: install the cairo library (libcairo2 on Debian, cairo elsewhere)" >&2
  exit 1
fi
sudo=""
if [ "$(id -u)" != 0 ]; then
  sudo="sudo"
fi
echo "ensure_cairo: installing Debian's libcairo2 for PNG pictures (cairosvg)" >&2
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends libcairo2 >/dev/null
