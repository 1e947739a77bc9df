#!/usr/bin/env bash
# The packaging test: checks the .deb with lintian (Debian's package checker: any
# error or warning fails; build/linux/lintian-overrides holds the few tags that do not
# apply, each with its reason), installs it with dpkg, checks what it put where, runs
# the installed app's smoke test under Xvfb (scripts/smoke.sh), and removes the package
# again — also when something fails. Each check passed prints "test-package: ok — …". It refuses to run where a memotree package is
# installed already, so it never replaces or removes one it did not install.
#   usage: scripts/test-package.sh DEB ARTIFACTS
set -euo pipefail
deb=$(realpath "$1") artifacts=$(realpath -m "$2")
here=$(cd "$(dirname "$0")/.." && pwd)
sudo=$([ "$(id -u)" = 0 ] || echo sudo)

if dpkg-query -W -f='${Status}' memotree 2>/dev/null | grep -q 'ok installed'; then
  echo "test-package: a memotree package is installed on this machine already; remove it first (dpkg -r memotree)"
  exit 1
fi
[ -e /usr/bin/memotree ] && { echo "test-package: /usr/bin/memotree exists and belongs to no package; not touching it"; exit 1; }

dpkg-deb --info "$deb" | sed -n '/Package:/,/Description:/p'
deps=$(dpkg-deb --field "$deb" Depends)
for d in libgtk-3-0 libwebkit2gtk-4.1-0; do
  [[ $deps == *"$d"* ]] || { echo "test-package: FAIL: the package does not depend on $d ($deps)"; exit 1; }
done
echo "test-package: ok — it depends on GTK 3 and WebKitGTK 4.1"

lintian --fail-on error,warning --no-tag-display-limit "$deb" || { echo "test-package: FAIL: lintian reports the problems above"; exit 1; }
echo "test-package: ok — lintian reports no error or warning"

remove() { $sudo dpkg -r memotree >/dev/null 2>&1 || true; $sudo dpkg -P memotree >/dev/null 2>&1 || true; }
trap remove EXIT
$sudo dpkg -i "$deb"

for f in /usr/bin/memotree /usr/share/applications/memotree.desktop \
  /usr/share/icons/hicolor/16x16/apps/memotree.png /usr/share/icons/hicolor/48x48/apps/memotree.png \
  /usr/share/icons/hicolor/256x256/apps/memotree.png /usr/share/icons/hicolor/512x512/apps/memotree.png; do
  [ -e "$f" ] || { echo "test-package: FAIL: the package did not install $f"; exit 1; }
done
desktop-file-validate /usr/share/applications/memotree.desktop
size=$(identify -format '%wx%h' /usr/share/icons/hicolor/48x48/apps/memotree.png)
[ "$size" = 48x48 ] || { echo "test-package: FAIL: the 48x48 icon is $size"; exit 1; }
grep -q '^Exec=memotree' /usr/share/applications/memotree.desktop
echo "test-package: ok — dpkg installed the app, its launcher entry and its icons"

mkdir -p "$artifacts"
# From / with no repository around: the installed app alone.
(cd / && xvfb-run -a -s "-screen 0 1280x1024x24" "$here/scripts/smoke.sh" /usr/bin/memotree "$artifacts/package-window.png")
echo "test-package: ok — the installed app passed its smoke test"

$sudo dpkg -r memotree
$sudo dpkg -P memotree >/dev/null # and its record: the machine is as it was
trap - EXIT
for f in /usr/bin/memotree /usr/share/applications/memotree.desktop /usr/share/icons/hicolor/48x48/apps/memotree.png; do
  [ ! -e "$f" ] || { echo "test-package: FAIL: dpkg -r left $f"; exit 1; }
done
echo "test-package: ok — dpkg removed it, and everything it had installed"
