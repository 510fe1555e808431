"""The Tiny Islands bots' numbers, as data beside the code: the heuristic's weights
(``weights.json``), the learned placement policy (``policy.json``) and the window value
(``windows.json``), each read and checked here, and the weight vectors each bot plays with.
Every jitted function takes them as an argument, never as a global: numba's cache would
keep a global's old value.

>>> WEIGHTS.shape[0] == N_WEIGHTS + N_POLICY
True
"""
from __future__ import annotations

import functools
import json
from importlib import resources

import numpy as np

# The heuristic's weights: data in weights.json (what each one weighs, and how it was fitted),
# written by benchmarks/tune_tiny_islands_heuristic.py --out. Every jitted function takes
# them as an argument, never as a global: numba's cache would keep a global's old value.
WEIGHTS_FILE = "weights.json"
N_WEIGHTS = 18
# The learned policy (policy.json, written by benchmarks/fit_tiny_islands_policy.py): a table
# added to the heuristic's value of a placement, indexed by the drawings done, the tile placed,
# and what lies around the cell (policy_features). The jitted functions get it appended to the
# weights, w[N_WEIGHTS:]; a w of N_WEIGHTS alone is the heuristic without it.
POLICY_FILE = "policy.json"
POLICY_PHASES = 3  # drawings done before the placement
POLICY_CLASSES = 10  # what a cell holds: off the board, empty water, empty land, then the seven tiles
POLICY_RINGS = 3  # the 4 orthogonal neighbours, the 4 diagonal ones, the 16 cells two steps away
POLICY_SLOTS = POLICY_RINGS + 1  # the last slot: the cell's own side of the shore (water, land)
N_POLICY = POLICY_PHASES * 8 * POLICY_SLOTS * POLICY_CLASSES


def weights_text() -> str:
    """The package's own weights file, as text."""
    return resources.files(__package__).joinpath(WEIGHTS_FILE).read_text()


def _numbers(text: str, key: str, n: int, what: str) -> np.ndarray:
    numbers = np.array(json.loads(text)[key], np.float64)
    if numbers.shape != (n,) or not np.isfinite(numbers).all():
        raise ValueError(f"a Tiny Islands {what} file holds {n} finite numbers")
    return numbers


def load_weights(text: str | None = None) -> np.ndarray:
    """The heuristic's weights of a weights file's text (default: the package's ``weights.json``).

    >>> load_weights().shape
    (18,)
    """
    return _numbers(weights_text() if text is None else text, "weights", N_WEIGHTS, "weights")


def policy_text() -> str:
    """The package's own policy file, as text."""
    return resources.files(__package__).joinpath(POLICY_FILE).read_text()


def load_policy(text: str | None = None) -> np.ndarray:
    """The policy table of a policy file's text (default: the package's ``policy.json``).

    >>> load_policy().shape
    (960,)
    """
    return _numbers(policy_text() if text is None else text, "table", N_POLICY, "policy")


HEURISTIC_WEIGHTS = load_weights()
POLICY = load_policy()
# A learned window value (windows.json, written by benchmarks/fit_tiny_islands_windows.py): a
# number for what each 2x2 window of the board holds, by the drawings done; a placement's value
# gains the change of the four windows around its cell (_value_delta). The jitted functions
# take it appended to the weights after the policy, w[N_WEIGHTS + N_POLICY:]. The heuristic
# bot plays with all of it (heuristic_weights). halving:N reads it in its play-outs only, and
# only from the first drawing on (search_weights): its root ranks without it, and the phase
# before the first drawing, where the table cost the search a point of Mountains, is left
# out (BENCHMARKS.md).
WINDOWS_FILE = "windows.json"
VALUE_CLASSES = 17  # a window's cell: off the board, then (empty or one of the seven tiles) x (water, land)
VALUE_TABLE = VALUE_CLASSES ** 4
N_VALUE = POLICY_PHASES * VALUE_TABLE
VALUE_AT = N_WEIGHTS + N_POLICY  # where the table starts in the weights
# One more number may follow the table: 1 when its windows read the planned land. Under an
# island planned for the next drawing, a cell's side of the shore is then the one it will
# have after that drawing (land ^ plan), not the one it has now: before the first drawing
# every cell is water, and a table of the drawn land cannot tell a tile placed for the island
# from one placed to stay at sea.
VALUE_LAND_AT = VALUE_AT + N_VALUE


def load_window_value(text: str) -> np.ndarray:
    """The learned value of what a 2x2 window holds, by the drawings done: entry
    (((drawings_done * 17 + a) * 17 + b) * 17 + c) * 17 + d for the window's top-left,
    top-right, bottom-left and bottom-right cells, each 0 off the board, else 1 + 2 * tile
    (0: empty) + 1 on land. The file keeps the nonzero entries, in thousandths."""
    return window_table(json.loads(text))


def window_table(data: dict) -> np.ndarray:
    """``load_window_value`` of a windows file already read (a 650 kB file: read once)."""
    entries = np.array(data["entries"], np.int64).reshape(-1, 2)
    if data["classes"] != VALUE_CLASSES or data["phases"] != POLICY_PHASES or len(entries) and (
            entries[:, 0].min() < 0 or entries[:, 0].max() >= N_VALUE):
        raise ValueError("a Tiny Islands windows file holds entries of a table of "
                         f"{POLICY_PHASES} x {VALUE_CLASSES}^4 numbers")
    table = np.zeros(N_VALUE)
    table[entries[:, 0]] = entries[:, 1] / 1000.0
    return table


def window_value_weights(text: str) -> np.ndarray:
    """A windows file as the bots read it after their policy: the table, then 1 if its
    windows read the planned land (the file's ``"land": "planned"``), else 0."""
    data = json.loads(text)
    land = data.get("land", "drawn")
    if land not in ("drawn", "planned"):
        raise ValueError(f"a Tiny Islands windows file's land is 'drawn' or 'planned', not {land!r}")
    return np.append(window_table(data), 1.0 if land == "planned" else 0.0)


WEIGHTS = np.concatenate((HEURISTIC_WEIGHTS, POLICY))  # what mc:N plays with


def windows_text() -> str:
    """The package's own windows file, as text."""
    return resources.files(__package__).joinpath(WINDOWS_FILE).read_text()


@functools.cache
def heuristic_weights() -> np.ndarray:
    """What the heuristic bot plays with: ``WEIGHTS`` and the package's window value (read
    on first use: a 650 kB file that the other bots do not need).

    >>> heuristic_weights().shape[0] == VALUE_LAND_AT + 1
    True
    """
    return np.concatenate((WEIGHTS, window_value_weights(windows_text())))


SEARCH_VALUE_FROM = 1  # halving:N's play-outs read the window value from this many drawings done


@functools.cache
def search_weights() -> np.ndarray:
    """What halving:N and the analysis play out with: ``heuristic_weights`` with the window
    value's entries before drawing ``SEARCH_VALUE_FROM`` set to 0. Their roots rank candidates
    with ``WEIGHTS`` alone (``mc_halving_placement``).

    >>> w = search_weights()
    >>> bool((w[VALUE_AT:VALUE_AT + VALUE_TABLE] == 0).all()), bool((w[:VALUE_AT] == WEIGHTS).all())
    (True, True)
    """
    w = heuristic_weights().copy()
    w[VALUE_AT:VALUE_AT + SEARCH_VALUE_FROM * VALUE_TABLE] = 0.0
    return w
