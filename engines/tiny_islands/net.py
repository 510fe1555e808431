"""TinyBot's trained network as Scorebook's engine (``shared/specs/tinybot-net.md``).

The network file is the user's (TinyBot's ``tb10_1.onnx``, MIT licence): the layers above
read it and hand its bytes to :func:`load_net`, which checks that it is the model Scorebook
drives (input and output names and shapes) and runs it on onnxruntime's CPU provider. The
model declares a batch of one; where its batch dimension can be freed (the declared shapes
and the leading 1 of its Reshape constants), batches run in one call, with outputs identical
to one position at a time (``batched``), else a batch is run row by row.
"""
from __future__ import annotations

import hashlib

import numpy as np

from .net_encoding import GLOBAL, INPUT_NAMES, INPUT_SHAPES, LOCAL, OUTPUT_NAMES, OUTPUT_SHAPES, POLICY

INSTALL_HINT = "pip install 'scorebook[net]'"


class NetUnavailable(RuntimeError):
    """onnxruntime (or onnx) is not installed."""


class BadNet(ValueError):
    """Not TinyBot's network: not an ONNX model, or other input and output names or shapes."""


def _runtime():
    try:
        import onnx
        import onnxruntime
    except ImportError as exc:
        raise NetUnavailable(f"the TinyBot network needs onnxruntime and onnx: {INSTALL_HINT}") from exc
    return onnx, onnxruntime


def _dims(value) -> list:
    return [d.dim_param if d.HasField("dim_param") else (d.dim_value if d.HasField("dim_value") else None)
            for d in value.type.tensor_type.shape.dim]


def _check_signature(graph) -> None:
    """The declared inputs and outputs: their names in order, and their shapes past the batch."""
    for kind, values, names, shapes in (("inputs", graph.input, INPUT_NAMES, INPUT_SHAPES),
                                        ("outputs", graph.output, OUTPUT_NAMES, OUTPUT_SHAPES)):
        # initializers may be listed as inputs in older models
        init = {i.name for i in graph.initializer}
        found = [v for v in values if v.name not in init]
        got = [v.name for v in found]
        if got != list(names):
            raise BadNet(f"the model's {kind} are {got}, expected {list(names)}")
        for v, shape in zip(found, shapes):
            dims = _dims(v)
            if len(dims) != len(shape) + 1 or tuple(dims[1:]) != shape or dims[0] not in (1, None, "") \
                    and not isinstance(dims[0], str):
                raise BadNet(f"the model's {v.name} has shape {dims}, expected [1, {', '.join(map(str, shape))}]")
            if v.type.tensor_type.elem_type != 1:  # FLOAT
                raise BadNet(f"the model's {v.name} is not float32")


def _free_batch(onnx, model) -> bytes:
    """The model with a symbolic batch dimension: the declared shapes, and Reshape shape
    constants whose leading 1 is the batch (0 copies the input's dimension)."""
    from onnx import numpy_helper
    shape_inputs = {n.input[1] for n in model.graph.node if n.op_type == "Reshape" and len(n.input) > 1}
    for init in model.graph.initializer:
        if init.name in shape_inputs:
            a = numpy_helper.to_array(init)
            if a.ndim == 1 and a.size >= 2 and a[0] == 1:
                a = a.copy()
                a[0] = 0
                init.CopyFrom(numpy_helper.from_array(a, init.name))
    for v in list(model.graph.input) + list(model.graph.output):
        dims = v.type.tensor_type.shape.dim
        if dims:
            dims[0].dim_param = "batch"
    return model.SerializeToString()


class TinyBotNet:
    """A loaded network: ``policy`` (and ``outputs``) over a batch of encoded positions."""

    def __init__(self, data: bytes, threads: int = 1):
        onnx, ort = _runtime()
        self.sha256 = hashlib.sha256(data).hexdigest()
        try:
            model = onnx.load_from_string(data)
        except Exception as exc:  # protobuf's DecodeError and friends: not a model
            raise BadNet(f"not an ONNX model ({type(exc).__name__})") from None
        if not model.graph.node:
            raise BadNet("not an ONNX model (no graph)")
        _check_signature(model.graph)
        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        options.log_severity_level = 3
        self.threads = threads
        self.batched = False
        try:
            self._session = ort.InferenceSession(_free_batch(onnx, model), options, providers=["CPUExecutionProvider"])
            self._check_batch(2)
            self.batched = True
        except BadNet:
            raise
        except Exception:
            try:
                self._session = ort.InferenceSession(data, options, providers=["CPUExecutionProvider"])
                self._check_batch(1)
            except BadNet:
                raise
            except Exception as exc:
                raise BadNet(f"onnxruntime cannot run the model: {str(exc).splitlines()[0][:200]}") from None

    def _check_batch(self, n: int) -> None:
        out = self._run(np.zeros((n, LOCAL), np.float32), np.zeros((n, GLOBAL), np.float32))
        for o, name, shape in zip(out, OUTPUT_NAMES, OUTPUT_SHAPES):
            if o.shape != (n,) + shape or not np.isfinite(o).all():
                raise BadNet(f"the model's {name} came out with shape {list(o.shape)}")

    def _run(self, local: np.ndarray, glob: np.ndarray) -> list:
        feeds = {INPUT_NAMES[0]: local.reshape((-1,) + INPUT_SHAPES[0]), INPUT_NAMES[1]: glob}
        return self._session.run(list(OUTPUT_NAMES), feeds)

    def outputs(self, local: np.ndarray, glob: np.ndarray) -> list[np.ndarray]:
        """The three outputs for a batch (``local`` [B, 1701], ``glob`` [B, 11], float32)."""
        if self.batched or local.shape[0] == 1:
            return self._run(local, glob)
        rows = [self._run(local[i:i + 1], glob[i:i + 1]) for i in range(local.shape[0])]
        return [np.concatenate([r[k] for r in rows]) for k in range(len(OUTPUT_NAMES))]

    def policy(self, local: np.ndarray, glob: np.ndarray) -> np.ndarray:
        """The policy logits [B, 649]."""
        return self.outputs(local, glob)[0].reshape(-1, POLICY)


def load_net(data: bytes, threads: int = 1) -> TinyBotNet:
    """The network from its file's bytes; raises NetUnavailable or BadNet with a one-line reason."""
    return TinyBotNet(data, threads)
