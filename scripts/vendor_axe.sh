#!/usr/bin/env bash
# Vendor axe-core (the accessibility engine the browser tests inject into each page) from the npm
# registry into tests/web/vendor/. The tests use the committed copy; run this to update it:
#     bash scripts/vendor_axe.sh [VERSION]
set -euo pipefail
VERSION="${1:-4.14.1}"
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
DEST="$ROOT/tests/web/vendor"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
cd "$TMP"
npm pack --silent "axe-core@$VERSION" >/dev/null
tar -xzf "axe-core-$VERSION.tgz" package/axe.min.js package/LICENSE
mkdir -p "$DEST"
cp package/axe.min.js "$DEST/axe.min.js"
cp package/LICENSE "$DEST/axe-core.LICENSE"
SUM="$(sha256sum "$DEST/axe.min.js" | cut -d' ' -f1)"
printf 'axe-core %s (npm registry, MPL-2.0)\nsha256 %s  axe.min.js\n' "$VERSION" "$SUM" > "$DEST/axe-core.version"
echo "axe-core $VERSION -> $DEST/axe.min.js ($SUM)"
