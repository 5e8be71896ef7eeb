"""Training and evaluation of aspect embedding spaces (AspectCSE, baselines, retrieval metrics)."""
