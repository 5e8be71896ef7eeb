"""What the tests of `corpus label` compare: the labels a recipe gives, apart from those an import read off its leads."""


RECIPE_ASPECTS = ("country", "occupation", "kind")  # the wikipedia recipe's


def recipe_labels(article) -> dict:
    """An article's labels of the recipe's aspects (an import also reads a century off the lead: text_labels.py)."""
    return {name: labels for name, labels in article.aspects.items() if name in RECIPE_ASPECTS}


def recipe_aspect_names(corpus) -> set[str]:
    """The aspects some article has labels of that its import did not read off its lead."""
    return {name for article in corpus for name in article.aspects if article.label_source(name) is None}
