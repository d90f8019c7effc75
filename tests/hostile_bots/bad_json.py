"""Answers its first decision with text that is not JSON."""

import sys

import wire

wire.until_first_request()
sys.stdout.write("{action: take it\n")
sys.stdout.flush()
wire.forever()
