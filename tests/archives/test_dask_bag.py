"""The Dask helper, run on a real local cluster of two worker processes."""

from __future__ import annotations

from collections import Counter

import pytest
from dask.distributed import Client, LocalCluster

from scrapy_boilerplate.archives.dask_bag import extract_warcs
from scrapy_boilerplate.archives.writing import write_warc

from .helpers import IMAGE, news


@pytest.fixture(scope="module")
def client():
    with (
        LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0"
        ) as cluster,
        Client(cluster) as client,
    ):
        yield client


def test_a_bag_over_warc_files_gives_every_page_once(tmp_path, client):
    paths = []
    for n in range(3):
        path = tmp_path / f"part-{n}.warc.gz"
        write_warc(path, [news(2 * n), IMAGE, news(2 * n + 1)])
        paths.append(path)
    bag = extract_warcs(paths, include_skips=True)
    assert bag.npartitions == 3
    rows = bag.compute()
    pages = [r for r in rows if "skipped" not in r]
    assert [r["url"] for r in pages] == [f"http://news.example/{i}" for i in range(6)]
    assert all("began early on Tuesday" in r["text"] for r in pages)
    assert Counter(r["skipped"] for r in rows if "skipped" in r) == {"non_html": 3}


def test_without_skips_the_bag_holds_results_only(tmp_path, client):
    path = tmp_path / "a.warc.gz"
    write_warc(path, [IMAGE, news(0)])
    assert [r["url"] for r in extract_warcs([path]).compute()] == ["http://news.example/0"]
