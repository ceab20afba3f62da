#!/usr/bin/env bash
# Smoke-tests the Windows package under Wine: cross-builds it with MinGW
# (package-gomocup.sh --target x86_64-pc-windows-gnu), unpacks the zip, and
# plays a short session over pipes with CRLF line ends, as Piskvork and
# GomocupJudge do on Windows. It checks that START answers OK, BEGIN and TURN
# answer moves, ABOUT names the engine, and that END in the middle of a long
# search ends the process within half a second.
#
# usage: scripts/wine-smoke.sh [--zip PATH]   (default: build the package)
#
# Needs: the Rust target x86_64-pc-windows-gnu, Debian's gcc-mingw-w64-x86-64
# and wine64 (apt-get install gcc-mingw-w64-x86-64 wine64). Not part of CI:
# installing Wine takes longer than the whole test suite.
#
# Wine 8 (Debian 12) lacks bcryptprimitives.dll, from which Rust's standard
# library takes random bytes on Windows 10 and later. The script builds a
# stand-in for the test only, next to the unpacked engine; it is never packed.
set -euo pipefail

root=$(git rev-parse --show-toplevel 2>/dev/null) || root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
zip=""
while [[ $# -gt 0 ]]; do
    case "$1" in
        --zip) zip=$2; shift 2 ;;
        -h|--help) sed -n '2,17p' "$0"; exit 0 ;;
        *) echo "unknown option $1"; exit 2 ;;
    esac
done

work=$(mktemp -d "${TMPDIR:-/tmp}/wuzi-wine.XXXXXX")
trap 'exec 3>&- 2>/dev/null || true; rm -rf "$work"' EXIT

if [[ -z "$zip" ]]; then
    export CARGO_TARGET_X86_64_PC_WINDOWS_GNU_LINKER=x86_64-w64-mingw32-gcc
    zip=$(scripts/package-gomocup.sh --target x86_64-pc-windows-gnu --out "$work/dist" |
        tail -n 1 | cut -d: -f1)
fi
mkdir "$work/engine"
python3 -m zipfile -e "$zip" "$work/engine"
[[ -f "$work/engine/pbrain-wuzi64.exe" ]] || { echo "FAIL: no pbrain-wuzi64.exe in $zip"; exit 1; }

cat > "$work/prng.c" <<'EOF'
#include <windows.h>
BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);
__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length) {
    return SystemFunction036(data, (ULONG)length);
}
EOF
x86_64-w64-mingw32-gcc -shared -o "$work/engine/bcryptprimitives.dll" "$work/prng.c" -ladvapi32

wine=$(command -v wine64 || echo /usr/lib/wine/wine64)
export WINEDEBUG=-all WINEPREFIX="$work/prefix"
# The first start of a prefix sets it up; do that before anything is timed.
"$wine" cmd /c exit >/dev/null 2>&1 || true

mkfifo "$work/in"
(
    cd "$work/engine"
    "$wine" ./pbrain-wuzi64.exe <"$work/in" >"$work/out" 2>"$work/err"
    date +%s.%N >"$work/exited"
) &
exec 3>"$work/in"
send() { printf '%s\r\n' "$@" >&3; }
send "START 20" "INFO timeout_turn 500" "BEGIN"
sleep 3
send "TURN 11,11"
sleep 3
send "ABOUT" "INFO timeout_turn 30000" "TURN 12,12"
sleep 1
date +%s.%N >"$work/end-sent"
send "END"
exec 3>&-
wait

replies=$(grep -v '^MESSAGE' "$work/out" | tr -d '\r')
echo "$replies" | sed 's/^/  < /'
fail=0
check() { echo "$replies" | sed -n "$1p" | grep -Eq "$2" || { echo "FAIL: reply $1 should match $2"; fail=1; }; }
check 1 '^OK$'
check 2 '^[0-9]+,[0-9]+$'
check 3 '^[0-9]+,[0-9]+$'
check 4 '^name="wuzi"'
[[ -s "$work/err" ]] && { echo "FAIL: the engine wrote to stderr:"; cat "$work/err"; fail=1; }
took=$(python3 -c "print(round($(cat "$work/exited") - $(cat "$work/end-sent"), 3))")
echo "exited ${took} s after END (mid-search)"
python3 -c "import sys; sys.exit(0 if $took < 0.5 else 1)" || { echo "FAIL: END took over 0.5 s"; fail=1; }
[[ $fail == 0 ]] && echo "PASS: the Windows package plays under Wine"
exit $fail
