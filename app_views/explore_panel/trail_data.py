"""The trail of visited seeds as the explore panel draws it: back and forward (enabled or not) and one crumb
per seed, marked as the current one, one behind it or one ahead (reached again by forward)."""
from __future__ import annotations

from app_views.trail import Trail
from explore.corpus.model import Corpus


def trail_data(corpus: Corpus, trail: Trail) -> dict:
    return {
        "back": trail.position >= 1,
        "forward": bool(trail.forward_part),
        "crumbs": [{"title": corpus[article_id].title if article_id in corpus else article_id,
                    "place": "here" if index == trail.position else "ahead" if index > trail.position else "behind"}
                   for index, article_id in enumerate(trail.seeds)],
    }
