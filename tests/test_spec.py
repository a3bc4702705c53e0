"""Chains built from specs (``spec.build_chain``): names, class names, parameters,
extractors inside chains, a user's filter by import path, and bad specs failing at build time
with nothing run: import paths name Filter classes, parameters match their types, and specs
from untrusted sources import only from allowed modules."""

import inspect
import json
import math
import re
import signal
import sys

import pytest

from scrapy_boilerplate import (
    EXTRACTORS,
    FILTERS,
    Chain,
    ChainSpecError,
    Filter,
    build_chain,
    extract,
    get_extractor,
)
from scrapy_boilerplate.filters import (
    DensityRulesClassifier,
    KeepLargestBlockFilter,
    NumWordsRulesClassifier,
)
from scrapy_boilerplate.spec import decode_spec

from .helpers import PAGE


def test_a_chain_from_a_list_of_names():
    chain = build_chain(["density_rules", "keep_largest_block"])
    assert isinstance(chain, Chain)
    assert [type(f) for f in chain] == [DensityRulesClassifier, KeepLargestBlockFilter]


def test_a_name_that_is_both_extractor_and_filter_gives_the_extractor_chain():
    (inner,) = build_chain(["num_words_rules", "keep_largest_block"]).filters[:1]
    assert [type(f) for f in inner] == [NumWordsRulesClassifier]


def test_a_chain_entry_with_parameters():
    chain = build_chain(
        [
            "num_words_rules",
            {"keep_largest_block": {"expand_to_same_level_text": True, "min_words": 50}},
        ]
    )
    assert chain.filters[1] == KeepLargestBlockFilter(True, 50)


def test_an_extractor_name_inside_a_chain_composes():
    chain = build_chain(["article", {"min_words": {"min_words": 20}}])
    assert len(chain) == 2 and isinstance(chain.filters[0], Chain)


def test_a_users_filter_by_import_path():
    result = extract(PAGE, extractor=["article", "tests.helpers.DropShortBlocks"])
    assert "powerful storm" in result.text
    chain = build_chain([{"tests.helpers.DropShortBlocks": {"min_words": 50}}])
    assert chain.min_words == 50


@pytest.mark.parametrize(
    "spec, message",
    [
        (["num_words_rules", "no_such_filter"], "chain entry 1 ('no_such_filter') is not a known"),
        ([{"min_words": {"wrong": 1}}], "chain entry 0 ('min_words'): bad parameters"),
        ([{"a": {}, "b": {}}], "chain entry 0"),
        (
            ["tests.test_spec.Nothing"],
            "chain entry 0 ('tests.test_spec.Nothing') cannot be imported",
        ),
        ([], "empty"),
        (42, "must be a name"),
        ([{"document_title_match": {"variant": "2.0"}}], "variant"),
    ],
)
def test_a_bad_spec_fails_at_build_time_naming_the_entry(spec, message):
    with pytest.raises(ChainSpecError, match=message.replace("(", r"\(").replace(")", r"\)")):
        get_extractor(spec)


class Refuses(Filter):
    """A user's filter whose constructor refuses, each time differently."""

    name = "refuses"

    def __init__(self, how: str = "runtime") -> None:
        raise {"runtime": RuntimeError("no"), "key": KeyError("k"), "exit": SystemExit(3)}[how]


@pytest.mark.parametrize(
    "spec, message",
    [
        # any callable used to pass for a filter; an import path must name a Filter class
        (["builtins.print"], "is not a Filter subclass"),
        (["os.system"], "is not a Filter subclass"),
        # parameters are checked against the signature and type hints at build time
        ([{"min_words": {"min_words": "20"}}], "min_words must be int, not '20'"),
        ([{"keep_everything_min_words": {"min_words": None}}], "min_words must be int"),
        ([{"cetd": {"skip_hidden": "no"}}], "skip_hidden must be bool"),
        ([{"cetd": {"bogus": 1}}], "no parameter 'bogus'"),
        ([{"web2text": {"lam": "x"}}], "lam must be float | None"),
        ([".x"], "is not a known filter or extractor"),
        (["a..b"], "cannot be imported"),
        # a constructor that refuses, whatever it raises
        ([{"tests.test_spec.Refuses": {"how": "runtime"}}], "RuntimeError: no"),
        ([{"tests.test_spec.Refuses": {"how": "key"}}], "KeyError"),
        ([{"tests.test_spec.Refuses": {"how": "exit"}}], "SystemExit"),
        # a spec inside a parameter follows the same rules
        ([{"fallback": {"extractor": ["os.system"]}}], "is not a Filter subclass"),
    ],
)
def test_specs_are_checked_when_built(spec, message):
    with pytest.raises(ChainSpecError, match=re.escape(message)):
        get_extractor(spec)


@pytest.mark.parametrize(
    "entry, message",
    [
        # each once stalled a page (CEPR compared every run with 10^30 neighbours) or
        # failed only when a page came (NaN / infinite kernels, 10^30 clusters)
        ({"cepr": {"radius": 10**30}}, "radius must be between 0 and 50"),
        ({"cepr": {"sigma": math.nan}}, "sigma must be between"),
        ({"cetr": {"sigma": math.inf}}, "sigma must be between 0.0 and 100.0"),
        ({"cetr": {"sigma": 1e6}}, "sigma must be between 0.0 and 100.0"),
        ({"cetr": {"alpha": 10**30}}, "alpha must be between 1 and 1000"),
        ({"cetr": {"clusters": 10**30}}, "clusters must be between 1 and 10"),
        ({"cetr": {"max_iter": 10**30}}, "max_iter must be between 1 and 1000"),
        ({"cetr": {"tol": math.nan}}, "tol must be between"),
    ],
)
@pytest.mark.parametrize("restricted", [False, True], ids=["settings", "request-meta"])
def test_a_parameter_that_would_stall_a_page_is_refused_when_built(entry, message, restricted):
    options = {"allowed_imports": ()} if restricted else {}
    with pytest.raises(ChainSpecError, match=re.escape(message)):
        build_chain([entry], **options)


#: values a spec from outside may give any numeric parameter
EDGE_VALUES = [math.nan, math.inf, -math.inf, -1, 0, 1, 0.5, 10**30, -(10**30), 2**63, "", None]


class _Stalled(BaseException):
    pass


def _numeric_parameters(factory):
    for parameter in inspect.signature(factory).parameters.values():
        default = parameter.default
        if isinstance(default, (int, float)) and not isinstance(default, bool):
            yield parameter.name


@pytest.mark.parametrize("name", sorted((set(EXTRACTORS) | set(FILTERS)) - {"lm", "lm_labeler"}))
def test_any_value_of_a_numeric_parameter_is_refused_when_built_or_runs(name):
    # found CEPR's radius stalling every page and CETR's NaN failing on every page
    def stalled(*args):
        raise _Stalled(name)

    factory = FILTERS.get(name) or EXTRACTORS[name]
    previous = signal.signal(signal.SIGALRM, stalled)
    try:
        for parameter in _numeric_parameters(factory):
            for value in EDGE_VALUES:
                try:
                    extractor = get_extractor([{name: {parameter: value}}], allowed_imports=())
                except ChainSpecError:
                    continue
                signal.alarm(10)
                result = extractor.extract(PAGE, "https://news.example/a", formats=("markdown",))
                signal.alarm(0)
                assert isinstance(result.text, str), (parameter, value)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def test_the_density_methods_run_at_their_largest_parameters():
    page = (
        "<html><body>" + "<div><p>Words of a paragraph, long enough.</p><a href=/>x</a></div>" * 50
    )
    for entry in (
        {"cepr": {"radius": 50}},
        {"cetr": {"sigma": 100.0, "clusters": 10, "max_iter": 1000}},
    ):
        assert isinstance(get_extractor([entry]).extract(page).text, str)


def test_a_spec_too_deep_or_too_long_gives_a_short_spec_error():
    deep: list = []
    inner = deep
    for _ in range(100_000):
        inner.append([])
        inner = inner[0]
    with pytest.raises(ChainSpecError, match="nested too deeply"):
        decode_spec("[" * 100_000 + "]" * 100_000)
    for spec in (deep, [{"min_words": {"min_words": "x" * 10_000_000}}], [{"y" * 100_000: {}}]):
        with pytest.raises(ChainSpecError) as raised:
            get_extractor(spec)  # its repr raised RecursionError; a whole long value came back
        assert len(str(raised.value)) < 2000


def test_a_rejected_import_path_runs_nothing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ChainSpecError, match="not a Filter subclass"):
        get_extractor([{"subprocess.Popen": {"args": ["touch", "marker"]}}])
    assert not (tmp_path / "marker").exists()


def test_allowed_imports_restrict_import_paths_without_importing_anything():
    own = "tests.helpers.DropShortBlocks"
    assert build_chain([own], allowed_imports=["tests.helpers"]).min_words == 10
    assert build_chain([own], allowed_imports=[own]).min_words == 10
    for allowed in ([], ["tests.help"], ["other"]):
        with pytest.raises(ChainSpecError, match="import paths are not allowed here"):
            build_chain([own], allowed_imports=allowed)
    # also in a spec given as a parameter, and for a module never imported
    with pytest.raises(ChainSpecError, match="not allowed here"):
        build_chain([{"fallback": {"extractor": ["antigravity.Fly"]}}], allowed_imports=[])
    assert "antigravity" not in sys.modules
    # registered names need no permission
    assert len(build_chain(["article", "comment_sections"], allowed_imports=[])) == 2
    # and outside the build, import paths are open again
    assert build_chain([own]).min_words == 10


@pytest.mark.parametrize(
    "spec",
    [
        [{"web2text": {"model_dir": "/etc"}}],
        [{"context": {"model_dir": "/tmp"}}],
        [{"boosted": {"discussion_model_dir": "/tmp"}}],
        [{"context_labeler": {"threads": 64}}],
        [{"fallback": {"extractor": [{"web2text": {"model_dir": "/"}}]}}],
    ],
)
def test_a_restricted_spec_cannot_point_a_model_at_a_path_or_set_threads(spec):
    """A spec from a request's meta must not make the crawler read files of its choice or
    start threads: those parameters belong to the project's settings."""
    with pytest.raises(ChainSpecError, match="is not allowed here"):
        build_chain(spec, allowed_imports=[])
    # the same names with other parameters are fine
    assert build_chain([{"web2text": {"lam": 0.5}}], allowed_imports=[])


def test_a_spec_holds_at_most_max_chain_entries_in_all():
    # a request's meta could make the crawl build, in the reactor's thread, and run a
    # chain of hundreds of thousands of filters (1.3 s to build 40,000)
    from scrapy_boilerplate._scrapy.overrides import SpecCache
    from scrapy_boilerplate.spec import MAX_CHAIN_ENTRIES

    longest = ["keep_everything"] * MAX_CHAIN_ENTRIES
    assert get_extractor(longest).extract("<p>" + "word " * 30 + "</p>").text
    with pytest.raises(ChainSpecError, match="MAX_CHAIN_ENTRIES"):
        get_extractor([*longest, "keep_everything"])
    with pytest.raises(ChainSpecError, match="MAX_CHAIN_ENTRIES"):
        SpecCache().get(json.dumps(longest * 40))
    # the entries of a fallback's spec count too
    half = ["keep_everything"] * (MAX_CHAIN_ENTRIES // 2)
    with pytest.raises(ChainSpecError, match="MAX_CHAIN_ENTRIES"):
        get_extractor([{"fallback": {"extractor": half}}, {"fallback": {"extractor": half}}])
    # each build counts from zero
    assert get_extractor(longest) and get_extractor(longest)
