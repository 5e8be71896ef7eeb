"""Candidate lists: first k per source, shown once when sources agree, shuffled per participant."""
from __future__ import annotations

from explore.corpus.snippet import SNIPPET_CHARS, snippet
from study.candidates import candidates_for
from study.synthetic import SyntheticProvider


def test_an_article_from_two_sources_is_shown_once_and_credited_to_both(study, corpus):
    task = study.tasks[0]
    provider = SyntheticProvider(corpus)
    candidates = candidates_for(task, provider, corpus, shuffle_seed=7)
    ids = [c.id for c in candidates]
    assert len(ids) == len(set(ids))
    credited = {}
    for c in candidates:
        for source in c.sources:
            credited.setdefault(source, []).append(c.id)
    assert {s: len(v) for s, v in credited.items()} == {s.label: 3 for s in task.sources}
    shared = provider._ranked(task.seed, "generic")[0]
    assert next(c.sources for c in candidates if c.id == shared) == ("generic", "union")
    assert task.seed not in ids


def test_the_shuffle_depends_on_the_stored_seed_only(study, corpus):
    task = study.tasks[0]
    provider = SyntheticProvider(corpus)
    first = [c.id for c in candidates_for(task, provider, corpus, shuffle_seed=1)]
    assert first == [c.id for c in candidates_for(task, provider, corpus, shuffle_seed=1)]
    orders = {tuple(c.id for c in candidates_for(task, provider, corpus, shuffle_seed=s)) for s in range(10)}
    assert len(orders) > 1 and all(sorted(o) == sorted(first) for o in orders)


def test_snippets_are_the_first_150_characters_cut_at_a_word(corpus):
    text = snippet(corpus["a00"].text)
    assert len(text) <= SNIPPET_CHARS + 1 and text.endswith("…")
    assert corpus["a00"].text.startswith(text[:-1])
