"""A tiny ``python -m`` target for tests/kit/test_forkserver.py: prints what it was started
with, then exits with ``PROBE_EXIT`` (or waits for a signal when it is ``wait``)."""

from __future__ import annotations

import json
import os
import signal
import sys

if __name__ == "__main__":
    print(
        json.dumps(
            {
                "argv0": sys.argv[0],
                "cwd": os.getcwd(),
                "env": dict(os.environ),
                "sigpipe_ignored": signal.getsignal(signal.SIGPIPE) == signal.SIG_IGN,
            }
        ),
        flush=True,
    )
    print("to stderr", file=sys.stderr)
    if os.environ.get("PROBE_EXIT") == "wait":
        signal.pause()
    sys.exit(int(os.environ.get("PROBE_EXIT", "0")))
