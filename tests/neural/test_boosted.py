"""The boosted labeler (``neural/boosted.py``, the default extractor) and its features
(``neural/boosted_features.py``): the columns, the short-block rule, the shipped model on
a page, pickling, and a missing or corrupt model failing when the chain is built."""

import gzip
import json
import pickle
import shutil
import sys
from pathlib import Path

import numpy as np
import pytest

from scrapy_boilerplate import build_chain, extract, get_extractor
from scrapy_boilerplate.errors import ChainSpecError, ModelUnavailableError
from scrapy_boilerplate.neural import boosted as boosted_module
from scrapy_boilerplate.neural.boosted import (
    DISCUSSIONS_MODEL_DIR,
    FAVOR,
    BoostedLabeler,
    BoostedModel,
    content_runs,
    decided_by_trees,
    in_footer,
    navigation_links,
    outside_footers,
    short_block_decisions,
)
from scrapy_boilerplate.neural.boosted_features import BOOSTED_FEATURES, boosted_features
from scrapy_boilerplate.neural.columns import feature_names
from scrapy_boilerplate.neural.features import page_features
from scrapy_boilerplate.neural.model import DEFAULT_MODEL_DIR
from scrapy_boilerplate.parse import parse_html
from scrapy_boilerplate.registry import DEFAULT_EXTRACTOR

ARTICLE = (Path(__file__).parent / "article.html").read_text(encoding="utf-8")

pytest.importorskip("onnxruntime", reason="onnxruntime is not installed")


def column(name):
    return BOOSTED_FEATURES.index(name)


def test_it_is_the_default_extractor():
    assert DEFAULT_EXTRACTOR == "boosted"
    assert extract(ARTICLE).extractor == "boosted"


def test_the_features_start_with_web2text_and_describe_the_page_around_each_block():
    doc = parse_html(
        "<html><body><div class='nav'><a href='/'>Home</a> <a href='/n'>News</a></div>"
        "<div class='story'><h1>A headline here</h1>"
        "<p>One two three four five six seven eight nine ten eleven twelve.</p>"
        "<p>More words in a second paragraph of the story, all of them plain text.</p></div>"
        "</body></html>"
    )
    f = boosted_features(doc)
    assert f.shape == (4, len(BOOSTED_FEATURES)) and f.dtype == np.float32
    assert len(set(BOOSTED_FEATURES)) == len(BOOSTED_FEATURES)
    web2text, _ = page_features(doc, extended=True)
    width = len(feature_names(extended=True)[0])
    assert np.array_equal(f[:, :width], web2text)
    assert f[:, column("link_density")].tolist() == [1.0, 0.0, 0.0, 0.0]
    assert f[:, column("label_h1")].tolist() == [0.0, 1.0, 0.0, 0.0]
    # the next block's words, and none past the end
    assert f[0, column("next1_log_words")] == pytest.approx(np.log1p(3))
    assert f[3, column("next1_log_words")] == 0.0
    assert f[:, column("position")].tolist() == [0.0, 0.25, 0.5, 0.75]
    # the smallest element holding half the page's unlinked words is the story's div
    assert f[:, column("in_half_container")].tolist() == [0.0, 1.0, 1.0, 1.0]


def test_pages_without_blocks_and_of_one_block():
    assert boosted_features(parse_html("")).shape == (0, len(BOOSTED_FEATURES))
    one = boosted_features(parse_html("<p>just one</p>"))
    assert one.shape == (1, len(BOOSTED_FEATURES)) and np.isfinite(one).all()


def test_short_blocks_take_the_decision_of_the_long_blocks_around_them():
    long = np.array([False, True, False, False, True, False, True, False])
    content = np.array([False, True, False, False, True, False, False, False])
    got = short_block_decisions(content, long)
    # between two content blocks: content; next to a boilerplate block or at either end
    # of the page (no long block on one side): boilerplate
    assert got.tolist() == [False, True, True, True, True, False, False, False]
    # all long, or none: the given decisions
    assert short_block_decisions(content, np.ones(8, bool)).tolist() == content.tolist()
    assert short_block_decisions(content, np.zeros(8, bool)).tolist() == content.tolist()


def test_the_trees_decide_the_long_blocks_and_with_short_headings_the_headings_too():
    doc = parse_html("<h2>Short title</h2><p>" + "word " * 12 + "</p><p>two words</p>")
    features = boosted_features(doc)
    words = np.array([b.num_words for b in doc.blocks])
    assert decided_by_trees(words, features, 4).tolist() == [False, True, False]
    assert decided_by_trees(words, features, 4, short_headings=True).tolist() == [True, True, False]
    # a page of short blocks only: the trees decide each
    assert decided_by_trees(np.array([1, 2]), features[[0, 2]], 4).tolist() == [True, True]


def test_links_only_in_navigation_or_a_footer_are_never_content():
    doc = parse_html(
        "<html><body><footer><a href='/a'>About us</a> <a href='/c'>Contact</a></footer>"
        "<div class='footer'>Written by <a href='/me'>me</a></div>"
        "<div class='nav-bar'><a href='/x'>All news today</a></div>"
        "<div><a href='/r'>A link in the story itself</a></div></body></html>"
    )
    assert navigation_links(boosted_features(doc)).tolist() == [True, False, True, False]


def test_a_small_page_keeps_its_story_and_drops_its_footer_of_links():
    html = (
        "<html><body><div class='nav'><a href='/'>Home</a> | <a href='/n'>News</a></div>"
        "<h1>News about the harbour</h1>"
        + "".join(
            f"<p>Paragraph {i} of the story says what happened at the harbour on that day, "
            "who was there, and what the council will do about it next month.</p>"
            for i in range(3)
        )
        + "<div class='footer'><a href='/about'>About us</a> <a href='/contact'>Contact</a>"
        "<a href='/privacy'>Privacy</a></div></body></html>"
    )
    text = extract(html).text
    assert "Paragraph 2 of the story" in text
    assert "Privacy" not in text and "Home" not in text


STORY = "".join(
    f"<p>Paragraph {i} of the story says what happened at the harbour on that day, "
    "who was there, and what the council will do about it next month.</p>"
    for i in range(3)
)
#: a page footer of prose, no link in it, that reads like text
PROSE_FOOTER = (
    "<footer><p>The Harbour Gazette is published every weekday by the Harbour Gazette "
    "Company, which has reported on the town and its people since the year 1887.</p>"
    "<p>Letters to the editor are welcome and may be edited for length and clarity "
    "before they are printed in the newspaper or shown on this website.</p></footer>"
)


def test_blocks_inside_a_footer_element_are_not_content():
    html = f"<html><body><h1>News about the harbour</h1>{STORY}{PROSE_FOOTER}</body></html>"
    doc = parse_html(html)
    footer = in_footer(boosted_features(doc))
    assert [b.text[:9] for b, f in zip(doc.blocks, footer, strict=True) if f] == [
        "The Harbo",
        "Letters t",
    ]
    blocks = get_extractor().extract(html).blocks
    assert not any(b.is_content for b, f in zip(blocks, footer, strict=True) if f)
    text = extract(html).text
    assert "Paragraph 2 of the story" in text and "published every weekday" not in text
    # without the rule the trees take the footer's prose for more of the story
    off = get_extractor([{"boosted": {"drop_footers": False}}]).extract(html).text
    assert off.startswith(text) and "published every weekday" in off


def test_a_story_that_a_footer_element_holds_is_kept():
    # nothing outside the footer would be content: the rule leaves the page as it was
    html = f"<html><body><footer>{STORY}</footer></body></html>"
    assert "Paragraph 2 of the story" in extract(html).text
    content = np.array([True, False, True])
    assert outside_footers(content, np.array([True, True, True])).tolist() == [True, False, True]
    assert outside_footers(content, np.array([False, True, True])).tolist() == [True, False, False]


def test_the_shipped_model_keeps_the_story_and_drops_the_page_furniture():
    text = extract(ARTICLE, extractor="boosted").text
    assert "engineers closed it when cracks were found" in text
    assert "The council said it would review" in text
    for boilerplate in ("Privacy policy", "Cookie settings", "Share on Facebook", "Politics"):
        assert boilerplate not in text, boilerplate


def test_one_block_no_blocks_and_composition():
    labeler = BoostedLabeler()
    doc = parse_html("<html><body><p>Only one block of text, a short sentence.</p></body></html>")
    labeler(doc)
    assert isinstance(doc.blocks[0].is_content, bool)
    assert labeler(parse_html("")) is False
    assert extract("", extractor="boosted").reason == "empty_input"
    ex = get_extractor(["boosted", {"min_words": {"min_words": 20}}])
    assert "cracks were found" in ex.extract(ARTICLE).text


def test_a_page_of_short_blocks_only_is_decided_by_the_trees():
    doc = parse_html("<html><body><p>Hello there</p><p>Two words</p></body></html>")
    BoostedLabeler()(doc)
    assert all(isinstance(b.is_content, bool) for b in doc.blocks)


def test_the_threshold_can_be_set():
    everything = extract(ARTICLE, extractor=[{"boosted": {"threshold": 0.0}}]).text
    nothing = extract(ARTICLE, extractor=[{"boosted_labeler": {"threshold": 1.01}}]).text
    assert "Share on Facebook" in everything  # (links in a footer stay out: see above)
    assert nothing == ""


def test_a_doubtful_block_beside_sure_ones_is_content_and_a_lone_one_is_not():
    # the trees' probabilities of the long blocks, in page order
    probability = np.array([0.45, 0.9, 0.42, 0.3, 0.5, 0.2, 0.6, 0.41, 0.95])
    nowhere = np.zeros(len(probability), bool)
    got = content_runs(probability, 0.55, 0.4, nowhere)
    # runs at 0.4 or more: [0.45 0.9 0.42] holds a sure block, [0.5] does not,
    # [0.6 0.41 0.95] does
    assert got.tolist() == [True, True, True, False, False, False, True, True, True]
    # a block of navigation links is never content and ends a run
    navigation = nowhere.copy()
    navigation[1] = True
    assert content_runs(probability, 0.55, 0.4, navigation)[:3].tolist() == [False] * 3
    # a grow threshold at or above the threshold is a plain threshold
    for grow in (0.55, 0.7):
        assert (
            content_runs(probability, 0.55, grow, nowhere).tolist()
            == (probability >= 0.55).tolist()
        )
    assert not content_runs(np.zeros(0), 0.55, 0.4, np.zeros(0, bool)).any()


def runs_one_by_one(probability, threshold, grow_threshold, excluded):
    """content_runs as a loop over the blocks: each run, then whether it holds a seed."""
    out = [False] * len(probability)
    start = 0
    while start < len(probability):
        end = start
        while end < len(probability) and probability[end] >= grow_threshold and not excluded[end]:
            end += 1
        if any(probability[i] >= threshold for i in range(start, end)):
            out[start:end] = [True] * (end - start)
        start = end + 1
    return out


def test_the_runs_are_those_a_loop_over_the_blocks_finds():
    rng = np.random.default_rng(7)
    for _ in range(2000):
        n = int(rng.integers(0, 25))
        probability = rng.random(n).astype(np.float32)
        excluded = rng.random(n) < 0.1
        got = content_runs(probability, 0.55, 0.4, excluded)
        assert got.tolist() == runs_one_by_one(probability, 0.55, 0.4, excluded)


def test_a_break_ends_a_run_so_a_doubtful_block_past_it_needs_a_sure_block_of_its_own():
    def runs(p, breaks):
        p = np.array(p)
        nowhere = np.zeros(len(p), dtype=bool)
        return content_runs(p, 0.55, 0.4, nowhere, np.array(breaks, dtype=bool)).tolist()

    # no breaks: the runs as without them
    p = [0.45, 0.9, 0.42, 0.1, 0.5, 0.45, 0.6]
    nowhere = np.zeros(len(p), dtype=bool)
    assert runs(p, [False] * (len(p) - 1)) == content_runs(np.array(p), 0.55, 0.4, nowhere).tolist()
    # the doubtful block (0.45) after the sure one (0.9) rides on it, unless a break parts them
    assert runs([0.9, 0.45], [False]) == [True, True]
    assert runs([0.9, 0.45], [True]) == [True, False]
    # a part with a sure block of its own stays content
    assert runs([0.9, 0.45, 0.8], [True, False]) == [True, True, True]


def test_the_shipped_model_grows_runs_and_an_older_model_file_decides_by_its_threshold(tmp_path):
    shipped = BoostedModel(DEFAULT_MODEL_DIR)
    assert shipped.grow_threshold < shipped.threshold
    older = tmp_path / "older"
    shutil.copytree(DEFAULT_MODEL_DIR, older)
    meta = json.loads((older / "boosted.json").read_text())
    del meta["grow_threshold"]
    (older / "boosted.json").write_text(json.dumps(meta))
    assert BoostedModel(older).grow_threshold == shipped.threshold


def test_the_grow_threshold_can_be_set():
    model = BoostedModel(DEFAULT_MODEL_DIR)
    features = boosted_features(parse_html(ARTICLE))
    navigation = navigation_links(features)
    probability = model.content_probability(features)
    decided = {}
    for grow in (0.55, 0.0):  # no growth; every block that is not navigation links
        doc = parse_html(ARTICLE)
        BoostedLabeler(grow_threshold=grow)(doc)
        decided[grow] = [b.is_content for b in doc.blocks]
        words = np.array([b.num_words for b in doc.blocks])
        long = decided_by_trees(words, features, model.short_words)
        content = np.zeros(len(long), bool)
        content[long] = content_runs(probability[long], model.threshold, grow, navigation[long])
        expected = outside_footers(short_block_decisions(content, long), in_footer(features))
        assert decided[grow] == expected.tolist()
    assert sum(decided[0.0]) > sum(decided[0.55])


def test_favor_trades_precision_for_recall_with_the_thresholds_it_names():
    # a real page whose blocks the shipped model is unsure of (tests/neural/README.md)
    page = gzip.decompress((Path(__file__).parent / "mozilla-1.html.gz").read_bytes())
    kept = {}
    for favor, (threshold, grow) in FAVOR.items():
        result = get_extractor([{"boosted": {"favor": favor}}]).extract(page)
        explicit = get_extractor([{"boosted": {"threshold": threshold, "grow_threshold": grow}}])
        assert result.text == explicit.extract(page).text  # a name for the two thresholds
        kept[favor] = {i for i, block in enumerate(result.blocks) if block.is_content}
    # stricter thresholds keep a subset of the blocks, looser ones a superset
    assert kept["precision"] < kept["balanced"] < kept["recall"]


@pytest.mark.parametrize(
    "parameters, message",
    [
        ({"favor": "speed"}, "favor must be one of precision, balanced, recall"),
        ({"favor": "recall", "threshold": 0.5}, "favor sets threshold and grow_threshold"),
        ({"favor": "precision", "grow_threshold": 0.3}, "favor sets threshold and grow_threshold"),
    ],
)
def test_favor_is_one_of_three_and_not_given_with_a_threshold(parameters, message):
    with pytest.raises(ChainSpecError, match=message):
        get_extractor([{"boosted": parameters}])


def test_the_labeler_pickles_as_plain_data():
    data = pickle.dumps(BoostedLabeler())
    assert b"InferenceSession" not in data
    ex = pickle.loads(pickle.dumps(get_extractor("boosted")))
    assert "cracks were found" in ex.extract(ARTICLE).text


def test_a_missing_or_corrupt_model_fails_when_the_chain_is_built(tmp_path, monkeypatch):
    monkeypatch.setattr(boosted_module, "_models", {})
    with pytest.raises(ModelUnavailableError, match="boosted model file missing"):
        build_chain([{"boosted": {"model_dir": str(tmp_path)}}])
    model = tmp_path / "model"
    shutil.copytree(DEFAULT_MODEL_DIR, model)
    (model / "boosted.onnx").write_bytes(b"not a model")
    with pytest.raises(ModelUnavailableError, match="cannot load the boosted model"):
        build_chain([{"boosted": {"model_dir": str(model)}}])
    (model / "boosted.json").write_text("{broken")
    with pytest.raises(ModelUnavailableError, match="cannot read"):
        build_chain([{"boosted": {"model_dir": str(model)}}])
    (model / "boosted.json").write_text('{"threshold": 0.5, "short_words": 2, "features": ["x"]}')
    with pytest.raises(ModelUnavailableError, match="other features"):
        build_chain([{"boosted": {"model_dir": str(model)}}])


def test_a_missing_runtime_fails_when_the_chain_is_built(monkeypatch):
    monkeypatch.setitem(sys.modules, "onnxruntime", None)
    monkeypatch.setattr(boosted_module, "_models", {})
    with pytest.raises(ModelUnavailableError, match="boosted labeler needs onnxruntime"):
        build_chain("boosted")


def test_a_page_of_thousands_of_blocks_is_labelled():
    paragraph = "<p>" + " ".join(["word"] * 30) + " end.</p>"
    result = extract("<html><body>" + paragraph * 10000 + "</body></html>", extractor="boosted")
    assert result.text.count("end.") > 0


def _press_release(paragraph_words: int = 400) -> str:
    # one long paragraph (a press release printed as one block) and a little furniture
    text = " ".join(
        ["The company said on Monday that its new remote control would ship in March."]
        * (paragraph_words // 14)
    )
    return (
        "<html><head><title>Release</title></head><body>"
        "<ul><li><a href='/'>Home</a></li><li><a href='/news'>News</a></li></ul>"
        f"<p>{text}</p><p>Contact: press office, 555 0100.</p></body></html>"
    )


def test_where_nothing_is_content_a_dominant_block_the_trees_doubt_is_kept():
    # the trees' doubt is stood in for by a seed threshold no block reaches
    doubtful = {"threshold": 0.999999, "grow_threshold": 0.3}
    page = _press_release()
    without = get_extractor([{"boosted": {**doubtful, "dominant_block": False}}])
    assert without.extract(page).text == ""
    result = get_extractor([{"boosted": doubtful}]).extract(page, trace=True)
    assert "remote control would ship in March" in result.text
    assert "Home" not in result.text
    decided = {block.decided_by for block in result.blocks if block.is_content}
    assert decided == {"dominant_block"}


def test_no_block_dominates_a_page_of_many_paragraphs():
    doubtful = [{"boosted": {"threshold": 0.999999, "grow_threshold": 0.3}}]
    paragraphs = "".join(
        f"<p>Paragraph {i} of a long story about the harbour, the storm and the town.</p>"
        for i in range(12)
    )
    page = f"<html><body>{paragraphs}</body></html>"
    assert get_extractor(doubtful).extract(page).text == ""


def test_a_page_with_content_is_left_as_the_labeler_made_it():
    page = _press_release()
    on = get_extractor("boosted").extract(page, trace=True)
    off = get_extractor([{"boosted": {"dominant_block": False}}]).extract(page)
    assert on.text == off.text and on.text
    assert all(block.decided_by != "dominant_block" for block in on.blocks)


# -- pages that declare a discussion ---------------------------------------------------

#: a forum thread of wcxb-dev (page 2797; tests/neural/README.md) and its reference text
FORUM = Path(__file__).parent / "wcxb-forum-2797.html.gz"
FORUM_TEXT = (Path(__file__).parent / "wcxb-forum-2797.txt").read_text(encoding="utf-8")
THREAD_JSON_LD = (
    '<script type="application/ld+json">{"@context": "https://schema.org", '
    '"@type": "DiscussionForumPosting", "headline": "Which Linux for virtual machines?"}'
    "</script>"
)


def test_a_page_that_declares_a_discussion_is_read_by_the_discussions_model():
    labeler = BoostedLabeler()
    body = "<p>" + "Which Linux would you run Windows 7 under as a virtual machine? " * 3 + "</p>"
    thread = parse_html(f"<html><head>{THREAD_JSON_LD}</head><body>{body}</body></html>")
    question = parse_html(
        f'<html><body><div itemscope itemtype="https://schema.org/QAPage">{body}</div></body></html>'
    )
    assert labeler.discussion_model() is not labeler.model()
    assert labeler.model_for(thread) is labeler.discussion_model()
    assert labeler.model_for(question) is labeler.discussion_model()
    assert labeler.model_for(parse_html(ARTICLE)) is labeler.model()
    off = BoostedLabeler(discussions=False)
    assert off.model_for(thread) is off.model()


def test_the_discussions_model_keeps_a_forum_thread_that_the_article_model_misses():
    from scrapy_boilerplate.evaluation.metrics import score_page

    html = gzip.decompress(FORUM.read_bytes()).decode("utf-8")
    thread = extract(html).text
    article_model = get_extractor([{"boosted": {"discussions": False}}]).extract(html).text
    # the first post and its replies, not the forum's notices around them
    assert "run Win7 and Win10 as virtual machines under Linux" in thread
    assert "run Win7 and Win10" not in article_model
    assert score_page(FORUM_TEXT, thread).f1 > 0.7 > score_page(FORUM_TEXT, article_model).f1


def test_the_shipped_discussions_model_reads_the_default_models_columns():
    default = BoostedModel(DEFAULT_MODEL_DIR)
    discussions = BoostedModel(DISCUSSIONS_MODEL_DIR)
    assert discussions.meta["features"] == default.meta["features"] == list(BOOSTED_FEATURES)
    # trees trained on pages of every kind, the non-article ones at 0.3 of an article
    assert discussions.meta["config"]["other_page_weight"] == 0.3
    assert default.meta["training"]["page_types"] == ["article"]
    assert discussions.meta["training"]["page_types"] == "all"
    size = sum(p.stat().st_size for p in DISCUSSIONS_MODEL_DIR.iterdir())
    assert size < 600_000


def test_a_model_of_ones_own_reads_every_page_unless_a_discussions_model_is_named(tmp_path):
    own = tmp_path / "own"
    own.mkdir()
    for name in ("boosted.onnx", "boosted.json"):
        shutil.copy(DEFAULT_MODEL_DIR / name, own / name)
    labeler = BoostedLabeler(str(own))
    assert labeler.discussion_model() is labeler.model()
    named = BoostedLabeler(str(own), discussion_model_dir=str(DISCUSSIONS_MODEL_DIR))
    assert named.discussion_model() is BoostedLabeler().discussion_model()
    # the settings travel with a pickled labeler (a worker process loads its own models)
    copy = pickle.loads(pickle.dumps(named))
    assert (copy.discussions, copy.discussion_model_dir) == (True, str(DISCUSSIONS_MODEL_DIR))


# -- pages other than articles ---------------------------------------------------------

#: a listing of wcxb-dev (page 2911, Hacker News' jobs; tests/neural/README.md) and its
#: reference text
LISTING = Path(__file__).parent / "wcxb-listing-2911.html.gz"
LISTING_TEXT = (Path(__file__).parent / "wcxb-listing-2911.txt").read_text(encoding="utf-8")


def test_pages_any_reads_every_page_with_the_every_type_model():
    article = parse_html(ARTICLE)
    default = BoostedLabeler()
    assert default.pages == "articles"
    assert default.model_for(article) is default.model()
    any_page = BoostedLabeler(pages="any")
    assert any_page.model_for(article) is any_page.discussion_model() is not any_page.model()
    # with the declarations left aside too: the every-type model reads every page
    assert BoostedLabeler(pages="any", discussions=False).model_for(article) is (
        any_page.discussion_model()
    )
    # a worker process reads pages as the parent does
    assert pickle.loads(pickle.dumps(any_page)).pages == "any"


def test_pages_any_keeps_a_listing_that_the_article_model_drops():
    from scrapy_boilerplate.evaluation.metrics import score_page

    html = gzip.decompress(LISTING.read_bytes()).decode("utf-8")
    listing = get_extractor([{"boosted": {"pages": "any"}}]).extract(html).text
    as_article = get_extractor([{"boosted": {"every_type_rescue": False}}]).extract(html).text
    assert "SigNoz (YC W21) is hiring" in listing
    assert "SigNoz" not in as_article
    assert (
        score_page(LISTING_TEXT, listing).f1 > 0.9 > 0.1 > score_page(LISTING_TEXT, as_article).f1
    )


def test_where_the_article_model_finds_nothing_the_every_type_model_reads_the_page():
    html = gzip.decompress(LISTING.read_bytes()).decode("utf-8")
    # the default: the article model keeps nothing of the listing, so the every-type
    # model reads it (as pages="any" does)
    rescued = extract(html)
    assert rescued.text == get_extractor([{"boosted": {"pages": "any"}}]).extract(html).text
    assert "SigNoz (YC W21) is hiring" in rescued.text
    # a page with content keeps what the article model decided
    assert (
        extract(ARTICLE).text
        == get_extractor([{"boosted": {"every_type_rescue": False}}]).extract(ARTICLE).text
    )


def test_the_every_type_rescue_needs_a_second_model(tmp_path):
    def filters(options):
        chain = get_extractor([{"boosted": options}]).chain
        return [type(f).__name__ for f in chain.filters]

    assert filters({})[-1] == "FallbackFilter"
    # read by the every-type model already, or turned off: no second reading
    assert "FallbackFilter" not in filters({"pages": "any"})
    assert "FallbackFilter" not in filters({"every_type_rescue": False})
    # a model of one's own reads every page: there is no other model, unless one is named
    own = tmp_path / "own"
    own.mkdir()
    for name in ("boosted.onnx", "boosted.json"):
        shutil.copy(DEFAULT_MODEL_DIR / name, own / name)
    assert "FallbackFilter" not in filters({"model_dir": str(own)})
    named = {"model_dir": str(own), "discussion_model_dir": str(DISCUSSIONS_MODEL_DIR)}
    assert filters(named)[-1] == "FallbackFilter"


def test_pages_is_articles_or_any_and_a_request_may_set_it():
    from scrapy_boilerplate.spec import ChainSpecError, build_chain

    with pytest.raises(ChainSpecError, match="pages must be one of articles, any"):
        get_extractor([{"boosted": {"pages": "listings"}}])
    # an enum, not a path: a spec from outside (a request's meta) may set it
    chain = build_chain([{"boosted": {"pages": "any"}}], allowed_imports=())
    assert chain.filters[0].pages == "any"


def test_a_missing_discussions_model_fails_when_the_chain_is_built(tmp_path, monkeypatch):
    monkeypatch.setattr(boosted_module, "_models", {})
    with pytest.raises(ModelUnavailableError, match="boosted model file missing"):
        get_extractor([{"boosted": {"discussion_model_dir": str(tmp_path)}}])
    # turned off (for declared discussions and as the rescue), it is never loaded
    off = get_extractor(
        [
            {
                "boosted": {
                    "discussions": False,
                    "every_type_rescue": False,
                    "discussion_model_dir": str(tmp_path),
                }
            }
        ]
    )
    assert "cracks were found" in off.extract(ARTICLE).text
