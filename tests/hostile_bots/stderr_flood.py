"""Floods stderr without end instead of answering."""

import sys

import wire

wire.until_first_request()
line = b"flood " * 1000 + b"\n"
while True:
    sys.stderr.buffer.write(line)
