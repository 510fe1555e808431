"""Iwoki ("iwoki math"): two players fit small and hexagonal number tiles together."""
