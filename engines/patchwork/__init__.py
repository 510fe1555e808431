"""Patchwork: the rules of its three record kinds, its bots, and its data (game.json)."""
