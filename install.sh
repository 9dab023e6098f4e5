#!/bin/sh
# Installs the zot binary for this machine from a zot release:
#   curl -fsSL https://github.com/zot-cli/zot/releases/latest/download/install.sh | sh
#   curl -fsSL …/install.sh | sh -s -- --version 0.1.0
# It downloads SHA256SUMS and this platform's archive, verifies the archive, and only then
# replaces zot in ZOT_INSTALL_DIR (default ~/.local/bin). ZOT_INSTALL_BASE replaces the
# releases URL (a mirror with the same layout: latest/download/… and download/v<version>/…).
# POSIX sh only; needs curl or wget, sha256sum or shasum, and tar. No sudo.
set -eu

RELEASES="https://github.com/zot-cli/zot/releases"
base="${ZOT_INSTALL_BASE:-$RELEASES}"
base="${base%/}"
install_dir="${ZOT_INSTALL_DIR:-${HOME:?HOME is not set}/.local/bin}"
version=""

say() { printf '%s\n' "$*"; }
die() { printf 'zot install: %s\n' "$*" >&2; exit 1; }

usage() {
  say "usage: install.sh [--version X]"
  say "  --version X   install release X (default: the latest release)"
  say "environment: ZOT_INSTALL_DIR (default ~/.local/bin), ZOT_INSTALL_BASE (default $RELEASES)"
}

while [ $# -gt 0 ]; do
  case "$1" in
    --version) [ $# -ge 2 ] || die "--version needs a value, e.g. --version 0.1.0"; version="$2"; shift 2 ;;
    --version=*) version="${1#--version=}"; shift ;;
    -h | --help) usage; exit 0 ;;
    *) die "unknown argument: $1 (see --help)" ;;
  esac
done
version="${version#v}"
case "$version" in
  *[!0-9A-Za-z.+-]*) die "not a version: $version" ;;
esac

system=$(uname -s)
machine=$(uname -m)
case "$system" in
  Linux) os=linux ;;
  Darwin) os=darwin ;;
  *) die "no zot release for this operating system ($system): releases are built for Linux and macOS (x64 and arm64) and Windows x64 (download the .zip from $RELEASES)" ;;
esac
case "$machine" in
  x86_64 | amd64) arch=x64 ;;
  aarch64 | arm64) arch=arm64 ;;
  *) die "no zot release for this architecture ($machine on $system): releases are built for x64 and arm64" ;;
esac

if [ -n "$version" ]; then url="$base/download/v$version"; else url="$base/latest/download"; fi

download() {
  if command -v curl >/dev/null 2>&1; then
    curl -fsSL -o "$2" "$1"
  elif command -v wget >/dev/null 2>&1; then
    wget -q -O "$2" "$1"
  else
    die "cannot download: install curl or wget"
  fi
}

sha256_of() {
  if command -v sha256sum >/dev/null 2>&1; then
    sha256sum "$1" | cut -d ' ' -f 1
  elif command -v shasum >/dev/null 2>&1; then
    shasum -a 256 "$1" | cut -d ' ' -f 1
  else
    die "cannot verify the download: install sha256sum (coreutils) or shasum"
  fi
}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/zot-install.XXXXXX")
trap 'rm -rf "$tmp"; rm -f "$install_dir/.zot.new.$$"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

download "$url/SHA256SUMS" "$tmp/SHA256SUMS" || die "could not download $url/SHA256SUMS"

# The archive for this platform, as SHA256SUMS names it (the latest release's version is only known from there).
suffix="-$os-$arch.tar.gz"
archive=""
expected=""
while read -r sum name; do
  case "$name" in
    zot-*"$suffix")
      if [ -z "$version" ] || [ "$name" = "zot-$version$suffix" ]; then archive="$name"; expected="$sum"; fi ;;
  esac
done <"$tmp/SHA256SUMS"
[ -n "$archive" ] || die "the release at $url has no archive for $os-$arch"

say "downloading $archive"
download "$url/$archive" "$tmp/$archive" || die "could not download $url/$archive"
actual=$(sha256_of "$tmp/$archive")
[ "$actual" = "$expected" ] || die "checksum mismatch for $archive (expected $expected, got $actual): nothing was installed"

tar -xzf "$tmp/$archive" -C "$tmp" || die "could not unpack $archive"
binary="$tmp/${archive%.tar.gz}/zot"
[ -f "$binary" ] || die "$archive holds no zot binary"
new_version=$("$binary" --version) || die "the downloaded zot does not run on this machine: nothing was installed"

# Copy beside the old binary, then rename over it: a failure never leaves a half-written zot.
mkdir -p "$install_dir"
cp "$binary" "$install_dir/.zot.new.$$"
chmod 755 "$install_dir/.zot.new.$$"
mv -f "$install_dir/.zot.new.$$" "$install_dir/zot"
say "installed zot $new_version to $install_dir/zot"

case ":${PATH:-}:" in
  *":$install_dir:"*) ;;
  *)
    say "$install_dir is not on your PATH; add it in your shell profile (~/.profile, ~/.bashrc or ~/.zshrc):"
    say "  export PATH=\"$install_dir:\$PATH\""
    ;;
esac
