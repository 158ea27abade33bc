"""Property-based fuzzing of the DLPack consumer over a REAL buffer.

Hypothesis builds DLTensor descriptors (dtype, shape, strides with negative and zero ones, NULL
strides, data pointer and byte_offset split any way, version, flags, device) through the test
producer in tests/producers.py, all describing bytes of one NumPy buffer. Every accepted
descriptor must read exactly the bytes index arithmetic over the raw buffer predicts (an
independent computation: no NumPy striding involved) and report the metadata it was given;
every descriptor with one defect must be refused with BufferError. In both cases the producer's
deleter runs exactly once, and ``live_count()`` ends where it started.

Accepted descriptors stay inside the buffer: a DLTensor carries no buffer size, so dltensor
cannot tell an out-of-bounds descriptor from a valid one (docs/reliability.md).

``DLTENSOR_FUZZ_EXAMPLES`` sets the number of examples per test (CI: a few hundred;
tests/reliability/soak.py: tens of thousands).
"""

import collections
import gc
import os

import ml_dtypes
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import producers as P
import dltensor
from dltensor._dlpack import live_count

EXAMPLES = int(os.environ.get("DLTENSOR_FUZZ_EXAMPLES", "300"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.function_scoped_fixture])
STATS = collections.Counter()  # read by tests/reliability/soak.py

# Random bytes for every dtype but bool (whose bytes must be 0 or 1 to be valid values).
# 16 KiB: room for the largest descriptor drawn (5**4 compact complex128 elements, 10000 bytes).
RAW = np.random.default_rng(20251201).integers(0, 256, 16384, dtype=np.uint8)
RAW_BOOL = RAW % 2

# (code, bits) -> NumPy dtype dltensor computes with, or None for dtypes it only holds.
DTYPES = {
    (0, 8): np.int8, (0, 16): np.int16, (0, 32): np.int32, (0, 64): np.int64,
    (1, 8): np.uint8, (1, 16): np.uint16, (1, 32): np.uint32, (1, 64): np.uint64,
    (2, 16): np.float16, (2, 32): np.float32, (2, 64): np.float64,
    (5, 64): np.complex64, (5, 128): np.complex128, (6, 8): np.bool_,
    (4, 16): ml_dtypes.bfloat16, (10, 8): ml_dtypes.float8_e4m3fn,
    (12, 8): ml_dtypes.float8_e5m2, (13, 8): ml_dtypes.float8_e5m2fnuz,
    (14, 8): ml_dtypes.float8_e8m0fnu,
    (0, 4): None, (1, 1): None, (1, 2): None, (3, 64): None, (15, 6): None, (17, 4): None,
}
NUMPY_EXPORTS = {k for k, v in DTYPES.items() if v is not None and k[0] in (0, 1, 2, 5, 6)}
CPU_READABLE = [(1, 0), (3, 0), (11, 0), (13, 0)]
HELD_DEVICES = [(2, 0), (7, 0), (8, 1), (10, 3), (4, 0), (14, 0), (18, 0)]  # never read


@pytest.fixture(autouse=True)
def no_collection():
    """Collector off: another test's garbage must not move live_count() mid-example."""
    gc.disable()
    yield
    gc.enable()


@st.composite
def descriptors(draw):
    """A valid descriptor over RAW: the Producer's fields plus what the checks need."""
    code, bits = draw(st.sampled_from(sorted(DTYPES)))
    itemsize = max(bits // 8, 1)
    ndim = draw(st.integers(0, 4))
    shape = tuple(draw(st.lists(st.integers(0, 5), min_size=ndim, max_size=ndim)))
    null_strides = ndim > 0 and draw(st.integers(0, 5)) == 0
    if null_strides:  # compact row-major, as DLPack < 1.2 meant by NULL
        strides, acc = [], 1
        for s in reversed(shape):
            strides.insert(0, acc)
            acc *= max(s, 1)
        strides = tuple(strides)
    else:
        strides = tuple(draw(st.lists(st.integers(-6, 6), min_size=ndim, max_size=ndim)))
    size = int(np.prod(shape))
    # Element offsets reached, relative to element 0: keep them all inside RAW.
    low = sum(min(0, st_ * (s - 1)) for s, st_ in zip(shape, strides) if s)
    high = sum(max(0, st_ * (s - 1)) for s, st_ in zip(shape, strides) if s)
    first, last = -low * itemsize, len(RAW) - (high + 1) * itemsize
    start = draw(st.integers(first, last))  # byte position of element 0
    if draw(st.booleans()):  # aligned half the time (first is a multiple of itemsize)
        start -= start % itemsize
    # Split start between the data pointer and byte_offset, the pointer possibly before RAW.
    to_data = draw(st.integers(-64, start))
    data = RAW.ctypes.data + to_data if code != 6 else RAW_BOOL.ctypes.data + to_data
    null_data = size == 0 and draw(st.booleans())
    versioned = draw(st.booleans())
    version = (1, draw(st.sampled_from([0, 1, 2, 3, 4, 2**32 - 1])))
    flags = draw(st.sampled_from([0, 1, 2, 3, 4, 5, 1 << 40, (1 << 64) - 1, (1 << 64) - 2]))
    device = draw(st.sampled_from(CPU_READABLE * 3 + HELD_DEVICES))
    return dict(code=code, bits=bits, itemsize=itemsize, shape=shape, strides=strides,
                null_strides=null_strides, start=start, data=0 if null_data else data,
                byte_offset=start - to_data, versioned=versioned, version=version,
                flags=flags, device=device)


def producer(d, **overrides):
    fields = dict(buffer=RAW_BOOL if d["code"] == 6 else RAW, data=d["data"],
                  device=d["device"], dtype=(d["code"], d["bits"], 1), shape=d["shape"],
                  strides=None if d["null_strides"] else d["strides"],
                  byte_offset=d["byte_offset"], flags=d["flags"], versioned=d["versioned"],
                  version=d["version"])
    fields.update(overrides)
    return P.Producer(**fields)


IMPORTS = {
    "from_dlpack": lambda p: dltensor.from_dlpack(p),
    "asarray": lambda p: dltensor.asarray(p),
    "from_dlpack(capsule)": lambda p: dltensor.from_dlpack(p.__dlpack__(max_version=(1, 3))),
    "asarray(capsule)": lambda p: dltensor.asarray(p.__dlpack__(max_version=(1, 3))),
}


def expected_bytes(d) -> bytes:
    """The bytes a descriptor names, by index arithmetic over the raw buffer, in C order."""
    raw = RAW_BOOL if d["code"] == 6 else RAW
    n = d["itemsize"]
    if not d["shape"]:
        return raw[d["start"]:d["start"] + n].tobytes()
    index = np.indices(d["shape"]).reshape(len(d["shape"]), -1)
    offsets = d["start"] + (np.array(d["strides"])[:, None] * index).sum(axis=0) * n
    return raw[offsets[:, None] + np.arange(n)].tobytes()


def as_bytes(a: np.ndarray) -> bytes:
    """An array's element bytes in C order, whatever its dtype and strides."""
    return a.view(np.dtype((np.void, a.dtype.itemsize))).tobytes()


@FUZZ
@given(d=descriptors(), how=st.sampled_from(sorted(IMPORTS)))
def test_accepted_descriptors_read_exactly_their_elements(d, how):
    p = producer(d)
    live = live_count()
    x = IMPORTS[how](p)
    assert p.deleter_calls == 0
    assert x.shape == d["shape"]
    assert x.strides == d["strides"]
    assert x.data_ptr == (d["data"] or 0) + d["byte_offset"]
    # (legacy capsules cannot say so; elements sharing memory are read-only whatever it says)
    shared = 0 not in d["shape"] and any(n > 1 and s == 0 for n, s in zip(d["shape"],
                                                                          d["strides"]))
    assert x.read_only is (bool(d["versioned"] and d["flags"] & 1) or shared)
    assert (x.device.device_type, x.device.device_id) == d["device"]
    computable = DTYPES[d["code"], d["bits"]] is not None and d["device"] in CPU_READABLE
    if computable:
        a = np.asarray(x)
        assert a.dtype == DTYPES[d["code"], d["bits"]]
        assert as_bytes(a) == expected_bytes(d)
        assert a.flags.writeable is not x.read_only
        del a
        if (d["code"], d["bits"]) in NUMPY_EXPORTS and d["device"] == (1, 0):
            b = np.from_dlpack(x)  # handed on: the same memory, the same elements
            assert as_bytes(b) == expected_bytes(d)
            assert b.size == 0 or b.__array_interface__["data"][0] == x.data_ptr
            del b
        STATS["accepted and read"] += 1
    else:
        with pytest.raises((TypeError, BufferError, RuntimeError)):
            np.asarray(x)
        STATS["accepted and held"] += 1
    # Re-exported and re-imported, the descriptor survives unchanged. (DLPack 1.1 and later
    # can say a sub-byte tensor is padded, one element per byte: 1.0 is refused for those.)
    y = dltensor.from_dlpack(x.__dlpack__(max_version=(1, 3)))
    assert y._tensor.flags & 4 == (d["flags"] & 4 if d["versioned"] and x.dtype.bits < 8
                                   else 0)
    assert (y.shape, y.read_only, y.device) == (x.shape, x.read_only, x.device)
    if y.size:  # an empty array has no memory to share (NumPy's view of one is fresh)
        assert y.data_ptr == x.data_ptr
        # (the stride of an axis of extent 1 is never used; NumPy 2.2 exports it as 1)
        assert _used_strides(y) == _used_strides(x)
    del x, y
    assert p.deleter_calls == 1, "released exactly once when the last holder is gone"
    assert live_count() == live


def _used_strides(x):
    return [s for s, n in zip(x.strides, x.shape) if n > 1]


# One defect each, applied to a valid descriptor; all are DLPack-level: BufferError.
DEFECTS = {
    "lanes": lambda draw, d: dict(dtype=(d["code"], d["bits"],
                                         draw(st.sampled_from([0, 2, 3, 4, 16, 65535])))),
    # No code takes any of these widths.
    "bits": lambda draw, d: dict(dtype=(d["code"], draw(st.sampled_from(
        [0, 3, 5, 7, 12, 24, 48, 96, 255])), 1)),
    "dtype code": lambda draw, d: dict(dtype=(draw(st.integers(18, 255)), d["bits"], 1)),
    "device type": lambda draw, d: dict(device=(draw(st.sampled_from(
        [0, 5, 6, 19, 20, 21, 99, 2**31 - 1, -1, -2**31])), 0)),
    "device id": lambda draw, d: dict(device=(d["device"][0], draw(st.sampled_from(
        [-1, -2, -2**31])))),
    "version major": lambda draw, d: dict(versioned=True, version=(
        draw(st.sampled_from([0, 2, 3, 255, 2**32 - 1])), draw(st.integers(0, 5)))),
    "ndim": lambda draw, d: _bad_ndim(draw),
    "negative extent": lambda draw, d: _negative_extent(draw, d),
    "byte_offset": lambda draw, d: dict(byte_offset=draw(st.integers(2**63, 2**64 - 1))),
    "NULL data": lambda draw, d: dict(data=0, shape=(2, draw(st.integers(1, 4))),
                                      strides=(draw(st.integers(-4, 4)), 1),
                                      null_strides=False),
    "span overflow": lambda draw, d: dict(shape=(3, draw(st.integers(2, 4))), strides=(
        draw(st.sampled_from([1, -1])) * draw(st.integers(2**62, 2**63 - 1)), 1)),
    "element count overflow": lambda draw, d: dict(
        shape=(draw(st.integers(2**32, 2**40)), draw(st.integers(2**32, 2**40))),
        strides=None, null_strides=True),
}


def _bad_ndim(draw):
    ndim = draw(st.sampled_from([-1, -2**31, 65, 66, 80]))
    if ndim < 0:
        return dict(ndim=ndim, shape=(1,), strides=(1,))
    return dict(ndim=ndim, shape=(1,) * ndim, strides=(1,) * ndim)  # arrays as long as ndim


def _negative_extent(draw, d):
    shape = list(d["shape"] or (1,))
    shape[draw(st.integers(0, len(shape) - 1))] = draw(st.sampled_from([-1, -2, -2**63]))
    return dict(shape=tuple(shape), strides=tuple(d["strides"] or (1,))[:len(shape)] or (1,),
                null_strides=False)


@st.composite
def defective(draw):
    d = draw(descriptors())
    name = draw(st.sampled_from(sorted(DEFECTS)))
    return d, name, DEFECTS[name](draw, d)


@FUZZ
@given(case=defective(), how=st.sampled_from(sorted(IMPORTS)))
def test_defective_descriptors_are_refused_and_given_back(case, how):
    d, name, change = case
    p = producer(d, **change)
    live = live_count()
    with pytest.raises(BufferError):
        IMPORTS[how](p)
    assert len(p.exports) == 1
    assert p.deleter_calls == 1, f"{name}: refused, and given back exactly once"
    assert live_count() == live
    STATS["refused"] += 1


def test_float8_e5m2_imports_compute():
    # Found by the fuzzer: ml_dtypes' float8_e5m2 says NumPy kind 'f', and the NumPy backend
    # took it for a NumPy dtype ("data type '<f1' not understood" on first compute of any
    # imported float8_e5m2 tensor, PyTorch's say).
    raw = np.array([0x3C, 0x40, 0xC0], np.uint8)  # 1.0, 2.0, -2.0 in e5m2
    p = P.from_numpy(raw, dtype=(12, 8, 1))
    x = dltensor.from_dlpack(p)
    assert np.asarray(x).astype(np.float32).tolist() == [1.0, 2.0, -2.0]
