"""The shipped default models are what their model card's commands train from the shared
data: the same ONNX bytes and the same metadata (the training command aside, which names
the output folder). A change of features, labels, training or decoding that the shipped
files do not follow fails here: retrain them with the card's commands
(scrapy_boilerplate/neural/models/BOOSTED_MODEL_CARD.md). About a minute and a half on two
cores; skipped where the shared data is not next to the checkout."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("lightgbm", reason="the train extra is not installed")
pytest.importorskip("onnxmltools", reason="the train extra is not installed")

MODELS = Path(__file__).resolve().parents[2] / "scrapy_boilerplate" / "neural" / "models"
DATA = Path(
    os.environ.get("SCRAPY_BOILERPLATE_DATA")
    or Path(__file__).resolve().parents[3] / "shared" / "data"
)
#: model folder -> the card's training options (besides the data, cache and output)
COMMANDS = {
    "": ["--page-types", "article"],
    "discussions": ["--other-page-weight", "0.3"],
}

pytestmark = pytest.mark.skipif(
    not (DATA / "wcxb-dev").is_dir(), reason=f"the shared data is not at {DATA}"
)


@pytest.fixture(scope="module")
def corpus_cache(tmp_path_factory):
    # (the two models read corpora of their own; each is built once)
    return tmp_path_factory.mktemp("corpus")


@pytest.mark.parametrize("folder", list(COMMANDS), ids=["article model", "discussions model"])
def test_the_card_command_retrains_the_shipped_files(folder, corpus_cache, tmp_path):
    options = COMMANDS[folder]
    argv = ["train", str(DATA), "--model", "boosted", *options, "--processes", "2"]
    argv += ["--cache", str(corpus_cache), "--out", str(tmp_path)]
    # in a process of its own, as from a fresh clone (this test process has threads of
    # its own: LightGBM's OpenMP pool, onnxruntime's)
    command = [sys.executable, "-m", "scrapy_boilerplate.cli", *argv]
    done = subprocess.run(command, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-2000:]
    shipped = MODELS / folder if folder else MODELS
    assert (tmp_path / "boosted.onnx").read_bytes() == (shipped / "boosted.onnx").read_bytes()
    retrained = json.loads((tmp_path / "boosted.json").read_text())
    meta = json.loads((shipped / "boosted.json").read_text())
    assert without_command(retrained) == without_command(meta)


def without_command(value):
    """The metadata less the recorded command line (it names the output folder)."""
    if isinstance(value, dict):
        return {k: without_command(v) for k, v in value.items() if k != "command"}
    return value
