"""Sleeps through its first decision, forever."""

import wire

wire.until_first_request()
wire.forever()
