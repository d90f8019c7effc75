"""Answers its first decision with valid JSON of the wrong shape."""

import wire

wire.until_first_request()
wire.send({"move": 0, "please": True})
wire.forever()
