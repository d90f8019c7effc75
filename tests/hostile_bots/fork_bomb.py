"""Forks without end once the game starts: must hit the process limit, not the host."""

import os

import wire

wire.until_first_request()
while True:
    os.fork()
