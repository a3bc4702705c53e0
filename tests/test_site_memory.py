"""A crawl's memory of each site's template (``SiteMemory``): content blocks that the
site's earlier pages left out are left out again; nothing else changes."""

import pickle
from concurrent.futures import ThreadPoolExecutor

import pytest

from scrapy_boilerplate import get_extractor
from scrapy_boilerplate.extraction import Extractor
from scrapy_boilerplate.filters.base import Chain, FunctionFilter
from scrapy_boilerplate.parse import parse_html
from scrapy_boilerplate.site_memory import SiteMemory, block_key, site_of_url

SIDEBAR = "About this blog: notes on harbours, markets and the people who keep them open."


def page(story: str, sidebar: str = SIDEBAR, deeper: int = 0) -> str:
    """A page of the site: a story, and the sidebar (``deeper`` levels deeper)."""
    return (
        f"<html><body><div><h1>{story}</h1><p>The {story} story, told in one paragraph "
        f"that has enough words to read as the text of an article.</p></div>"
        f"<aside>{'<div>' * deeper}<p>{sidebar}</p>{'</div>' * deeper}</aside></body></html>"
    )


def read(html: str, url: str | None, sidebar_kept: bool):
    """The page's blocks as an extractor that keeps every block (but the sidebar, unless
    ``sidebar_kept``) leaves them."""
    doc = parse_html(html, url)
    for block in doc.blocks:
        block.is_content = sidebar_kept or SIDEBAR not in block.text
    return doc


def content(doc) -> list[str]:
    return [b.text for b in doc.blocks if b.is_content]


def test_a_block_the_sites_earlier_page_left_out_is_left_out_again():
    memory = SiteMemory()
    first = read(page("harbour"), "https://www.example.com/a", sidebar_kept=False)
    assert memory.apply(first) is False  # nothing learnt yet: the page as it was
    second = read(page("market"), "https://example.com/b", sidebar_kept=True)
    assert SIDEBAR in content(second)
    assert memory.apply(second) is True  # the same site, www. or not
    assert SIDEBAR not in content(second)
    assert any("market story" in text for text in content(second))


def test_other_sites_other_depths_and_pages_without_an_address_are_left_alone():
    memory = SiteMemory()
    memory.apply(read(page("harbour"), "https://example.com/a", sidebar_kept=False))
    for html, url in (
        (page("market"), "https://example.org/b"),  # another site
        (page("market", deeper=2), "https://example.com/b"),  # elsewhere in the tree
        (page("market"), None),  # no site
    ):
        doc = read(html, url, sidebar_kept=True)
        assert memory.apply(doc) is False and SIDEBAR in content(doc)


def test_a_block_the_site_kept_more_often_than_it_left_out_stays():
    memory = SiteMemory()
    for n, kept in enumerate((True, True, False)):
        memory.apply(read(page(f"story {n}"), f"https://example.com/{n}", sidebar_kept=kept))
    doc = read(page("market"), "https://example.com/next", sidebar_kept=True)
    assert memory.apply(doc) is False and SIDEBAR in content(doc)


def test_a_page_is_never_left_without_content():
    memory = SiteMemory()
    memory.apply(read(page("harbour"), "https://example.com/a", sidebar_kept=False))
    doc = parse_html(page("market"), "https://example.com/b")
    for block in doc.blocks:  # only the sidebar kept on this page
        block.is_content = SIDEBAR in block.text
    assert memory.apply(doc) is False and content(doc) == [SIDEBAR]


def test_the_memory_is_bounded_in_sites_and_in_blocks_per_site():
    memory = SiteMemory(max_sites=2, max_blocks=40)
    for host in ("a.com", "b.com", "c.com"):
        memory.apply(read(page("x"), f"https://{host}/", sidebar_kept=False))
    assert len(memory) == 2  # a.com, the least recently seen, forgotten
    doc = read(page("y"), "https://a.com/2", sidebar_kept=True)
    assert memory.apply(doc) is False and SIDEBAR in content(doc)
    # a site of many pages: the story blocks, each seen once, go; the template stays
    for n in range(60):
        memory.apply(read(page(f"story {n}"), f"https://b.com/{n}", sidebar_kept=False))
        assert len(memory._sites[("", "b.com")]) <= 40
    doc = read(page("last"), "https://b.com/last", sidebar_kept=True)
    assert memory.apply(doc) is True and SIDEBAR not in content(doc)


def test_the_extractors_decisions_are_kept_apart():
    memory = SiteMemory()
    memory.apply(read(page("harbour"), "https://example.com/a", sidebar_kept=False), "article")
    doc = read(page("market"), "https://example.com/b", sidebar_kept=True)
    assert memory.apply(doc, "boosted") is False


def _keep_all_but_a_dropped_sidebar(doc):
    # the sidebar is left out on pages that say so in a <meta>, kept on the others
    drop = doc.root is not None and bool(doc.root.xpath("//meta[@name='drop-sidebar']"))
    for block in doc.blocks:
        block.is_content = not (drop and SIDEBAR in block.text)
    return True


def test_extract_with_a_site_memory_leaves_out_the_template_and_traces_it():
    extractor = Extractor(Chain([FunctionFilter(_keep_all_but_a_dropped_sidebar)]), "keeps")
    memory = SiteMemory()
    marked = page("harbour").replace("<body>", "<head><meta name='drop-sidebar'></head><body>")
    assert (
        SIDEBAR not in extractor.extract(marked, "https://example.com/a", site_memory=memory).text
    )
    plain = page("market")
    assert SIDEBAR in extractor.extract(plain, "https://example.com/b").text  # no memory
    result = extractor.extract(plain, "https://example.com/b", site_memory=memory, trace=True)
    assert SIDEBAR not in result.text and "market story" in result.text
    assert {b.decided_by for b in result.blocks if SIDEBAR in b.text} == {"site_memory"}


def test_the_default_reads_bad_input_with_a_memory_as_without():
    memory = SiteMemory()
    extractor = get_extractor()
    for html in ("", b"\x00\x01\x02" * 100, "<html><p>", "<" * 1000, "<div>" * 5000):
        with_memory = extractor.extract(html, "https://example.com/x", site_memory=memory)
        assert (with_memory.text, with_memory.reason) == (
            (plain := extractor.extract(html, "https://example.com/x")).text,
            plain.reason,
        )


def _keep_every_block(doc):
    for block in doc.blocks:
        block.is_content = True
    return True


def test_two_custom_chains_learn_apart_and_the_same_chain_built_twice_learns_together():
    marked = page("harbour").replace("<body>", "<head><meta name='drop-sidebar'></head><body>")
    dropping = get_extractor([FunctionFilter(_keep_all_but_a_dropped_sidebar)])
    keeping = get_extractor([FunctionFilter(_keep_every_block)])
    assert dropping.name == keeping.name == "custom"  # one name: their keys tell them apart
    assert dropping.memory_key != keeping.memory_key
    memory = SiteMemory()
    dropping.extract(marked, "https://example.com/a", site_memory=memory)
    # the chain that keeps the sidebar is not taught by the one that left it out
    kept = keeping.extract(page("market"), "https://example.com/b", site_memory=memory)
    assert SIDEBAR in kept.text
    # the same spec, built again (a worker process unpickles its own copy), shares
    again = get_extractor([FunctionFilter(_keep_all_but_a_dropped_sidebar)])
    assert again is not dropping and again.memory_key == dropping.memory_key
    assert pickle.loads(pickle.dumps(dropping)).memory_key == dropping.memory_key
    learnt = again.extract(page("market"), "https://example.com/b", site_memory=memory)
    assert SIDEBAR not in learnt.text and "market story" in learnt.text


def test_two_lambdas_or_local_functions_are_two_chains_to_the_memory():
    def make_local():
        def keep(doc):  # the same qualname each time: "...<locals>.keep"
            return _keep_every_block(doc)

        return keep

    first, second = get_extractor([lambda doc: False]), get_extractor([lambda doc: True])
    assert first.memory_key != second.memory_key
    assert get_extractor([make_local()]).memory_key != get_extractor([make_local()]).memory_key
    # a module-level function is found by its module and name: the same key everywhere
    key = get_extractor([FunctionFilter(_keep_every_block)]).memory_key
    assert "test_site_memory._keep_every_block'" in key and " at 0x" not in key


def test_one_memory_serves_many_threads_and_loses_no_count():
    memory = SiteMemory()

    def one(n: int) -> None:
        memory.apply(read(page(f"story {n}"), f"https://example.com/{n}", sidebar_kept=False))

    with ThreadPoolExecutor(4) as pool:
        list(pool.map(one, range(40)))
    doc = read(page("market"), "https://example.com/b", sidebar_kept=True)
    sidebar = next(b for b in doc.blocks if SIDEBAR in b.text)
    assert memory._sites[("", "example.com")].dropped[block_key(sidebar)] == 40
    assert memory.apply(doc) is True and SIDEBAR not in content(doc)


def test_a_memory_pickles_empty_and_what_it_learnt_stays_in_its_process():
    memory = SiteMemory(max_sites=7, max_blocks=99)
    memory.apply(read(page("harbour"), "https://example.com/a", sidebar_kept=False))
    clone = pickle.loads(pickle.dumps(memory))
    assert (clone.max_sites, clone.max_blocks, len(clone)) == (7, 99, 0)


def test_bad_bounds_are_refused():
    with pytest.raises(ValueError):
        SiteMemory(max_sites=0)


@pytest.mark.parametrize(
    "url, site",
    [
        ("https://www.example.com/a/b?c", "example.com"),
        ("http://news.example.com:8080/", "news.example.com"),
        ("https://web.archive.org/web/2012/http://www.blog.example/post", "blog.example"),
        ("", None),
        (None, None),
        ("not a url", None),
        ("http://[::1", None),
    ],
)
def test_a_pages_site_is_its_host_without_www(url, site):
    assert site_of_url(url) == site


def test_only_the_sites_earlier_pages_count_not_the_page_itself():
    memory = SiteMemory()
    html = page("harbour").replace("</aside>", f"<p>{SIDEBAR}</p></aside>")
    doc = parse_html(html, "https://example.com/a")
    twice = [b for b in doc.blocks if SIDEBAR in b.text]
    assert len(twice) == 2 and twice[0].tag_level == twice[1].tag_level
    for block in doc.blocks:
        block.is_content = block is not twice[0]  # the first left out, the second kept
    assert memory.apply(doc) is False and twice[1].is_content


def test_a_pass_is_linear_in_the_pages_blocks_however_many_the_site_remembers():
    from .helpers import LINEAR_GROWTH_LIMIT, growth

    def site_of_pages(n: int):
        # n distinct blocks on each page: the memory fills and forgets as it goes
        html = "<html><body>" + "".join(f"<p>block {i} of many</p>" for i in range(n))
        docs = [
            read(html.replace("many", f"page {k}"), f"https://e.com/{k}", True) for k in range(3)
        ]
        return docs

    def read_all(docs):
        memory = SiteMemory(max_blocks=4096)
        for doc in docs:
            memory.apply(doc)

    assert growth(read_all, site_of_pages, 2_000) < LINEAR_GROWTH_LIMIT


_FORGETTING = """
from scrapy_boilerplate.parse import parse_html
from scrapy_boilerplate.site_memory import SiteMemory, block_key

memory, docs = SiteMemory(max_blocks=10), []
for n in range(4):  # pages of blocks seen once: the memory forgets most of them
    html = "".join(f"<p>line {i} of page {n}, words enough</p>" for i in range(8))
    doc = parse_html(f"<html><body>{html}</body></html>", f"https://e.com/{n}")
    for i, block in enumerate(doc.blocks):
        block.is_content = i % 2 == 0
    memory.apply(doc)
    docs.append(doc)
site = memory._sites[("", "e.com")]
print([b.text for d in docs for b in d.blocks if block_key(b) in {**site.kept, **site.dropped}])
"""


def test_what_the_memory_forgets_is_the_same_in_every_run():
    # str hashes differ from process to process (PYTHONHASHSEED): the order in which a
    # page's blocks are counted, and so which are oldest when the memory forgets, must
    # not follow them, or a crawl's items would change from run to run
    from .helpers import run_python

    def remembered(seed: int) -> str:
        run = run_python(_FORGETTING, env={"PYTHONHASHSEED": str(seed)})
        assert run.returncode == 0, run.stderr
        return run.stdout

    first = remembered(0)
    assert "page 3" in first and "page 0" not in first  # the oldest pages forgotten
    assert all(remembered(seed) == first for seed in (1, 2, 3))
