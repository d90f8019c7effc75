"""Floods stdout with blank lines instead of answering."""

import sys

import wire

wire.until_first_request()
lines = b"\n" * 65536
while True:
    sys.stdout.buffer.write(lines)
    sys.stdout.buffer.flush()
