"""Reading WARC files: each response record is a page or a counted skip, and damage in
the file is skipped to the next record, never a crash."""

from __future__ import annotations

import gzip
import random
from collections import Counter

import pytest

from scrapy_boilerplate.archives import ArchivedPage, Skipped, iter_archive
from scrapy_boilerplate.archives.records import (
    BODY_LIMIT,
    BROKEN_GZIP,
    INVALID_RECORD,
    NON_HTML,
    TRUNCATED,
    UNREADABLE,
)
from scrapy_boilerplate.archives.writing import StoredResponse, write_warc

from .helpers import IMAGE, gzip_members, news, plain_records


def read(path):
    items = list(iter_archive(path))
    pages = [i for i in items if isinstance(i, ArchivedPage)]
    skips = Counter(i.reason for i in items if isinstance(i, Skipped))
    return pages, skips


@pytest.mark.parametrize("compress", [True, False], ids=["warc.gz", "warc"])
def test_each_html_response_record_is_a_page_with_its_record_fields(tmp_path, compress):
    path = tmp_path / ("a.warc.gz" if compress else "a.warc")
    write_warc(path, [news(0), news(1, date="2025-03-04T05:06:07Z")], compress=compress)
    pages, skips = read(path)
    assert [p.url for p in pages] == ["http://news.example/0", "http://news.example/1"]
    assert pages[1].date == "2025-03-04T05:06:07Z"
    assert pages[0].record_id.startswith("<urn:uuid:")
    assert pages[0].status == 200
    assert pages[0].content_type == "text/html; charset=utf-8"
    assert pages[0].body == news(0).body  # the HTTP payload, headers stripped
    assert pages[0].source == str(path)
    assert not skips


def test_non_html_responses_are_skipped_and_counted(tmp_path):
    path = tmp_path / "a.warc.gz"
    write_warc(path, [news(0), IMAGE, news(1)])
    pages, skips = read(path)
    assert len(pages) == 2
    assert skips == {NON_HTML: 1}


def test_a_response_without_content_type_is_tried(tmp_path):
    path = tmp_path / "a.warc.gz"
    write_warc(path, [news(0, content_type=None)])
    pages, _ = read(path)
    assert len(pages) == 1 and pages[0].content_type is None


def test_chunked_and_gzip_encoded_payloads_are_decoded(tmp_path):
    html = news(0).body
    packed = gzip.compress(html)
    chunked = b"%x\r\n%s\r\n0\r\n\r\n" % (len(packed), packed)
    response = news(
        0,
        body=chunked,
        headers=(("Transfer-Encoding", "chunked"), ("Content-Encoding", "gzip")),
    )
    path = tmp_path / "a.warc.gz"
    write_warc(path, [response])
    pages, _ = read(path)
    assert pages[0].body == html


def test_a_payload_is_unpacked_up_to_the_page_limit_only(tmp_path, monkeypatch):
    # a gzip-encoded payload may unpack to gigabytes: the page is its first bytes, said so
    from scrapy_boilerplate.archives import warc

    monkeypatch.setattr(warc, "MAX_PAGE_BYTES", 10_000)
    html = news(0).body + b"<p>more words</p>" * 10_000
    response = news(0, body=gzip.compress(html), headers=(("Content-Encoding", "gzip"),))
    path = tmp_path / "a.warc.gz"
    write_warc(path, [response])
    pages, _ = read(path)
    assert pages[0].body == html[:10_000]
    assert pages[0].warnings == (BODY_LIMIT,)


@pytest.mark.parametrize("compress", [True, False], ids=["warc.gz", "warc"])
def test_records_over_the_limit_are_read_no_further_than_needed(tmp_path, monkeypatch, compress):
    # a video's record is skipped after its headers; a huge page gives its first bytes
    from scrapy_boilerplate.archives import warc

    monkeypatch.setattr(warc, "MAX_PAGE_BYTES", 10_000)
    huge = news(1).body + b"<p>more words</p>" * 10_000
    video = StoredResponse("http://news.example/clip.mp4", bytes(200_000), "video/mp4")
    path = tmp_path / "a.warc.gz"
    write_warc(path, [video, news(1, body=huge), news(0)], compress=compress)
    pages, skips = read(path)
    assert skips == {NON_HTML: 1}
    assert [p.body for p in pages] == [huge[:10_000], news(0).body]
    assert pages[0].warnings == (BODY_LIMIT,) and pages[1].warnings == ()


def test_a_record_cut_short_by_the_end_of_the_file_is_counted_truncated(tmp_path):
    records = plain_records([news(0), news(1), news(2)])
    data = b"".join(records)
    path = tmp_path / "cut.warc"
    path.write_bytes(data[: len(data) - 100])
    pages, skips = read(path)
    assert [p.url for p in pages] == ["http://news.example/0", "http://news.example/1"]
    assert skips == {TRUNCATED: 1}


def test_a_cut_gzip_file_loses_only_its_last_record(tmp_path):
    data = b"".join(gzip_members([news(0), news(1), news(2)]))
    path = tmp_path / "cut.warc.gz"
    path.write_bytes(data[: len(data) - 60])
    pages, skips = read(path)
    assert [p.url for p in pages] == ["http://news.example/0", "http://news.example/1"]
    assert sum(skips.values()) == 1 and set(skips) <= {TRUNCATED, BROKEN_GZIP}


def test_a_broken_gzip_member_is_skipped_and_reading_goes_on(tmp_path):
    members = gzip_members([news(0), news(1), news(2), news(3)])
    broken = bytearray(members[1])
    broken[30:60] = b"\x00" * 30  # the deflate stream no longer decodes
    path = tmp_path / "broken.warc.gz"
    path.write_bytes(members[0] + bytes(broken) + members[2] + members[3])
    pages, skips = read(path)
    assert [p.url for p in pages] == [f"http://news.example/{i}" for i in (0, 2, 3)]
    assert skips == {BROKEN_GZIP: 1}


def test_garbage_between_uncompressed_records_is_skipped(tmp_path):
    records = plain_records([news(0), news(1), news(2)])
    path = tmp_path / "garbage.warc"
    path.write_bytes(records[0] + b"this is not a record\r\n\r\n" * 5 + records[1] + records[2])
    pages, skips = read(path)
    assert [p.url for p in pages] == [f"http://news.example/{i}" for i in (0, 1, 2)]
    assert skips == {INVALID_RECORD: 1}


def test_a_file_that_is_not_a_warc_gives_one_counted_skip(tmp_path):
    path = tmp_path / "page.warc"
    path.write_bytes(news(0).body)
    assert read(path) == ([], {INVALID_RECORD: 1})


def test_an_empty_file_gives_nothing(tmp_path):
    path = tmp_path / "empty.warc.gz"
    path.write_bytes(b"")
    assert read(path) == ([], {})


def test_a_missing_file_is_counted_unreadable(tmp_path):
    assert read(tmp_path / "missing.warc.gz") == ([], {UNREADABLE: 1})


def test_a_truncated_capture_is_extracted_with_a_warning(tmp_path):
    # crawlers cut long payloads on purpose (Common Crawl at 1 MiB) and say so
    import fastwarc.warc as warc

    from scrapy_boilerplate.archives.writing import http_response

    record = warc.WarcRecord()
    record.init_headers(record_type=warc.WarcRecordType.response)
    record.headers["WARC-Target-URI"] = "http://news.example/long"
    record.headers["Content-Type"] = "application/http; msgtype=response"
    record.headers["WARC-Truncated"] = "length"
    record.set_bytes_content(http_response(news(0)))
    path = tmp_path / "a.warc"
    with open(path, "wb") as out:
        record.write(out)
    pages, _ = read(path)
    assert pages[0].warnings == ("warc_truncated",)


def test_a_non_html_response_under_an_html_name_still_skips(tmp_path):
    path = tmp_path / "a.warc.gz"
    write_warc(path, [StoredResponse("http://x/a.html", b"%PDF-1.4", "application/pdf")])
    assert read(path) == ([], {NON_HTML: 1})


@pytest.mark.parametrize("coding", ["gzip", "deflate (zlib)", "deflate (raw)", "br", "identity"])
def test_content_codings_are_undone_up_to_the_limit(coding):
    import zlib

    import brotli

    from scrapy_boilerplate.archives.warc import unpacked

    html = b"<html><body>" + b"<p>words</p>" * 1000
    raw = zlib.compressobj(6, zlib.DEFLATED, -15)
    packed = {
        "gzip": gzip.compress(html[:5000]) + gzip.compress(html[5000:]),  # two members
        "deflate (zlib)": zlib.compress(html),
        "deflate (raw)": raw.compress(html) + raw.flush(),
        "br": brotli.compress(html),
        "identity": html,
    }[coding]
    name = coding.split()[0]
    assert unpacked(packed, name, len(html) + 1) == html
    assert unpacked(packed, name, 100) == html[:100]


@pytest.mark.parametrize("coding", ["gzip", "br"])
def test_a_payload_that_does_not_unpack_is_skipped_and_reading_goes_on(tmp_path, coding):
    broken = news(
        1, body=b"\x1f\x8b\x08 this is not what it says", headers=(("Content-Encoding", coding),)
    )
    path = tmp_path / "a.warc.gz"
    write_warc(path, [broken, news(0)])
    pages, skips = read(path)
    assert skips == {"invalid_http": 1}
    assert [p.body for p in pages] == [news(0).body]


@pytest.mark.parametrize("compress", [True, False], ids=["warc.gz", "warc"])
def test_randomly_damaged_files_give_pages_and_counted_skips_only(tmp_path, compress):
    # bit flips, cuts, insertions of bad lengths and headers (a fixed seed: the same
    # damage on every run; 33,000 such files were read once without a failure)
    responses = [news(i) for i in range(4)]
    whole = b"".join(gzip_members(responses) if compress else plain_records(responses))
    insertions = [b"\r\n", b"Content-Length: 99999999\r\n", b"Content-Length: -5\r\n",
                  b"WARC/1.0\r\n", b"\x1f\x8b\x08", b"Transfer-Encoding: chunked\r\n"]  # fmt: skip
    rng = random.Random(0)
    path = tmp_path / ("damaged.warc.gz" if compress else "damaged.warc")
    for _ in range(300):
        data = bytearray(whole)
        for _ in range(rng.randint(1, 6)):
            at = rng.randrange(len(data))
            damage = rng.random()
            if damage < 0.4:
                data[at] = rng.randrange(256)
            elif damage < 0.7:
                del data[at : at + rng.randint(1, 200)]
            elif damage < 0.9:
                data[at:at] = rng.choice(insertions)
            else:
                del data[max(at, 1) :]
        path.write_bytes(bytes(data))
        items = list(iter_archive(path))
        assert all(isinstance(item, (ArchivedPage, Skipped)) for item in items)
        assert len([i for i in items if isinstance(i, ArchivedPage)]) <= len(responses)
