"""The seed's card as the explore panel draws it: title, short description, aspect labels (inferred ones said
so), the lead and a link to the article's page. Plain data; the panel's script draws it with textContent."""
from __future__ import annotations

from app_views.cards import INFERRED_HELP, INFERRED_LEGEND
from explore.corpus.model import Article, is_web_address, site_name


def seed_card_data(article: Article, cards_inferred: bool = False) -> dict:
    """`cards_inferred`: some card below marks an inferred label, so the legend explains the word even when the seed
    has none."""
    inferred = {name: labels for name, labels in article.inferred.items() if not article.aspects.get(name)}
    labels = ([{"text": f"{name}: {label}", "inferred": False, "help": ""} for name, values in article.aspects.items()
               for label in values]
              + [{"text": f"{name}: {label} · inferred", "inferred": True,
                  "help": f"{article.title}'s {name} is {INFERRED_HELP}"} for name, values in inferred.items()
                 for label in values])
    url = article.url if is_web_address(article.url) else ""
    return {
        "kind": "article",
        "id": article.id,
        "title": article.title,
        "description": article.description,
        "labels": labels,
        "text": article.text,
        "url": url,
        "read_label": f"Read “{article.title}” on {site_name(url)}" if url else "",
        "legend": INFERRED_LEGEND if inferred or cards_inferred else "",
    }


def free_text_data(text: str) -> dict:
    return {"kind": "text", "title": f"Free text: “{text}”", "description": "", "labels": [], "text": "",
            "url": "", "read_label": "", "legend": ""}
