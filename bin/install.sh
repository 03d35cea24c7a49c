#!/bin/sh
# Installs memnox for this user, no root:  curl -fsSL https://github.com/memnox/memnox/releases/latest/download/install.sh | sh
#
# The binary goes to ~/.memnox/app/memnox ($MEMNOX_HOME/app when set), with the names it answers to (memnox,
# memnox-mcp-proxy, memnox-shell, memnox-session) as links in ~/.local/bin. Re-running upgrades in place. Nothing is
# replaced until the download matches SHA256SUMS and runs; shell profiles are never edited.
#
#   --prefix DIR     put the links in DIR instead of ~/.local/bin
#   --version V      install release V instead of the latest
#   --target T       skip detection (linux-x64, linux-x64-baseline, linux-arm64, linux-x64-musl,
#                    linux-x64-baseline-musl, linux-arm64-musl, darwin-x64, darwin-arm64)
#   MEMNOX_INSTALL_BASE   where release files are fetched from (default: the GitHub releases)
#
# Everything is inside functions and main runs on the last line, so a download cut short runs nothing (tests set
# MEMNOX_INSTALL_SOURCED=1 and source it to call the detection functions alone).

set -eu

MEMNOX_RELEASES="https://github.com/memnox/memnox/releases"
MEMNOX_NAMES="memnox memnox-mcp-proxy memnox-shell memnox-session"
MEMNOX_TARGETS="linux-x64 linux-x64-baseline linux-arm64 linux-x64-musl linux-x64-baseline-musl linux-arm64-musl darwin-x64 darwin-arm64"

say() { printf '%s\n' "$*"; }
die() {
  printf 'memnox install: %s\n' "$*" >&2
  exit 1
}

usage() {
  say "usage: install.sh [--prefix DIR] [--version V] [--target T]"
  say "installs memnox to \$MEMNOX_HOME/app (~/.memnox/app) with links in ~/.local/bin; MEMNOX_INSTALL_BASE overrides where releases come from"
}

os_name() {
  case "$(uname -s)" in
    Linux) echo linux ;;
    Darwin) echo darwin ;;
    *) die "memnox runs on Linux and macOS; this is $(uname -s)" ;;
  esac
}

arch_name() {
  case "$(uname -m)" in
    x86_64 | amd64)
      # A shell under Rosetta reports x86_64 on Apple silicon; the arm64 build is the one to run there.
      if [ "$1" = darwin ] && [ "$(sysctl -n sysctl.proc_translated 2>/dev/null || true)" = 1 ]; then
        echo arm64
      else
        echo x64
      fi
      ;;
    aarch64 | arm64) echo arm64 ;;
    *) die "there is no memnox build for the $(uname -m) processor; memnox runs on x64 and arm64" ;;
  esac
}

is_musl() {
  if getconf GNU_LIBC_VERSION >/dev/null 2>&1; then return 1; fi
  case "$(ldd --version 2>&1 || true)" in
    *musl*) return 0 ;;
    *GNU* | *GLIBC* | *glibc*) return 1 ;;
  esac
  for loader in /lib/ld-musl-*.so.1; do
    if [ -e "$loader" ]; then return 0; fi
  done
  return 1
}

# The plain x64 builds need AVX2; when the flags cannot be read the -baseline build is the one that surely runs.
has_avx2() {
  [ -r /proc/cpuinfo ] && grep -Eq '^flags[[:space:]]*:.*[[:space:]]avx2([[:space:]]|$)' /proc/cpuinfo
}

detect_target() {
  os=$(os_name)
  arch=$(arch_name "$os")
  if [ "$os" = darwin ]; then
    echo "darwin-$arch"
    return
  fi
  t="linux-$arch"
  if [ "$arch" = x64 ] && ! has_avx2; then t="$t-baseline"; fi
  if is_musl; then t="$t-musl"; fi
  echo "$t"
}

download() {
  if command -v curl >/dev/null 2>&1; then
    curl -fsSL --retry 2 --connect-timeout 20 -o "$2" "$1" 2>"$2.err" || fetch_failed "$1" "$2.err"
  elif command -v wget >/dev/null 2>&1; then
    wget -q -O "$2" "$1" 2>"$2.err" || fetch_failed "$1" "$2.err"
  else
    die "neither curl nor wget is installed; install one of them and run this again"
  fi
}

fetch_failed() {
  why=$(tr '\n' ' ' <"$2" | sed 's/[[:space:]]*$//')
  die "could not download $1${why:+ ($why)}; nothing was changed"
}

sha256_of() {
  if command -v sha256sum >/dev/null 2>&1; then
    sha256sum <"$1" | cut -d ' ' -f 1
  elif command -v shasum >/dev/null 2>&1; then
    shasum -a 256 <"$1" | cut -d ' ' -f 1
  elif command -v openssl >/dev/null 2>&1; then
    openssl dgst -sha256 <"$1" | sed 's/^.*= *//'
  else
    die "no sha256sum, shasum or openssl to check the download with; install one of them and run this again"
  fi
}

# Prints "<sha256> <file> <version>" for the archive of $2 (and version $3 when given) listed in SHA256SUMS $1.
pick_archive() {
  awk -v suffix="-$2.tar.gz" -v want="$3" '
    {
      name = $2; sub(/^\*/, "", name)
      if (substr(name, 1, 7) != "memnox-" || length(name) <= 7 + length(suffix)) next
      if (substr(name, length(name) - length(suffix) + 1) != suffix) next
      v = substr(name, 8, length(name) - 7 - length(suffix))
      if (want != "" && v != want) next
      print $1, name, v
    }' "$1"
}

# A name already at $1 must be memnox's link (or a dangling one), so nobody else's program is replaced.
check_link() {
  if [ -L "$1" ]; then
    current=$(readlink "$1")
    if [ "$current" = "$2" ] || [ ! -e "$1" ]; then return 0; fi
    die "$1 already points at $current, which is not memnox's copy; remove it, or put the links elsewhere with --prefix DIR"
  elif [ -e "$1" ]; then
    die "$1 already exists and is not a link to memnox; remove it, or put the links elsewhere with --prefix DIR"
  fi
}

place_link() {
  if [ -L "$2" ] && [ "$(readlink "$2")" = "$1" ]; then return 0; fi
  ln -s "$1" "$2.tmp.$$"
  mv -f "$2.tmp.$$" "$2"
}

json_string() {
  printf '"%s"' "$(printf '%s' "$1" | sed 's/\\/\\\\/g; s/"/\\"/g')"
}

# The receipt `memnox update` reads to upgrade the same way, from the same place, into the same prefix.
write_receipt() {
  {
    say "{"
    say "  \"method\": \"script\","
    say "  \"version\": $(json_string "$2"),"
    say "  \"target\": $(json_string "$3"),"
    if [ -n "$5" ]; then say "  \"base\": $(json_string "$5"),"; fi
    say "  \"prefix\": $(json_string "$4")"
    say "}"
  } >"$1/install.json.tmp.$$"
  mv -f "$1/install.json.tmp.$$" "$1/install.json"
}

value() {
  [ $# -ge 2 ] || die "$1 needs a value"
}

valid_target() {
  for known in $MEMNOX_TARGETS; do
    if [ "$known" = "$1" ]; then return 0; fi
  done
  die "\`$1\` is not a memnox target; the targets are: $MEMNOX_TARGETS"
}

main() {
  prefix="" version="" target=""
  while [ $# -gt 0 ]; do
    case "$1" in
      --prefix) value "$@" && prefix=$2 && shift 2 ;;
      --version) value "$@" && version=$2 && shift 2 ;;
      --target) value "$@" && target=$2 && shift 2 ;;
      --prefix=*) prefix=${1#*=} && shift ;;
      --version=*) version=${1#*=} && shift ;;
      --target=*) target=${1#*=} && shift ;;
      -h | --help) usage && return 0 ;;
      *) die "unknown option \`$1\` (--help lists them)" ;;
    esac
  done
  version=${version#v}
  [ -n "${HOME:-}" ] || die "HOME is not set; memnox keeps its files under \$HOME/.memnox"
  root=${MEMNOX_HOME:-$HOME/.memnox}
  app="$root/app"
  prefix=${prefix:-$HOME/.local/bin}
  case "$prefix" in /*) ;; *) prefix="$(pwd)/$prefix" ;; esac
  if [ -n "$target" ]; then valid_target "$target"; else target=$(detect_target); fi
  custom_base=${MEMNOX_INSTALL_BASE:-}
  if [ -n "$custom_base" ]; then
    base=${custom_base%/}
  elif [ -n "$version" ]; then
    base="$MEMNOX_RELEASES/download/v$version"
  else
    base="$MEMNOX_RELEASES/latest/download"
  fi
  command -v tar >/dev/null 2>&1 || die "tar is not installed; install it and run this again"
  for name in $MEMNOX_NAMES; do check_link "$prefix/$name" "$app/memnox"; done

  (umask 077 && mkdir -p "$app")
  tmp=$(mktemp -d "$app/.install.XXXXXX") || die "could not make a temporary directory in $app"
  trap 'rm -rf "$tmp"' EXIT
  trap 'rm -rf "$tmp"; exit 130' HUP INT TERM

  download "$base/SHA256SUMS" "$tmp/SHA256SUMS"
  picked=$(pick_archive "$tmp/SHA256SUMS" "$target" "$version")
  [ -n "$picked" ] || die "$base/SHA256SUMS lists no memnox${version:+ $version} build for $target; nothing was changed"
  case "$picked" in *"
"*) die "$base/SHA256SUMS lists more than one build for $target; pass --version" ;; esac
  sum=${picked%% *} rest=${picked#* }
  file=${rest%% *} new=${rest#* }
  case "$sum" in *[!0-9a-f]* | "") die "$base/SHA256SUMS has no valid checksum for $file" ;; esac
  [ ${#sum} -eq 64 ] || die "$base/SHA256SUMS has no valid checksum for $file"
  case "$new" in *[!0-9A-Za-z.+-]* | "") die "$base/SHA256SUMS names $file, whose version is not one memnox publishes" ;; esac

  old=""
  if [ -x "$app/memnox" ]; then old=$("$app/memnox" --version 2>/dev/null || true); fi
  if [ "$old" = "$new" ]; then
    say "memnox $new is already installed at $app/memnox"
  else
    download "$base/$file" "$tmp/$file"
    got=$(sha256_of "$tmp/$file")
    [ "$got" = "$sum" ] || die "$file does not match SHA256SUMS (expected $sum, got $got): a broken or altered download; nothing was changed${old:+, memnox $old is still installed}"
    mkdir "$tmp/unpacked"
    (cd "$tmp/unpacked" && tar -xzf "../$file") || die "could not unpack $file; nothing was changed"
    [ -f "$tmp/unpacked/memnox" ] || die "$file holds no memnox binary; nothing was changed"
    chmod 755 "$tmp/unpacked/memnox"
    runs=$("$tmp/unpacked/memnox" --version 2>&1) || die "the $target build does not run on this machine ($runs); nothing was changed (--target picks another build)"
    [ "$runs" = "$new" ] || die "$file holds memnox $runs, not $new; nothing was changed"
    mv -f "$tmp/unpacked/memnox" "$app/memnox"
    if [ -n "$old" ]; then say "memnox upgraded from $old to $new at $app/memnox"; else say "memnox $new installed at $app/memnox"; fi
  fi

  mkdir -p "$prefix"
  for name in $MEMNOX_NAMES; do place_link "$app/memnox" "$prefix/$name"; done
  write_receipt "$app" "$new" "$target" "$prefix" "$custom_base"
  say "linked $MEMNOX_NAMES in $prefix"

  if [ -n "$old" ] && [ "$old" != "$new" ]; then
    # The new binary re-points what setup wired (interceptors, hooks, the service) at itself.
    "$app/memnox" update --rewire || die "memnox $new is installed, but pointing the wiring at it failed; run: memnox update --rewire"
    return 0
  fi
  case ":${PATH:-}:" in
    *":$prefix:"*) say "next: memnox setup" ;;
    *)
      say "$prefix is not on your PATH; to use memnox in this shell:"
      say "  export PATH=\"$prefix:\$PATH\""
      say "next: memnox setup   (it offers to add memnox to your login PATH)"
      ;;
  esac
}

if [ -z "${MEMNOX_INSTALL_SOURCED:-}" ]; then main "$@"; fi
