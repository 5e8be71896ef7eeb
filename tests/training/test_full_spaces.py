"""The shipped full spaces' free-text figures (training/full_spaces.py): recorded beside the previous encoder's, printed by
`training evaluate`, on a fixed draw of held-out articles."""
from types import SimpleNamespace

import numpy as np

from explore.spaces.registry import SHIPPED_SPACES_DIR
from explore.spaces.store import read_training_record
from training.full_spaces import HELD_OUT_QUERIES, free_text_lines, held_out_queries

FULL = ("country", "occupation", "union", "intersection")
KEY = f"nn@10_{HELD_OUT_QUERIES}_held_out"


def test_held_out_queries_are_a_fixed_draw_of_test_articles():
    test = np.arange(5, 2005, 2)
    drawn = held_out_queries(test)
    assert len(set(drawn)) == HELD_OUT_QUERIES and set(drawn) <= set(test)
    np.testing.assert_array_equal(drawn, held_out_queries(test))
    assert len(held_out_queries(test[:50])) == 50


def test_each_shipped_full_space_places_free_text_as_its_fine_tuned_encoder_does_through_its_weight_delta():
    """Issue #53: nn@10 >= 0.90 against the fine-tuned encoder, for held-out texts and for every test short query."""
    for name in FULL:
        directory = SHIPPED_SPACES_DIR / "vital" / name
        shipped = read_training_record(directory)["shipped"]
        assert (directory / "encoder" / "delta.json").is_file()
        assert not (directory / "encoder" / "layer.json").exists()
        assert shipped[KEY] >= 0.9 and shipped["nn@10_test_queries"] >= 0.9, name
        assert shipped[KEY] > shipped["before"][KEY] + 0.05, name  # the distilled layer it replaced: 0.74-0.86
        assert shipped["int8_nn@10_vs_float"] >= 0.99


def test_training_evaluate_prints_the_figure_beside_the_previous_one():
    spaces = {name: SimpleNamespace(directory_=SHIPPED_SPACES_DIR / "vital" / name) for name in ("generic", *FULL)}
    lines = free_text_lines(spaces)
    assert [line.split(":")[0] for line in lines] == list(FULL)  # generic has no such figure
    country = read_training_record(SHIPPED_SPACES_DIR / "vital" / "country")["shipped"]
    assert f"{country[KEY]:.3f}" in lines[0] and f"distilled (fp16) before: {country['before'][KEY]:.3f}" in lines[0]
