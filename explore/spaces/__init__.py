"""Embedding spaces: build once, save, verify on load, query (generic, aspect, union, intersection)."""
from explore.spaces.article_text import TEXT_RECIPE, article_text
from explore.spaces.registry import DEFAULT_SPACES, SpaceDefinition, SpaceRegistry, open_space, spaces_for
from explore.spaces.space import SPACE_KINDS, Space
from explore.spaces.store import SpaceUnusable, load_space, save_space

__all__ = ["DEFAULT_SPACES", "SPACE_KINDS", "TEXT_RECIPE", "Space", "SpaceDefinition", "SpaceRegistry",
           "SpaceUnusable", "article_text", "load_space", "open_space", "save_space", "spaces_for"]
