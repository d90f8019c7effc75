"""Reads the mount table, whose root fields name the host directory behind each bind mount."""

import wire

wire.until_first_request()
with open("/proc/self/mountinfo") as table:
    wire.report(mountinfo=table.read())
wire.forfeit()
