"""Bytes to text: declared encodings first, and only codecs that decode documents."""

import pytest

from scrapy_boilerplate.encoding import (
    decode_html,
    is_document_encoding,
    looks_binary,
    read_page_bytes,
)


@pytest.mark.parametrize("name", ["utf-8", "UTF8", "latin-1", "cp1251", "gbk", "shift_jis"])
def test_text_encodings_decode_documents(name):
    assert is_document_encoding(name)


@pytest.mark.parametrize(
    "name", ["rot13", "base64", "hex", "zlib", "uu", "bz2", "quopri", "idna", "punycode", "nope"]
)
def test_other_codecs_do_not(name):
    assert not is_document_encoding(name)


def test_a_declaration_of_a_codec_that_cannot_decode_counts_as_none():
    body = '<meta charset="base64"><p>caf\u00e9</p>'.encode()
    assert decode_html(body) == (body.decode(), "utf-8")
    latin = '<meta charset="rot13"><p>caf\u00e9</p>'.encode("latin-1")
    assert decode_html(latin) == (latin.decode("cp1252"), "cp1252")


def test_a_byte_order_mark_still_wins_over_a_useless_declaration():
    body = "\ufeff<meta charset=zlib><p>x</p>".encode("utf-16-le")
    text, used = decode_html(body)
    assert text == "<meta charset=zlib><p>x</p>" and used.startswith("utf-16")


def test_a_given_encoding_that_cannot_decode_falls_back_to_the_page():
    body = '<meta charset="utf-8"><p>caf\u00e9</p>'.encode()
    assert decode_html(body, encoding="hex") == (body.decode(), "utf-8")


@pytest.mark.parametrize(
    "encoding, text",
    [
        ("gbk", "这是一篇关于中国经济发展的新闻报道，记者在北京采访了多位专家学者。"),
        ("big5", "這是一篇關於台灣經濟發展的新聞報導，記者在台北採訪了多位專家學者。"),
        ("shift_jis", "これは日本語のニュース記事です。東京で多くの専門家に取材しました。"),
        ("euc-jp", "これは日本語のニュース記事です。東京で多くの専門家に取材しました。"),
        ("euc-kr", "이것은 한국어 뉴스 기사입니다. 서울에서 많은 전문가를 인터뷰했습니다."),
        ("cp1251", "Это новостная статья на русском языке о развитии экономики страны."),
        ("cp1253", "Αυτό είναι ένα ειδησεογραφικό άρθρο για την οικονομία της χώρας."),
        ("cp1252", "Le pont sur la rivière a été réparé après l'inondation du centre-ville."),
        ("latin-1", "Die Brücke über den Fluss wurde nach dem Hochwasser repariert."),
    ],
)
def test_undeclared_legacy_encodings_are_detected(encoding, text):
    body = f"<html><body><p>{text}</p></body></html>".encode(encoding)
    decoded, _ = decode_html(body)
    assert text in decoded


def test_a_declared_encoding_still_wins_over_detection():
    body = '<meta charset="cp1251"><p>Это новостная статья.</p>'.encode("cp1251")
    assert decode_html(body)[1] == "cp1251"
    # and a declared utf-8 is taken even if the bytes are not (garbled, not guessed)
    wrong = '<meta charset="utf-8"><p>Это новостная статья.</p>'.encode("cp1251")
    assert decode_html(wrong)[1] == "utf-8"


def test_a_stored_page_is_read_up_to_the_limit_gzipped_or_not(tmp_path):
    # a gzip bomb (a megabyte unpacking to gigabytes) is unpacked as far as the limit only
    import gzip

    page = b"<html><body>" + b"<p>word</p>" * 100_000
    (tmp_path / "page.html").write_bytes(page)
    (tmp_path / "page.html.gz").write_bytes(gzip.compress(page))
    for name in ("page.html", "page.html.gz"):
        assert read_page_bytes(tmp_path / name) == page
        assert read_page_bytes(tmp_path / name, limit=1000) == page[:1000]


STORY = "<title>Storm</title><p>A powerful storm hit the northern coast on Tuesday night.</p>"


@pytest.mark.parametrize("declared", ["utf-16", "UTF-16LE", "utf-32"])
def test_a_wide_encoding_named_for_ascii_bytes_is_not_believed(declared):
    # real pages say <meta charset="utf-16"> in ASCII bytes; browsers read them as UTF-8
    # (the HTML standard's rule), and decoded as declared they were CJK-looking noise
    body = f'<meta charset="{declared}">{STORY}'.encode()
    assert decode_html(body) == (body.decode(), "utf-8")
    header = f"text/html; charset={declared}"
    assert decode_html(STORY.encode(), content_type=header) == (STORY, "utf-8")


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be", "utf-32-le"])
def test_wide_text_without_a_byte_order_mark_is_read_as_its_header_says(codec):
    from scrapy_boilerplate import extract

    body = STORY.encode(codec)
    header = f"text/html; charset={codec.replace('-le', 'le').replace('-be', 'be')}"
    assert decode_html(body, content_type=header)[0] == STORY
    # its NULs are the text's, not a sign of binary data ...
    assert "storm hit the northern coast" in extract(body, content_type=header).text
    assert "storm hit the northern coast" in extract(body, encoding=codec).text
    # ... as they are where nothing names the encoding (browsers do not guess it either)
    assert extract(body).reason == "binary"


def test_random_bytes_named_utf_16_are_still_binary():
    import random

    noise = random.Random(7).randbytes(5000)
    assert looks_binary(noise, "utf-16")
    assert looks_binary(noise)
