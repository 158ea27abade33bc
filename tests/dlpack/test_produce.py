"""Layer 1 producing: a fresh managed tensor per export, laid out as dlpack.h says, keeping its
owner alive exactly until the consumer (or the capsule's destructor) runs the deleter."""

import ctypes
import os
import subprocess
import sys

import numpy as np
import pytest

import producers as P
import dltensor  # noqa: F401  (lends NumPy's C release functions to the producer)
from dltensor._dlpack import c_release_in_use, consume_capsule, make_capsule

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class Owner:
    """Something whose references we can count."""


def _export(owner, **kw):
    a = np.arange(12, dtype=np.float64)
    fields = dict(data=a.ctypes.data, byte_offset=16, device=(1, 0), dtype=(2, 64, 1),
                  shape=(2, 5), strides=(5, 1))
    fields.update(kw)
    owner.keep = a
    return make_capsule(owner, **fields)


def test_c_release_functions_are_in_use_once_dltensor_is_imported():
    # Without them a consumer's error path turns into SystemError (numpy#32697).
    assert c_release_in_use(True) and c_release_in_use(False)


@pytest.mark.parametrize("version", [(1, 3), (1, 0)])
def test_versioned_layout(version):
    o = Owner()
    cap = _export(o, flags=P.READ_ONLY, version=version)
    assert P.capsule_name(cap) == b"dltensor_versioned"
    m = P.capsule_struct(cap)
    assert (m.version.major, m.version.minor) == version
    assert m.flags == P.READ_ONLY
    assert m.manager_ctx == id(o)  # one reference to the owner, through manager_ctx
    assert m.deleter
    f = P.tensor_fields(cap)
    assert f == dict(data=o.keep.ctypes.data, device=(1, 0), dtype=(2, 64, 1), ndim=2,
                     shape=(2, 5), strides=(5, 1), byte_offset=16)
    assert P.capsule_struct(_export(Owner())).flags == 0  # (no flags unless asked)


def test_legacy_layout():
    o = Owner()
    cap = _export(o, version=None, device=(P.METAL, 2))
    assert P.capsule_name(cap) == b"dltensor"
    m = P.capsule_struct(cap)
    assert m.manager_ctx == id(o) and m.deleter
    f = P.tensor_fields(cap)
    assert f["device"] == (P.METAL, 2) and f["shape"] == (2, 5) and f["strides"] == (5, 1)


def test_zero_dim_has_null_shape_and_strides():
    o = Owner()
    cap = _export(o, shape=(), strides=())
    t = P.capsule_struct(cap).dl_tensor
    assert t.ndim == 0 and not t.shape and not t.strides


def test_every_export_is_a_fresh_tensor():
    o = Owner()
    caps = [_export(o) for _ in range(5)]
    assert len({P.capsule_pointer(c) for c in caps}) == 5


def test_owner_is_kept_alive_until_the_unconsumed_capsule_dies():
    o = Owner()
    before = sys.getrefcount(o)
    caps = [_export(o) for _ in range(3)]
    assert sys.getrefcount(o) == before + 3
    del caps
    assert sys.getrefcount(o) == before


def test_owner_is_released_by_the_consumer():
    o = Owner()
    before = sys.getrefcount(o)
    cap = _export(o)
    mt = consume_capsule(cap)
    del cap
    assert sys.getrefcount(o) == before + 1
    mt.release()
    assert sys.getrefcount(o) == before


@pytest.mark.parametrize("version", [(1, 3), None])
def test_numpy_consumes_and_releases(version):
    o = Owner()
    before = sys.getrefcount(o)
    a = np.from_dlpack(P.CapsuleHolder(_export(o, version=version)))
    assert a.__array_interface__["data"][0] == o.keep.ctypes.data + 16
    assert a.tolist() == [[2, 3, 4, 5, 6], [7, 8, 9, 10, 11]]
    assert sys.getrefcount(o) == before + 1
    del a
    assert sys.getrefcount(o) == before


def test_numpy_refusing_sees_its_own_error():
    # NumPy refuses a Metal tensor and destroys the capsule with its exception still set: the C
    # release functions must leave that exception alone and still drop the owner.
    o = Owner()
    before = sys.getrefcount(o)
    with pytest.raises((BufferError, RuntimeError)) as info:
        np.from_dlpack(P.CapsuleHolder(_export(o, device=(P.METAL, 0), data=P.FAKE_POINTER)))
    assert not isinstance(info.value, SystemError)
    assert sys.getrefcount(o) == before


# The Python fallback (used only if NumPy's C release functions could not be borrowed).
_FALLBACK = r"""
import ctypes, gc, sys, types, importlib
pkg = types.ModuleType("dltensor"); pkg.__path__ = [sys.argv[1] + "/dltensor"]
sys.modules["dltensor"] = pkg
dl = importlib.import_module("dltensor._dlpack")
assert not dl.c_release_in_use()
class Owner: pass
o = Owner(); buf = (ctypes.c_int8 * 4)()
def export():
    return dl.make_capsule(o, data=ctypes.addressof(buf), byte_offset=0, device=(1, 0),
                           dtype=(0, 8, 1), shape=(4,), strides=(1,))
before = sys.getrefcount(o)
caps = [export() for _ in range(3)]
assert sys.getrefcount(o) == before + 3, sys.getrefcount(o)
del caps; gc.collect()
assert sys.getrefcount(o) == before            # unconsumed: the destructor ran the deleter
mt = dl.consume_capsule(export())
assert sys.getrefcount(o) == before + 1
mt.release()
assert sys.getrefcount(o) == before            # consumed: the consumer ran it, once
print("ok")
"""


def test_python_fallback_release():
    r = subprocess.run([sys.executable, "-c", _FALLBACK, ROOT], capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr
    assert "Exception ignored" not in r.stderr, r.stderr


# Exports of exports: z holds an export of y, whose last reference it is, and y holds one of x.
_CHAIN = r"""
import sys
sys.path[:0] = sys.argv[1:3]
import dltensor as dt, producers as P
from dltensor._dlpack import produce
produce._c_release.clear()  # (the Python fallback)
p = P.Producer(data=P.FAKE_POINTER, device=(P.METAL, 0), shape=(3,), dtype=(2, 32, 1))
x = dt.from_dlpack(p)  # held: its exports are dltensor's own, never NumPy's
for version in ((1, 0), None, (1, 0)):
    y = dt.asarray(x.__dlpack__(max_version=version))
    x = dt.asarray(y.__dlpack__(max_version=version))
    del y
held = len(produce._holders)
del x  # each release drops the last reference to an array that releases the next
print(held, len(produce._holders), p.deleter_calls)
"""


def test_the_python_fallback_releases_a_chain_of_exports():
    # (it took its lock again while releasing an owner: a process that never ended)
    r = subprocess.run([sys.executable, "-c", _CHAIN, ROOT, os.path.join(ROOT, "tests")],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and r.stdout.split() == ["6", "0", "1"], r.stdout + r.stderr


def test_memory_block_holds_shape_and_strides():
    # One allocation: shape and strides live right after the header, inside the block.
    o = Owner()
    cap = _export(o, shape=(2, 3, 2), strides=(6, 2, 1))
    m = P.capsule_struct(cap)
    base = ctypes.addressof(m)
    t = m.dl_tensor
    assert t.shape == base + 80 and t.strides == base + 80 + 24


@pytest.mark.parametrize("version", [(1, 0), None], ids=["versioned", "legacy"])
def test_the_python_fallback_releases_each_tensor_once(monkeypatch, version):
    # (used where NumPy lent no C release pair: its capsule destructor finds the deleter at
    # the struct's own offset, and the holder of the owner goes with the tensor)
    import gc

    import dltensor as dt
    from dltensor._dlpack import produce
    monkeypatch.setattr(produce, "_c_release", {})
    a = np.arange(4.0)
    made = lambda: make_capsule(a, data=a.ctypes.data, byte_offset=0, device=(1, 0),  # noqa
                                dtype=(2, 64, 1), shape=(4,), strides=(1,), version=version)
    before = len(produce._holders)
    cap = made()
    assert len(produce._holders) == before + 1
    del cap  # unconsumed: the capsule's destructor calls the deleter
    gc.collect()
    assert len(produce._holders) == before
    x = dt.from_dlpack(made())  # consumed: the array's release calls it
    assert np.asarray(x).tolist() == [0.0, 1.0, 2.0, 3.0]
    assert len(produce._holders) == before + 1
    del x
    gc.collect()
    assert len(produce._holders) == before
    # ... and frees its block (PyMem_Malloc's, which tracemalloc sees): 2,000 exports of
    # ~100 bytes each, released, leave nothing behind
    import tracemalloc
    tracemalloc.start()
    try:
        for _ in range(2):  # (the first round warms what stays: ctypes' and pytest's caches)
            start = tracemalloc.get_traced_memory()[0]
            for _ in range(1000):
                made()  # (unconsumed, released at once)
                dt.from_dlpack(made())
        grown = tracemalloc.get_traced_memory()[0] - start
    finally:
        tracemalloc.stop()
    assert grown < 50_000, grown
