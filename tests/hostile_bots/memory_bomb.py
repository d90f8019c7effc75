"""Asks for far more memory than allowed in one allocation."""

import wire

wire.until_first_request()
hoard = bytearray(64 * 1024**3)
wire.send({"action": len(hoard)})
