"""Answers its first decision with 100 MB and no newline."""

import sys

import wire

wire.until_first_request()
block = b"7" * (1024 * 1024)
for _ in range(100):
    sys.stdout.buffer.write(block)
sys.stdout.buffer.flush()
wire.forever()
