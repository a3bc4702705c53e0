"""``benchmarks.grouped_cv``: how a run's folder is named."""

from __future__ import annotations

from benchmarks.grouped_cv import run_folder, run_name_of


def test_a_run_is_named_after_its_model_and_changed_fields():
    assert run_name_of("boosted", {}) == "boosted"
    assert run_name_of("boosted", {"trees": 100, "leaves": 15}) == "boosted-leaves-15-trees-100"


def test_a_run_whose_discussions_other_folds_read_has_a_folder_of_its_own():
    # the quality report reads this folder first: the default as shipped
    assert run_folder("boosted", {}) == "boosted"
    assert run_folder("boosted", {}, discussions=True) == "boosted+discussions"
    assert run_folder("boosted", {"trees": 100}, True) == "boosted-trees-100+discussions"


def test_a_configuration_too_long_for_a_file_name_is_named_by_its_hash():
    columns = [f"column_{i}" for i in range(30)]
    name = run_name_of("boosted", {"decreasing": columns})
    assert name.startswith("boosted-config-") and len(name) == len("boosted-config-") + 12
    assert name == run_name_of("boosted", {"decreasing": list(columns)})  # stable
    assert name != run_name_of("boosted", {"decreasing": columns[:-1]})


def test_a_fold_is_read_by_its_model_and_declared_discussions_by_the_other_runs(tmp_path):
    from benchmarks.grouped_cv import fold_spec

    fold = tmp_path / "boosted" / "fold1"
    assert fold_spec("boosted", fold) == [{"boosted": {"model_dir": str(fold)}}]
    other = tmp_path / "every-type" / "fold1"
    assert fold_spec("boosted", fold, other) == [
        {"boosted": {"model_dir": str(fold), "discussion_model_dir": str(other)}}
    ]
