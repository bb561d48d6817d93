"""``settle_heap``: what a server does to the collector once start-up is over. Run in a child
interpreter: freezing the test runner's own heap would outlive the test."""

from __future__ import annotations

import json
import subprocess
import sys

CHILD = """
import gc, json
from agenda_kit.grpc.server import GC_YOUNG_THRESHOLD, settle_heap
before = gc.get_threshold()
class Cycle:
    pass
garbage = Cycle(); garbage.me = garbage; del garbage  # start-up garbage: collected, not frozen
settle_heap()
after = gc.get_threshold()
late = Cycle(); late.me = late; del late  # garbage made while serving is still collected
print(json.dumps({"before": before, "after": after, "frozen": gc.get_freeze_count(),
                  "young": GC_YOUNG_THRESHOLD, "collected_late": gc.collect()}))
"""


def test_settle_heap_freezes_start_up_heap_and_collects_the_young_generation_less_often() -> None:
    out = subprocess.run(
        [sys.executable, "-c", CHILD], capture_output=True, text=True, check=True, timeout=60
    )
    seen = json.loads(out.stdout)
    assert seen["frozen"] > 1000  # modules and everything built at start-up
    assert seen["after"] == [seen["young"], *seen["before"][1:]]
    assert seen["young"] > seen["before"][0]
    assert seen["collected_late"] >= 1
