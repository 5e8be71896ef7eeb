"""Power by simulation: calibrated to the planned mean ranks, at alpha under no effect, rising with N."""
from __future__ import annotations

import pytest

from study.planned_effect import PlannedEffect
from study.power import PowerError, calibrate, format_power, power_table


def effect(links, generic, aspect, union, sd=0.5):
    return PlannedEffect(mean_rank={"links": links, "generic": generic, "aspect": aspect, "union": union},
                         participant_sd=sd, source="test")


def test_calibration_reaches_the_planned_differences(study):
    # tiny study: 3 per source × 4 sources, top 5 → mean ranks always average (15 + 7 × 12) / 12 = 8.25
    _, achieved, shift = calibrate(study, effect(9.0, 8.5, 8.0, 7.5))
    assert shift == pytest.approx(0.0)
    assert achieved == pytest.approx({"links": 9.0, "generic": 8.5, "aspect": 8.0, "union": 7.5}, abs=0.05)
    _, shifted, shift = calibrate(study, effect(6.0, 5.5, 5.0, 4.5))
    assert shift == pytest.approx(3.0) and shifted["union"] == pytest.approx(7.5, abs=0.05)


def test_no_effect_is_detected_about_alpha_of_the_time(study):
    table = power_table(study, effect(8.25, 8.25, 8.25, 8.25), [20], runs=200, seed=3)
    assert table.rows[0].friedman <= 0.12  # 0.05 expected; ±0.05 is beyond 3 standard errors
    assert all(rate <= 0.08 for rate in table.rows[0].pairs.values())


def test_power_rises_with_participants_and_a_strong_effect_is_found(study):
    table = power_table(study, effect(10.0, 8.5, 8.0, 6.5), [6, 24], runs=60, seed=1)
    small, large = table.rows
    assert large.friedman > small.friedman and large.friedman >= 0.9
    assert large.pairs["links vs union"] >= 0.9
    assert large.pairs["generic vs aspect"] < large.pairs["links vs union"]
    text = format_power(table)
    assert "Friedman" in text and "links vs union" in text and "Smallest N here with Friedman power ≥ 0.80: 24" in text


def test_same_seed_same_table(study):
    first = power_table(study, effect(9, 8.5, 8, 7.5), [8], runs=20, seed=5)
    assert first.rows == power_table(study, effect(9, 8.5, 8, 7.5), [8], runs=20, seed=5).rows


@pytest.mark.parametrize(("planned", "pairs", "message"), [
    ({"links": 8, "generic": 8}, None, "one mean rank for each source"),
    ({"links": 0.5, "generic": 8, "aspect": 8, "union": 8}, None, "between 1 and 12"),
    ({"links": 8, "generic": 8, "aspect": 8, "union": 8}, [("union", "mood")], "Planned pair union vs mood"),
])
def test_an_unusable_plan_is_refused(study, planned, pairs, message):
    with pytest.raises(PowerError, match=message):
        power_table(study, PlannedEffect(mean_rank=planned), [10], runs=10, pairs=pairs)
