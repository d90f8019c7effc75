"""``python -m ladder.operations.probe URL``: exit 0 if the URL answers 200, else 1.

For health checks where no HTTP client is installed (the slim container image has no curl):
the standard library only, no Django, a short timeout, and the answer's body on stdout so a
failing readiness check shows what failed (``docker inspect``, the journal).
"""

from __future__ import annotations

import argparse
import sys
import urllib.error
import urllib.request
from collections.abc import Sequence


def probe(url: str, timeout: float) -> tuple[bool, str]:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as answer:  # noqa: S310 (http only)
            return answer.status == 200, answer.read(4096).decode("utf-8", "replace")
    except urllib.error.HTTPError as exc:
        return False, f"{exc.code}: " + exc.read(4096).decode("utf-8", "replace")
    except (urllib.error.URLError, OSError) as exc:
        return False, f"no answer: {exc}"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ladder.operations.probe")
    parser.add_argument("url", help="e.g. http://127.0.0.1:8000/health/ready/")
    parser.add_argument("--timeout", type=float, default=3.0, help="seconds (default 3)")
    args = parser.parse_args(argv)
    if not args.url.startswith(("http://", "https://")):
        parser.error("the URL must start with http:// or https://")
    ok, body = probe(args.url, args.timeout)
    print(body.strip())
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
