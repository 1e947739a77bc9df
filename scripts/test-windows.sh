#!/usr/bin/env bash
# The Windows build, read back here, since nothing here can run it (Debian's Wine
# cannot run Go 1.26 programs): the executable is a 64-bit Windows GUI program carrying
# its icon, manifest and version; the installer is an NSIS installer holding that
# executable byte for byte, beside Microsoft's WebView2 bootstrapper. 7-Zip reads
# both (p7zip-full). Each check passed prints "windows: ok — …".
#   usage: scripts/test-windows.sh MEMOTREE.EXE INSTALLER.EXE
set -euo pipefail
exe=$1 installer=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "windows: FAIL: $*"; exit 1; }

[ "$(head -c 2 "$exe")" = MZ ] || fail "$exe is not a Windows program"
headers=$(objdump -p "$exe")
grep -q '^Magic.*PE32+' <<<"$headers" || fail "$exe is not a 64-bit program: $(grep '^Magic' <<<"$headers")"
grep -q 'Subsystem.*(Windows GUI)' <<<"$headers" || fail "$exe is not a GUI program (a console would open beside the window)"
echo "windows: ok — $exe is a 64-bit Windows GUI program ($(du -h "$exe" | cut -f1))"

resources=$(7z l -slt "$exe" | sed -n 's/^Path = //p') # .rsrc/LANGUAGE/TYPE/ID
for r in '/ICON/' '/GROUP_ICON/' '/MANIFEST/' '/version.txt'; do
  grep -q "^\.rsrc/[^/]*$r" <<<"$resources" || fail "$exe has no ${r//\//} resource: $(grep '^\.rsrc' <<<"$resources" | tr '\n' ' ')"
done
version=$(basename "$installer" | sed -n 's/^memotree-\(.*\)-windows-.*/\1/p')
info=$(7z e -so "$exe" "$(grep '/version.txt$' <<<"$resources" | head -1)" 2>/dev/null | iconv -f UTF-16LE -t UTF-8)
grep -q '"ProductName", *"MemoTree"' <<<"$info" && grep -q "\"ProductVersion\", *\"$version\"" <<<"$info" ||
  fail "$exe's version resource is not MemoTree $version: $info"
echo "windows: ok — it carries the app's icon, its manifest and its version ($version)"

[ "$(head -c 2 "$installer")" = MZ ] && grep -qa 'Nullsoft' "$installer" || fail "$installer is not an NSIS installer"
listing=$(7z l -slt "$installer" | sed -n 's/^Path = //p')
grep -qx 'memotree.exe' <<<"$listing" || fail "the installer holds no memotree.exe: $(tr '\n' ' ' <<<"$listing")"
7z e -so "$installer" memotree.exe >"$work/memotree.exe" 2>/dev/null
cmp -s "$work/memotree.exe" "$exe" || fail "the installer's memotree.exe is not $exe"
echo "windows: ok — $installer ($(du -h "$installer" | cut -f1)) installs $exe, byte for byte"
grep -q 'MicrosoftEdgeWebview2Setup.exe' <<<"$listing" || fail "the installer does not carry the WebView2 bootstrapper: $(tr '\n' ' ' <<<"$listing")"
echo "windows: ok — and Microsoft's WebView2 bootstrapper, for a Windows without the runtime"
