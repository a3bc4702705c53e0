"""Automatic block labelling by alignment (algorithms.md 2.6) on hand-made pages."""

from scrapy_boilerplate.parse import parse_html
from scrapy_boilerplate.training.alignment import (
    GAP,
    align,
    label_blocks,
    label_blocks_from_snippets,
    mask_html,
)

STORY = [
    "The council approved the budget on Tuesday after a long debate about schools.",
    "Libraries will open longer on weekends, the mayor said in a statement.",
    "Repairs to the old bridge over the river start in the spring of next year.",
]


def page(*paragraphs, nav=("Home", "News", "Sport", "Contact us")):
    links = "".join(f"<li><a href='#'>{n}</a></li>" for n in nav)
    body = "".join(f"<p>{p}</p>" for p in paragraphs)
    return (
        f"<html><body><ul>{links}</ul><div>{body}</div>"
        "<div class='footer'>Copyright 2024 The Paper. All rights reserved.</div></body></html>"
    )


def labels_of(html, clean):
    doc = parse_html(html)
    labels, result = label_blocks(doc.blocks, clean)
    return {b.text: y for b, y in zip(doc.blocks, labels, strict=False)}, result


def test_aligned_string_has_source_length_and_keeps_matches():
    src = "Menu\nThe quick brown fox jumps over the lazy dog.\nFooter"
    r = align(src, "The quick brown fox jumps over the lazy dog.")
    assert len(r.aligned) == len(src)
    assert r.aligned.startswith(GAP * 5)
    assert "The quick brown fox" in r.aligned
    assert r.aligned.endswith(GAP * 6)
    assert r.recovered == 1.0


def test_clean_page_labels_content_and_boilerplate():
    got, result = labels_of(page(*STORY), "\n\n".join(STORY))
    for s in STORY:
        assert got[s] == 1
    for nav in ("Home", "News", "Sport", "Contact us"):
        assert got[nav] == 0
    assert got["Copyright 2024 The Paper. All rights reserved."] == 0
    assert result.recovered == 1.0


def test_case_and_whitespace_differences_still_align():
    clean = "\n\n".join(s.upper().replace(" ", "   ") for s in STORY)
    got, result = labels_of(page(*STORY), clean)
    assert all(got[s] == 1 for s in STORY)
    assert result.recovered == 1.0


def test_repeated_phrases_label_only_the_matching_copy():
    # "Read more" appears three times on the page, once in the reference (after the story)
    html = (
        "<body><p>Read more</p><p>"
        + STORY[0]
        + "</p><p>Read more</p><p>"
        + STORY[1]
        + "</p><p>Read more</p><p>Unrelated footer text here</p></body>"
    )
    doc = parse_html(html)
    labels, _ = label_blocks(doc.blocks, STORY[0] + "\n\nRead more\n\n" + STORY[1])
    texts = [b.text for b in doc.blocks]
    assert labels == [0, 1, 1, 1, 0, 0], list(zip(texts, labels, strict=False))


def test_reordered_text_labels_the_in_order_part():
    # the reference has the paragraphs in another order: a monotone alignment keeps the
    # longest consistent part, never more than the page has
    clean = "\n\n".join([STORY[2], STORY[0], STORY[1]])
    got, result = labels_of(page(*STORY), clean)
    assert got[STORY[0]] == 1 and got[STORY[1]] == 1
    assert got["Home"] == 0
    assert 0.5 < result.recovered < 1.0


def test_text_missing_from_the_page():
    clean = "\n\n".join(STORY + ["A closing paragraph that the page never had at all, sadly."])
    got, result = labels_of(page(*STORY), clean)
    assert all(got[s] == 1 for s in STORY)
    assert result.recovered < 1.0
    story_chars = sum(1 for ch in "".join(STORY) if not ch.isspace())
    # at most a few incidental characters of the missing paragraph find a partner
    assert story_chars <= result.matched_clean <= story_chars + 10
    assert got["Copyright 2024 The Paper. All rights reserved."] == 0
    assert got["Home"] == 0


def test_two_thirds_rule():
    # half of a block's text is in the reference: not content; most of it: content
    doc = parse_html("<p>alpha beta gamma delta epsilon zeta eta theta</p><p>zz</p>")
    labels, _ = label_blocks(doc.blocks, "alpha beta gamma delta")
    assert labels[0] == 0
    labels, _ = label_blocks(doc.blocks, "alpha beta gamma delta epsilon zeta")
    assert labels[0] == 1


def test_the_two_thirds_rule_without_whitespace():
    # some pages' markup leaves hundreds of spaces inside a paragraph's text; no reference
    # keeps them: counted, they fail the block; not counted (boosted's labels), it passes
    blocks = ["Menu", "The quick" + " " * 60 + "brown fox jumps over the dog", "   ", "Footer"]
    clean = "The quick brown fox jumps over the dog"
    labels, result = label_blocks(blocks, clean)
    assert labels == [0, 0, 0, 0]
    assert result.recovered == 1.0
    labels, _ = label_blocks(blocks, clean, count_whitespace=False)
    assert labels == [0, 1, 0, 0]
    # the rule itself is unchanged: half of a block's words are not enough
    labels, _ = label_blocks(["alpha beta gamma delta epsilon zeta"], "alpha beta gamma", False)
    assert labels == [0]


def test_empty_reference_and_empty_page():
    doc = parse_html(page(*STORY))
    labels, result = label_blocks(doc.blocks, "")
    assert labels == [0] * len(doc.blocks)
    labels, result = label_blocks([], "some text")
    assert labels == [] and result.recovered == 0.0


def test_mask_html():
    html = "<head><title>x</title></head><p class='a'>Hi &amp; bye<!-- c --></p><script>x</script>"
    masked = mask_html(html)
    assert len(masked) == len(html)
    assert masked.replace(GAP, "") == "Hi  bye"


def test_snippet_labels():
    doc = parse_html(page(*STORY))
    labels = label_blocks_from_snippets(
        doc.blocks, ["approved the budget on Tuesday"], ["All rights reserved"]
    )
    texts = [b.text for b in doc.blocks]
    assert labels[texts.index(STORY[0])] == 1
    assert labels[texts.index("Copyright 2024 The Paper. All rights reserved.")] == 0
    assert labels[texts.index("Home")] == -1
