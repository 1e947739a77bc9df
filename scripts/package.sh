#!/usr/bin/env bash
# Installs or packages the desktop app for Linux.
#   scripts/package.sh stage BINARY PREFIX     puts the app under PREFIX: bin/memotree,
#                                              share/applications/memotree.desktop, the
#                                              icons (share/icons/hicolor/SIZE/apps) and
#                                              the manual page (share/man/man1)
#   scripts/package.sh unstage PREFIX          removes what stage put there
#   scripts/package.sh package BINARY VERSION NFPM
#                                              builds build/package/memotree_VERSION_amd64.deb
#                                              (nfpm; with the copyright, changelog and
#                                              lintian overrides Debian asks of a package)
#                                              and memotree-VERSION-linux-amd64.tar.gz
# The icons are made from build/appicon.png with ImageMagick, at the sizes of the
# hicolor theme; desktop-file-validate checks the launcher entry.
set -euo pipefail
cd "$(dirname "$0")/.."

SIZES=(16 24 32 48 64 128 256 512)

stage() {
  local bin=$1 prefix=$2
  install -D -m 0755 "$bin" "$prefix/bin/memotree"
  install -D -m 0644 build/linux/memotree.desktop "$prefix/share/applications/memotree.desktop"
  desktop-file-validate "$prefix/share/applications/memotree.desktop"
  mkdir -p "$prefix/share/man/man1"
  gzip -9n <build/linux/memotree.1 >"$prefix/share/man/man1/memotree.1.gz"
  for s in "${SIZES[@]}"; do
    local d=$prefix/share/icons/hicolor/${s}x${s}/apps
    mkdir -p "$d"
    # -strip and no date chunks: the same icon bytes at every build.
    convert build/appicon.png -resize "${s}x${s}" -strip -define png:exclude-chunks=date,time "$d/memotree.png"
  done
}

unstage() {
  local prefix=$1
  rm -f "$prefix/bin/memotree" "$prefix/share/applications/memotree.desktop" "$prefix/share/man/man1/memotree.1.gz"
  for s in "${SIZES[@]}"; do rm -f "$prefix/share/icons/hicolor/${s}x${s}/apps/memotree.png"; done
}

package() {
  local bin=$1 version=$2 nfpm=$3
  local out=build/package
  rm -rf "$out"
  mkdir -p "$out"
  stage "$bin" "$out/root/usr"
  local doc=$out/root/usr/share/doc/memotree
  install -D -m 0644 build/linux/copyright "$doc/copyright"
  gzip -9n <build/linux/changelog >"$doc/changelog.gz"
  install -D -m 0644 build/linux/lintian-overrides "$out/root/usr/share/lintian/overrides/memotree"
  MEMOTREE_VERSION=$version "$nfpm" package --config build/linux/nfpm.yaml --packager deb --target "$out/"
  # The tarball: the same files under one folder (bin/, share/) and the README, to
  # unpack into /usr/local or ~/.local.
  local name=memotree-$version-linux-amd64
  mkdir -p "$out/$name"
  cp -r "$out/root/usr/." "$out/$name/"
  cp README.md "$out/$name/"
  tar -C "$out" --owner=0 --group=0 --numeric-owner -czf "$out/$name.tar.gz" "$name"
  rm -rf "${out:?}/$name"
  ls -l "$out"/*.deb "$out"/*.tar.gz
}

cmd=${1:-}
shift || true
case $cmd in
stage) stage "$@" ;;
unstage) unstage "$@" ;;
package) package "$@" ;;
*)
  echo "usage: scripts/package.sh stage BINARY PREFIX | unstage PREFIX | package BINARY VERSION NFPM" >&2
  exit 2
  ;;
esac
