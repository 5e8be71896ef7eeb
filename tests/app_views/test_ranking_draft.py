"""The click-in-order ranking: each article once, no more picks than ranks, undo and remove."""
from __future__ import annotations

from app_views.ranking_draft import RankingDraft


def draft(depth=3):
    return RankingDraft("t", depth, ("a", "b", "c", "d"))


def test_clicks_give_ranks_in_order_and_an_article_only_once():
    d = draft()
    d.pick("c")
    d.pick("c")
    d.pick("a")
    assert d.picks == ["c", "a"] and d.rank_of("a") == 2 and d.rank_of("b") is None
    assert not d.can_pick("c") and d.can_pick("b") and d.next_rank == 3


def test_no_more_picks_than_ranks_and_only_shown_articles():
    d = draft(depth=2)
    for article in ("zz", "a", "b", "c"):
        d.pick(article)
    assert d.picks == ["a", "b"] and d.complete and d.next_rank is None
    assert not d.can_pick("c")


def test_undo_remove_and_clear():
    d = draft()
    for article in ("a", "b", "c"):
        d.pick(article)
    d.undo()
    assert d.picks == ["a", "b"]
    d.remove("a")
    assert d.picks == ["b"] and d.rank_of("b") == 1
    d.remove("zz")
    d.clear()
    d.undo()
    assert d.picks == []
