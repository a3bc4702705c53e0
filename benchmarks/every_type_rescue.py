#!/usr/bin/env python
"""The default with and without its every-type rescue (``every_type_rescue``): where the
article model finds nothing, the page read by the every-type model.

    python -m benchmarks.grouped_cv --model boosted --seed N --out OUT_A       # article folds
    python -m benchmarks.boosted_page_types --other-weight 0.3 --seed N --out OUT_B
    python -m benchmarks.every_type_rescue OUT_A/boosted OUT_B/boosted [--unseen]

Each page of the training sets is read as the default reads it, by the models of the
fold that never saw its site: the article model, the every-type model on the pages that
declare a discussion, and (the second column) on the pages where the article model
finds nothing. ``--unseen``: the shipped models on the six unseen sets. Measured
2026-12-01 with seeds 0, 1 and 2 (docs/neural.md, "The every-type rescue"); shipped.
Not a test: nothing is asserted.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from scrapy_boilerplate.evaluation.runners import Runner, chain_runner

from .boosted_variants import RunnerFor, compare


def default_runner(every_type_folds: Path, rescue: bool) -> RunnerFor:
    """The default chain, its rescue on or off; a fold's article model directory
    ``.../foldK`` reads with the every-type run's ``foldK`` (None: the shipped models)."""

    def runner_for(model_dir: str | None) -> Runner:
        options: dict[str, object] = {"every_type_rescue": rescue}
        if model_dir:
            other = str(every_type_folds / Path(model_dir).name)
            options.update(model_dir=model_dir, discussion_model_dir=other)
        return chain_runner([{"boosted": options}], "boosted")

    return runner_for


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("article_folds", type=Path, help="grouped_cv's boosted/ folder")
    parser.add_argument("every_type_folds", type=Path, help="boosted_page_types' boosted/")
    parser.add_argument("--unseen", action="store_true", help="also the six unseen sets")
    args = parser.parse_args(argv)
    runners = [default_runner(args.every_type_folds, rescue) for rescue in (False, True)]
    compare(runners, ["without", "with"], folds_dir=args.article_folds, unseen=args.unseen)
    return 0


if __name__ == "__main__":
    sys.exit(main())
