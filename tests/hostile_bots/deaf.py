"""Says it is ready without reading anything, then never reads stdin again."""

import wire

wire.send({"ready": True})
wire.forever()
