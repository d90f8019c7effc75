"""Spins on the CPU at its first decision."""

import wire

wire.until_first_request()
n = 0
while True:
    n += 1
