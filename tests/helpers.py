"""Pages, filters and a runner shared by the top-level test modules (spec, registry,
extraction), the named boilerpipe extractors' tests and the command-line tests; a
fresh interpreter for the tests of what a process does once; the named columns of the
feature experiments' tables and the small training corpora of the label experiments'."""

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from scrapy_boilerplate import Filter

PAGE = """<html><head><title>Storm hits the coast</title></head><body>
<ul><li><a href="/">Home</a></li><li><a href="/world">World</a></li></ul>
<h1>Storm hits the coast</h1>
<p>A powerful storm hit the northern coast on Tuesday night, bringing heavy rain and winds
of more than a hundred kilometres an hour to several towns along the shore.</p>
<p>Emergency services said hundreds of homes lost power, and several roads were closed
because of fallen trees and flooding in the low-lying parts of the region.</p>
<p>Comments</p><p>Great article, thanks for writing it so quickly.</p>
</body></html>"""


def bridge_story(head: str = "", after: str = "") -> str:
    """A menu, a headline and two paragraphs about a bridge; ``head`` goes into the
    ``<head>``, ``after`` after the story (the summary-seed tests put a doubtful block
    there)."""
    return (
        f"<html><head>{head}</head><body><div class=menu><p>Home News Sports Weather</p>"
        "</div><div class=story><h1>The headline</h1>"
        "<p>The council voted on Tuesday to close the old bridge for repairs next spring, "
        "after an inspection found cracks in two of its piers and rust in the railings.</p>"
        "<p>Drivers will take the ring road while the work lasts, which the council "
        "expects to add ten minutes to the morning commute for most people who cross the "
        f"river.</p></div>{after}</body></html>"
    )


def feature_column(script: Any, values: Any, name: str) -> Any:
    """The column ``name`` of a feature experiment's table of values (one row per block,
    the columns in the order of the script's ``COLUMNS``), as a numpy array."""
    return values[:, script.COLUMNS.index(name)]


class DropShortBlocks(Filter):
    """A user's own filter, used by import path in the tests."""

    name = "drop_short_blocks"

    def __init__(self, min_words: int = 10) -> None:
        self.min_words = min_words

    def __call__(self, doc):
        changed = False
        for b in doc.blocks:
            if b.is_content and b.num_words < self.min_words:
                b.is_content = False
                changed = True
        return changed


def boosted_corpus(pages: list[tuple[str, list[int], list[int], list[float]]]) -> Any:
    """A corpus of the default labeler's training (``BoostedCorpus``) made of pages given
    as (set, labels, words, link densities) per block, every other column 0; page ``i``
    has the id ``str(i)``."""
    import numpy as np

    from scrapy_boilerplate.neural.boosted_features import BOOSTED_FEATURES
    from scrapy_boilerplate.training.boosted import BoostedCorpus

    labels, words, links, offsets, sets = [], [], [], [0], []
    for name, page_labels, page_words, page_links in pages:
        labels += page_labels
        words += page_words
        links += page_links
        offsets.append(len(labels))
        sets.append(name)
    features = np.zeros((len(labels), len(BOOSTED_FEATURES)), np.float32)
    features[:, BOOSTED_FEATURES.index("link_density")] = links
    return BoostedCorpus(
        features=features,
        labels=np.array(labels, np.int8),
        words=np.array(words, np.int32),
        offsets=np.array(offsets),
        datasets=sets,
        page_ids=[str(i) for i in range(len(sets))],
    )


def growth(function, make_input, size: int, factor: int = 4, repeat: int = 3) -> float:
    """How many times longer ``function(make_input(factor * size))`` takes than
    ``function(make_input(size))``, each the best of ``repeat`` runs: about ``factor`` for
    a linear pass, ``factor ** 2`` for a quadratic one. (A ratio, not a time: it holds on
    a slow or busy machine.)"""
    import gc
    import time

    def best(n: int) -> float:
        data = make_input(n)
        times = []
        for _ in range(repeat):
            # (a collection of the whole suite's objects, triggered by the larger run's
            # allocations, is not the function's cost)
            gc.collect()
            gc.disable()
            try:
                start = time.perf_counter()
                function(data)
                times.append(time.perf_counter() - start)
            finally:
                gc.enable()
        return min(times)

    return best(factor * size) / best(size)


#: the growth a test accepts for 4 times the input: linear gives about 4, quadratic 16
LINEAR_GROWTH_LIMIT = 9


def run_cli_without(module: str, argv: list[str]) -> subprocess.CompletedProcess:
    """``scrapy-boilerplate`` run in a fresh interpreter where ``module`` cannot be found
    or imported, as on an install without the extra that brings it."""
    code = (
        f"import sys; sys.modules[{module!r}] = None\n"
        "import importlib.util\n"
        "real = importlib.util.find_spec\n"
        f"importlib.util.find_spec = lambda n, *a: None if n == {module!r} else real(n, *a)\n"
        "from scrapy_boilerplate.cli import main\n"
        f"sys.exit(main({argv!r}))\n"
    )
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)


#: the checkout: a fresh interpreter started here imports ``tests`` and ``benchmarks``
ROOT = Path(__file__).resolve().parents[1]


def run_python(
    code: str, *args: str, timeout: float = 300, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess:
    """``code`` run by a fresh interpreter in the checkout (``sys.argv[1:]`` are ``args``;
    ``env``: variables set for it beside the test process's), for what one process can do
    only once or must not inherit from the test process: its output as text."""
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, **env} if env else None,
    )
