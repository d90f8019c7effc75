#!/usr/bin/env bash
# Install what sandboxed bots need, when missing: bubblewrap, libseccomp (the filter is compiled
# with it) and Debian's own Python 3 (the sandbox mounts /usr; a pyenv Python under /root is
# deliberately invisible to bots). Prints progress on stderr only; safe to run again and again.
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

if [ ${#missing[@]} -gt 0 ]; then
    say "installing ${missing[*]}"
    as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >&2
fi
