"""Our boilerpipe extractors reproduce the Java reference (boilerpipe 1.2.0) on real pages.

The expected outputs in tests/golden/expected.jsonl were written by the Java library itself
(benchmarks/boilerpipe_oracle/make_golden.py); tests/golden/README.md lists the pages'
sources and licences. Comparison is on word tokens, as in the agreement benchmark.
"""

import gzip
import json
import re
from collections import Counter
from pathlib import Path

import pytest

from scrapy_boilerplate import get_extractor
from scrapy_boilerplate.parse import parse_html

GOLDEN = Path(__file__).parents[1] / "golden"
TOKEN = re.compile(r"\w+")

# (page, extractor) pairs whose difference comes from NekoHTML repairing broken markup
# differently from libxml2 (not from our filters); each is explained, and must still agree
# on at least the given token F1.
_STRAY_UNKNOWN_END = (
    "a stray </time> end tag: NekoHTML 1.9 knows no HTML5 element, and an end tag of one "
    "closes the innermost open unknown element (here <header>), which splits a block"
)
PARSER_DIFFERENCES: dict[tuple[str, str], tuple[float, str]] = {
    ("trafilatura-eval--france.attc.org-privatisations", "default"): (0.9, _STRAY_UNKNOWN_END),
    ("trafilatura-eval--france.attc.org-privatisations", "num_words_rules"): (
        0.9,
        _STRAY_UNKNOWN_END,
    ),
}


def _expected():
    with open(GOLDEN / "expected.jsonl", encoding="utf-8") as f:
        return [json.loads(line) for line in f]


def _f1(a, b):
    if not a and not b:
        return 1.0
    common = sum((Counter(a) & Counter(b)).values())
    return 0.0 if not common else 2 * common / (len(a) + len(b))


_docs: dict[str, object] = {}


def _parsed(page_id):
    if page_id not in _docs:
        raw = gzip.decompress((GOLDEN / "pages" / f"{page_id}.html.gz").read_bytes())
        _docs[page_id] = parse_html(raw.decode("utf-8"), cjk=False)
    return _docs[page_id]


@pytest.mark.parametrize("case", _expected(), ids=lambda c: f"{c['id']}:{c['extractor']}")
def test_extractor_reproduces_java_boilerpipe(case):
    doc = _parsed(case["id"]).copy()
    get_extractor(case["extractor"], cjk=False).process(doc)
    ours = TOKEN.findall(doc.content())
    java = TOKEN.findall(case["text"])
    assert doc.title == case["title"]
    known = PARSER_DIFFERENCES.get((case["id"], case["extractor"]))
    if known:
        assert _f1(ours, java) >= known[0], known[1]
    else:
        assert ours == java
