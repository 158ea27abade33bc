"""Interop with the real libraries, both ways: NumPy, PyTorch (CPU), JAX (CPU) and
array-api-strict. Every zero-copy claim is checked by comparing data pointers.

torch and jax are imported at the top on purpose: CI installs them, and a missing one must fail
this module, not skip it."""

import array
import ctypes
import gc
import mmap
import os
import subprocess
import sys
import warnings

import array_api_strict as xs
import jax
import jax.numpy as jnp
import ml_dtypes
import numpy as np
import pytest
import torch

import producers as P
import dltensor
from dltensor import _dlpack


def ptr(obj) -> int:
    """The address of element 0 of any array this file deals with."""
    if isinstance(obj, dltensor.ndarray):
        return obj.data_ptr
    if isinstance(obj, torch.Tensor):
        return obj.data_ptr()
    if isinstance(obj, jax.Array):
        return obj.unsafe_buffer_pointer()
    if isinstance(obj, np.ndarray):
        return obj.__array_interface__["data"][0]
    if hasattr(obj, "_array"):  # array_api_strict.Array wraps a NumPy array
        return ptr(obj._array)
    return np.frombuffer(obj, np.uint8).__array_interface__["data"][0]


def values(x):
    """A NumPy copy of any array's values, for comparing (bfloat16 through float32)."""
    if isinstance(x, torch.Tensor):
        x = x.float() if x.dtype == torch.bfloat16 else x
        return x.numpy().copy()
    a = np.array(x)
    return a.astype(np.float32) if a.dtype == ml_dtypes.bfloat16 else a


def aligned(n, dtype=np.float32, align=64):
    """A NumPy array whose data is `align`-byte aligned (JAX copies anything less aligned)."""
    dtype = np.dtype(dtype)
    buf = np.zeros(n * dtype.itemsize + align, np.uint8)
    off = -buf.__array_interface__["data"][0] % align
    return buf[off:off + n * dtype.itemsize].view(dtype)


# --- NumPy ---------------------------------------------------------------------------------------

NUMPY_CASES = {
    "0-d": lambda: np.array(3.5),
    "size-0": lambda: np.zeros((0, 3), np.float32),
    "2-d": lambda: np.arange(12, dtype=np.float64).reshape(3, 4),
    "transposed": lambda: np.arange(12, dtype=np.float32).reshape(3, 4).T,
    "negative stride": lambda: np.arange(10, dtype=np.int32)[::-1],
    "negative stride 2-d": lambda: np.arange(12, dtype=np.int64).reshape(3, 4)[::-1, ::-2],
    "offset slice": lambda: np.arange(20, dtype=np.int16).reshape(4, 5)[1:, 2:],
    "broadcast (zero stride)": lambda: np.broadcast_to(np.arange(3.0), (4, 3)),
    "bool": lambda: np.array([True, False, True]),
    "float16": lambda: np.arange(5, dtype=np.float16),
    "int8": lambda: np.arange(-3, 3, dtype=np.int8),
    "uint64": lambda: np.array([0, 2**64 - 1], dtype=np.uint64),
    "complex64": lambda: np.array([1 + 2j, 3 - 4j], dtype=np.complex64),
    "complex128": lambda: np.array([1 + 2j], dtype=np.complex128),
}

NUMPY_IMPORTS = {
    "asarray": dltensor.asarray,
    "from_dlpack": dltensor.from_dlpack,
    "versioned capsule": lambda a: dltensor.asarray(a.__dlpack__(max_version=(1, 0))),
    "legacy capsule": lambda a: dltensor.from_dlpack(a.__dlpack__()),
}


@pytest.mark.parametrize("how", NUMPY_IMPORTS.values(), ids=NUMPY_IMPORTS.keys())
@pytest.mark.parametrize("make", NUMPY_CASES.values(), ids=NUMPY_CASES.keys())
def test_numpy_to_dltensor_and_back(make, how):
    a = make()
    if how is NUMPY_IMPORTS["legacy capsule"] and not a.flags.writeable:
        pytest.skip("NumPy refuses a legacy export of a read-only array")
    x = how(a)
    assert x.shape == a.shape and x.dtype.numpy == a.dtype
    assert x.data_ptr == ptr(a)
    assert x.read_only == (not a.flags.writeable)
    back = np.from_dlpack(x)
    np.testing.assert_array_equal(back, a)
    if a.size:  # an empty array has no memory to share: pointer and strides mean nothing
        assert ptr(back) == ptr(a) and back.strides == a.strides
        assert ptr(np.asarray(x)) == ptr(a)


def test_numpy_writes_are_shared_both_ways():
    a = np.zeros((2, 3), np.float32)
    x = dltensor.from_dlpack(a.__dlpack__(max_version=(1, 0)))
    a[0, 1] = 4
    x[1, 2] = 7
    n = np.from_dlpack(x)
    assert n.flags.writeable, "a versioned export of writable memory must import writable"
    n[1, 0] = 9
    assert a.tolist() == [[0, 4, 0], [9, 0, 7]]
    assert values(x).tolist() == a.tolist()


def test_numpys_functions_ufuncs_included_answer_with_numpy_and_its_operators_defer():
    # As NumPy treats JAX's and array-api-strict's arrays (and PyTorch's operators): its
    # functions read ours without a copy and answer with NumPy arrays; its operators defer to
    # ours, so a NumPy scalar keeps a dltensor array one and a NumPy array is our TypeError.
    a = np.array([1.0, -2.0, 4.0])
    x = dltensor.asarray(a)
    for f in (np.abs, np.sin, np.sum, np.mean, lambda v: np.add(v, 1),
              lambda v: np.maximum.reduce(v), lambda v: np.concatenate([v, v])):
        r = f(x)
        assert type(r) in (np.ndarray, np.float64), f
        np.testing.assert_array_equal(r, f(a))
    np.testing.assert_equal(x, a)  # (they compare through ufuncs)
    np.testing.assert_almost_equal(x, a)
    for r in (np.float64(2) * x, x * np.float32(2), np.int64(1) < x, np.float64(1) - x):
        assert type(r) is dltensor.ndarray
    assert np.asarray(np.float64(1) - x).tolist() == [0.0, 3.0, -3.0]
    for op in (lambda: np.ones(3) + x, lambda: np.ones(3) == x, lambda: np.ones(3) @ x):
        with pytest.raises(TypeError, match="dltensor.asarray"):
            op()
    b = np.zeros(3)
    with pytest.raises(TypeError, match="dltensor.asarray"):
        b += x  # (NumPy's in-place operator defers too; np.add(b, x, out=b) writes)
    np.add(b, x, out=b)
    assert b.tolist() == a.tolist()
    held = dltensor.from_dlpack(P.from_numpy(np.ones(2, np.float32), device=(P.ROCM, 0)))
    with pytest.raises(BufferError, match="rocm"):  # (no silent copy off a device)
        np.sin(held)


def test_numpy_read_only_stays_read_only():
    a = np.arange(4.0)
    a.flags.writeable = False
    x = dltensor.asarray(a)
    with pytest.raises(ValueError):
        x[0] = 1.0
    assert not np.from_dlpack(x).flags.writeable
    assert P.capsule_flags(x.__dlpack__(max_version=(1, 0))) & P.READ_ONLY
    with pytest.raises(BufferError):
        x.__dlpack__()
    assert a.tolist() == [0, 1, 2, 3]


BYTE_OFFSET = {
    "forward": dict(shape=(6,), strides=(1,), byte_offset=64, expect=slice(16, 22)),
    "2-d": dict(shape=(2, 3), strides=(3, 1), byte_offset=128, expect=(slice(32, 38), (2, 3))),
    "negative stride": dict(shape=(4,), strides=(-1,), byte_offset=4 * 10, expect=slice(10, 6, -1)),
}


def _offset_array(case):
    a = aligned(64)
    a[:] = np.arange(64)
    fields = dict(case)
    expect = fields.pop("expect")
    p = P.from_numpy(a, **fields)
    if isinstance(expect, tuple):
        want = a[expect[0]].reshape(expect[1])
    else:
        want = a[expect]
    return p, a, want, fields["byte_offset"]


@pytest.mark.parametrize("case", BYTE_OFFSET.values(), ids=BYTE_OFFSET.keys())
def test_byte_offset_is_honoured_by_every_consumer(case):
    p, a, want, offset = _offset_array(case)
    x = dltensor.from_dlpack(p)
    assert x.data_ptr == ptr(a) + offset
    np.testing.assert_array_equal(values(x), want)
    n = np.from_dlpack(x)
    assert ptr(n) == ptr(a) + offset
    np.testing.assert_array_equal(n, want)
    if case["strides"][0] > 0:  # torch and JAX have no negative strides
        t = torch.from_dlpack(x)
        assert ptr(t) == ptr(a) + offset
        np.testing.assert_array_equal(values(t), want)
        j = jnp.from_dlpack(x)
        assert ptr(j) == ptr(a) + offset
        np.testing.assert_array_equal(values(j), want)
    del x, n
    assert p.deleter_calls == 0 or case["strides"][0] < 0
    if case["strides"][0] > 0:
        del t, j
    assert p.deleter_calls == 1


# --- PyTorch -----------------------------------------------------------------------------------

TORCH_CASES = {
    "0-d": lambda: torch.tensor(2.5),
    "size-0": lambda: torch.ones(0, 3),
    "2-d": lambda: torch.arange(12, dtype=torch.float64).reshape(3, 4),
    "transposed": lambda: torch.arange(12, dtype=torch.float32).reshape(3, 4).T,
    "storage offset": lambda: torch.arange(20, dtype=torch.int32).reshape(4, 5)[1:, 2:],
    "expanded (zero stride)": lambda: torch.arange(3.0).expand(4, 3),
    "bool": lambda: torch.tensor([True, False, True]),
    "float16": lambda: torch.arange(5, dtype=torch.float16),
    "bfloat16": lambda: torch.tensor([1.5, -2.0, 3.25], dtype=torch.bfloat16),
    "int8": lambda: torch.arange(-3, 3, dtype=torch.int8),
    "uint8": lambda: torch.arange(4, dtype=torch.uint8),
    "complex64": lambda: torch.tensor([1 + 2j], dtype=torch.complex64),
}

TORCH_IMPORTS = {
    "from_dlpack": dltensor.from_dlpack,
    "asarray": dltensor.asarray,
    "legacy bare capsule": lambda t: dltensor.asarray(torch.utils.dlpack.to_dlpack(t)),
    "legacy bare capsule, from_dlpack": lambda t: dltensor.from_dlpack(
        torch.utils.dlpack.to_dlpack(t)),
    "versioned capsule": lambda t: dltensor.from_dlpack(t.__dlpack__(max_version=(1, 0))),
}


@pytest.mark.parametrize("how", TORCH_IMPORTS.values(), ids=TORCH_IMPORTS.keys())
@pytest.mark.parametrize("make", TORCH_CASES.values(), ids=TORCH_CASES.keys())
def test_torch_to_dltensor_and_back(make, how):
    t = make()
    x = how(t)
    assert x.shape == tuple(t.shape) and x.ndim == t.ndim
    assert x.dtype.name == str(t.dtype).removeprefix("torch.")
    assert x.data_ptr == t.data_ptr()
    # bfloat16 is held, and computes on the CPU through ml_dtypes (with no copy).
    np.testing.assert_array_equal(values(x), values(t))
    if t.numel():
        assert ptr(x._compute()) == t.data_ptr()
    back = torch.from_dlpack(x)
    assert back.dtype == t.dtype and back.shape == t.shape
    if t.numel():  # see test_numpy_to_dltensor_and_back
        assert back.data_ptr() == t.data_ptr() and back.stride() == t.stride()
    np.testing.assert_array_equal(values(back), values(t))


def test_torch_bfloat16_round_trip_keeps_the_pointer():
    t = torch.tensor([[1.5, 2.0], [-3.0, 0.25]], dtype=torch.bfloat16)
    x = dltensor.from_dlpack(t)
    assert x.dtype is dltensor.bfloat16
    n = np.asarray(x)
    assert n.dtype == ml_dtypes.bfloat16 and ptr(n) == t.data_ptr()
    assert n.astype(np.float32).tolist() == [[1.5, 2.0], [-3.0, 0.25]]
    back = torch.from_dlpack(x)
    assert back.dtype == torch.bfloat16 and back.data_ptr() == t.data_ptr()
    assert torch.equal(back, t)


def test_torch_bfloat16_computes_where_nothing_imported_ml_dtypes():
    # (a fresh interpreter: here JAX imported ml_dtypes, which dltensor imports on first need;
    # see tests/test_lazy_ml_dtypes.py)
    code = """if True:
        import sys, torch, dltensor as dt
        t = torch.arange(4, dtype=torch.bfloat16)
        x = dt.asarray(t)
        y = dt.cos(x * 2)
        back = torch.from_dlpack(y)
        print("ml_dtypes" in sys.modules, x.dtype is dt.bfloat16, float(dt.sum(x)),
              back.dtype, torch.equal(back, torch.cos(t * 2)))
    """
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["True", "True", "6.0", "torch.bfloat16", "True"]


def test_dltensor_computed_bfloat16_to_torch():
    a = np.array([1.0, 2.5], ml_dtypes.bfloat16)
    x = dltensor.asarray(a)
    t = torch.from_dlpack(x)
    assert t.dtype == torch.bfloat16 and t.data_ptr() == ptr(a)
    assert t.tolist() == [1.0, 2.5]


DLTENSOR_CASES = {
    "computed": lambda: dltensor.asarray(np.arange(12, dtype=np.float32).reshape(3, 4)),
    "imported": lambda: dltensor.from_dlpack(P.from_numpy(
        np.arange(12, dtype=np.float32).reshape(3, 4))),
    "transposed": lambda: dltensor.asarray(np.arange(12, dtype=np.float32).reshape(3, 4).T),
    "0-d": lambda: dltensor.asarray(np.array(5, np.int64)),
    "bool": lambda: dltensor.asarray(np.array([True, False])),
    "float16": lambda: dltensor.asarray(np.arange(3, dtype=np.float16)),
}


@pytest.mark.parametrize("make", DLTENSOR_CASES.values(), ids=DLTENSOR_CASES.keys())
def test_dltensor_to_torch(make):
    x = make()
    t = torch.from_dlpack(x)
    assert t.data_ptr() == x.data_ptr and tuple(t.shape) == x.shape
    assert tuple(t.stride()) == x.strides
    np.testing.assert_array_equal(values(t), values(x))


def test_torch_writes_are_shared():
    t = torch.zeros(4)
    x = dltensor.from_dlpack(t)
    t[1] = 3
    x[2] = 5
    assert t.tolist() == [0, 3, 5, 0]
    back = torch.from_dlpack(x)
    back[3] = 7
    assert t.tolist() == [0, 3, 5, 7]


def test_torch_tensors_stay_resizable_after_an_import():
    # t.numpy() (~1 us less than the C exchange path) marks the storage not resizable for
    # good: t.resize_() and FSDP's untyped_storage().resize_(0) then raised RuntimeError
    # long after the array was gone. DLPack's import leaves the tensor as it was.
    for take in (dltensor.asarray, dltensor.from_dlpack):
        base = torch.zeros(10)
        t = base[2:5]
        x = take(t)
        assert x.data_ptr == t.data_ptr()
        del x
        base.resize_(100)
        t.untyped_storage().resize_(0)


def test_torch_cpu_tensors_come_in_through_pytorchs_c_exporter_not_its_python_dlpack(
        monkeypatch):
    # Tensor.__dlpack__ is Python (2 us a call); the C function behind it makes the capsule
    # (0.45 us) once the guard has made __dlpack__'s checks. Where PyTorch lacks that function
    # __dlpack__ is called, and the import is the same view.
    from dltensor import _interop
    calls = []
    real = torch.Tensor.__dlpack__
    monkeypatch.setattr(torch.Tensor, "__dlpack__",
                        lambda self, **kw: calls.append(1) or real(self, **kw))
    t = torch.arange(6.0).reshape(2, 3)[:, 1:]
    for without in (False, True):
        if without:
            monkeypatch.setitem(_interop._CPU_EXPORTS, "torch.Tensor", lambda: None)
            monkeypatch.delitem(_interop._importers, torch.Tensor, raising=False)
        x = dltensor.asarray(t)
        assert (x.data_ptr, x.shape, x.strides) == (t.data_ptr(), (2, 2), (3, 1))
        assert values(x).tolist() == [[1.0, 2.0], [4.0, 5.0]] and not x.read_only
        assert len(calls) == without


def test_torch_cpu_tensors_asked_for_on_the_cpu_are_views_found_without_dlpack_device(
        monkeypatch):
    # from_dlpack(t, device="cpu") asks PyTorch's is_cpu, not its __dlpack_device__ (Python
    # code, 3.7 us of a 13.8 us call), whether its producer must copy it to the host.
    t = torch.arange(4.0)
    asked = []
    real = torch.Tensor.__dlpack_device__
    monkeypatch.setattr(torch.Tensor, "__dlpack_device__",
                        lambda self: asked.append(1) or real(self))
    for copy in (None, False):
        x = dltensor.from_dlpack(t, device="cpu", copy=copy)
        assert x.data_ptr == t.data_ptr() and x.device == dltensor.Device("cpu")
    assert not asked
    with pytest.raises(BufferError, match="require"):  # (PyTorch's own refusal, as before)
        dltensor.from_dlpack(torch.ones(2, requires_grad=True), device="cpu")


def test_torch_cpu_tensors_asked_for_a_copy_are_copied_here(monkeypatch):
    # PyTorch's own copy came through its Python __dlpack_device__ and __dlpack__ and our
    # consumer (22 us); a CPU tensor is taken as it is and copied here (4.7 us). What that
    # import refuses (a zero tensor, no memory to take) PyTorch still copies.
    asked = []
    for name in ("__dlpack__", "__dlpack_device__"):
        real = getattr(torch.Tensor, name)
        monkeypatch.setattr(torch.Tensor, name, (lambda real, name: lambda self, *a, **k: (
            asked.append(name), real(self, *a, **k))[1])(real, name))
    t = torch.arange(6.0).reshape(2, 3).T
    for take in (lambda t: dltensor.from_dlpack(t, copy=True),
                 lambda t: dltensor.asarray(t, copy=True),
                 lambda t: dltensor.from_dlpack(t, device="cpu", copy=True)):
        x = take(t)
        assert x.data_ptr != t.data_ptr() and not x.read_only and x.shape == (3, 2)
        x[0, 0] = 7.0
        assert values(x).tolist() == [[7.0, 3.0], [1.0, 4.0], [2.0, 5.0]] and t[0, 0] == 0.0
    assert not asked
    z = dltensor.from_dlpack(torch._efficientzerotensor(2), copy=True)
    assert values(z).tolist() == [0.0, 0.0] and asked  # (PyTorch's copy)


def test_torch_refusal_is_a_buffer_error():
    with pytest.raises(BufferError):
        dltensor.from_dlpack(torch.ones(2, requires_grad=True))
    # (tensors of no memory of their own: DLPack's refusal, not PyTorch's RuntimeError from
    # their data_ptr())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (CSR's "beta state")
        sparse = [torch.eye(3).to_sparse(), torch.eye(3).to_sparse_csr()]
    for t in sparse:
        for take in (dltensor.asarray, dltensor.from_dlpack):
            with pytest.raises(BufferError, match="layout"):
                take(t)


@pytest.mark.parametrize("take", [dltensor.asarray, dltensor.from_dlpack,
                                  lambda t: dltensor.from_dlpack(t, copy=True),
                                  lambda t: dltensor.asarray(t, dtype=dltensor.float64)])
def test_torch_views_whose_memory_is_not_their_values_are_refused(take):
    z = torch.tensor([1 + 2j, 3 - 4j])
    # A conjugate view (PyTorch's own __dlpack__ refuses it; its C exchange API did not) and
    # a negative one (z.conj().imag: PyTorch exports its memory, [2, -4], as its values).
    for view in (z.conj(), z.conj().imag):
        with pytest.raises(BufferError, match="resolve|conjugate"):
            take(view)
    assert values(dltensor.asarray(z.conj().imag.resolve_neg())).tolist() == [-2.0, 4.0]
    assert values(dltensor.asarray(z.conj().resolve_conj())).tolist() == [1 - 2j, 3 + 4j]
    # A nested tensor (PyTorch's __dlpack__: RuntimeError "Internal error ... file an issue")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (PyTorch: the strided layout is a prototype)
        nested = torch.nested.nested_tensor([torch.ones(2), torch.ones(3)])
    with pytest.raises(BufferError, match="nested tensor"):
        take(nested)


def test_an_import_does_not_depend_on_what_was_imported_before():
    # The importer found for a type was cached from the first instance with __dlpack__: a
    # proxy forwarding attributes then took every later object as a DLPack producer, and
    # asarray(a class) made `type` one (asarray(int) became an AttributeError).
    class Proxy:
        def __init__(self, obj):
            self._obj = obj

        def __getattr__(self, name):
            return getattr(self._obj, name)

    class Interface:  # (the NumPy array interface only)
        def __init__(self):
            self.a = np.arange(3.0)
            self.__array_interface__ = self.a.__array_interface__

    for _ in range(2):
        assert np.asarray(dltensor.asarray(Proxy(Interface()))).tolist() == [0.0, 1.0, 2.0]
        assert np.asarray(dltensor.asarray(Proxy(torch.ones(3)))).tolist() == [1.0] * 3
        assert np.asarray(dltensor.from_dlpack(Proxy(torch.ones(2)))).tolist() == [1.0] * 2
        with pytest.raises(TypeError):
            dltensor.asarray(np.ndarray)
        with pytest.raises(TypeError):
            dltensor.asarray(int)


def test_torch_producer_deleted_before_the_consumer():
    t = torch.arange(6.0)
    x = dltensor.from_dlpack(t)
    p = t.data_ptr()
    del t
    assert x.data_ptr == p
    assert values(x).tolist() == [0, 1, 2, 3, 4, 5]


def test_torch_consumer_outlives_dltensor():
    p = P.from_numpy(np.arange(6, dtype=np.float32))
    x = dltensor.from_dlpack(p)
    t = torch.from_dlpack(x)
    del x
    assert p.deleter_calls == 0
    assert t.tolist() == [0, 1, 2, 3, 4, 5]
    del t
    assert p.deleter_calls == 1


def test_one_array_exported_many_times():
    a = aligned(6)
    a[:] = np.arange(6)
    p = P.from_numpy(a)
    x = dltensor.from_dlpack(p)
    outs = [torch.from_dlpack(x) for _ in range(3)] + [np.from_dlpack(x) for _ in range(3)]
    outs += [jnp.from_dlpack(x), xs.from_dlpack(x), dltensor.from_dlpack(x.__dlpack__())]
    assert {ptr(o) for o in outs} == {x.data_ptr}
    del x
    assert p.deleter_calls == 0
    assert all(values(o).tolist() == [0, 1, 2, 3, 4, 5] for o in outs)
    del outs
    assert p.deleter_calls == 1


# --- JAX -----------------------------------------------------------------------------------------

JAX_CASES = {
    "0-d": lambda: jnp.float32(2.5),
    "1-d": lambda: jnp.arange(8, dtype=jnp.float32),
    "2-d": lambda: jnp.arange(12, dtype=jnp.int32).reshape(3, 4),
    "bool": lambda: jnp.array([True, False]),
    "int8": lambda: jnp.arange(4, dtype=jnp.int8),
    "float16": lambda: jnp.arange(4, dtype=jnp.float16),
    "bfloat16": lambda: jnp.array([1.5, 2.0], jnp.bfloat16),
    "size-0": lambda: jnp.zeros((0, 2), jnp.float32),
}


@pytest.mark.parametrize("make", JAX_CASES.values(), ids=JAX_CASES.keys())
def test_jax_to_dltensor(make):
    j = make()
    x = dltensor.from_dlpack(j)
    assert x.shape == j.shape and x.dtype.numpy == np.dtype(j.dtype)
    if j.size:
        assert x.data_ptr == ptr(j)
    np.testing.assert_array_equal(values(x), np.asarray(j).astype(values(x).dtype))
    y = dltensor.asarray(j)
    assert y.data_ptr == x.data_ptr or not j.size


JAX_EXPORTS = {
    "computed": lambda a: dltensor.asarray(a),
    "imported": lambda a: dltensor.from_dlpack(P.from_numpy(a)),
    "2-d": lambda a: dltensor.asarray(a.reshape(4, 16)),
    "int32": lambda a: dltensor.asarray(a.view(np.int32)),
}


@pytest.mark.parametrize("make", JAX_EXPORTS.values(), ids=JAX_EXPORTS.keys())
def test_dltensor_to_jax(make):
    a = aligned(64)
    a[:] = np.arange(64)
    x = make(a)
    j = jnp.from_dlpack(x)
    assert ptr(j) == ptr(a), "JAX shares 64-byte aligned float32/int32 memory"
    np.testing.assert_array_equal(np.asarray(j), values(x))


def test_jax_asarray_takes_dltensor_arrays_as_numpys():
    # (jnp.asarray reads an object's dtype through np.result_type, which took a dltensor
    # dtype in x.dtype for an array's and raised ValueError: NumPy 2.4 and later)
    for a in (np.arange(6, dtype=np.float32).reshape(2, 3), np.array([True, False]),
              np.arange(4, dtype=np.int32)[::-2], np.array(2.5, dtype=np.float32)):
        x = dltensor.asarray(a)
        for j in (jnp.asarray(x), jnp.array(x), jnp.asarray([x, x])[0]):
            assert j.dtype == a.dtype and j.shape == a.shape
            np.testing.assert_array_equal(np.asarray(j), a)


def test_jax_round_trip_through_dltensor():
    # JAX before 0.12 exports and asks for legacy capsules only, so an array that came from
    # JAX must stay exportable as one: importing it read-only (as NumPy does legacy capsules)
    # would refuse this. JAX 0.12 exports versioned capsules marked read-only (its arrays are
    # immutable), which dltensor honours, and asks for versioned ones, which can say so.
    j = jnp.arange(64, dtype=jnp.float32)
    said = _dlpack.consume_capsule(j.__dlpack__(max_version=(1, 3)))
    x = dltensor.from_dlpack(j)
    assert x.read_only is said.read_only
    k = jnp.from_dlpack(x)
    assert ptr(k) == ptr(j)
    np.testing.assert_array_equal(np.asarray(k), np.arange(64, dtype=np.float32))


def test_jax_producer_and_consumer_lifetimes():
    j = jnp.arange(16, dtype=jnp.float32)
    x = dltensor.from_dlpack(j)
    del j
    assert values(x).tolist() == list(range(16))
    a = aligned(16)
    a[:] = 1
    p = P.from_numpy(a)
    y = dltensor.from_dlpack(p)
    k = jnp.from_dlpack(y)
    del y
    assert p.deleter_calls == 0
    assert float(k.sum()) == 16
    del k
    assert p.deleter_calls == 1


def _counting_dlpack(monkeypatch, tp, names=("__dlpack__",)):
    """Count calls of ``tp``'s methods ``names`` (the list returned), which still work."""
    calls = []
    for name in names:
        real = getattr(tp, name)
        monkeypatch.setattr(tp, name, (lambda real, name: lambda self, *a, **k: (
            calls.append(name), real(self, *a, **k))[1])(real, name))
    return calls


def _forget_importer(monkeypatch, tp):
    from dltensor import _interop
    monkeypatch.delitem(_interop._importers, tp, raising=False)


def test_jax_cpu_arrays_come_in_through_jaxs_c_exporter_not_its_python_dlpack(monkeypatch):
    # ArrayImpl.__dlpack__ is Python (1.6 us a call); the C function behind it makes the
    # capsule (0.3 us) once the guard has checked what __dlpack__ checks (one device). The
    # capsule is held, not consumed: its C destructor releases the tensor (no Python deleter
    # call). Where JAX lacks that function __dlpack__ is called, and the import is the same.
    # (From JAX 0.12 its capsules are versioned and read-only, and NumPy's consumer takes
    # them: no tensor of ours.)
    from dltensor import _interop
    tp = type(jnp.zeros(1))
    j = jnp.arange(6.0).reshape(2, 3)
    calls = _counting_dlpack(monkeypatch, tp)
    read_only = _interop._jax_exporter()[1]
    for without in (False, True):
        if without:
            monkeypatch.setitem(_interop._CPU_EXPORTS, "jaxlib._jax.ArrayImpl", lambda: None)
            _forget_importer(monkeypatch, tp)
        for take in (dltensor.asarray, dltensor.from_dlpack,
                     lambda j: dltensor.from_dlpack(j, copy=False),
                     lambda j: dltensor.asarray(j, copy=False)):
            x = take(j)
            assert (x.data_ptr, x.shape, x.read_only) == (ptr(j), (2, 3), read_only)
            held = hasattr(x._tensor, "capsule")  # (held, adopted by NumPy, or consumed)
            assert (held, x._tensor is None) == ((not read_only, read_only) if not without
                                                  else (False, False))
            assert values(x).tolist() == [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]
        assert len(calls) == 4 * without


def test_jax_arrays_come_through_its_c_exporter_as_its_dlpack_exports_them(monkeypatch):
    # Before JAX 0.12 the C function makes the legacy capsules __dlpack__ exports. From
    # jaxlib's C extension 496 (JAX 0.12) it takes max_version and makes versioned ones
    # marked read-only, as __dlpack__ then exports them; a JAX of 0.12 or later whose
    # function does not (extension older) would say writable what __dlpack__ says read-only,
    # and its arrays come through __dlpack__.
    import jax._src.lib
    from dltensor import _interop
    calls = []

    def c_function(buffer, **kwargs):
        calls.append((buffer, kwargs))
        return "capsule"

    monkeypatch.setattr(sys.modules["jaxlib._jax"], "buffer_to_dlpack_managed_tensor",
                        c_function)
    j = jnp.arange(3.0)
    for version, extension, expected in (
            ("0.10.2", 467, {}), ("0.11.9", 490, {}), ("0.12.0", 490, None),
            ("1.0.0", 490, None), ("0.12.dev0", 490, None), ("unknown", 490, None),
            ("0.12.0", 496, {"max_version": (1, 3)}), ("0.12.0", 505, {"max_version": (1, 3)}),
            ("0.10.2", "496", {})):
        monkeypatch.setattr(jax, "__version__", version)
        monkeypatch.setattr(jax._src.lib, "jaxlib_extension_version", extension)
        found = _interop._jax_exporter()
        if expected is None:
            assert found is None, (version, extension)
            continue
        export, versioned = found
        assert versioned == bool(expected) and export(j) == "capsule"
        # (the array's shard, as __dlpack__ exports it: see the next test)
        ((buffer, kwargs),) = calls
        assert buffer is j.addressable_data(0) and kwargs == expected
        calls.clear()
    # (where jaxlib lacks the method behind addressable_data, addressable_data)
    monkeypatch.setattr(sys.modules["jaxlib._jax"], "ArrayImpl", object)
    export, _ = _interop._jax_exporter()
    assert export(j) == "capsule" and calls == [(j.addressable_data(0), {})]


_JAX_DELETED = r"""
import jax, jax.numpy as jnp, numpy as np, dltensor
for take in (dltensor.asarray, dltensor.from_dlpack,
             lambda j: dltensor.from_dlpack(j, device="cpu", copy=False)):
    j = jnp.arange(4.0) + 1
    x, address = take(j), j.unsafe_buffer_pointer()
    j.delete()  # (the array goes; the import still holds the memory)
    print(np.from_dlpack(x).tolist(), x.data_ptr == address)
"""


def test_jax_arrays_deleted_after_an_import_leave_it_its_memory():
    # JAX's C exporter took a hold on the array itself, not its shard as __dlpack__ does:
    # jax.Array.delete() then aborted the process ("Non-zero type 1 hold on destruction").
    r = subprocess.run([sys.executable, "-c", _JAX_DELETED], capture_output=True, text=True,
                       timeout=300, env=dict(os.environ, JAX_PLATFORMS="cpu"))
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.splitlines() == ["[1.0, 2.0, 3.0, 4.0] True"] * 3


def _jax_012_c_function(calls):
    """A stand-in for JAX 0.12's C exporter on JAX 0.10 (which makes legacy capsules only):
    asked with max_version, a versioned capsule of the array's memory marked read-only, as
    JAX 0.12 makes; NumPy's import of JAX's legacy capsule (read-only) exports it so."""
    real = sys.modules["jaxlib._jax"].buffer_to_dlpack_managed_tensor

    def c_function(buffer, stream=None, max_version=None, copied=False):
        calls.append(max_version)
        if max_version is None:
            return real(buffer, stream=stream)
        return np.from_dlpack(_Capsule(real(buffer, stream=stream))).__dlpack__(
            max_version=max_version)
    return c_function


class _Capsule:
    def __init__(self, capsule):
        self.capsule = capsule

    def __dlpack_device__(self):
        return (1, 0)

    def __dlpack__(self, **kwargs):
        return self.capsule


def test_jax_012_arrays_come_in_read_only_through_its_c_exporter_and_numpys_consumer(
        monkeypatch):
    # JAX 0.12's versioned, read-only capsule goes to NumPy's C consumer (2.4 us an import
    # with JAX 0.12.0.1 on Python 3.12, from 9.0 through __dlpack__ and our consumer; NumPy's
    # own import 2.2): read-only, the same memory, never __dlpack__.
    import jax._src.lib
    from dltensor import _interop
    tp = type(jnp.zeros(1))
    calls, dlpack_calls = [], _counting_dlpack(monkeypatch, tp,
                                               ("__dlpack__", "__dlpack_device__"))
    monkeypatch.setattr(sys.modules["jaxlib._jax"], "buffer_to_dlpack_managed_tensor",
                        _jax_012_c_function(calls))
    monkeypatch.setattr(jax._src.lib, "jaxlib_extension_version", 505)
    _forget_importer(monkeypatch, tp)
    j = jnp.arange(6.0).reshape(2, 3)
    for take in (dltensor.asarray, dltensor.from_dlpack,
                 lambda j: dltensor.from_dlpack(j, copy=False),
                 lambda j: dltensor.asarray(j, copy=False),
                 lambda j: dltensor.from_dlpack(j, device="cpu")):
        x = take(j)
        assert (x.data_ptr, x.shape, x.read_only) == (ptr(j), (2, 3), True)
        assert values(x[1:, :]).tolist() == [[3.0, 4.0, 5.0]]
        with pytest.raises(ValueError, match=r"read-only \(its producer exported it so\)"):
            x[0, 0] = 1.0
    assert calls == [(1, 3)] * 5 and not dlpack_calls
    y = x[1:, :]  # (a view keeps the memory when the JAX array and the import are gone)
    del j, x
    gc.collect()
    assert values(y).tolist() == [[3.0, 4.0, 5.0]]
    c = dltensor.asarray(jnp.arange(3.0), copy=True)  # (a copy is the caller's: writable)
    c[0] = 7.0
    assert values(c).tolist() == [7.0, 1.0, 2.0]


def test_jax_arrays_held_through_the_c_exporter_release_once_when_the_last_view_goes(
        monkeypatch):
    # The capsule kept by the import calls the tensor's deleter when the array goes (an
    # exporter standing in for JAX's, whose deleter the test producer counts).
    from dltensor import _interop
    tp = type(jnp.zeros(1))
    made = []

    def export(j):
        a = np.arange(4, dtype=np.float32)
        cap, e = P.make_capsule(data=a.__array_interface__["data"][0], shape=(4,),
                                strides=(1,), versioned=False, keep=(a,))
        made.append(e)
        return cap

    monkeypatch.setitem(_interop._CPU_EXPORTS, "jaxlib._jax.ArrayImpl",
                        lambda: (export, False))
    _forget_importer(monkeypatch, tp)
    x = dltensor.asarray(jnp.zeros(4))
    (e,) = made
    y = x[1:]
    del x
    assert e.deleter_calls == 0 and values(y).tolist() == [1.0, 2.0, 3.0]
    k = np.from_dlpack(y)  # (an export keeps it too)
    del y
    assert e.deleter_calls == 0
    del k
    assert e.deleter_calls == 1


def test_jax_arrays_asked_for_a_copy_are_copied_here(monkeypatch):
    # JAX's own copy (an XLA computation, then its capsule and our consumer) took 15 us; a
    # CPU array is taken as it is and copied here (6 us).
    calls = _counting_dlpack(monkeypatch, type(jnp.zeros(1)),
                             ("__dlpack__", "__dlpack_device__"))
    j = jnp.arange(6.0).reshape(2, 3)
    for take in (lambda j: dltensor.from_dlpack(j, copy=True),
                 lambda j: dltensor.asarray(j, copy=True),
                 lambda j: dltensor.from_dlpack(j, device="cpu", copy=True)):
        x = take(j)
        assert x.data_ptr != ptr(j) and not x.read_only and x.shape == (2, 3)
        assert values(x).tolist() == np.asarray(j).tolist()
    x = dltensor.from_dlpack(j, device="cpu")
    assert x.data_ptr == ptr(j)
    assert not calls


def test_jax_arrays_the_c_exporter_does_not_take_say_why_in_jaxs_words():
    j = jnp.arange(3.0)
    j.delete()
    for take in (dltensor.asarray, dltensor.from_dlpack):
        with pytest.raises(RuntimeError, match="deleted"):
            take(j)


_SHARDED = r"""
import jax, jax.numpy as jnp, numpy as np, dltensor
from jax.sharding import Mesh, NamedSharding, PartitionSpec
mesh = Mesh(np.array(jax.devices()), ("x",))
for spec in (PartitionSpec("x"), PartitionSpec()):
    j = jax.device_put(jnp.arange(8.0), NamedSharding(mesh, spec))
    try:
        dltensor.asarray(j)
    except BufferError as e:
        print("refused:", e)
one = jax.device_put(jnp.arange(3.0), jax.devices()[1])
print("one device:", dltensor.asarray(one).data_ptr == one.unsafe_buffer_pointer())
"""


def test_jax_arrays_sharded_over_several_devices_are_refused_not_cut_to_one_shard():
    # JAX's C exporter exports an array over two devices as its first shard alone, which
    # its __dlpack__ refuses: the guard sends such an array to __dlpack__.
    import os
    import subprocess
    import sys
    env = dict(os.environ, XLA_FLAGS="--xla_force_host_platform_device_count=2",
               JAX_PLATFORMS="cpu")
    r = subprocess.run([sys.executable, "-c", _SHARDED], env=env, capture_output=True,
                       text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert r.stdout.count("refused: to_dlpack can only pack a dlpack tensor from an array on "
                          "a singular device") == 2, r.stdout
    assert "one device: True" in r.stdout


# --- array-api-strict -------------------------------------------------------------------------

def test_dltensor_to_array_api_strict():
    a = np.arange(6.0).reshape(2, 3)
    x = dltensor.asarray(a)
    s = xs.from_dlpack(x)
    assert ptr(s) == ptr(a) and s.shape == (2, 3) and s.dtype == xs.float64
    s2 = xs.asarray(x)
    assert ptr(s2) == ptr(a)
    assert xs.all(s == xs.asarray(a))


def test_array_api_strict_to_dltensor():
    s = xs.reshape(xs.arange(6, dtype=xs.float32), (2, 3))
    for how in (dltensor.asarray, dltensor.from_dlpack):
        x = how(s)
        assert x.data_ptr == ptr(s) and x.shape == (2, 3) and x.dtype is dltensor.float32
        assert values(x).tolist() == [[0, 1, 2], [3, 4, 5]]


def test_array_api_strict_keeps_read_only():
    a = np.arange(3.0)
    a.flags.writeable = False
    s = xs.from_dlpack(dltensor.asarray(a))
    assert ptr(s) == ptr(a) and not s._array.flags.writeable


# --- asarray of other things -------------------------------------------------------------------

def _buffers():
    yield "bytes", b"\x01\x02\x03\x04", dltensor.uint8, (4,), True
    yield "bytearray", bytearray(b"\x01\x02\x03\x04"), dltensor.uint8, (4,), False
    yield "memoryview of bytes", memoryview(b"abcd"), dltensor.uint8, (4,), True
    yield "memoryview of bytearray", memoryview(bytearray(8)), dltensor.uint8, (8,), False
    yield "array.array d", array.array("d", [1.0, 2.0]), dltensor.float64, (2,), False
    yield "array.array i", array.array("i", [1, 2, 3]), dltensor.int32, (3,), False
    yield "mmap", mmap.mmap(-1, 4096), dltensor.uint8, (4096,), False


BUFFERS = list(_buffers())


@pytest.mark.parametrize("name, obj, dtype, shape, read_only", BUFFERS,
                         ids=[b[0] for b in BUFFERS])
def test_asarray_of_a_buffer_shares_it(name, obj, dtype, shape, read_only):
    x = dltensor.asarray(obj)
    assert x.dtype is dtype and x.shape == shape
    assert x.data_ptr == ptr(obj)
    assert x.read_only is read_only
    if read_only:
        with pytest.raises(ValueError):
            x[0] = 0
        assert P.capsule_flags(x.__dlpack__(max_version=(1, 0))) & P.READ_ONLY
    else:
        x[0] = 42
        assert np.frombuffer(obj, dtype.numpy)[0] == 42
    y = dltensor.asarray(obj, copy=True)
    assert y.data_ptr != ptr(obj)
    with pytest.raises((ValueError, BufferError)):
        dltensor.asarray(obj, dtype=dltensor.complex128, copy=False)
    del x


def test_asarray_of_a_strided_memoryview():
    a = np.arange(10, dtype=np.int16)
    x = dltensor.asarray(memoryview(a)[::3])
    assert x.data_ptr == ptr(a) and x.strides == (3,) and values(x).tolist() == [0, 3, 6, 9]


def test_a_broadcast_past_what_numpy_views_exports_and_prints():
    # 2**62 floats of strides 0: NumPy's "array is too big" escaped __dlpack__() (what
    # torch.from_dlpack asks) and repr, where copy=False exported it
    x = dltensor.from_dlpack(torch.arange(4.0).expand(2**30, 2**30, 4))
    assert torch.from_dlpack(x).shape == (2**30, 2**30, 4)
    t = torch.from_dlpack(x.__dlpack__(max_version=(1, 0)))
    assert t.stride() == (0, 0, 1) and t.data_ptr() == x.data_ptr
    text = repr(x)
    assert "shape=(1073741824, 1073741824, 4)" in text and text.count("0., 1., 2., 3.") == 36  # (3 + 3 rows of 3 + 3 blocks)
    for opts in ({"threshold": 2**62}, {"legacy": "1.25"}, {"edgeitems": 0}):  # (summarised
        with np.printoptions(**opts):  # whatever the options: it is a cut view that prints)
            assert "shape=(1073741824, 1073741824, 4)" in repr(x), opts


def test_a_numpy_subclass_of_an_ml_dtypes_float_is_taken_as_it_is():
    # (a masked array's dtype is a property: it went to NumPy's __dlpack__, which refuses
    # bfloat16, where asarray took it)
    import ml_dtypes
    m = np.ma.array(np.arange(3, dtype=ml_dtypes.bfloat16))
    x = dltensor.from_dlpack(m)
    assert x.dtype == dltensor.bfloat16 and x.data_ptr == m.ctypes.data


def _struct_buffer(fmt):
    from _testbuffer import ND_WRITABLE, ndarray as buffer
    return buffer([(1, b"a")] * 2, shape=[2], format=fmt, flags=ND_WRITABLE)


def test_a_numpy_subclass_is_read_by_the_dtype_of_its_memory():
    # (one whose dtype property says float64 over big-endian memory was taken unswapped, an
    # array whose dtype was a KeyError; over strings, an array of float64 garbage)
    class Lying(np.ndarray):
        @property
        def dtype(self):
            return np.dtype(np.float64)

    x = dltensor.asarray(np.arange(3.0).astype(">f8").view(Lying))
    assert x.dtype == dltensor.float64 and values(x).tolist() == [0.0, 1.0, 2.0]
    for take in (dltensor.asarray, dltensor.from_dlpack):
        with pytest.raises((TypeError, BufferError)):
            take(np.array(["ab", "c"]).view(Lying))
    with pytest.raises(BufferError):
        dltensor.from_dlpack(np.arange(3.0).astype(">f8").view(Lying))  # (as unlying, NumPy's)


def test_buffers_of_formats_without_a_dtype_are_type_errors():
    # as the same dtypes are as NumPy arrays (NumPy's ValueError for the format was let out)
    import ctypes
    wide = np.dtype(np.longdouble).itemsize > 8  # (where long double is not double)
    for buf in ((ctypes.c_longdouble * 2)() if wide else None, (ctypes.c_void_p * 2)(),
                (ctypes.c_wchar * 2)(), memoryview(bytearray(16)).cast("P"),
                _struct_buffer("ic")):  # (NumPy's RuntimeError for a struct of no end padding)
        if buf is not None:
            with pytest.raises(TypeError, match="no dtype for the buffer format"):
                dltensor.asarray(buf)
    if wide:
        with pytest.raises(TypeError, match="no dtype"):
            dltensor.asarray(np.zeros(2, np.longdouble))
    for seq in ([_struct_buffer("ic")], [memoryview(_struct_buffer("ic"))] * 2):  # (in a list:
        for dtype in (None, dltensor.int32):  # NumPy's RuntimeError escaped)
            with pytest.raises(TypeError, match="no dtype for a buffer"):
                dltensor.asarray(seq, dtype=dtype)
        # in a sequence too: the array was made, its .dtype a KeyError
        for obj in ([np.longdouble(1.5)], [[np.longdouble(1)]], [np.zeros(2, np.clongdouble)]):
            for kwargs in ({}, {"copy": True}, {"device": "cpu"}):
                with pytest.raises(TypeError, match="no dtype for NumPy dtype"):
                    dltensor.asarray(obj, **kwargs)
        assert dltensor.asarray([np.longdouble(1.5)], dtype=dltensor.float64).dtype == \
            dltensor.float64


class _Offering:
    """An object offering one of ``a``'s NumPy array interfaces, ``name``, and nothing else."""

    def __init__(self, a, name="__array_interface__"):
        self.a = a
        setattr(self, name, getattr(a, name))


def _Interface(a):
    return _Offering(a)


def _Struct(a):  # (the interface's C form)
    return _Offering(a, "__array_struct__")


def test_asarray_of_an_array_interface():
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    x = dltensor.asarray(_Interface(a))
    assert x.data_ptr == ptr(a) and x.shape == (2, 3) and x.dtype is dltensor.float32
    a.flags.writeable = False
    assert dltensor.asarray(_Interface(a)).read_only


def test_the_array_interfaces_c_form_and_buffers_are_arrays_alone_and_in_sequences():
    # An object offering __array_struct__ alone was taken for a sequence: copied, float32
    # made float64, and copy=False refused; a list of it, of an __array_interface__ object
    # or of a ctypes array (a buffer) was made float64 too, where NumPy keeps their dtype
    # (as dltensor does for lists of NumPy arrays and of bytearrays).
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    for x in (dltensor.asarray(_Struct(a)), dltensor.asarray(_Struct(a), copy=False)):
        assert x.data_ptr == ptr(a) and x.shape == (2, 3) and x.dtype is dltensor.float32
    assert dltensor.asarray(_Struct(a), copy=True).data_ptr != ptr(a)
    for seq in ([_Struct(a)], [_Interface(a), _Interface(a)], [[_Struct(a)]]):
        assert dltensor.asarray(seq).dtype is dltensor.float32
    assert dltensor.asarray([(ctypes.c_float * 2)(1.0, 2.0)]).dtype is dltensor.float32
    assert dltensor.asarray([[(ctypes.c_int16 * 2)()]]).dtype is dltensor.int16
    with pytest.raises(TypeError):  # (bytes are still NumPy's strings, not a buffer)
        dltensor.asarray([b"ab"])


@pytest.mark.parametrize("obj, dtype, shape", [
    (1, dltensor.int64, ()), (1.5, dltensor.float64, ()), (True, dltensor.bool, ()),
    (1j, dltensor.complex128, ()), ([1, 2], dltensor.int64, (2,)),
    ([[1.0, 2], [3, 4]], dltensor.float64, (2, 2)), ([True, False], dltensor.bool, (2,)),
    ([1, 2.5], dltensor.float64, (2,)), ((1, 2, 3), dltensor.int64, (3,)),
    ([1j, 2], dltensor.complex128, (2,)), ([], dltensor.float64, (0,)),
    ([[]], dltensor.float64, (1, 0)),
], ids=repr)
def test_asarray_of_python_values_uses_the_spec_defaults(obj, dtype, shape):
    x = dltensor.asarray(obj)
    assert x.dtype is dtype and x.shape == shape
    assert values(x).tolist() == np.asarray(obj).tolist() or obj == []


def test_asarray_of_python_values_with_a_dtype():
    x = dltensor.asarray([1, 2], dtype=dltensor.float32)
    assert x.dtype is dltensor.float32 and values(x).tolist() == [1.0, 2.0]
    with pytest.raises(ValueError):
        dltensor.asarray([1, 2], copy=False)
    with pytest.raises(ValueError):
        dltensor.asarray([[1], [1, 2]])


def test_asarray_of_a_list_of_arrays_keeps_their_dtype():
    x = dltensor.asarray(np.arange(3, dtype=np.float32))
    y = dltensor.asarray([x, x])
    assert y.shape == (2, 3) and y.dtype is dltensor.float32


def test_asarray_of_an_ndarray():
    x = dltensor.asarray(np.arange(3.0))
    assert dltensor.asarray(x) is x or dltensor.asarray(x).data_ptr == x.data_ptr
    assert dltensor.from_dlpack(x).data_ptr == x.data_ptr
    y = dltensor.asarray(x, copy=True)
    assert y.data_ptr != x.data_ptr and values(y).tolist() == [0, 1, 2]
    assert dltensor.asarray(x, dtype=dltensor.float32).dtype is dltensor.float32


COPY_REQUESTS = {
    "copy": dict(copy=True),
    "copy + same dtype": dict(copy=True, dtype=dltensor.float32),
    "copy + other dtype": dict(copy=True, dtype=dltensor.float64),
    "copy + same device": dict(copy=True, device="cpu"),
}
SOURCES = {
    "numpy": lambda: np.arange(4, dtype=np.float32),
    "torch": lambda: torch.arange(4, dtype=torch.float32),
    "jax": lambda: jnp.arange(4, dtype=jnp.float32),
    "array-api-strict": lambda: xs.arange(4, dtype=xs.float32),
    "dltensor": lambda: dltensor.asarray(np.arange(4, dtype=np.float32)),
    "test producer": lambda: P.from_numpy(np.arange(4, dtype=np.float32)),
    "bytearray": lambda: bytearray(np.arange(4, dtype=np.float32).tobytes()),
}


@pytest.mark.parametrize("source", SOURCES.values(), ids=SOURCES.keys())
@pytest.mark.parametrize("kw", COPY_REQUESTS.values(), ids=COPY_REQUESTS.keys())
def test_asarray_copy_true_always_copies(source, kw):
    src = source()
    if isinstance(src, bytearray) and kw.get("dtype") is dltensor.float32:
        pytest.skip("a uint8 buffer")
    before = ptr(src.buffer if isinstance(src, P.Producer) else src)
    try:
        x = dltensor.asarray(src, **kw)
    except BufferError:
        assert isinstance(src, P.Producer), "only the test producer refuses to copy"
        return
    assert x.data_ptr != before
    assert not x.read_only
    x[...] = 9  # writing the copy leaves the source alone
    assert ptr(src.buffer if isinstance(src, P.Producer) else src) == before
    if not isinstance(src, bytearray):
        assert values(src.buffer if isinstance(src, P.Producer) else src).tolist() == [0, 1, 2, 3]


class _ReadOnlyExports:
    """A producer that marks every export read-only, its copies too, as JAX 0.12 does."""

    def __init__(self, a, device=(1, 0)):
        self.a, self.device = a, device

    def __dlpack_device__(self):
        return self.device  # (another device's: its copies to the CPU, read-only too)

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        out = (self.a.copy() if copy else self.a).view()
        out.flags.writeable = False
        return out.__dlpack__(max_version=max_version)


@pytest.mark.parametrize("take", [dltensor.asarray, dltensor.from_dlpack])
def test_a_copy_asked_for_is_writable_when_the_producer_marks_it_read_only(take):
    a = np.arange(4.0)
    assert take(_ReadOnlyExports(a)).read_only  # its word is honoured...
    x = take(_ReadOnlyExports(a), copy=True)
    assert not x.read_only and x.data_ptr != a.ctypes.data  # ...but a copy is the caller's
    x[...] = 9
    assert a.tolist() == [0.0, 1.0, 2.0, 3.0]
    # ... a copy to the CPU from another device too (Metal here: its host copy, read-only)
    x = take(_ReadOnlyExports(a, device=(8, 0)), device="cpu", copy=True)
    assert not x.read_only and x.data_ptr != a.ctypes.data


@pytest.mark.parametrize("take", [dltensor.asarray, dltensor.from_dlpack])
@pytest.mark.parametrize("dtype", ["uint1", "uint7", "int4"])
def test_a_copy_of_a_dtype_pytorch_cannot_copy_is_made_here(take, dtype):
    # PyTorch's uint1..7 and int1..7 export as 8-bit types; its __dlpack__(copy=True) raises
    # NotImplementedError ("copy_kernel" not implemented): dltensor copies them itself.
    t = torch.zeros(4, dtype=getattr(torch, dtype))
    x = take(t, copy=True)
    assert x.data_ptr != t.data_ptr() and not x.read_only
    assert x.dtype is (dltensor.uint8 if dtype.startswith("u") else dltensor.int8)
    assert np.asarray(x).tolist() == [0, 0, 0, 0]


@pytest.mark.parametrize("source", SOURCES.values(), ids=SOURCES.keys())
def test_asarray_copy_false_never_copies(source):
    src = source()
    if isinstance(src, bytearray):
        pytest.skip("a uint8 buffer")
    x = dltensor.asarray(src, copy=False)
    assert x.data_ptr == ptr(src.buffer if isinstance(src, P.Producer) else src)
    with pytest.raises(ValueError):
        dltensor.asarray(src, copy=False, dtype=dltensor.float64)


def test_from_dlpack_copy_true_sets_is_copied_and_copies():
    a = np.arange(4.0)
    for src in (a, torch.arange(4.0)):
        x = dltensor.from_dlpack(src, copy=True)
        assert x.data_ptr != ptr(src)
        assert values(x).tolist() == [0, 1, 2, 3]


def test_from_dlpack_copy_false_on_another_device_is_refused():
    p = P.Producer(data=P.FAKE_POINTER, device=(P.METAL, 0), shape=(2,), strides=(1,))
    with pytest.raises(BufferError):
        dltensor.from_dlpack(p, device="cpu", copy=False)
    assert p.deleter_calls == len(p.exports)


def test_pre_2023_producer_is_asked_again_without_the_new_keywords():
    a = np.arange(4, dtype=np.float32)
    p = P.OldProducer(a, shape=(4,), strides=(1,))
    x = dltensor.from_dlpack(p)
    assert x.data_ptr == ptr(a) and values(x).tolist() == [0, 1, 2, 3]
    assert x._tensor.versioned is False
    # It cannot copy: dltensor takes the memory and copies it itself (the copy the spec
    # asks for), releasing what it took at once.
    y = dltensor.from_dlpack(p, copy=True)
    assert y.data_ptr != ptr(a) and values(y).tolist() == [0, 1, 2, 3]
    assert p.deleter_calls == 1 and len(p.exports) == 2
    del x
    assert p.deleter_calls == 2
    # copy=False it cannot promise: refused as a producer too old, not as a needed copy
    with pytest.raises(BufferError, match="pre-2023.12") as e:
        dltensor.from_dlpack(p, copy=False)
    assert not isinstance(e.value, ValueError)  # (CopyError is one: "a copy is needed")
    assert "it raised TypeError: " in str(e.value)  # (its words: another cause shows)
    # nor with a device named: that import, taken plainly, was accepted
    for take in (dltensor.from_dlpack, dltensor.asarray):
        with pytest.raises(BufferError, match="pre-2023.12"):
            take(p, device="cpu", copy=False)
    assert p.deleter_calls == len(p.exports)


class _ArrayOnly:
    """What h5py datasets, zarr arrays and xarray objects offer: only ``__array__``."""

    def __init__(self, a):
        self.a = a

    def __array__(self, dtype=None, copy=None):
        if copy:
            return self.a.copy() if dtype is None else self.a.astype(dtype)
        return self.a if dtype is None else self.a.astype(dtype)


def test_objects_with_only_array_keep_their_dtype_and_memory():
    # (they came in as float64 copies: the spec's defaults are for Python scalars only)
    for np_dtype, dtype in ((np.float32, dltensor.float32), (np.int8, dltensor.int8),
                            (np.uint64, dltensor.uint64), (np.bool_, dltensor.bool)):
        a = np.arange(4).astype(np_dtype)
        x = dltensor.asarray(_ArrayOnly(a))
        assert x.dtype == dtype and x.data_ptr == ptr(a)
        assert dltensor.asarray(_ArrayOnly(a), copy=False).data_ptr == ptr(a)
        y = dltensor.asarray(_ArrayOnly(a), copy=True)
        assert y.data_ptr != ptr(a) and values(y).tolist() == a.tolist()
    with pytest.raises(TypeError, match="dtype"):
        dltensor.asarray(_ArrayOnly(np.array(["a", "b"])))


def test_an_array_only_object_asked_for_a_copy_is_copied_once():
    class Counting(_ArrayOnly):
        asked = []

        def __array__(self, dtype=None, copy=None):
            self.asked.append(copy)
            return super().__array__(dtype, copy)

    a = np.arange(4.0)
    y = dltensor.asarray(Counting(a), copy=True)
    assert Counting.asked == [True] and y.data_ptr != ptr(a)  # its own copy, not a second


def test_a_list_of_other_libraries_arrays_keeps_their_dtype():
    # As NumPy's arrays in a list do (and np.asarray, torch.stack): the arrays' dtype, not the
    # Python-scalar default (a list of float32 PyTorch tensors made float64).
    for seq in ([torch.ones(2), torch.zeros(2)], [jnp.ones(2, jnp.float32)],
                [xs.ones(2, dtype=xs.float32)]):
        got = dltensor.asarray(seq)
        assert got.dtype == dltensor.float32 and got.shape == (len(seq), 2)
    assert dltensor.asarray([torch.tensor(3, dtype=torch.int16)]).dtype == dltensor.int16


def test_torch_zero_tensors_with_no_memory_are_refused_not_read():
    # PyTorch's zero tensors export a NULL data pointer with elements; NumPy's C consumer
    # (the fast path for exact torch.Tensors) read that as "allocate": uninitialised values.
    for shape, zeros in (((3,), [0.0, 0.0, 0.0]), ((), 0.0)):  # (a 0-d one has an element too)
        z = torch._efficientzerotensor(shape)
        for take in (dltensor.from_dlpack, dltensor.asarray):
            with pytest.raises(BufferError, match="NULL data pointer"):
                take(z)
        assert np.asarray(dltensor.from_dlpack(z, copy=True)).tolist() == zeros


def test_torch_tensors_with_no_memory_but_an_offset_are_refused_not_read():
    # Sliced, such a tensor exports its offset as its address (0xc for a float32 one from 3):
    # NumPy's consumer and dltensor's took it, and the first computation read address 0xc, a
    # segmentation fault. Inside torch.func.functionalize every tensor has no memory.
    sliced = torch._efficientzerotensor(10)[3:]
    for take in (dltensor.from_dlpack, dltensor.asarray):
        with pytest.raises(BufferError, match="first page of memory"):
            take(sliced)

    def imports(u):
        with pytest.raises(BufferError, match="first page of memory"):
            dltensor.asarray(u)
        return u
    torch.func.functionalize(imports)(torch.arange(10.0)[3:7])


def test_torch_subclasses_are_checked_as_torch_tensors_are():
    # A negative view of a subclass (its type survives PyTorch's operations) came in with the
    # signs of its memory: [2, -4] for [-2, 4].
    class Sub(torch.Tensor):
        pass
    neg = torch.tensor([1 + 2j, 3 - 4j]).as_subclass(Sub).conj().imag
    assert neg.is_neg()
    for take in (dltensor.from_dlpack, dltensor.asarray):
        with pytest.raises(BufferError, match="negative view"):
            take(neg)
    assert np.asarray(dltensor.asarray(neg.resolve_neg())).tolist() == [-2.0, 4.0]


def test_from_dlpack_of_numpy_ml_dtypes_arrays_with_copy_or_device():
    # NumPy's __dlpack__ cannot export bfloat16 or float8; the plain call was fine, any
    # keyword raised BufferError.
    for dtype in (ml_dtypes.bfloat16, ml_dtypes.float8_e4m3fn):
        a = np.arange(4).astype(dtype)
        for kwargs in ({"copy": False}, {"device": "cpu"}, {"device": "cpu", "copy": False}):
            x = dltensor.from_dlpack(a, **kwargs)
            assert x.data_ptr == a.ctypes.data and x.dtype.name == np.dtype(dtype).name
        c = dltensor.from_dlpack(a, copy=True)
        assert c.data_ptr != a.ctypes.data and np.asarray(c).tolist() == a.tolist()


@pytest.mark.parametrize("make", [
    lambda: np.ndarray((4,), ml_dtypes.bfloat16, np.zeros(16, np.uint8), strides=(3,)),
    lambda: np.zeros(4, dtype=[("a", "f8"), ("b", "i4")])["a"],  # (12-byte strides)
], ids=["bfloat16 by 3 bytes", "a packed record's float64 field"])
def test_strides_of_part_of_an_element_are_never_exported_rounded_down(make):
    # DLPack counts strides in elements: 3 bytes of bfloat16 is none. dltensor's own producer
    # (bfloat16's) exported 3 // 2 = 1, so consumers read other memory; NumPy's refuses.
    a = make()
    a[...] = [1.0, 2.0, 3.0, 4.0]
    x = dltensor.asarray(a)
    assert float(dltensor.sum(x)) == 10.0  # (computing is fine: NumPy's view)
    assert not hasattr(x, "strides")  # (an AttributeError: inspect.getmembers(x) works)
    for export in (lambda: x.__dlpack__(max_version=(1, 0)),
                   lambda: x.__dlpack__(), lambda: torch.from_dlpack(x)):
        with pytest.raises(BufferError, match="not whole|multiple of itemsize"):  # (NumPy's)
            export()
    c = dltensor.asarray(x, copy=True)  # (what the message advises: compact)
    assert torch.from_dlpack(c).float().tolist() == [1.0, 2.0, 3.0, 4.0]
    capsule = x.__dlpack__(max_version=(1, 0), copy=True)
    assert np.asarray(dltensor.from_dlpack(capsule)).astype(np.float32).tolist() == \
        [1.0, 2.0, 3.0, 4.0]


@pytest.mark.parametrize("dtype", [ml_dtypes.bfloat16, ml_dtypes.float8_e4m3fn, np.float16])
def test_a_list_of_small_float_arrays_keeps_their_dtype_without_warnings(dtype):
    import warnings
    a = dltensor.asarray(np.array([1.0, 2.0], dtype=dtype))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # (float16: an overflow warning from a 2**63 check)
        for seq in ([a, a], [np.array([1.0, 2.0], dtype=dtype)] * 2):
            r = dltensor.asarray(seq)
            assert r.dtype == a.dtype and r.shape == (2, 2)


@pytest.mark.parametrize("source", [
    lambda: dltensor.asarray([1 + 2j]), lambda: np.array([1 + 2j]),
    lambda: torch.tensor([1 + 2j]), lambda: jnp.asarray([1 + 2j]),
], ids=["dltensor", "numpy", "torch", "jax"])
def test_asarray_to_a_real_dtype_refuses_complex_as_astype_does(source):
    for obj in (source(), [source()], [source(), source()]):  # (lists of them too)
        with pytest.raises(TypeError, match="imaginary"):
            dltensor.asarray(obj, dtype=dltensor.float32)
    assert bool(dltensor.asarray(source(), dtype=dltensor.bool)[0])  # (defined: nonzero)


def test_a_list_of_tensors_numpy_cannot_read_goes_through_dlpack():
    # (PyTorch's .numpy() has no bfloat16 and refuses tensors needing grad in its own words)
    t = torch.arange(3, dtype=torch.bfloat16)
    x = dltensor.asarray([t, t])
    assert x.dtype == dltensor.bfloat16 and x.shape == (2, 3)
    assert np.asarray(x).astype(np.float32).tolist() == [[0, 1, 2]] * 2
    with pytest.raises(BufferError, match="gradient"):
        dltensor.asarray([torch.ones(2, requires_grad=True)])


def test_other_libraries_index_arrays_index_as_arrays_not_integers():
    # PyTorch's __index__ answers for any one-element tensor, bool ones too: x[tensor([1])]
    # was x[1] (a 0-d result) and x[tensor(True)] = 7 wrote x[1]. Other libraries' arrays
    # index as ours do (taken as asarray takes them, as NumPy and PyTorch take each other's);
    # 0-d integer ones are ints, as NumPy's integers are.
    import torch
    x = dltensor.arange(5)
    for key, shape in ((torch.tensor([1]), (1,)), (torch.tensor(True), (1, 5)),
                       (torch.tensor([[True]]), None), ((torch.tensor([1]),), (1,)),
                       (np.array([1]), (1,)), (np.array([[1, 3]]), (1, 2)),
                       ((Ellipsis, torch.tensor(False)), (5, 0)),  # (0-d masks beside others:
                       ((np.array(True), Ellipsis), (1, 5))):  # a RecursionError)
        if shape is None:  # (a 2-D mask of a 1-D array)
            with pytest.raises(IndexError):
                x[key]
            continue
        assert x[key].shape == shape
    assert int(x[torch.tensor(2)]) == 2 and int(x[np.array(3)]) == 3
    x[np.array([1, 2])] = 7
    x[torch.tensor([4])] = 8
    assert np.asarray(x).tolist() == [0, 7, 7, 3, 8]
    with pytest.raises(IndexError, match="makes no index array"):
        x[torch.tensor([1.0], requires_grad=True)]
    with pytest.raises(TypeError):
        dltensor.tril(dltensor.ones((2, 2)), k=torch.tensor([1]))


def test_a_width_dltensor_has_no_dtype_for_is_named_as_such():
    # PyTorch exports complex32 (chalf): valid DLPack, a dtype dltensor lacks, not a bad width
    import torch
    t = torch.zeros(2, dtype=torch.chalf)
    with pytest.raises(BufferError, match="no 32-bit kDLComplex dtype"):
        dltensor.from_dlpack(t)
    assert t.tolist() == [0j, 0j]  # (given back: PyTorch's tensor is whole)


def test_equality_with_sequences_and_other_libraries_arrays_is_refused_as_plus_is():
    # (left to Python, == compared identities: x == torch.tensor(same values) was False)
    x = dltensor.asarray([1.0, 2.0])
    for other in ([1.0, 2.0], (1.0, 2.0), range(2), memoryview(b"ab"), torch.tensor([1.0, 2.0]),
                  np.array([1.0, 2.0])):
        for compare in (lambda: x == other, lambda: x != other, lambda: other == x):
            with pytest.raises(TypeError, match="asarray"):
                compare()
    assert (x == None) is False and (x != "a") is True  # noqa: E711  (Python's own answers)
    assert (x == np.float32) is False and x not in (np.float32, None)  # (a type: no array)
    assert np.asarray(x == dltensor.asarray(torch.tensor([1.0, 2.0]))).tolist() == [True, True]


def test_numpy_subclasses_import_alike_whatever_came_first(tmp_path):
    # from_dlpack of a memmap once cached NumPy's __dlpack__ as the importer of its type, which
    # asarray's fast path then used: byte-swapped memmaps, converted before, were refused after.
    path = tmp_path / "be.bin"
    np.arange(4, dtype=">f4").tofile(path)
    mm = np.memmap(path, dtype=">f4", mode="r")
    assert np.from_dlpack(dltensor.asarray(mm)).tolist() == [0.0, 1.0, 2.0, 3.0]
    with pytest.raises(BufferError):
        dltensor.from_dlpack(mm)  # (DLPack has no byte order: NumPy refuses it too)
    x = dltensor.asarray(mm)
    assert x.dtype == dltensor.float32 and np.from_dlpack(x).tolist() == [0.0, 1.0, 2.0, 3.0]
    # Subclasses of every dtype dltensor takes from NumPy are taken as plain arrays are,
    # bfloat16 included (NumPy's __dlpack__ cannot export it).
    ml_dtypes = pytest.importorskip("ml_dtypes")
    for a in (np.ones(3, dtype=ml_dtypes.bfloat16), np.arange(3.0)):
        for sub in (a.view(np.recarray), np.memmap(tmp_path / "f.bin", dtype=a.dtype,
                                                    mode="w+", shape=a.shape)):
            y = dltensor.from_dlpack(sub)
            assert y.dtype == dltensor.asarray(a).dtype and y.shape == (3,)
            assert y.__dlpack__ is not None and _shares(y, sub)


def _shares(x, a):
    return np.asarray(x).__array_interface__["data"][0] == a.__array_interface__["data"][0]


def test_numpys_view_of_an_array_is_its_own_object():
    # np.asarray(x) was the array dltensor computes with: reshaping it in place changed x's
    # shape (not its strides), and its writeable flag set x's read-only state.
    y = dltensor.from_dlpack(np.arange(4.0).__dlpack__(max_version=(1, 0)))
    a = np.asarray(y)
    a.shape = (2, 2)
    assert y.shape == (4,) and y.ndim == 1 and _shares(y, a)
    x = dltensor.asarray([1.0, 2.0])
    np.asarray(x).flags.writeable = False
    assert not x.read_only
    x[0] = 5.0
    w = dltensor.broadcast_to(dltensor.asarray([1.0, 2.0]), (3, 2))
    try:
        np.asarray(w).flags.writeable = True  # (NumPy's to allow or not: a view of NumPy's)
    except ValueError:
        pass
    assert w.read_only
    with pytest.raises(ValueError):
        w[0, 0] = 1.0


def test_lists_of_buffers_keep_their_dtype_as_lists_of_arrays_do():
    import array as pyarray
    assert dltensor.asarray([bytearray(b"ab")]).dtype == dltensor.uint8
    assert dltensor.asarray([pyarray.array("f", [1.0])]).dtype == dltensor.float32
    assert dltensor.asarray([memoryview(b"ab")]).dtype == dltensor.uint8
    assert dltensor.asarray([np.ones(1, np.float32)]).dtype == dltensor.float32


@pytest.mark.parametrize("code", [">f4", ">i2", ">c16"])
def test_a_list_of_one_byte_swapped_array_is_converted_as_the_array_is(code):
    # NumPy keeps the byte order of a sequence holding one such array (of two it converts):
    # [big-endian] raised KeyError from wrap, where the array alone is converted to native.
    a = np.arange(3, dtype=code)
    for obj, shape in (([a], (1, 3)), ((a,), (1, 3)), ([memoryview(a)], (1, 3)),
                       ([[a]], (1, 1, 3))):
        x = dltensor.asarray(obj)
        assert x.dtype == dltensor.asarray(a).dtype and x.shape == shape
        assert values(x).reshape(3).tolist() == [0, 1, 2]


@pytest.mark.parametrize("value", [[1j], [1, 2j], 1j, [[1.0], [1j]]])
def test_complex_python_values_to_a_real_dtype_say_so(value):
    # As for complex arrays (astype's rule), not NumPy's "float() argument must be ..."
    for dtype in (dltensor.float64, dltensor.int64):
        with pytest.raises(TypeError, match="imaginary part"):
            dltensor.asarray(value, dtype=dtype)
    assert dltensor.asarray(value, dtype=dltensor.bool).dtype == dltensor.bool


def test_tensorflow_shares_both_ways_where_it_is_installed():
    # TensorFlow is not among CI's frameworks (its wheel is ~600 MB): this runs where it is
    # (2026-11-28: TensorFlow 2.21 CPU). Its tensors' address is read back through dltensor.
    tf = pytest.importorskip("tensorflow")
    to, back = tf.experimental.dlpack.to_dlpack, tf.experimental.dlpack.from_dlpack

    def tf_ptr(t):
        return dltensor.from_dlpack(to(t)).data_ptr
    t = tf.constant(np.arange(1000, dtype=np.float32))
    for take in (lambda: dltensor.from_dlpack(to(t)), lambda: dltensor.asarray(t)):
        assert take().data_ptr == tf_ptr(t)  # a bare capsule, and the tensor's __dlpack__
    for n in (3, 17, 10**6):  # (unaligned NumPy memory too: TensorFlow takes it in place)
        x = dltensor.asarray(np.arange(n, dtype=np.float32))
        assert tf_ptr(back(x.__dlpack__())) == x.data_ptr
    for d in (tf.int8, tf.uint16, tf.float16, tf.bfloat16, tf.complex64, tf.bool):
        x = dltensor.from_dlpack(to(tf.ones((2, 3), dtype=d)))
        assert x.dtype.name == d.name and back(x.__dlpack__()).dtype == d
    read_only = dltensor.asarray(np.frombuffer(bytes(16), dtype=np.float32))
    with pytest.raises(BufferError):  # (a legacy capsule cannot say read-only)
        back(read_only.__dlpack__())


def test_pytorch_0d_masks_beside_other_indices_index_as_in_numpy():
    A = np.arange(24, dtype=np.int32).reshape(2, 3, 4)
    x = dltensor.asarray(A)
    for key, np_key in (((torch.tensor(True), Ellipsis), (True, Ellipsis)),
                        ((0, torch.tensor(False), 1, slice(None)), (0, False, 1, slice(None)))):
        got = x[key]
        assert np.array_equal(np.asarray(got), A[np_key]) and got.shape == A[np_key].shape


@pytest.mark.parametrize("dtype", ["bfloat16", "float8_e4m3fn"])
def test_an_exchange_api_tensor_numpy_refuses_is_released_under_the_python_fallback(
        monkeypatch, dtype):
    # A capsule NumPy's consumer refuses (PyTorch's, from its C exporter) dies unconsumed and
    # releases the tensor. (When it was owning_capsule's over the C exchange API's tensor, with
    # the Python destructor as the C pair was cleared, NumPy destroyed it with its error set:
    # SystemError, and the tensor was never released.)
    import gc

    from dltensor._dlpack import produce
    monkeypatch.setattr(produce, "_c_release", {})
    t = torch.zeros(3, dtype=getattr(torch, dtype))
    x = dltensor.asarray(t)  # (held by dltensor's consumer, through __dlpack__)
    assert str(x.dtype) == f"dltensor.{dtype}" and x.shape == (3,)
    del x
    gc.collect()
    assert t._use_count() == 1  # (every export of it released)
