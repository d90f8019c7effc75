"""Takes far too long to start (a huge import)."""

import time

time.sleep(60)
