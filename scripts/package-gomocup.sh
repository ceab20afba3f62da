#!/usr/bin/env bash
# Builds pbrain-wuzi and packs it in the layout Gomocup expects: the engine at
# the root of a zip. For a Windows target the executable is named
# pbrain-wuzi64.exe (64-bit names must contain "64") and the C runtime is
# linked statically so it runs on a clean machine; otherwise the zip holds the
# native binary as pbrain-wuzi.
#
# usage: scripts/package-gomocup.sh [--target TRIPLE] [--binary PATH] [--out DIR]
#   --target   Rust target triple, e.g. x86_64-pc-windows-msvc (default: host)
#   --binary   pack this already-built engine instead of building
#   --out      output directory (default: dist)
set -euo pipefail

root=$(git rev-parse --show-toplevel 2>/dev/null) || root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
target="" binary="" out=dist
while [[ $# -gt 0 ]]; do
    case "$1" in
        --target) target=$2; shift 2 ;;
        --binary) binary=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
        *) echo "unknown option $1"; exit 2 ;;
    esac
done

version=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -n 1)
windows=false
if [[ "$target" == *windows* ]] || [[ -z "$target" && ( "${OS:-}" == "Windows_NT" ) ]]; then
    windows=true
fi

if [[ -z "$binary" ]]; then
    build=(cargo build --release --bin pbrain-wuzi)
    [[ -n "$target" ]] && build+=(--target "$target")
    if $windows && [[ "$target" == *msvc* ]]; then
        # No dependency on the Visual C++ redistributable.
        export RUSTFLAGS="${RUSTFLAGS:-} -C target-feature=+crt-static"
    fi
    "${build[@]}"
    dir=${CARGO_TARGET_DIR:-target}/${target:+$target/}release
    binary=$dir/pbrain-wuzi
    $windows && binary=$dir/pbrain-wuzi.exe
fi
[[ -f "$binary" ]] || { echo "no engine binary at $binary"; exit 1; }

if $windows; then
    name=pbrain-wuzi64.exe
    platform=windows-x64
else
    name=pbrain-wuzi
    platform=$(uname -s | tr '[:upper:]' '[:lower:]')-$(uname -m)
fi

stage=$(mktemp -d "${TMPDIR:-/tmp}/wuzi-package.XXXXXX")
trap 'rm -rf "$stage"' EXIT
cp "$binary" "$stage/$name"
mkdir -p "$out"
zip_path=$(cd "$out" && pwd)/wuzi-$version-$platform.zip
rm -f "$zip_path"
if command -v zip >/dev/null 2>&1; then
    (cd "$stage" && zip -q -X "$zip_path" "$name")
elif command -v powershell >/dev/null 2>&1 && command -v cygpath >/dev/null 2>&1; then
    # Git Bash on Windows has no zip.
    powershell -NoProfile -Command "Compress-Archive -Path '$(cygpath -w "$stage/$name")' -DestinationPath '$(cygpath -w "$zip_path")'"
else
    python=$(command -v python3 || command -v python)
    (cd "$stage" && "$python" -m zipfile -c "$zip_path" "$name")
fi
echo "$zip_path: $name at the root"
