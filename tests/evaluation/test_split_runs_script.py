"""``benchmarks.split_runs``: the default labeler's runs cut where two consecutive blocks
meet only near the root of the collapsed DOM (an experiment, not kept)."""

from __future__ import annotations

import numpy as np
import pytest

from scrapy_boilerplate.neural.boosted import BoostedLabeler
from scrapy_boilerplate.neural.structure import Structure
from scrapy_boilerplate.parse import parse_html

from ..helpers import bridge_story


def test_blocks_that_meet_only_at_the_body_hold_the_whole_page(script):
    doc = parse_html(
        "<html><body><div><p>one two three four five six</p><p>seven eight nine ten"
        " eleven twelve</p></div><div><p>thirteen fourteen fifteen sixteen seventeen"
        "</p></div></body></html>"
    )
    s = Structure(doc.blocks, doc.root)
    share = script.meeting_share(s, np.arange(3), 3)
    # the first two meet in their <div> (2 of 3 blocks), the last two only at the body
    assert share.tolist() == pytest.approx([2 / 3, 1.0])


def test_the_labeler_keeps_the_story_of_a_plain_page(script):
    doc = parse_html(bridge_story())
    script.SplitRunsLabeler(None, "0.9")(doc)
    shipped = parse_html(bridge_story())
    BoostedLabeler()(shipped)
    assert [b.is_content for b in doc.blocks] == [b.is_content for b in shipped.blocks]
    assert any(b.is_content for b in doc.blocks)
