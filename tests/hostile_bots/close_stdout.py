"""Closes its stdout after the start and lingers."""

import os

import wire

wire.receive()
wire.send({"ready": True})
os.close(1)
wire.forever()
