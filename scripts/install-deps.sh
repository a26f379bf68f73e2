#!/usr/bin/env bash
# Installs what a fresh Debian bookworm machine lacks to build and test
# memplan; does nothing when everything is present. Extra packages may be
# passed as arguments (e.g. chromium for the picture test).
# --bench adds what only `make bench` uses: jemalloc and mimalloc, the
# allocators the runtime benchmark compares against (optional; without them
# their columns are skipped).
# --fuzz adds what only `make fuzz` uses: Debian's clang with libFuzzer.
set -euo pipefail
extra=()
for a in "$@"; do
  if [ "$a" = "--bench" ]; then
    extra+=(libjemalloc-dev libmimalloc-dev)
  elif [ "$a" = "--fuzz" ]; then
    extra+=(clang libclang-rt-dev)
  else
    extra+=("$a")
  fi
done
pkgs=(llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools cmake ninja-build
      libgtest-dev libbenchmark-dev ${extra[@]+"${extra[@]}"})
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
    || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "memplan: installing ${missing[*]}"
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q "${missing[@]}"
