"""Grows slowly, touching every page, so the memory is really used, until refused."""

import time

import wire

wire.until_first_request()
hoard = []
while True:
    chunk = bytearray(4 * 1024**2)
    for i in range(0, len(chunk), 4096):
        chunk[i] = 1
    hoard.append(chunk)
    time.sleep(0.001)
