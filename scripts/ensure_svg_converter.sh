#!/usr/bin/env bash
# The map-picture tests turn SVG into PNG (kept as test artifacts) with rsvg-convert. This makes
# sure it is installed: Debian's 'librsvg2-bin' package when no converter ordnance knows is found.
# Idempotent, and instant when one is already there.
set -euo pipefail

if command -v rsvg-convert >/dev/null || command -v magick >/dev/null \
   || command -v inkscape >/dev/null; then
  exit 0
fi
if ! command -v apt-get >/dev/null; then
  echo "ensure_svg_converter: install rsvg-convert (librsvg), ImageMagick or inkscape" >&2
  exit 1
fi
sudo=""
if [ "$(id -u)" != 0 ]; then
  sudo="sudo"
fi
echo "ensure_svg_converter: installing Debian's librsvg2-bin for the map-picture tests" >&2
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends librsvg2-bin >/dev/null
