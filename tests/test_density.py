"""The density family (CETD, CETD-TPC, CEPR, CETR, BTE): formulas on tiny trees with values
worked out by hand, selections on small pages, CJK text, degenerate pages, composition with
boilerpipe filters, registration and pickling."""

from __future__ import annotations

import math
import pickle

import numpy as np
import pytest
from lxml import etree

from scrapy_boilerplate import (
    EXTRACTORS,
    FILTERS,
    Document,
    TextBlock,
    build_chain,
    extract,
    get_extractor,
)
from scrapy_boilerplate.errors import ChainSpecError
from scrapy_boilerplate.filters import MarkEverythingContentFilter
from scrapy_boilerplate.filters.density import (
    BTEFilter,
    CEPRFilter,
    CETDFilter,
    CETDTPCFilter,
    CETRFilter,
    bte_range,
    cepr_scores,
    cetd_scores,
    cetd_select,
    cetd_tpc_select,
    cetr_features,
    cetr_lines,
    count_words,
    dom_stats,
    gaussian_smooth,
    kmeans_pinned,
    path_distance,
    start_element,
    tag_path_ratios,
    text_block_density,
)
from scrapy_boilerplate.parse import parse_html

METHODS = ["cetd", "cetd_tpc", "cepr", "cetr", "bte"]
CLASSES = [CETDFilter, CETDTPCFilter, CEPRFilter, CETRFilter, BTEFilter]


# -- pages ------------------------------------------------------------------------------------
PARAS = [
    "The city council voted on Tuesday to expand the network of protected bicycle lanes, a "
    "decision that followed months of public hearings and a study of traffic injuries.",
    "Supporters said the plan would make streets safer for children who ride to school, while "
    "several shop owners worried that losing parking spaces would hurt their business.",
    "The first lanes will be built next spring along the river, where the number of cyclists "
    "has doubled since the bridge reopened, according to figures from the transport office.",
    "Officials expect the work to take three years and to cost less than the repair of a "
    "single highway interchange, which the mayor described as a bargain for the city.",
]


def page(
    paras: list[str],
    nav: list[str],
    title: str,
    extra: str = "",
    chrome: tuple[str, ...] = ("Home", "Log in", "About us", "Privacy", "Terms of use"),
) -> str:
    """A page laid out as sites write them: a header, a long link list, the article (one
    paragraph per line), a footer of links (``chrome``: the header's and footer's links)."""
    home, login, about, privacy, terms = chrome
    links = "\n".join(f'      <li><a href="/s/{i}">{text}</a></li>' for i, text in enumerate(nav))
    body = "\n".join(f"      <p>{p}</p>" for p in paras)
    return f"""<!DOCTYPE html>
<html>
<head><title>{title}</title></head>
<body>
  <div id="header"><a href="/">{home}</a> | <a href="/login">{login}</a></div>
  <div id="nav">
    <ul>
{links}
    </ul>
  </div>
  <div id="article">
    <h1>{title}</h1>
{body}
{extra}
  </div>
  <div id="footer">
    <a href="/about">{about}</a> <a href="/privacy">{privacy}</a> <a href="/terms">{terms}</a>
  </div>
</body>
</html>"""


NAV = [f"Section number {i}" for i in range(12)]
ARTICLE_PAGE = page(PARAS, NAV, "Council expands bicycle lanes")

ZH_PARAS = [
    "市议会星期二投票决定扩建受保护的自行车道网络，这一决定是在数月的公开听证会和一项交通伤害研究之后作出的。",
    "支持者表示，该计划将使骑车上学的孩子们的街道更加安全，而一些店主担心失去停车位会损害他们的生意。",
    "第一批车道将于明年春天沿河修建，据交通办公室的数据，自从大桥重新开放以来，那里的骑车人数增加了一倍。",
    "官员们预计这项工程需要三年时间，费用还不到修复一座高速公路立交桥的费用，市长称这对城市来说很划算。",
]
ZH_NAV = ["首页", "新闻中心", "国际新闻", "国内新闻", "财经频道", "体育频道", "娱乐频道", "科技频道",
          "汽车频道", "房产频道", "教育频道", "旅游频道"]  # fmt: skip
ZH_PAGE = page(
    ZH_PARAS,
    ZH_NAV,
    "市议会扩建自行车道",
    chrome=("首页", "登录", "关于我们", "隐私政策", "使用条款"),
)


# -- every method picks the article ----------------------------------------------------------
@pytest.mark.parametrize("name", METHODS)
def test_every_method_picks_the_article_over_the_navigation(name):
    text = extract(ARTICLE_PAGE, extractor=name).text
    for para in PARAS:
        assert para in text
    assert "Section number" not in text
    assert "Privacy" not in text
    assert "Log in" not in text


@pytest.mark.parametrize("name", METHODS)
def test_every_method_picks_the_chinese_article(name):
    # characters, not words: a Chinese paragraph is one "word" for a whitespace tokenizer
    text = extract(ZH_PAGE, extractor=name).text
    for para in ZH_PARAS:
        assert para in text
    assert "财经频道" not in text
    if name in ("cetd", "cetd_tpc"):
        # the subtree methods stop at the article; the run methods may take the footer
        # next to it (BTE counts each character of "关于我们 隐私政策 使用条款" as a word)
        assert "隐私政策" not in text


def test_lengths_are_characters_not_words():
    root = etree.fromstring("<html><body><p>市议会星期二投票</p><p>two  words</p></body></html>")
    stats = dom_stats(root)
    # non-whitespace characters: 8 Han characters; "two" + "words" = 8
    assert stats.own.tolist() == [0, 8, 8]
    assert count_words("市议会 votes 星期二") == 7  # 3 + 1 + 3: each CJK character a word


@pytest.mark.parametrize("name", METHODS)
def test_hidden_text_is_not_content(name):
    hidden = "\n".join(
        f'<div style="DISPLAY: None">{p} {p}</div><div hidden>{p} {p}</div>' for p in PARAS
    )
    html = ARTICLE_PAGE.replace(
        '<div id="footer">', f'<div id="junk">{hidden}</div><div id="footer">'
    )
    blocks = extract(html, extractor=name).blocks
    hidden_blocks = [b for b in blocks if b.text.count(PARAS[0]) == 2]
    assert hidden_blocks and not any(b.is_content for b in hidden_blocks)


# -- the walk and its statistics, on a tiny tree ---------------------------------------------
TINY = (
    '<html><body><div id="d"><p id="p1">Hello world</p><p id="p2">ab <a id="a1">link</a> cd</p>'
    '</div><ul id="u"><li id="l1"><a id="a2">Home</a></li></ul></body></html>'
)
# pre-order: body 0, div 1, p1 2, p2 3, a1 4, ul 5, li 6, a2 7
# characters: p1 "Hello world" 10; p2 "ab " 2 + " cd" 2; a1 "link" 4; a2 "Home" 4


@pytest.fixture
def tiny():
    return dom_stats(etree.fromstring(TINY, etree.HTMLParser()))


def test_dom_stats_on_a_tiny_tree(tiny):
    assert tiny.tags == ["body", "div", "p", "p", "a", "ul", "li", "a"]
    assert tiny.parent.tolist() == [-1, 0, 1, 1, 3, 0, 5, 6]
    assert tiny.end.tolist() == [8, 5, 3, 5, 5, 8, 8, 8]
    # C: subtree characters. p2 = 2 + 4 + 2, div = 10 + 8, ul = li = a2 = 4, body = 22
    assert tiny.C.tolist() == [22, 18, 10, 8, 4, 4, 4, 4]
    # T = sum over the children of (T + 1): p2 = 1, div = 1 + 2, li = 1, ul = 2, body = 4 + 3
    assert tiny.T.tolist() == [7, 3, 0, 1, 0, 2, 1, 0]
    # LC: a link has all of its C; others sum their children's
    assert tiny.LC.tolist() == [8, 4, 0, 4, 4, 4, 4, 4]
    # LT: p2 = 0 + 1 (a1 is a link); div = 0 + 1 (no child is all links: p1 has LT = 0,
    # p2 has LC 4 != C 8); li = 1; ul = 1 + 1 (li: LT = T = 1, LC = C = 4);
    # body = 1 + 2 + 1 (ul: LT = T = 2, LC = C = 4)
    assert tiny.LT.tolist() == [4, 1, 0, 1, 0, 2, 1, 0]
    assert tiny.in_link.tolist() == [False] * 4 + [True, False, False, True]
    # text runs in document order: owner and characters
    assert tiny.run_owner.tolist() == [2, 3, 4, 3, 7]
    assert tiny.run_len.tolist() == [10, 2, 4, 2, 4]


def test_cetd_composite_text_density_by_hand(tiny):
    ctd, density_sum, ratio = cetd_scores(tiny)
    assert ratio == pytest.approx(8 / 22)  # LC / C of <body>
    # p1: C = 10, and T, LC, LT (all 0) count as 1; nLC = 10:
    # CTD = (10/1) ln(10*1 / (1*1)) / ln ln(10*1/10 + ratio*10 + e)
    p1 = 10 * math.log(10) / math.log(math.log(1 + ratio * 10 + math.e))
    assert ctd[2] == pytest.approx(p1)  # 23.0259 / ln ln 7.3546 = 33.33
    assert ctd[2] == pytest.approx(33.332, abs=1e-3)
    # p2: C = 8, T = 1, LC = 4, LT = 1, nLC = 4:
    # CTD = (8/1) ln(8*1 / (4*1)) / ln ln(8*4/4 + ratio*8 + e)
    p2 = 8 * math.log(2) / math.log(math.log(8 + ratio * 8 + math.e))
    assert ctd[3] == pytest.approx(p2)
    # a1 (a link without children): C = LC = 4, T and LT count as 1, nLC = 0 -> 1:
    # CTD = (4/1) ln(4*1 / (4*1)) / ... = 0: text made only of links has no density
    assert ctd[4] == 0.0
    # div: C = 18, T = 3, LC = 4, LT = 1, nLC = 14:
    # CTD = (18/3) ln(18*3 / (4*1)) / ln ln(18*4/14 + ratio*18 + e)
    div = 6 * math.log(54 / 4) / math.log(math.log(72 / 14 + ratio * 18 + math.e))
    assert ctd[1] == pytest.approx(div)
    # DensitySum: a leaf has its CTD; div sums its children's CTD; p2 sums a1's CTD and
    # its own runs "ab" and "cd" as link-free nodes: L ln L / ln ln(1 + ratio L + e)
    run = 2 * math.log(2) / math.log(math.log(1 + ratio * 2 + math.e))
    assert density_sum[2] == pytest.approx(p1)
    assert density_sum[1] == pytest.approx(p1 + p2)
    assert density_sum[3] == pytest.approx(0.0 + 2 * run)


def test_cetd_keeps_the_dense_subtree(tiny):
    kept = cetd_select(tiny, keep_path_text=False)
    # max DensitySum: body (= CTD(div) + CTD(ul)) or div; either way the div subtree is
    # content and the link list is not
    assert kept[1:5].all()
    assert not kept[5:].any()


def test_tbd_tpr_ctpc_tdtpc_by_hand(tiny):
    tbd = text_block_density(tiny)  # own_tag: TN and LTN count the child's own tag
    # div: p1 (11) / (1 - 0 + 1) = 5.5; p2 (8 - 4 + 1) / (2 - 1 + 1) = 2.5  -> 8
    assert tbd[1] == pytest.approx(8.0)
    # body: div (18 - 4 + 1) / (4 - 1 + 1) = 3.75; ul (4 - 4 + 1) / (3 - 2 + 1) = 0.5
    assert tbd[0] == pytest.approx(4.25)
    # li: a2 lies in a link, all its characters are link characters: 1 / (1 - 1 + 1)
    assert tbd[6] == pytest.approx(1.0)
    # without the child's own tag (TN = T): div = 11/1 + 5/1, body = 15/3 + 1/1
    plain = text_block_density(tiny, own_tag=False)
    assert plain[1] == pytest.approx(16.0)
    assert plain[0] == pytest.approx(6.0)
    # with text nodes as children, p2 adds "ab" and "cd": (2 + 1) / 1 each
    assert text_block_density(tiny, text_nodes=True)[3] == pytest.approx(tbd[3] + 6)

    runs, tpr = tag_path_ratios(tiny)
    # paths: body/div/p has runs of 10, 2, 2 -> 14/3; body/div/p/a 4; body/ul/li/a 4
    assert tpr.tolist() == pytest.approx([14 / 3, 14 / 3, 4, 14 / 3, 4])
    # tau = 1.5 * std(TPR) = 1.5 * 0.3266 = 0.49: all five runs are content nodes; CTPC of
    # div = 4/5, of ul = 1/5. TDTPC: div 8 * 0.8 = 6.4 beats body 4.25 * 1
    best, tdtpc = cetd_tpc_select(tiny)
    assert best == 1
    assert tdtpc[1] == pytest.approx(6.4)
    assert tdtpc[0] == pytest.approx(4.25)
    assert tdtpc[5] == pytest.approx(0.5 * 0.2)  # ul: (4 - 4 + 1) / (2 - 1 + 1) x 1/5


def test_tag_path_edit_distance(tiny):
    path = tiny.path.tolist()
    # body/div/p vs body/ul/li/a: after the common "body", [div, p] vs [ul, li, a]: 3 edits
    assert path_distance(tiny, path[2], path[7]) == 3
    assert path_distance(tiny, path[2], path[3]) == 0  # p1 and p2 share their path
    assert path_distance(tiny, path[2], path[4]) == 1  # body/div/p/a: one insertion
    assert path_distance(tiny, path[1], path[5]) == 1  # div vs ul: one substitution


def test_cepr_smoothing_is_weighted_by_path_similarity(tiny):
    runs, raw = tag_path_ratios(tiny)
    runs, smooth = cepr_scores(tiny, extended=False, radius=1, sigma=1.0)
    g = math.exp(-0.5)
    # run 0 (path body/div/p) has one neighbour, run 1, on the same path: weight g
    assert smooth[0] == pytest.approx((raw[0] + g * raw[1]) / (1 + g))
    # run 4 (body/ul/li/a) and run 3 (body/div/p): similarity 1 - 3/4
    w = g * (1 - 3 / 4)
    assert smooth[4] == pytest.approx((raw[4] + w * raw[3]) / (1 + w))
    # no smoothing at all with radius 0
    assert cepr_scores(tiny, extended=False, radius=0)[1].tolist() == raw.tolist()


def test_cetr_lines_rebuilt_from_the_dom():
    html = "<html><body>\n<p>Hello <b>big</b> world</p>\n<div><a>x</a></div>\n</body></html>"
    stats = dom_stats(etree.fromstring(html, etree.HTMLParser()))
    # line 0: <body>; line 1: <p> <b> </b> </p> with 5 + 3 + 5 characters; line 2:
    # <div> <a> </a> </div> with 1; line 3: </body>
    chars, tags, piece_run, piece_line, piece_chars = cetr_lines(stats, max_line_tags=100)
    assert chars.tolist() == [0, 13, 1, 0]
    assert tags.tolist() == [1, 4, 4, 1]
    assert piece_line.tolist() == [1, 1, 1, 2]
    # a line with more tags than the limit is split at its text runs
    chars, tags, *_ = cetr_lines(stats, max_line_tags=3)
    assert chars.tolist() == [0, 5, 3, 5, 0, 1, 0, 0]
    assert tags.tolist() == [1, 1, 1, 1, 1, 2, 2, 1]


def test_cetr_smoothing_derivative_and_clustering():
    flat = gaussian_smooth(np.full(5, 3.0), 1.0)
    assert flat.tolist() == pytest.approx([3.0] * 5)  # normalised at the ends
    impulse = gaussian_smooth(np.array([0.0, 0.0, 1.0, 0.0, 0.0]), 1.0)
    assert impulse[1] == pytest.approx(impulse[3])
    assert impulse[2] > impulse[1] > impulse[0]
    features = cetr_features(np.array([0.0, 0.0, 10.0, 10.0, 10.0, 0.0]), sigma=0.0001)
    # no smoothing to speak of: G = |mean of the next 3 lines - TR|: line 0: mean(0, 10,
    # 10) = 20/3; line 1: 10; line 2: |20/3 - 10|; line 3: mean(10, 0) = 5, |5 - 10|;
    # line 4: |0 - 10|; the last line: |mean of the last two (10, 0) - 0| = 5
    assert features[:, 0].tolist() == pytest.approx([0, 0, 10, 10, 10, 0])
    assert features[:, 1].tolist() == pytest.approx([20 / 3, 10, 10 / 3, 5, 10, 5])
    points = np.array([[0.1, 0.0], [0.0, 0.2], [9.0, 1.0], [10.0, 1.0], [30.0, 2.0]])
    labels = kmeans_pinned(points)
    assert labels[0] == labels[1] == 0  # the origin's cluster
    assert (labels[2:] != 0).all()
    assert kmeans_pinned(points).tolist() == labels.tolist()  # deterministic


def test_bte_range_with_ties():
    # tags -3, words 5, tags -1, words 4, tags -10, words 2: best range 5 - 1 + 4 = 8
    assert bte_range(np.array([-3, 5, -1, 4, -10, 2])) == (1, 3)
    # three ranges sum to 2: [0, 0], [0, 2], [2, 2]; the earliest start, then end, wins
    assert bte_range(np.array([2, -2, 2])) == (0, 0)
    assert bte_range(np.array([-1, -2])) is None
    assert bte_range(np.array([], dtype=np.int64)) is None


# -- degenerate pages ---------------------------------------------------------------------
@pytest.mark.parametrize("name", METHODS)
def test_an_empty_page(name):
    doc = parse_html("")
    assert doc.root is None and not doc.blocks
    assert build_chain(name)(doc) is False
    assert extract("", extractor=name).text == ""
    empty = Document(blocks=[TextBlock("text", 1)], root=None)  # blocks but no DOM
    assert build_chain(name)(empty) is False


@pytest.mark.parametrize("cls", CLASSES)
def test_a_tree_without_body_starts_at_the_root(cls):
    paras = "".join(f'<p id="p{i}">{p}</p>' for i, p in enumerate(PARAS))
    links = "".join(f'<li><a id="a{i}" href="/{i}">{t}</a></li>' for i, t in enumerate(NAV))
    root = etree.fromstring(f'<html><ul id="nav">{links}</ul><div id="main">{paras}</div></html>')
    assert start_element(root) is root
    by_id = {el.get("id"): el for el in root.iter() if el.get("id")}
    blocks = [TextBlock(t, 2, elements=[by_id[f"a{i}"]]) for i, t in enumerate(NAV)]
    blocks += [TextBlock(p, 25, elements=[by_id[f"p{i}"]]) for i, p in enumerate(PARAS)]
    doc = Document(blocks=blocks, root=root)
    assert cls()(doc) is True
    flags = [b.is_content for b in doc.blocks]
    assert flags[len(NAV) :] == [True] * len(PARAS)
    # (CEPR and CETR smooth over neighbours: the last links, next to the article, may pass)
    assert flags[: len(NAV) - 4] == [False] * (len(NAV) - 4)


@pytest.mark.parametrize("name", METHODS)
def test_a_dom_nested_100000_deep(name):
    depth = 100_000
    html = (
        f"<html><body><p>start here</p>{'<div>' * depth}deep text{'</div>' * depth}</body></html>"
    )
    result = extract(html, extractor=name)  # libxml2 cuts the tree at 2048 levels
    assert result.text in ("", "start here", "deep text", "start here\n\ndeep text")


@pytest.mark.parametrize("name", METHODS)
def test_a_page_of_only_links_and_scripts(name):
    links = "".join(f'<li><a href="/{i}">Section {i}</a></li>' for i in range(30))
    html = (
        f"<html><body><script>var x = 'long long long text';</script><ul>{links}</ul></body></html>"
    )
    extract(html, extractor=name)  # whatever is chosen, nothing fails
    doc = parse_html("<html><body><script>var a = 1;</script></body></html>")
    assert build_chain(name)(doc) is False  # no blocks


# -- composition, parameters, registry -------------------------------------------------------
def test_composes_with_a_boilerpipe_filter():
    short = "<p>Read more.</p>"
    html = page(PARAS, NAV, "Council expands bicycle lanes", extra=short)
    alone = extract(html, extractor="cetd_tpc").text
    assert "Read more." in alone
    chained = get_extractor(["cetd_tpc", "min_words"]).extract(html).text
    assert "Read more." not in chained
    assert all(p in chained for p in PARAS)


def test_combine_modes():
    doc = parse_html(ARTICLE_PAGE)
    MarkEverythingContentFilter()(doc)
    CETDTPCFilter(combine="or")(doc)
    assert all(b.is_content for b in doc.blocks)  # "or" only adds
    CETDTPCFilter(combine="and")(doc)
    kept = [b.text for b in doc.blocks if b.is_content]
    assert PARAS[0] in kept and not any("Section" in t for t in kept)
    with pytest.raises(ValueError):
        CETDTPCFilter(combine="xor")
    with pytest.raises(ChainSpecError):
        build_chain([{"cetd": {"combine": "xor"}}])


@pytest.mark.parametrize("name,cls", list(zip(METHODS, CLASSES, strict=True)))
def test_registered_and_picklable(name, cls):
    assert name in EXTRACTORS
    assert FILTERS[name] is cls and FILTERS[cls.__name__] is cls
    extractor = get_extractor(name)
    clone = pickle.loads(pickle.dumps(extractor))
    assert clone.extract(ARTICLE_PAGE).text == extractor.extract(ARTICLE_PAGE).text
    # parameters are constructor arguments, kept as attributes
    filt = cls()
    assert filt == pickle.loads(pickle.dumps(filt))
    assert set(filt.params()) >= {"skip_hidden", "combine"}


def test_parameters_from_a_spec():
    chain = build_chain([{"cetd_tpc": {"tpr_lambda": 0.5, "own_tag": False}}])
    (filt,) = chain
    assert isinstance(filt, CETDTPCFilter)
    assert (filt.tpr_lambda, filt.own_tag, filt.text_nodes) == (0.5, False, False)
    assert build_chain([{"cepr": {"threshold_lambda": 0.1}}]).filters[0].threshold_lambda == 0.1
