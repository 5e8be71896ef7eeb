"""The trail of visited seeds as the explore panel draws it: back and forward (enabled or not) and one crumb
per seed, marked as the current one, one behind it or one ahead (reached again by forward). A crumb is one line: a
long title is cut (app_views/one_line_title.py) and `full` holds it whole for the crumb's tooltip (None: not cut)."""
from __future__ import annotations

from app_views.one_line_title import cut_title_hover, one_line_title
from app_views.trail import Trail
from explore.corpus.model import Corpus


def trail_data(corpus: Corpus, trail: Trail) -> dict:
    titles = [corpus[article_id].title if article_id in corpus else article_id for article_id in trail.seeds]
    return {
        "back": trail.position >= 1,
        "forward": bool(trail.forward_part),
        "crumbs": [{"title": one_line_title(title), "full": cut_title_hover(title),
                    "place": "here" if index == trail.position else "ahead" if index > trail.position else "behind"}
                   for index, title in enumerate(titles)],
    }
