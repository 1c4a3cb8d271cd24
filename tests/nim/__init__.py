"""Nim, the worked example of adding a game: rules (``game``), sentences (``text``),
picture (``picture``) and Discord adapter (``cog``), each as small as a game can be."""
