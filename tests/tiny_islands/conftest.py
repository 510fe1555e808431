"""Tiny Islands fixtures: random legal games, bot games, TinyBot's shared lines."""
from __future__ import annotations

import numpy as np
import pytest

from scorebook.engines.tiny_islands import bots as TB
from scorebook.engines.tiny_islands.deck import two_deck_offers
from scorebook.engines.tiny_islands.players import random_game
from scorebook.records import tiny_islands, tinybot

from ..conftest import SHARED, shared_file

TINYBOT_SAMPLES = SHARED / "data" / "tinyislands" / "tinybot-samples.txt"


@pytest.fixture
def tinybot_sample_lines() -> list[str]:
    return shared_file(TINYBOT_SAMPLES).read_text().splitlines()


def random_record(seed: int, rules: str = "published") -> tiny_islands.TinyIslandsRecord:
    """A finished random legal game with its replayed score as the stated one."""
    offers = two_deck_offers(np.random.default_rng(seed))
    placements, traces, lens = random_game(offers, seed)
    record = tiny_islands.from_arrays(offers, placements, traces, lens, rules=rules)
    record.recorded = tiny_islands.replay(record).score
    return record


def random_tinybot_line(seed: int) -> str:
    return tinybot.write_line(random_record(seed, "tinybot"))


def bot_record(seed=4):
    """(offers, the heuristic bot's game on them)."""
    offers = two_deck_offers(np.random.default_rng(seed))
    return offers, tiny_islands.from_arrays(offers, *TB.play(offers, TB.HEURISTIC, 0, seed, 0, TB.TWO_DECK),
                                            regions=True)


TINYBOT_NET = SHARED / "data" / "tinyislands" / "tinybot-net" / "tb10_1.onnx"
DRAW_PRIORITY = SHARED / "data" / "tinyislands" / "tinybot-net" / "draw-priority.json"


@pytest.fixture(scope="session")
def shared_net():
    """TinyBot's network, loaded from ../shared (skipped where absent)."""
    from scorebook.engines.tiny_islands.net import load_net
    return load_net(shared_file(TINYBOT_NET).read_bytes(), threads=2)


def tiny_model_bytes(local_planes: int = 21, seed: int = 0) -> bytes:
    """A small ONNX model with the network's input and output names, a linear map of the
    inputs, declared for a batch of one like TinyBot's (its Reshape constant too): enough to
    drive every part of the plumbing without the real network. ``local_planes`` other than
    21 makes a model Scorebook must refuse."""
    onnx = pytest.importorskip("onnx")
    from onnx import TensorProto, helper, numpy_helper
    rng = np.random.default_rng(seed)
    width = local_planes * 81 + 11
    weights = {"w_policy": (width, 649), "w_value": (width, 8), "w_land": (width, 81)}
    inits = [numpy_helper.from_array(rng.normal(size=shape).astype(np.float32), name)
             for name, shape in weights.items()]
    inits.append(numpy_helper.from_array(np.array([1, 1, 9, 9], np.int64), "land_shape"))
    nodes = [helper.make_node("Flatten", ["input_local"], ["flat"], axis=1),
             helper.make_node("Concat", ["flat", "input_global"], ["features"], axis=1),
             helper.make_node("MatMul", ["features", "w_policy"], ["output_policy"]),
             helper.make_node("MatMul", ["features", "w_value"], ["output_value"]),
             helper.make_node("MatMul", ["features", "w_land"], ["land_flat"]),
             helper.make_node("Reshape", ["land_flat", "land_shape"], ["output_land"])]
    value = lambda name, shape: helper.make_tensor_value_info(name, TensorProto.FLOAT, shape)  # noqa: E731
    graph = helper.make_graph(nodes, "tiny", [value("input_local", [1, local_planes, 9, 9]),
                                              value("input_global", [1, 11])],
                              [value("output_policy", [1, 649]), value("output_value", [1, 8]),
                               value("output_land", [1, 1, 9, 9])], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 7
    return model.SerializeToString()


@pytest.fixture
def tiny_net_file(tmp_path):
    pytest.importorskip("onnxruntime")
    path = tmp_path / "tiny.onnx"
    path.write_bytes(tiny_model_bytes())
    return path
