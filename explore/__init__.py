"""AspectNav core: corpora, encoders, embedding spaces, neighbours and maps (no UI code)."""
