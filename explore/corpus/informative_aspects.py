"""How many aspects of an article say something: a label is informative when at most INFORMATIVE_SHARE of the corpus
shares it ("20th century" or "People" on a fifth of the corpus says little; "Ottoman Empire" or "novel" does).
The coverage goal of the aspects-for-every-article round reads this: the share of articles with two or more
informative aspects, per topic."""
from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass

from explore.corpus.model import Article, Corpus

INFORMATIVE_SHARE = 0.05
NO_TOPIC_GROUP = "Uncategorized"


@dataclass(frozen=True)
class TopicCoverage:
    topic: str
    articles: int
    two_or_more: int
    none: int

    @property
    def two_or_more_share(self) -> float:
        return self.two_or_more / self.articles if self.articles else 0.0


def informative_aspects(article: Article, counts: Counter, size: int) -> int:
    """The aspects of `article` (inferred included) with at least one label few enough articles share."""
    return sum(1 for aspect, labels in article.all_labels(inferred=True).items()
               if any(counts[(aspect, label)] <= INFORMATIVE_SHARE * size for label in labels))


def coverage_by_topic(corpus: Corpus) -> list[TopicCoverage]:
    """Per vital topic (the source's own; the top levels as "Uncategorized") and over all: articles with two or
    more informative aspects, and with none."""
    counts = Counter((aspect, label) for a in corpus for aspect, labels in a.all_labels(inferred=True).items()
                     for label in labels)
    groups: dict[str, list[int]] = defaultdict(list)
    for article in corpus:
        n = informative_aspects(article, counts, len(corpus))
        topic = (article.aspects.get("topic") or (NO_TOPIC_GROUP,))[0]
        groups[topic].append(n)
        groups["all"].append(n)
    return [TopicCoverage(topic, len(v), sum(n >= 2 for n in v), sum(n == 0 for n in v))
            for topic, v in sorted(groups.items(), key=lambda item: (item[0] == "all", item[0]))]
