#!/usr/bin/env bash
# Install what sandboxed bots need, when missing: bubblewrap, libseccomp (the filter is compiled
# with it), Debian's own Python 3 (the sandbox mounts /usr; a pyenv Python under /root is
# deliberately invisible to bots) and the runtimes of the other starter languages
# (docs/languages.md): Node.js and a Java runtime for scripted and JVM bots, libstdc++ and
# libgcc_s for C++ and Rust binaries. Each must be under /usr, the only host tree a seat sees
# (/usr/local is masked). Prints progress on stderr only; safe to run again and again.
set -euo pipefail

say() { echo "ensure-sandbox: $*" >&2; }

as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

missing=()
command -v bwrap >/dev/null 2>&1 || missing+=(bubblewrap)
[ -x /usr/bin/python3.11 ] || missing+=(python3.11)
[ -e /usr/bin/python3 ] || missing+=(python3-minimal)
libraries=$(ldconfig -p 2>/dev/null || true)
[[ $libraries == *libseccomp.so.2* ]] || missing+=(libseccomp2)
[ -x /usr/bin/node ] || missing+=(nodejs)
[ -x /usr/bin/java ] || missing+=(default-jre-headless)
[[ $libraries == *libstdc++.so.6* ]] || missing+=(libstdc++6)
[[ $libraries == *libgcc_s.so.1* ]] || missing+=(libgcc-s1)

if [ ${#missing[@]} -gt 0 ]; then
    say "installing ${missing[*]}"
    as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >&2
fi
