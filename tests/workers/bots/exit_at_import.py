"""Dies before saying anything."""

import sys

print("cannot import numpy", file=sys.stderr)
sys.exit(3)
