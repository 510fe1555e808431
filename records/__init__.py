"""Notation: parsers, serializers, models and the SQLite store."""
