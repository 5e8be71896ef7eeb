"""The report's tables read as prose: headers in words, no bare None, a reason wherever a figure is missing."""
from __future__ import annotations

from study.analysis import OrderCount, TaskBreakdown
from study.rank_tests import FriedmanResult, PairwiseTest
from study.result_tables import friedman_table, order_table, pairwise_table, per_task_table


def test_a_test_that_could_not_run_says_why_and_headers_are_words():
    tables = [
        friedman_table([FriedmanResult("country", None, None, 1, "needs at least 2 participants"),
                        FriedmanResult("all", 7.5, 0.0576, 4, kendall_w=0.625)]),
        pairwise_table([PairwiseTest("country", "links", "union", None, None, None, 1, "needs at least 2 participants"),
                        PairwiseTest("all", "links", "union", 3.0, float("nan"), None, 4)]),
        per_task_table([TaskBreakdown("country-france", "country", "links", 8.123456, 3)]),
        order_table([OrderCount(0, ("a", "b"), 3, 2)]),
    ]
    friedman, pairwise, per_task, orders = tables
    assert friedman[0]["p"] == friedman[0]["Kendall's W"] == "n/a: needs at least 2 participants"
    assert friedman[1] == {"Task type": "all", "Participants": 4, "Chi-square": 7.5, "p": 0.0576, "Kendall's W": 0.625}
    assert pairwise[0]["p (Holm)"] == "n/a: needs at least 2 participants"
    assert pairwise[1]["p"] == "n/a" and pairwise[1]["Sources compared"] == "links vs union"
    assert per_task[0]["Mean rank"] == 8.12
    assert orders == [{"Order": 1, "Completed": 2, "Started": 3, "Tasks, in order": "a → b"}]
    for table in tables:
        for row in table:
            assert None not in row.values()
            assert not any("_" in header for header in row), row
