"""Tournaments a director runs: a tournament as data (``model``), each round paired by an
engine (``pairing``: FIDE Dutch Swiss through py4swiss, Berger round robins, Swiss seating of
tables, duplicate solo rounds), results taken from the records as they arrive (the store
attaches them), standings recomputed from the results (``standings``), TRF16 in and out
(``trf``), and the library calls the CLI wires (``director``)."""
