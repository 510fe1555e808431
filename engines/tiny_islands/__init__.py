"""Tiny Islands: a solitaire tile-placing and shoreline-drawing game on a 9 x 9 board."""
