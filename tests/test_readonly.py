"""Read-only memory: no chain of hand-offs loses the READ_ONLY flag, and no dltensor operation
writes into read-only memory.

The sources are read-only in name only: their bytes are writable underneath (a read-only NumPy
array's buffer, or a writable buffer a producer exports with READ_ONLY), so a write that slipped
through would change them, and every test compares the bytes before and after.

Hypothesis chains views (``x[1:, ...]``, ``x.T``, ``reshape``, ``flip``, ...) and hand-offs
(through NumPy, DLPack capsules, ``asarray``/``from_dlpack``) in any order; after every step a
result that still shares the memory must say READ_ONLY everywhere: ``x.read_only``, the flag in
the struct of every capsule it exports, NumPy's ``writeable``, and the capsule PyTorch receives.
(PyTorch has no read-only tensors: it drops the flag on import. That is PyTorch's loss, recorded
in docs/reliability.md; dltensor's duty ends with a capsule that says READ_ONLY.)

Legacy capsules cannot say READ_ONLY, so what arrives in one is writable here (JAX's immutable
buffers included: marking them read-only would stop them going back to JAX, which asks for
legacy capsules only); docs/reliability.md records the trade-off.
"""

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import producers as P
import dltensor


def _numpy_read_only(a):
    a.flags.writeable = False
    return a


# name: a function of a writable buffer returning a read-only dltensor array over it.
SOURCES = {
    "numpy read-only": lambda buf: dltensor.asarray(_numpy_read_only(buf.view())),
    "numpy read-only, capsule": lambda buf: dltensor.from_dlpack(
        _numpy_read_only(buf.view()).__dlpack__(max_version=(1, 0))),
    "producer READ_ONLY": lambda buf: dltensor.from_dlpack(P.from_numpy(buf, flags=P.READ_ONLY)),
    "producer READ_ONLY, cuda_host": lambda buf: dltensor.from_dlpack(
        P.from_numpy(buf, flags=P.READ_ONLY, device=(P.CUDA_HOST, 0))),
    "producer READ_ONLY, bare capsule": lambda buf: dltensor.asarray(
        P.from_numpy(buf, flags=P.READ_ONLY).__dlpack__(max_version=(1, 3))),
    # (flagged writable, but elements share memory: a stride of 0, as PyTorch's expand has)
    "producer stride 0": lambda buf: dltensor.from_dlpack(
        P.from_numpy(buf, strides=_sharing(buf))),
    "torch stride 0": lambda buf: dltensor.asarray(torch.from_numpy(buf).as_strided(
        buf.shape, _sharing(buf))),
}


def _sharing(buf):
    """Strides, in elements, for buf's shape with a 0 on its first axis of more than one
    element: a view of part of buf whose elements share memory."""
    strides = [s // buf.itemsize for s in buf.strides]
    strides[next(i for i, n in enumerate(buf.shape) if n > 1)] = 0
    return tuple(strides)

# name: a step from an array to an array that may share its memory (None: does not apply).
STEPS = {
    "x[1:, ...]": lambda x: x[1:, ...] if x.ndim and x.shape[0] > 1 else None,
    "x[::-1, ...]": lambda x: x[::-1, ...] if x.ndim else None,
    "x[..., ::2]": lambda x: x[..., ::2] if x.ndim else None,
    "x[0, ...]": lambda x: x[0, ...] if x.ndim and x.shape[0] else None,
    "x[..., None]": lambda x: x[..., None],
    "x.T": lambda x: x.T if x.ndim == 2 else None,
    "x.mT": lambda x: x.mT if x.ndim >= 2 else None,
    "reshape(-1)": lambda x: dltensor.reshape(x, (-1,)),
    "reshape(copy=False)": lambda x: _or_none(lambda: dltensor.reshape(x, (-1,), copy=False)),
    "permute_dims": lambda x: dltensor.permute_dims(x, tuple(range(x.ndim))[::-1]),
    "flip": lambda x: dltensor.flip(x),
    "expand_dims": lambda x: dltensor.expand_dims(x, axis=0),
    "squeeze": lambda x: dltensor.squeeze(x, axis=0) if x.ndim and x.shape[0] == 1 else None,
    "broadcast_to": lambda x: dltensor.broadcast_to(x, (2, *x.shape)),
    "moveaxis": lambda x: dltensor.moveaxis(x, 0, -1) if x.ndim else None,
    "unstack()[0]": lambda x: dltensor.unstack(x)[0] if x.ndim and x.shape[0] else None,
    "astype(same, copy=False)": lambda x: dltensor.astype(x, x.dtype, copy=False),
    "asarray": lambda x: dltensor.asarray(x),
    "asarray(copy=False)": lambda x: dltensor.asarray(x, copy=False),
    "from_dlpack": lambda x: dltensor.from_dlpack(x),
    "to_device(cpu)": lambda x: x.to_device("cpu") if x.device == dltensor.asarray(0).device
    else None,
    "capsule 1.0": lambda x: dltensor.from_dlpack(x.__dlpack__(max_version=(1, 0))),
    "capsule 1.3": lambda x: dltensor.asarray(x.__dlpack__(max_version=(1, 3))),
    "via numpy": lambda x: dltensor.asarray(np.from_dlpack(x)),
    "via numpy capsule": lambda x: dltensor.from_dlpack(
        np.from_dlpack(x).__dlpack__(max_version=(1, 0))),
}


def _or_none(f):
    try:
        return f()
    except (ValueError, BufferError):  # copy=False where a copy is needed: refused, fine
        return None


class Stop(Exception):
    pass


class Spy:
    """Hands a consumer x's capsules and keeps the flags of each one it handed; with
    ``withhold``, keeps the capsule and raises Stop instead."""

    def __init__(self, x, withhold=False):
        self.x, self.flags, self.withhold = x, [], withhold

    def __dlpack_device__(self):
        return self.x.__dlpack_device__()

    def __dlpack__(self, **kwargs):
        cap = self.x.__dlpack__(**kwargs)
        name = P.capsule_name(cap)
        self.flags.append(P.capsule_flags(cap) if name.endswith(b"versioned") else None)
        if self.withhold:
            raise Stop
        return cap


def shares(x, buf) -> bool:
    return x.size > 0 and np.shares_memory(np.asarray(x), buf)


def assert_says_read_only(x, where):
    assert x.read_only, f"{where}: lost read-only"
    cap = x.__dlpack__(max_version=(1, 0))
    assert P.capsule_name(cap) == b"dltensor_versioned"
    assert P.capsule_flags(cap) & P.READ_ONLY, f"{where}: capsule without READ_ONLY"
    del cap
    with pytest.raises(BufferError):  # a legacy capsule cannot say read-only
        x.__dlpack__()
    assert not np.from_dlpack(x).flags.writeable, f"{where}: NumPy may write"
    assert dltensor.from_dlpack(x).read_only
    # PyTorch 2.13 aborts the process on negative strides (pytorch#188023), NumPy's exports
    # too: it sees only what it asks for, and then gets nothing.
    spy = Spy(x, withhold=any(s < 0 for s in x.strides))
    try:
        torch.from_dlpack(spy)
    except (Stop, BufferError):  # BufferError: PyTorch refuses pinned memory it did not make
        pass
    assert spy.flags and all(f is not None and f & P.READ_ONLY for f in spy.flags), \
        f"{where}: PyTorch was handed a capsule without READ_ONLY"


@settings(max_examples=60, deadline=None, database=None)
@given(source=st.sampled_from(sorted(SOURCES)),
       steps=st.lists(st.sampled_from(sorted(STEPS)), min_size=1, max_size=5),
       shape=st.sampled_from([(3, 4), (1, 6), (6,), (2, 1, 3)]))
def test_no_chain_of_hand_offs_loses_read_only(source, steps, shape):
    buf = np.arange(np.prod(shape), dtype=np.float64).reshape(shape)
    before = buf.tobytes()
    x = SOURCES[source](buf)
    assert_says_read_only(x, source)
    path = [source]
    for name in steps:
        y = STEPS[name](x)
        if y is None:
            continue
        path.append(name)
        if shares(y, buf):  # a copy (reshape of a transpose, say) has its own memory
            assert_says_read_only(y, " -> ".join(path))
        x = y
    assert buf.tobytes() == before


# --- nothing writes -----------------------------------------------------------------------------

def _writes(x):
    """Every way to ask dltensor to write into x: (name, thunk)."""
    # Values that change the bytes, so a write that slipped through shows.
    one = {"bool": True, "signed integer": 2, "real floating": 2.0}[x.dtype.spec_kind]
    out = [
        ("x[...] = scalar", lambda: x.__setitem__(Ellipsis, one)),
        ("x[0, ...] = scalar", lambda: x.__setitem__((0, Ellipsis), one)),
        ("x[mask] = scalar", lambda: x.__setitem__(x == x, one)),
        ("x[...] = flip(x)", lambda: x.__setitem__(Ellipsis, dltensor.flip(x))),
        ("x[int array] = scalar", lambda: x.__setitem__(
            (dltensor.asarray([0, 1]),) + (0,) * (x.ndim - 1), one)),
        ("x @= x", lambda: x.__imatmul__(dltensor.matrix_transpose(x) @ x)),
    ]
    for op in ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "and", "or", "xor",
               "lshift", "rshift"):
        method = getattr(type(x), f"__i{op}__")
        out.append((f"__i{op}__ scalar", lambda m=method: _call_inplace(m, x, one)))
        out.append((f"__i{op}__ array", lambda m=method: _call_inplace(m, x, x)))
    return out


def _call_inplace(method, x, other):
    r = method(x, other)
    if r is NotImplemented:  # what `x op= other` would then do: a TypeError from Python
        raise TypeError("unsupported operand")
    return r


@pytest.mark.parametrize("dtype", [np.float64, np.int32, np.bool_])
@pytest.mark.parametrize("source", sorted(SOURCES))
@pytest.mark.parametrize("view", ["x", "x[1:, ...]", "x.T", "x[::-1, ...]", "via numpy"])
def test_no_dltensor_operation_writes_read_only_memory(source, view, dtype):
    buf = (np.arange(12) % 3).astype(dtype).reshape(3, 4)
    before = buf.tobytes()
    x = {"x": lambda x: x, "x[1:, ...]": STEPS["x[1:, ...]"], "x.T": STEPS["x.T"],
         "x[::-1, ...]": STEPS["x[::-1, ...]"], "via numpy": STEPS["via numpy"]}[view](
        SOURCES[source](buf))
    assert x.read_only
    for name, write in _writes(x):
        with pytest.raises((ValueError, TypeError)):
            write()
        assert buf.tobytes() == before, f"{name} wrote into read-only memory"
    # Functions that return new arrays must leave their inputs alone too.
    for f in (dltensor.sort, dltensor.argsort, dltensor.flip,
              lambda v: dltensor.cumulative_sum(v, axis=0),
              lambda v: dltensor.roll(v, 1), lambda v: dltensor.astype(v, dltensor.float32),
              lambda v: dltensor.where(v == v, v, v), dltensor.unique_values):
        try:
            f(x)
        except TypeError:  # not defined for this dtype (cumulative_sum of bool, say)
            pass
        assert buf.tobytes() == before
    assert x.read_only


def test_the_table_of_read_only_cupy_arrays_follows_their_lives():
    # CuPy arrays have no writeable flag; dltensor keeps the read-only ones in a table keyed by
    # id. Exercised here with a stand-in that has what the table uses (a weakref and .base):
    # a marked array and its views are read-only, others not, and the entry goes with it.
    from dltensor._array import _READ_ONLY, _array_read_only, inherit_read_only, mark_read_only

    class Backend:
        def __init__(self, base=None):
            self.base = base

    before = len(_READ_ONLY)
    root, other = Backend(), Backend()
    mark_read_only(root)
    view = Backend(base=root)
    assert _array_read_only(root) and _array_read_only(view) and not _array_read_only(other)
    # a broadcast: a marked view of a writable root; its own views have that root as base
    broadcast = Backend(base=other)
    mark_read_only(broadcast)
    of_broadcast = inherit_read_only(broadcast, Backend(base=other))
    copy = inherit_read_only(broadcast, Backend())  # (a copy has no base: writable)
    assert _array_read_only(of_broadcast) and not _array_read_only(copy)
    assert not _array_read_only(inherit_read_only(other, Backend(base=other)))
    del root, view, broadcast, of_broadcast
    assert len(_READ_ONLY) == before  # (no leak, and no stale id to match a new object)
    a = np.ones(2)
    mark_read_only(a)
    assert not a.flags.writeable


@pytest.mark.parametrize("flags, writable", [(0, True), (1, False)])
def test_an_empty_import_is_as_writable_as_its_producer_said(flags, writable):
    # (an empty tensor's NumPy view is made apart, with no memory to share: its flag set there)
    x = dltensor.from_dlpack(P.from_numpy(np.empty((0, 3)), flags=flags))
    assert x.read_only is not writable
    assert np.asarray(x).flags.writeable is writable


# name: a function of torch tensor t whose elements share memory, importing it (each path in:
# NumPy's C consumer of PyTorch's C exporter, our consumer of either capsule kind).
SHARED_IMPORTS = {
    "asarray": dltensor.asarray,
    "from_dlpack": dltensor.from_dlpack,
    "legacy bare capsule": lambda t: dltensor.asarray(torch.utils.dlpack.to_dlpack(t)),
    "versioned capsule": lambda t: dltensor.from_dlpack(t.__dlpack__(max_version=(1, 3))),
}


@pytest.mark.parametrize("how", SHARED_IMPORTS.values(), ids=SHARED_IMPORTS.keys())
def test_an_import_whose_elements_share_memory_is_read_only(how):
    # PyTorch's expand exports a stride of 0: writes of several values into one element keep
    # only the last (at 18ea5d0 `x += [[1, 2, 3]] * 4` left t's row [4, 5, 6], not an error).
    # Read-only, as dltensor's own broadcasts are and as PyTorch refuses in-place writes there;
    # read and handed on with no copy.
    row = torch.arange(3.0)
    t = row.expand(4, 3)
    x = how(t)
    assert x.read_only and x.data_ptr == t.data_ptr() and x.strides == (0, 1)
    for write in (lambda: x.__iadd__(dltensor.ones((4, 3), dtype=x.dtype)),
                  lambda: x.__setitem__(Ellipsis, 5.0), lambda: x.__setitem__((0, 0), 5.0)):
        with pytest.raises(ValueError, match=r"read-only \(its elements share memory: a stride "
                                             r"of 0 along an axis of more than one element"):
            write()
    assert row.tolist() == [0.0, 1.0, 2.0]
    with pytest.raises(ValueError, match=r"read-only \(read-only memory, or a view of"):
        x[0, ...] += 1.0  # (a view of it: not "its producer exported it so", which it did not)
    assert dltensor.sum(x, axis=0).tolist() == [0.0, 4.0, 8.0]
    assert_says_read_only(x, "import")
    back = torch.from_dlpack(x)
    assert back.data_ptr() == t.data_ptr() and back.stride() == (0, 1)
    y = dltensor.asarray(x, copy=True)
    y += 1.0
    assert not y.read_only and y.tolist() == [[1.0, 2.0, 3.0]] * 4


@pytest.mark.parametrize("shape, strides", [((1, 3), (0, 1)), ((0, 3), (0, 1)), ((3,), (1,))],
                         ids=["extent 1", "no elements", "compact"])
def test_a_stride_of_0_where_no_two_elements_meet_is_writable(shape, strides):
    buf = np.arange(3.0)
    x = dltensor.from_dlpack(P.from_numpy(buf, shape=shape, strides=strides))
    assert not x.read_only
    x += 1.0
    assert buf.tolist() == ([1.0, 2.0, 3.0] if 0 not in shape else [0.0, 1.0, 2.0])


def test_a_held_tensor_whose_elements_share_memory_is_handed_on_read_only():
    # (our consumer's flag, as dltensor's broadcast of a held tensor sets it; the pointer and
    # layout untouched, never read)
    x = dltensor.from_dlpack(P.Producer(data=0x10000, device=(P.ROCM, 0), dtype=(2, 32, 1),
                                        shape=(4, 3), strides=(0, 1)))
    assert x.read_only
    cap = x.__dlpack__(max_version=(1, 3))
    f = P.tensor_fields(cap)
    assert P.capsule_flags(cap) & P.READ_ONLY
    assert f["data"] == 0x10000 and f["shape"] == (4, 3) and f["strides"] == (0, 1)


def test_the_refusal_says_why_the_array_is_read_only():
    # In-place operators said "its producer said so" of a broadcast, which no producer made.
    buf = np.arange(4.0)
    buf.flags.writeable = False
    broadcast = dltensor.broadcast_to(dltensor.asarray(np.arange(2.0)), (3, 2))
    # NumPy's own import of a versioned export flagged read-only (JAX 0.12's arrays come so)
    # is the producer's word too; of a legacy one, NumPy's (it makes them all read-only).
    legacy = np.from_dlpack(P.from_numpy(np.arange(4.0), versioned=False))
    assert not legacy.flags.writeable
    for x, why in ((dltensor.from_dlpack(P.from_numpy(buf, flags=1)),
                    "its producer exported it so"),
                   (dltensor.asarray(np.from_dlpack(buf)[1:]), "its producer exported it so"),
                   (dltensor.asarray(legacy), "read-only memory"),
                   (dltensor.asarray(buf), "read-only memory"),
                   (broadcast, "its elements share memory")):
        for write in (lambda: x.__setitem__(Ellipsis, 1.0), lambda: x.__iadd__(1.0),
                      lambda: x.__imatmul__(dltensor.eye(x.shape[-1]))):
            with pytest.raises(ValueError, match=f"read-only \\({why}.*; write into a copy"):
                write()
