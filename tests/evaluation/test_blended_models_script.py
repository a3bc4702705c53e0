"""``benchmarks.blended_models``: the article model and the every-type model blended on
every page (an experiment, not kept)."""

from __future__ import annotations

import numpy as np
import pytest

from scrapy_boilerplate.neural.boosted import DISCUSSIONS_MODEL_DIR, BoostedLabeler
from scrapy_boilerplate.parse import parse_html

from ..helpers import bridge_story


def test_the_blend_is_a_weighted_mean_of_logits(script):
    p, q = np.array([0.9, 0.2]), np.array([0.5, 0.8])
    assert script.blend(p, q, 0.0) == pytest.approx(p, abs=1e-6)
    assert script.blend(p, q, 1.0) == pytest.approx(q, abs=1e-6)
    # logit(0.8) = -logit(0.2): half of each is a coin toss
    assert script.blend(p, q, 0.5)[1] == pytest.approx(0.5, abs=1e-6)


def test_the_blended_labeler_keeps_the_story_of_a_plain_page(script):
    doc = parse_html(bridge_story())
    script.BlendedLabeler(None, str(DISCUSSIONS_MODEL_DIR), 0.5)(doc)
    shipped = parse_html(bridge_story())
    BoostedLabeler()(shipped)
    assert [b.is_content for b in doc.blocks] == [b.is_content for b in shipped.blocks]
    assert any(b.is_content for b in doc.blocks)
