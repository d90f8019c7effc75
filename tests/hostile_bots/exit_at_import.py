"""Dies while starting, before it says it is ready."""

import sys

sys.stderr.write("giving up before the game\n")
sys.exit(3)
