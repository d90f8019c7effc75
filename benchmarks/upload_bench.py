"""What the worst uploads the documented limits allow cost the web process.

Run: ``.venv/bin/python benchmarks/upload_bench.py``.

Each case runs in a fresh child process (so one case's peak memory cannot hide another's)
that builds the upload, then calls :func:`ladder.bots.artifacts.inspect_upload`, the whole of
the web process's work on an upload's bytes (the view only adds the database row and storing
the file). It prints the answer, the wall time and the peak of the memory allocated during the call
(``tracemalloc``: every bytes object, decompression buffer and parse the call makes, over
what the upload's own bytes already take), beside the targets: under 1 s and under 100 MB.
The compile child's own memory is capped separately (``ladder.bots.source_check``) and is
not the web process's.
"""

from __future__ import annotations

import io
import multiprocessing
import sys
import tarfile
import time
import tracemalloc
import zipfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ladder.bots.artifacts import UploadLimits, UploadRejected, inspect_upload

TIME_TARGET_S = 1.0
MEMORY_TARGET_MB = 100.0
LIMITS = UploadLimits()  # the documented defaults (MONSOON_UPLOAD_MAX_*)
REPO = Path(__file__).resolve().parents[1]


def _zip(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def _tar_gz(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        for name, data in files.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def _real_code(size: int) -> bytes:
    """Real Python of at most ``size`` bytes: this repository's own modules, whole, repeated."""
    sources = [
        path.read_bytes().replace(b"from __future__ import annotations\n", b"") + b"\n"
        for path in sorted(REPO.glob("[elwb]*/**/*.py"))
        if "migrations" not in path.parts
    ]
    chunks: list[bytes] = []
    total = 0
    while True:
        for data in sources:
            if total + len(data) > size:
                return b"".join(chunks)
            chunks.append(data)
            total += len(data)


def _cases() -> dict[str, tuple[str, bytes]]:
    statements = b"a=1\n" * ((LIMITS.max_unpacked_bytes - 1024) // 4)
    per_file = (LIMITS.max_unpacked_bytes - 1024) // LIMITS.max_files
    return {
        "2 MiB .py of a=1 (largest plain file)": ("main.py", b"a=1\n" * (LIMITS.max_bytes // 4)),
        "2 MiB .py of real code": ("main.py", _real_code(LIMITS.max_bytes - 1)),
        "zip: 20 MiB a=1 main.py (bomb ratio)": ("bot.zip", _zip({"main.py": statements})),
        "zip: 200 .py files, 20 MiB in all": (
            "bot.zip",
            _zip(
                {f"m{i}.py": b"x=1\n" * (per_file // 4) for i in range(LIMITS.max_files - 1)}
                | {"main.py": b"pass\n"}
            ),
        ),
        "tar.gz: 20 MiB data + main.py": (
            "bot.tar.gz",
            _tar_gz({"main.py": b"pass\n", "data.bin": b"\0" * (LIMITS.max_unpacked_bytes - 1024)}),
        ),
        "zip: 20 MiB bomb past the limit": (
            "bot.zip",
            _zip({"main.py": b"pass\n", "zeros": b"\0" * (LIMITS.max_unpacked_bytes * 2)}),
        ),
    }


def _measure(name: str, queue: multiprocessing.Queue) -> None:
    filename, data = _cases()[name]
    size = len(data)
    tracemalloc.start()
    started = time.perf_counter()
    try:
        info = inspect_upload(filename, data, LIMITS)
        answer = f"accepted ({info.file_count} files, {info.unpacked_size} bytes)"
    except UploadRejected as exc:
        answer = f"refused: {str(exc)[:70]}"
    elapsed = time.perf_counter() - started
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    queue.put((size, answer, elapsed, peak / (1024 * 1024)))


def main() -> None:
    print(
        f"limits: upload {LIMITS.max_bytes} bytes, {LIMITS.max_files} files, "
        f"{LIMITS.max_unpacked_bytes} bytes unpacked"
    )
    print(
        f"targets: < {TIME_TARGET_S:.1f} s and < {MEMORY_TARGET_MB:.0f} MB more peak memory "
        "in the web process"
    )
    print(f"{'case':40} {'upload':>9} {'time':>8} {'peak+':>8}  verdict  answer")
    context = multiprocessing.get_context("spawn")
    for name in _cases():
        queue = context.Queue()
        child = context.Process(target=_measure, args=(name, queue))
        child.start()
        size, answer, elapsed, grown = queue.get()
        child.join()
        ok = elapsed < TIME_TARGET_S and grown < MEMORY_TARGET_MB
        print(
            f"{name:40} {size:>9} {elapsed:>7.3f}s {grown:>6.1f}MB  "
            f"{'PASS' if ok else 'MISS':7}  {answer}"
        )


if __name__ == "__main__":
    main()
