"""Devices: Device objects, the default device, __cuda_array_interface__, and the real-GPU path.

On CPU-only machines, tensors claiming CUDA/ROCm/Metal come from the ctypes producer in
producers.py (their pointers are never touched). The tests marked ``gpu`` run wherever CuPy
finds a CUDA device and skip cleanly elsewhere; they live in test_gpu.py.
"""

from __future__ import annotations

import gc
import os
import subprocess
import sys

import numpy as np
import pytest

import dltensor as dt
from dltensor import _dlpack
from dltensor._backends import NoBackendError
from dltensor._devices import Device, as_device
from producers import CUDA, FAKE_POINTER, METAL, ROCM, Producer, RaisingProducer


def _fake(device, shape=(2, 3), dtype=(2, 32, 1)):
    return dt.from_dlpack(Producer(data=FAKE_POINTER, device=device, shape=shape, dtype=dtype))


@pytest.mark.parametrize("spec, text", [
    ((1, 0), "cpu"), ((2, 0), "cuda:0"), ((2, 3), "cuda:3"), ((10, 1), "rocm:1"),
    ((8, 0), "metal:0"), ((7, 2), "vulkan:2"), ((14, 0), "oneapi:0"), ((3, 0), "cuda_host:0"),
    ((4, 1), "opencl:1"), ((9, 0), "vpi:0"), ((11, 2), "rocm_host:2"), ((12, 0), "ext_dev:0"),
    ((13, 1), "cuda_managed:1"), ((15, 0), "webgpu:0"), ((16, 1), "hexagon:1"),
    ((17, 0), "maia:0"), ((18, 4), "trn:4"),  # (every DLPack 1.3 device type)
])
def test_device_prints_and_parses(spec, text):
    d = Device(*spec)
    assert str(d) == text
    assert as_device(text) == d == as_device(spec)
    assert d.__dlpack_device__() == spec
    assert hash(d) == hash(as_device(text))


def test_device_defaults_and_aliases():
    # No index is device 0; "gpu" is CuPy's and JAX's word for CUDA
    assert Device(2) == Device("cuda") == as_device("cuda") == Device(2, 0)
    assert as_device("gpu:1") == Device(2, 1) and str(Device("gpu")) == "cuda:0"
    as_device((2, 0))  # (cached: a pair that equals it, (2, 0.0), must not find it)
    for pair in ((2, 0.0), (1, 0.0)):
        with pytest.raises(TypeError, match="pair of ints"):
            as_device(pair)


def test_a_pair_is_two_ints():
    # Device() alone defaults a missing id and parses a string; a pair does neither
    class Lying:
        def __dlpack_device__(self):
            return (2, None)

    for pair in ((1, None), (2, None), ("cuda:1", None), ("rocm:3", None)):
        with pytest.raises(TypeError, match="pair of ints"):
            as_device(pair)
        with pytest.raises(TypeError, match="pair of ints"):
            dt.zeros(1, device=pair)
    with pytest.raises(TypeError, match="pair of ints"):
        as_device(Lying())
    for said in ((2,), ("cuda:1",), [2, 0], (2, 0, 0), 2):  # (not a pair)
        Lying.__dlpack_device__ = lambda self, said=said: said
        with pytest.raises(TypeError):
            as_device(Lying())


def test_device_strings_are_checked():
    with pytest.raises(ValueError, match="unknown device"):
        as_device("tpu:0")
    for bad in ("cuda:x", "cuda:", "cuda:\u0663", "cuda:-1", "cuda: 1"):  # (\u0663: int() took it)
        with pytest.raises(ValueError, match="unknown device"):
            as_device(bad)
    with pytest.raises(TypeError):
        as_device(3.5)
    with pytest.raises(ValueError):
        Device(99, 0)



def test_devices_are_immutable_and_their_repr_makes_them():
    # (a device's type could be set: the CPU object every array shares then said cuda:0)
    d = Device(2, 1)
    assert eval(repr(d), {"Device": Device}) == d == Device("cuda:1")
    for change in (lambda: setattr(dt.get_default_device(), "device_type", 2),
                   lambda: setattr(d, "device_id", 0), lambda: delattr(d, "device_id")):
        with pytest.raises(AttributeError, match="immutable"):
            change()
    assert str(dt.zeros(1).device) == "cpu" and str(d) == "cuda:1"
    with pytest.raises(TypeError):
        Device("cuda", 0)  # (a pair's members are ints)


def test_a_bad_environment_default_says_where_it_came_from():
    for value in ("", "bogus"):
        done = subprocess.run([sys.executable, "-c", "import dltensor; dltensor.zeros(3)"],
                              capture_output=True, text=True, timeout=120,
                              env={**os.environ, "DLTENSOR_DEVICE": value})
        assert "ValueError: $DLTENSOR_DEVICE is" in done.stderr, done.stderr


@pytest.mark.parametrize("pair, error", [
    ((1, 0.5), TypeError), ((2, 1.0), TypeError), ((1, "a"), TypeError), ((True, 0), TypeError),
    (("cuda", 0), TypeError), ((2, -1), ValueError), ((99, 0), ValueError),
    ((2, 2**31), ValueError), ("cuda:2147483648", ValueError),  # (DLPack's ids are int32)
])
def test_device_pairs_are_checked(pair, error):
    with pytest.raises(error):
        as_device(pair)
    with pytest.raises(error):
        dt.zeros(2, device=pair)
    assert str(dt.Device(10, 2**31 - 1)) == "rocm:2147483647"


def test_every_cpu_id_is_the_one_cpu():
    # A producer may number the CPU; NumPy's memory is all one, so "cpu:1" is the CPU, not a
    # device to which nothing can move ("cannot move from cpu to cpu").
    for spelling in ("cpu:1", (1, 3), Device(1, 2), Device(1, 0)):
        assert as_device(spelling) is dt.asarray(1.0).device
    x = dt.asarray([1.0, 2.0])
    assert x.to_device("cpu:1") is x
    assert dt.asarray(x, device=(1, 7), copy=False).data_ptr == x.data_ptr


def test_arrays_as_devices_are_not_kept():
    # Anything with __dlpack_device__ names a device, and is not cached: NumPy and JAX arrays
    # are unhashable, and caching arrays would keep them alive.
    import weakref
    np_x = np.zeros(3)
    assert as_device(np_x) is as_device("cpu")
    x = dt.zeros(3)
    ref = weakref.ref(x)
    assert as_device(x) is as_device("cpu")
    del x
    gc.collect()
    assert ref() is None


def test_to_device_refuses_a_stream_where_no_cuda_device_is_involved():
    x = dt.asarray([1.0])
    for device in ("cpu", "cuda_host:0"):
        with pytest.raises(ValueError, match="stream"):
            x.to_device(device, stream=1)
    assert x.to_device("cpu", stream=None) is x
    with pytest.raises(ValueError, match="stream"):
        _fake((METAL, 0)).to_device("metal:0", stream=0)
    # held CUDA memory (no CuPy to name a stream): nothing moves, nothing to order
    held = _fake((CUDA, 0))
    assert held.to_device("cuda:0", stream=5) is held
    # but its value is checked as with CuPy (test_gpu.py: a wrong type or 0 was taken here)
    for stream in ("x", 1.5, True):
        with pytest.raises(TypeError, match="stream"):
            held.to_device("cuda:0", stream=stream)
    for stream in (0, -1, 2**64):  # (2**64, no pointer, was taken)
        with pytest.raises(ValueError, match="stream"):
            held.to_device("cuda:0", stream=stream)


def test_device_keyword_takes_every_spelling():
    for spelling in ("cpu", (1, 0), dt.asarray(1.0).device):
        assert dt.zeros(3, device=spelling).device == as_device("cpu")
        assert dt.asarray([1.0], device=spelling).device == as_device("cpu")


def test_default_device_can_be_chosen():
    try:
        dt.set_default_device("cpu")
        assert dt.get_default_device() == as_device("cpu")
        assert dt.__array_namespace_info__().default_device() == as_device("cpu")
    finally:
        dt.set_default_device(None)


def test_a_default_device_set_while_another_thread_reads_the_environment_stays(monkeypatch):
    # A reader that found none set resolved $DLTENSOR_DEVICE and stored it over a device set
    # meanwhile by another thread. The interleaving, made deterministic: the setter runs
    # inside the reader's resolution.
    from dltensor import _devices
    real = _devices.as_device
    def resolving(device):
        if device == "cpu":
            monkeypatch.setattr(_devices, "as_device", real)
            dt.set_default_device("vulkan:0")  # (the other thread)
        return real(device)
    try:
        dt.set_default_device(None)
        monkeypatch.setattr(_devices, "as_device", resolving)
        monkeypatch.delenv("DLTENSOR_DEVICE", raising=False)
        assert str(dt.get_default_device()) == "vulkan:0"
        assert str(dt.get_default_device()) == "vulkan:0"
    finally:
        dt.set_default_device(None)


def test_default_device_from_the_environment():
    code = "import dltensor as dt; print(dt.get_default_device())"
    env = dict(os.environ, DLTENSOR_DEVICE="metal:1")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         check=True, timeout=120).stdout.strip()
    assert out == "metal:1"


def test_devices_lists_the_cpu():
    devices = dt.__array_namespace_info__().devices()
    assert isinstance(devices, tuple) and as_device("cpu") in devices


def test_held_cuda_memory_has_a_cuda_array_interface_with_the_same_pointer():
    x = _fake((CUDA, 0))
    cai = x.__cuda_array_interface__
    assert cai["data"] == (FAKE_POINTER, False)
    assert cai["shape"] == (2, 3) and cai["typestr"] == "<f4" and cai["version"] == 3
    assert cai["strides"] == (12, 4)
    # dltensor asked the producer to order the legacy default stream (stream=None, the spec's
    # default, with no CuPy stream to name): a consumer syncing on 1 is ordered after it.
    assert cai["stream"] == 1


class _TorchDefaults(Producer):
    """PyTorch's __dlpack__ departs from the spec: a stream not given is -1, no ordering."""

    def __dlpack__(self, *, stream=-1, max_version=None, dl_device=None, copy=None):
        return super().__dlpack__(stream=stream, max_version=max_version, dl_device=dl_device,
                                  copy=copy)


@pytest.mark.parametrize("producer", [Producer, _TorchDefaults])
def test_cuda_import_without_cupy_asks_for_the_legacy_default_stream(producer):
    p = producer(data=FAKE_POINTER, device=(CUDA, 0), shape=(4,), dtype=(2, 32, 1))
    dt.from_dlpack(p)
    dt.asarray(p)
    assert len(p.requests) == 2
    assert all(r["stream"] is None for r in p.requests), p.requests  # said, not left out


@pytest.mark.parametrize("device", [(METAL, 0), (ROCM, 0)])
def test_cuda_array_interface_only_for_cuda(device):
    assert not hasattr(_fake(device), "__cuda_array_interface__")
    assert not hasattr(dt.asarray([1.0]), "__cuda_array_interface__")


class _CAI:
    """A foreign object offering only __cuda_array_interface__ (as numba's arrays do)."""

    def __init__(self, ptr, shape, typestr, strides=None, readonly=False, **more):
        self.__cuda_array_interface__ = {"data": (ptr, readonly), "shape": shape,
                                         "typestr": typestr, "strides": strides, "version": 3,
                                         **more}


def test_a_cuda_array_interface_of_no_elements_may_say_pointer_0():
    # (version 3: "the pointer may be 0 where the array has no elements")
    for shape in ((0,), (2, 0, 3)):
        x = dt.asarray(_CAI(0, shape, "<f4"))
        assert x.shape == shape and x.size == 0 and str(x.device) == "cuda:0"
        assert x.__cuda_array_interface__["data"] == (0, False)


def test_cuda_array_interface_stream_is_handed_on_when_held():
    x = dt.asarray(_CAI(FAKE_POINTER, (3,), "<f4", stream=0xBEEF))
    assert x.__cuda_array_interface__["stream"] == 0xBEEF
    assert dt.asarray(_CAI(FAKE_POINTER, (3,), "<f4", stream=None)) \
        .__cuda_array_interface__["stream"] == 1


@pytest.mark.parametrize("bad", [{"stream": 0}, {"stream": "s"}, {"stream": True},
                                 {"stream": -1}, {"stream": -5}, {"stream": 2**64},
                                 {"mask": object()}, {"version": "3"}, {"version": -1},
                                 {"version": 4}, {"version": True}, {"version": 3.0},
                                 {"version": np.int64(7)}, {"version": [3]}])
def test_cuda_array_interface_bad_keys_are_refused(bad):
    with pytest.raises(BufferError):
        dt.asarray(_CAI(FAKE_POINTER, (3,), "<f4", **bad))


@pytest.mark.parametrize("typestr", ["xx", 5, b"<f4", None, "(2,f4", "f4,,i4", "(-1,)f4",
                                     "M8[as/3]", "\x00", "\x01", "\x0c"])
def test_cuda_array_interface_typestr_that_is_no_type_string_is_refused(typestr):
    # (it was NumPy's TypeError, "data type 'xx' not understood", as for a dtype dltensor lacks;
    # NumPy's SyntaxError or ValueError for some strings; a control character, a type number to
    # NumPy, was read as bool, int8 or float64)
    with pytest.raises(BufferError, match="typestr must be a type string"):
        dt.asarray(_CAI(FAKE_POINTER, (3,), typestr))
    with pytest.raises(TypeError, match="no dtype"):  # (a type string of a dtype it lacks)
        dt.asarray(_CAI(FAKE_POINTER, (3,), "<U4"))


@pytest.mark.parametrize("shape, strides, data", [
    ((4, 3), (12, 4, 4), None), ((4.0,), None, None), ((4,), (4.0,), None),
    ((4,), None, (-5, False)), ((4,), None, (2**65, False)), ((4,), None, [FAKE_POINTER, 0]),
    ((-1,), None, None), ((True,), None, None), (4, None, None),
    ((4,), None, (FAKE_POINTER, "no")), ((4,), None, (FAKE_POINTER, 1.0))])  # (was read-only)
def test_cuda_array_interface_malformed_fields_are_refused_losing_nothing(shape, strides, data):
    # (struct.error from packing the managed tensor, after it was allocated and the object
    # held: each try leaked the object and the block)
    cai = _CAI(FAKE_POINTER, shape, "<f4", strides=strides)
    if data is not None:
        cai.__cuda_array_interface__["data"] = data
    before = sys.getrefcount(cai)
    for _ in range(3):
        with pytest.raises(BufferError, match="__cuda_array_interface__"):
            dt.asarray(cai)
    assert sys.getrefcount(cai) == before


def test_cuda_array_interface_versions_before_3_and_none_are_read():
    # (versions 0 to 2 lay the same keys out, NumPy's ints as shape's are read; an interface
    # without one, or with None, is read as version 3)
    for version in (0, 1, 2, 3, np.int64(3), np.uint8(2), None, "absent"):
        cai = _CAI(FAKE_POINTER, (3,), "<f4")
        if version == "absent":
            del cai.__cuda_array_interface__["version"]
        else:
            cai.__cuda_array_interface__["version"] = version
        assert dt.asarray(cai).data_ptr == FAKE_POINTER


def test_cuda_array_interface_read_only_flag_is_read_by_its_truth():
    # (as NumPy reads __array_interface__'s; producers pass None or 0 for writable memory)
    for flag, read_only in ((None, False), (0, False), (1, True), (np.bool_(True), True)):
        x = dt.asarray(_CAI(FAKE_POINTER, (3,), "<f4", readonly=flag))
        assert x.read_only is read_only


def test_cuda_array_interface_takes_lists_and_numpy_ints():
    x = dt.asarray(_CAI(FAKE_POINTER, [np.int64(4), 3], "<f4", strides=[np.int32(12), 4]))
    assert x.shape == (4, 3) and x.strides == (3, 1) and x.data_ptr == FAKE_POINTER


def test_make_capsule_refuses_fields_that_do_not_fit_losing_nothing():
    owner = object()
    before = sys.getrefcount(owner)
    for shape, strides, data in (((2, 3), (3,), 0), ((2,), (1,), -1), ((2**64,), (1,), 0)):
        with pytest.raises(BufferError, match="cannot be described"):
            _dlpack.make_capsule(owner, data=data, byte_offset=0, device=(1, 0),
                                 dtype=(2, 32, 1), shape=shape, strides=strides)
    assert sys.getrefcount(owner) == before


@pytest.mark.parametrize("key", ["data", "shape", "typestr"])
def test_cuda_array_interface_without_a_required_key_is_refused(key):
    cai = _CAI(FAKE_POINTER, (3,), "<f4")
    del cai.__cuda_array_interface__[key]  # (was a bare KeyError naming the key)
    with pytest.raises(BufferError, match=f"lacks '{key}'"):
        dt.asarray(cai)


@pytest.mark.parametrize("interface", [5, [], "data shape typestr", ("shape", "typestr", "data")])
def test_cuda_array_interface_that_is_no_dict_is_refused(interface):
    # (an int raised TypeError 'argument of type 'int' is not iterable'; a list, a string or
    # a tuple was said to lack the keys a dict needs)
    class Claims:
        __cuda_array_interface__ = interface
    with pytest.raises(BufferError, match="must be a dict"):
        dt.asarray(Claims())


def test_cuda_array_interface_is_read_without_a_copy():
    x = dt.asarray(_CAI(FAKE_POINTER, (4, 5), "<f8", strides=(8, 32), readonly=True))
    assert x.device == as_device("cuda:0")
    assert x.shape == (4, 5) and x.dtype == dt.float64 and x.strides == (1, 4)
    assert x.data_ptr == FAKE_POINTER and x.read_only
    # and handed on untouched
    y = dt.from_dlpack(x)
    assert y.data_ptr == FAKE_POINTER


@pytest.mark.parametrize("device", [(CUDA, 0), (ROCM, 1), (METAL, 0)])
def test_no_cross_device_move_without_a_backend(device):
    x = _fake(device)
    for move in (lambda: x.to_device("cpu"), lambda: dt.from_dlpack(x, device="cpu"),
                 lambda: dt.asarray(x, device="cpu"),
                 lambda: x.__dlpack__(max_version=(1, 0), dl_device=(1, 0))):
        with pytest.raises(BufferError, match=f"cannot move memory from {x.device} to cpu"):
            move()
    with pytest.raises(BufferError, match="copy=False"):
        dt.from_dlpack(x, device="cpu", copy=False)
    # A cast on the way into pinned memory is made where x is, then moved: on held memory
    # that was the compute refusal (NoBackendError), not the move's, as for any other target
    for to in ("cpu", "cuda_host", "rocm"):
        for call in (lambda: dt.astype(x, dt.float64, device=to),
                     lambda: dt.asarray(x, dtype=dt.float64, device=to)):
            with pytest.raises(BufferError, match=f"cannot move memory from {x.device} to {to}"):
                call()


@pytest.mark.parametrize("device", [(ROCM, 1), (METAL, 0), (CUDA, 0)])
@pytest.mark.parametrize("take", [dt.from_dlpack, dt.asarray])
def test_a_devices_own_library_copies_it_to_the_cpu_when_asked(device, take):
    # The 2023.12 way (NumPy's too): the producer is asked with dl_device=(kDLCPU, 0) and
    # copies memory dltensor itself can only hold; its device memory is never imported.
    host = np.arange(6.0).reshape(2, 3)
    p = Producer(data=FAKE_POINTER, device=device, shape=(2, 3), dtype=(2, 64, 1), host=host)
    for copy in (None, True):
        x = take(p, device="cpu", copy=copy)
        assert x.device == dt.Device(1, 0) and not x.read_only
        assert np.asarray(x).tolist() == host.tolist()
        assert x.data_ptr not in (FAKE_POINTER, host.ctypes.data)
        assert p.requests[-1]["dl_device"] == (1, 0) and p.requests[-1]["copy"] is copy
        del x
    assert p.deleter_calls == len(p.exports) == 2  # two host copies, nothing else taken
    if take is dt.asarray:  # a dtype asked for too: still the producer's copy, then converted
        y = dt.asarray(p, device="cpu", dtype=dt.float32)
        assert y.dtype == dt.float32 and np.asarray(y).tolist() == host.tolist()
        assert p.requests[-1]["dl_device"] == (1, 0)
        # its own dtype, copy=True: the producer's copy is the one (it was copied again)
        z = dt.asarray(p, device="cpu", dtype=dt.float64, copy=True)
        assert z.data_ptr == p.exports[-1].struct.dl_tensor.data and not z.read_only
        z[0, 0] = 7.0
        assert host[0, 0] == 0.0
        del y, z
    with pytest.raises(ValueError, match="copy=False") as e:
        take(p, device="cpu", copy=False)
    assert isinstance(e.value, BufferError)  # (the spec names both classes for this)
    del e  # (its traceback holds the frames that held what was taken)
    gc.collect()
    assert p.deleter_calls == len(p.exports)


def test_copy_false_refusals_are_both_buffer_and_value_errors():
    # from_dlpack's copy text says BufferError; its device text and asarray's say ValueError.
    x = _fake((ROCM, 0))
    for refuse in (lambda: dt.from_dlpack(x, device="cpu", copy=False),
                   lambda: dt.asarray(x, device="cpu", copy=False),
                   lambda: dt.asarray(x.__dlpack__(max_version=(1, 0)), device="cpu",
                                      copy=False)):
        with pytest.raises(BufferError, match="copy=False") as e:
            refuse()
        assert isinstance(e.value, ValueError)

    class CopiesOnly(Producer):  # exports, but only as a copy (as CuPy across devices)
        def __dlpack__(self, **kwargs):
            if kwargs.get("copy") is False:
                raise BufferError("this export would need a copy")
            return super().__dlpack__(**kwargs)

    copies_only = CopiesOnly(np.arange(2.0), shape=(2,), strides=(1,), dtype=(2, 64, 1))
    refusing = RaisingProducer(BufferError("never exports"))
    for take in (dt.from_dlpack, dt.asarray):
        with pytest.raises(ValueError, match="would need a copy") as e:
            take(copies_only, copy=False)
        assert isinstance(e.value, BufferError)
        for copy in (False, None):  # refused whatever the copy: not a copy matter
            with pytest.raises(BufferError) as e:
                take(refusing, copy=copy)
            assert not isinstance(e.value, ValueError)
    del e
    gc.collect()
    assert copies_only.deleter_calls == len(copies_only.exports)  # (the probe's too)


def test_cpu_to_cuda_without_cupy_is_refused_clearly():
    with pytest.raises(BufferError, match="cuda"):
        dt.asarray([1.0, 2.0]).to_device("cuda:0")


def test_stream_values_for_cuda_and_rocm_are_checked():
    cuda, rocm = _fake((CUDA, 0)), _fake((ROCM, 0))
    with pytest.raises(TypeError, match="stream"):
        cuda.__dlpack__(stream="7", max_version=(1, 0))
    with pytest.raises(BufferError, match="not allowed"):
        cuda.__dlpack__(stream=0, max_version=(1, 0))
    for s in (1, 2):
        with pytest.raises(BufferError, match="not allowed"):
            rocm.__dlpack__(stream=s, max_version=(1, 0))
    for held in (cuda, rocm):  # (the words named 1 and 2, which ROCm forbids, as allowed)
        for s in (-2, 2**64):
            with pytest.raises(ValueError, match=r"must be -1 or a stream handle \(below"):
                held.__dlpack__(stream=s, max_version=(1, 0))
    for s in (None, 1, 2, -1, 0xBEEF):  # held: nothing to order, the capsule comes at once
        assert dt.from_dlpack(cuda.__dlpack__(stream=s, max_version=(1, 0))).data_ptr \
            == FAKE_POINTER


def test_pinned_memory_is_never_claimed_for_pageable_memory():
    pinned = dt.from_dlpack(Producer(np.arange(3.0), device=(3, 0), shape=(3,), strides=(1,)))
    for like in (dt.zeros_like, dt.ones_like, dt.empty_like, lambda x: dt.full_like(x, 2.0),
                 dt.exp):
        assert like(pinned).device == dt.Device(1, 0)  # NumPy's pageable memory
    for make in (dt.zeros, dt.ones, dt.empty, lambda n, device: dt.full(n, 1, device=device),
                 lambda _, device: dt.zeros_like(pinned, device=device),
                 lambda n, device: dt.asarray([1.0] * n, device=device),  # (was BufferError)
                 lambda n, device: dt.asarray(float(n), device=device),
                 lambda n, device: dt.fft.fftfreq(n, device=device),  # (these two as well)
                 lambda n, device: dt.fft.rfftfreq(n, device=device)):
        for device in ("cuda_host", "cuda_managed", "rocm_host"):
            with pytest.raises(RuntimeError, match=device):  # (NoBackendError)
                make(3, device=device)
        assert make(3, device="cpu").device == dt.Device(1, 0)


def test_sequences_of_dlpack_only_arrays():
    # NumPy holds objects offering only DLPack as objects, raising nothing: they were refused
    # ("NumPy sees dtype object"), and held memory among them was not named
    class Only:
        def __init__(self, a):
            self.a = a

        def __dlpack__(self, **kwargs):
            return self.a.__dlpack__(**kwargs)

        def __dlpack_device__(self):
            return self.a.__dlpack_device__()

    x = dt.asarray([Only(np.arange(3.0)), Only(np.ones(3))])
    assert x.shape == (2, 3) and x.dtype is dt.float64
    assert dt.asarray([Only(np.zeros(2, np.float32))]).dtype is dt.float32
    y = dt.asarray([[Only(np.arange(2.0))], [np.ones(2)]])  # (NumPy: "inhomogeneous")
    assert np.asarray(y).tolist() == [[[0.0, 1.0]], [[1.0, 1.0]]]
    held = Producer(data=FAKE_POINTER, device=(10, 0), shape=(3,), dtype=(2, 32, 1))
    for dtype in (None, dt.float32):  # (held: a new array is computed there, as stack's;
        with pytest.raises(NoBackendError, match="compute on device rocm:0"):  # no move asked)
            dt.asarray([held], dtype=dtype)
    ours = dt.from_dlpack(held)
    for seq in ([ours, ours], ([ours],), [ours, 1.0]):
        with pytest.raises(NoBackendError, match="compute on device rocm:0"):
            dt.asarray(seq)  # (it was BufferError "cannot move memory from rocm:0 to cpu")
        with pytest.raises(NoBackendError, match="compute on device rocm:0"):
            dt.asarray(seq, device="rocm:0")
        with pytest.raises(BufferError, match="cannot move memory from rocm:0 to cpu"):
            dt.asarray(seq, device="cpu")  # (a move asked for)


def test_pinned_memory_takes_a_consumers_stream():
    # CuPy's from_dlpack passes its stream for pinned and managed memory; NumPy queued no work
    # there, so there is nothing to order. The CPU itself takes none (the spec's rule).
    pinned = dt.from_dlpack(Producer(np.arange(3.0), device=(3, 0), shape=(3,), strides=(1,)))
    assert dt.from_dlpack(pinned.__dlpack__(stream=0xBEEF, max_version=(1, 0))).device \
        == pinned.device
    with pytest.raises(BufferError):
        dt.asarray([1.0]).__dlpack__(stream=0xBEEF, max_version=(1, 0))


def test_held_cuda_array_interface_says_read_only_and_empty():
    ro = dt.from_dlpack(Producer(data=FAKE_POINTER, device=(CUDA, 0), shape=(2,),
                                 dtype=(2, 32, 1), flags=dt._dlpack.DLPACK_FLAG_BITMASK_READ_ONLY))
    assert ro.__cuda_array_interface__["data"] == (FAKE_POINTER, True)
    empty = _fake((CUDA, 0), shape=(0, 3))
    assert empty.__cuda_array_interface__["data"] == (0, False)


def test_cuda_array_interface_is_absent_for_dtypes_it_cannot_name():
    # bfloat16 and float8 have no CAI typestr: hasattr() must say False, not raise.
    for code, bits in ((4, 16), (7, 8)):
        x = _fake((CUDA, 0), dtype=(code, bits, 1))
        assert not hasattr(x, "__cuda_array_interface__")


def test_sequences_of_device_arrays():
    # NumPy cannot read them: built on their device, which without CuPy is a refusal naming
    # it (as any call computing there); arrays on two devices refuse to mix.
    cuda, metal = _fake((CUDA, 0), shape=(3,)), _fake((METAL, 0), shape=(3,))
    with pytest.raises(NoBackendError, match="compute on device cuda:0"):
        dt.asarray([cuda, cuda])
    with pytest.raises(ValueError, match="different devices"):
        dt.asarray([cuda, [metal]])


def test_a_sequence_of_host_arrays_stays_on_the_host_whatever_the_default():
    # The spec: with device=None, "the device of the input array(s), if any" (they went to
    # the default device, an implicit copy); a sequence of scalars goes to the default one.
    pinned = dt.from_dlpack(Producer(np.arange(3.0), device=(3, 0), shape=(3,), strides=(1,)))
    one, two, zero_d = dt.asarray([1.0]), dt.asarray([2.0]), dt.asarray(1.0)
    try:
        for default in ("metal:0", "cuda_host", "cpu"):
            dt.set_default_device(default)
            for seq in ([one, two], [np.ones(2), np.zeros(2)], [[pinned]], (zero_d, 2.0)):
                assert dt.asarray(seq).device == dt.Device(1, 0)
            if default != "cpu":
                with pytest.raises(RuntimeError, match=default.split(":")[0]):  # NoBackendError
                    dt.asarray([1.0, 2.0])
    finally:
        dt.set_default_device(None)


@pytest.mark.parametrize("device", [(METAL, 0), (ROCM, 0), (CUDA, 0)])
def test_messages_about_held_memory_advise_only_what_can_work(device):
    # to_device('cpu') cannot move memory dltensor has no backend for (CUDA: no CuPy here),
    # so no message may send the user there; the producer's host copy can.
    x = _fake(device)
    for attempt in (lambda: np.asarray(x), lambda: __import__("pickle").dumps(x),
                    lambda: dt.exp(x)):
        with pytest.raises((BufferError, TypeError, RuntimeError)) as e:
            attempt()
        assert "to_device" not in str(e.value), e.value
    x._tensor.flags |= 1  # READ_ONLY, as a read-only producer says
    with pytest.raises(BufferError) as e:
        x.__dlpack__()
    assert "copy=True" not in str(e.value)  # (a copy of held memory is refused too)


def test_pinned_exports_check_streams_and_devices_whatever_dl_device_says():
    import producers as P
    a = np.arange(3, dtype=np.float32)
    h = dt.asarray(P.from_numpy(a, device=(P.CUDA_HOST, 0)))
    for stream in ("s", 1.5, True):  # (dl_device=(1, 0) skipped the stream checks)
        for cpu in ((1, 0), None):
            with pytest.raises(TypeError, match="stream"):  # (no int: as for CUDA memory)
                h.__dlpack__(max_version=(1, 0), stream=stream, dl_device=cpu)
    # to the CPU the spec asks None; CUDA forbids 0, and a handle is at most 64 bits
    for stream, dl_device, error in ((1, (1, 0), BufferError), (0, None, BufferError),
                                     (2**64, None, ValueError), (-2, None, ValueError)):
        with pytest.raises(error, match="stream"):
            h.__dlpack__(max_version=(1, 0), stream=stream, dl_device=dl_device)
    for stream in (-1, 1, 2, 2**63):
        assert h.__dlpack__(max_version=(1, 0), stream=stream) is not None
    for stream, error in (("s", TypeError), (1, BufferError), (-2, BufferError),
                          (2**64, BufferError)):  # (pageable CPU memory: None only)
        with pytest.raises(error, match="stream"):
            dt.ones(2).__dlpack__(stream=stream)
    # a copy asked on the pinned device itself: NumPy cannot allocate there (it came back on
    # the CPU, a device not asked for); on the CPU, and asked with no dl_device, it is one
    with pytest.raises(BufferError, match="dl_device=\\(1, 0\\)"):
        h.__dlpack__(max_version=(1, 0), dl_device=(P.CUDA_HOST, 0), copy=True)
    assert np.from_dlpack(h, copy=True).tolist() == [0.0, 1.0, 2.0]
    c = dt.from_dlpack(h.__dlpack__(max_version=(1, 0), dl_device=(1, 0), copy=True))
    assert c.device == dt.ones(1).device and c.data_ptr != a.ctypes.data


def test_held_memory_gets_signature_errors_first_and_never_a_float32_copy():
    # The float32 detour for ml_dtypes' floats must neither read held memory nor come before
    # the signature check.
    for dtype in ((2, 32, 1), (4, 16, 1)):  # float32, bfloat16
        h = _fake((METAL, 0), shape=(4,), dtype=dtype)
        for f in (dt.sort, dt.mean, dt.unique_values, dt.argsort):
            with pytest.raises(TypeError, match="positional"):
                f(h, 0)
            with pytest.raises(RuntimeError, match="metal:0"):
                f(h)
        for f in (dt.sum, dt.std, dt.cumulative_sum, dt.unique_counts):
            with pytest.raises(RuntimeError, match="metal:0"):
                f(h)


def test_operators_on_held_memory_check_operands_and_devices_first():
    # (the fast path computed first: NoBackendError where a TypeError or ValueError belongs)
    x = _fake((METAL, 0))
    with pytest.raises(TypeError):
        x + None
    for op in (lambda: x + dt.ones((2, 3)), lambda: dt.ones((2, 3)) * x):
        with pytest.raises(ValueError, match="different devices"):
            op()
    with pytest.raises(RuntimeError, match="metal:0"):
        x + 1.0


def test_held_memory_beside_a_large_python_int_says_the_cpus_error():
    # An int operand or clip bound past 2**20 was taken for a count that could make the CPU's
    # check large (repeat(x, 10**8)): NoBackendError where the CPU says TypeError or
    # OverflowError. An element-wise result has the arrays' shape whatever the int.
    x, i8 = _fake((METAL, 0)), _fake((METAL, 0), dtype=(0, 8, 1))
    for op in (lambda: x << 2**21, lambda: 2**21 >> x, lambda: dt.bitwise_and(x, 10**30)):
        with pytest.raises(TypeError, match="arrays of integer"):
            op()
    with pytest.raises(TypeError, match="cannot change"):
        i8 /= 2**64
    for op in (lambda: i8 + 2**64, lambda: dt.subtract(-2**70, i8)):
        with pytest.raises(OverflowError):
            op()
    with pytest.raises(TypeError):
        dt.clip(i8, 2**64, 1.5)
    with pytest.raises(RuntimeError, match="metal:0"):
        x + 2**64


def test_float16_norms_of_held_memory_say_the_cpus_errors_first():
    # (float16 norms are computed in float32: the cast came before the checks, a NoBackendError
    # where the CPU's AxisError or ValueError belongs, as for float32)
    for bits in (16, 32):
        x = _fake((METAL, 0), dtype=(2, bits, 1))
        with pytest.raises(np.exceptions.AxisError):
            dt.linalg.vector_norm(x, axis=5)
        with pytest.raises(ValueError, match="repeated axis|duplicate"):
            dt.linalg.vector_norm(x, axis=(0, 0))
        with pytest.raises(ValueError):
            dt.linalg.matrix_norm(x, ord=5)
        with pytest.raises(ValueError, match="2 dimensions"):
            dt.linalg.matrix_norm(_fake((METAL, 0), shape=(3,), dtype=(2, bits, 1)))
        with pytest.raises(RuntimeError, match="metal:0"):
            dt.linalg.vector_norm(x)


def test_an_rtol_array_on_another_device_is_refused():
    # (pinv's CPU path, NumPy's own, once took a held rtol to its backend: NoBackendError)
    x = dt.asarray(np.eye(3))
    for device in ((METAL, 0), (CUDA, 0)):
        rtol = _fake(device, shape=(), dtype=(2, 64, 1))
        for f in (dt.linalg.pinv, dt.linalg.matrix_rank):
            with pytest.raises(ValueError, match="different devices"):
                f(x, rtol=rtol)


def test_linalg_of_held_cuda_memory_says_the_cpus_errors_first():
    # (the CUDA refusal of non-finite input read the array first: NoBackendError where the
    # CPU's broadcast ValueError belongs)
    x = _fake((CUDA, 0), shape=(2, 3, 3), dtype=(2, 64, 1))
    with pytest.raises(ValueError, match="broadcast"):
        dt.linalg.pinv(x, rtol=_fake((CUDA, 0), shape=(5,), dtype=(2, 64, 1)))
    for f in (dt.linalg.svdvals, dt.linalg.eigvals):
        with pytest.raises(RuntimeError, match="cuda:0"):
            f(x)


def test_indexing_held_memory_checks_the_key_and_read_only_first():
    x = _fake((METAL, 0))
    for key in (1.5, [0], 0, ([0], [0.5]), [[0], [1, 2]], ([0, 2], ...), (0, [3]),
                (True, 5, 0), (..., [True])):  # (a float, too few indices for 2-D, a float
        # list, a ragged one, lists and ints out of bounds, a mask of another shape)
        with pytest.raises(IndexError):
            x[key]
        with pytest.raises(IndexError):
            x[key] = 1.0
    with pytest.raises(RuntimeError, match="metal:0"):
        x[0, 0] = 1.0  # (a write computes; a read of x[0, 0] is a view: test_held_views)
    with pytest.raises(RuntimeError, match="metal:0"):
        x[[0], [1]]  # (a good key of lists gathers: computes, never reads a held pointer)
    with pytest.raises(RuntimeError, match="metal:0"):
        x[[1, 0], ...] = 1.0
    r = dt.from_dlpack(Producer(data=FAKE_POINTER, device=(METAL, 0), shape=(2, 3),
                                dtype=(2, 32, 1), flags=1))  # READ_ONLY
    with pytest.raises(ValueError, match="read-only"):
        r[0, 0] = 1.0


def test_held_memory_transposes_as_metadata_and_keeps_its_producer_alive(leak_accounting):
    # x.T / x.mT of memory dltensor cannot compute on: a view of the same memory (hasattr and
    # inspect.getmembers raised before), exported with the strides swapped, never read.
    import inspect
    p = Producer(data=FAKE_POINTER, device=(METAL, 0), shape=(2, 3), strides=(3, 1),
                 dtype=(2, 32, 1))
    x = dt.from_dlpack(p)
    assert hasattr(x, "T") and hasattr(x, "mT") and inspect.getmembers(x)
    t = x.T
    assert t.shape == (3, 2) and t.device == x.device and t.data_ptr == x.data_ptr
    assert dt.from_dlpack(t.__dlpack__(max_version=(1, 0)))._tensor.strides == (1, 3)
    assert x.mT.mT._tensor.strides == (3, 1) and dt.matrix_transpose(x).shape == (3, 2)
    with pytest.raises(RuntimeError, match="metal:0"):
        dt.exp(t)
    del x
    assert p.deleter_calls == 0  # (the view keeps the producer's memory)
    del t
    assert p.deleter_calls == 1


def test_cupys_departures_are_wrappers_that_keep_the_answers(monkeypatch):
    # tests/device_cases.py compares them on a GPU; here, the wrappers' own plumbing (shapes,
    # axes, keywords) around NumPy's functions, which must give NumPy's answers unchanged
    # (NumPy standing in for the CuPy functions the wrappers call themselves)
    import array_api_compat.numpy as compat
    from dltensor._backends import cupy_backend
    from dltensor._backends.cupy_backend import DEPARTURES
    monkeypatch.setattr(cupy_backend, "_cupy", np)
    assert set(DEPARTURES) <= set(dir(compat))
    xs = (np.array([0.0, -0.0, np.nan, -1.0, 0.0]), np.array([[3.0, 1.0], [0.0, -0.0]]),
          np.array([3, 1, 2]), np.array([2.0, 1.0], np.float32),
          np.array([[1.0, np.nan, 5.0, np.nan], [np.nan, 2.0, np.nan, 0.0]]),
          np.array([[1 + 1j, complex(0, np.nan)], [np.nan, 2j]]),
          np.array([[complex(np.nan, 2), complex(1, np.nan), complex(np.nan, 1), 3 + 0j, -0j,
                     complex(0, np.nan), 0j]] * 2).reshape(2, 1, 7))
    pairs = ((np.array([2048, 1, 1, 1, 1, 1, 1], np.float16), np.ones(7, np.float16)),
             (np.arange(6.0).reshape(2, 3), np.ones(3)),
             (np.arange(6, dtype=np.float16).reshape(3, 2), np.ones(2, np.float16)))
    sorts = ({}, {"axis": 0}, {"descending": True}, {"stable": True, "axis": -1})
    reductions = ({}, {"axis": 0}, {"axis": -1, "keepdims": True}, {"keepdims": True})
    calls = {"sort": sorts, "argsort": sorts, "argmax": reductions, "argmin": reductions,
             "max": reductions, "min": reductions,
             "vecdot": ({}, {"axis": -1}), "tensordot": ({"axes": 1},),
             "where": ({},), "tril": ({}, {"k": 1}), "triu": ({}, {"k": -1}),
             "isin": ({}, {"invert": True}), "take": ({"axis": 0}, {"axis": -1}),
             "repeat": ({"axis": 0}, {"axis": -1}),
             **{f"cumulative_{op}": ({"axis": 0}, {"axis": -1, "include_initial": True},
                                     {"axis": 0, "dtype": np.complex128})
                for op in ("sum", "prod")}}
    assert set(calls) == set(DEPARTURES)
    monkeypatch.setattr(cupy_backend, "_SCAN_AT_ONCE", 2)  # (scans in parts of 2 elements)
    monkeypatch.setattr(cupy_backend, "_INDEX_MAX", 1)  # (every take along the first axis)
    from dltensor._dtypes import EXTENSION_FLOATS
    bf = next(d for d in EXTENSION_FLOATS if d.itemsize == 2)  # (bfloat16: on its bits)
    b = np.array([[np.nan, -0.0, 1.5], [-np.inf, 3.0, -np.nan]], bf)
    args = {"vecdot": pairs, "tensordot": pairs,
            "where": [(np.array([True, False, True]), b, b[::-1]),
                      (np.array([[True], [False]]), xs[1], np.float64(-0.0))],
            "tril": [(b,), (xs[1],)], "triu": [(b,), (xs[1],)],
            "isin": [(xs[0], np.array([-np.nan, 0.0, -1.0])), (xs[2], np.array([1, 7]))],
            "take": [(xs[1], np.array([1, 0, 1])), (xs[-1], np.array([0, 0, -1]))],
            "repeat": [(xs[1], np.array([1, 2])),
                       (np.arange(12.0).reshape(2, 3, 2), np.array([0, 3], np.int8))]}
    for name, wrap in DEPARTURES.items():
        f, g = getattr(compat, name), wrap(getattr(compat, name))
        for x in args.get(name, [(x,) for x in xs]):
            for kw in calls[name]:
                got, want = g(*x, **kw), f(*x, **kw)
                assert got.dtype == want.dtype and got.shape == want.shape
                if got.dtype == bf:  # (compared as their bits: every value kept)
                    got, want = got.view(np.uint16), want.view(np.uint16)
                assert np.array_equal(got, want, equal_nan=True)
                assert (np.signbit(got.real) == np.signbit(want.real)).all()
        if name not in ("vecdot", "tensordot", "where", "tril", "triu", "isin", "take",
                        "repeat"):
            with pytest.raises(np.exceptions.AxisError):
                g(xs[0], axis=1)
        if name in ("max", "min", "argmax", "argmin"):  # (an empty axis: NumPy's ValueError)
            for shape, axis in (((0, 0), 0), ((2, 0), -1), ((0, 3), None)) + (
                    (((0, 0, 3), (0, 2)),) if name in ("max", "min") else ()):
                with pytest.raises(ValueError) as mine:
                    g(np.zeros(shape), axis=axis)
                with pytest.raises(ValueError) as numpys:
                    f(np.zeros(shape), axis=axis)
                assert str(mine.value) == str(numpys.value)
            assert g(np.zeros((0, 3)), axis=1).shape == (0,)  # (no empty axis reduced)


def test_the_cupy_namespace_applies_its_departures(monkeypatch):
    # (its functions made of the compat namespace's: checked here over NumPy's, with CuPy's
    # device switch a no-op; a departure forgotten there would pass the test above)
    import contextlib
    import array_api_compat.numpy as compat
    from dltensor._backends import cupy_backend
    monkeypatch.setattr(cupy_backend, "on", lambda device_id: contextlib.nullcontext())
    seen = []
    monkeypatch.setitem(cupy_backend.DEPARTURES, "sort",
                        lambda fn: lambda *a, **k: seen.append(1) or fn(*a, **k))
    ns = cupy_backend._OnDevice(compat, 0)
    assert ns.sort(np.array([2.0, 1.0])).tolist() == [1.0, 2.0] and seen == [1]
    assert ns.argsort(np.array([0.0, -0.0]), stable=True).tolist() == [0, 1]
    assert ns.linalg.det(np.eye(2)) == 1.0  # (submodules: wrapped the same way)



def test_views_of_pinned_memory_stay_pinned_and_gathers_are_the_cpus():
    # A view is the same pinned memory (a GPU library may read it as such); an integer-array
    # or mask key gathers into new memory NumPy allocates: pageable, so `cpu`.
    import producers as P
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    h = dt.asarray(P.from_numpy(a, device=(P.CUDA_HOST, 0)))
    for view in (h[1:, ...], h[0, ...], h[..., ::2], h[None, ...], dt.flip(h),
                 dt.reshape(h, (6,)), dt.permute_dims(h, (1, 0)), dt.expand_dims(h, axis=0),
                 dt.squeeze(h[None, ...], axis=0), dt.moveaxis(h, 0, 1), dt.real(h),
                 dt.broadcast_to(h, (2, 2, 3)), dt.broadcast_arrays(h, h)[0], dt.unstack(h)[0],
                 dt.linalg.diagonal(h), h.mT):  # (functions' views were labelled cpu)
        assert view.device == h.device and str(h.device) == "cuda_host:0"
        assert np.shares_memory(np.asarray(view), a)
    # (gathers whose array key is not the first index: NumPy's result is a transposed view
    # of its new memory, with a base; and bool keys, made 0-d masks)
    for gather in (h[dt.asarray([1, 0]), ...], h[h > 2.0], h[[0], ...], h[:, dt.asarray([0, 1])],
                   h[:, [0, 1]], h[True], h[False], h[True, ...]):
        assert gather.device == dt.ones(1).device
        assert not np.shares_memory(np.asarray(gather), a)
    h[True] = 3.0
    assert (a == 3.0).all()
    h[[1], ...] = 9.0  # (a list was made on cuda_host, where NumPy cannot allocate)
    h[[0, 0], [2, 1]] = -1.0
    assert a.tolist() == [[3.0, -1.0, -1.0], [9.0, 9.0, 9.0]]
    # (an empty transform is NumPy's on pinned memory, not the CUDA mending's new array)
    e = dt.asarray(P.from_numpy(np.zeros((0, 3, 4), np.complex128), device=(P.CUDA_HOST, 0)))
    assert dt.fft.fftn(e, axes=(1, 2)).shape == (0, 3, 4)


@pytest.mark.parametrize("kind", ["CUDA_HOST", "CUDA_MANAGED", "ROCM_HOST"])
def test_calls_that_make_arrays_of_their_own_on_pinned_memory_make_them_on_the_cpu(kind):
    # (zeros and empties made with device=x.device: "cannot allocate cuda_host memory")
    import producers as P

    def pinned(a):
        return dt.from_dlpack(P.from_numpy(np.asarray(a), device=(getattr(P, kind), 0)))
    for call, shape in (
            (lambda: dt.fft.fft(pinned(np.zeros(0, np.complex128)), n=4), (4,)),
            (lambda: dt.fft.rfft(pinned(np.zeros((3, 0))), n=4), (3, 3)),
            (lambda: dt.fft.fftn(pinned(np.zeros(0, np.complex128)), s=(2,), axes=(0,)), (2,)),
            (lambda: dt.linalg.qr(pinned(np.zeros((0, 3, 2))))[1], (0, 2, 2)),
            (lambda: dt.linalg.solve(pinned(np.eye(3)), pinned(np.zeros((3, 0)))), (3, 0)),
            (lambda: dt.linalg.solve(pinned(np.eye(3)), pinned(np.zeros((5, 3, 0)))),
             (5, 3, 0))):
        r = call()
        assert r.shape == shape and r.device == dt.Device(1, 0)
    with pytest.raises(np.linalg.LinAlgError):
        dt.linalg.solve(pinned(np.zeros((2, 2))), pinned(np.zeros((2, 0))))


def test_new_memory_asked_for_on_pinned_memorys_own_device_is_refused():
    # (NumPy allocates pageable memory: a copy labelled cpu was returned for device=cuda_host,
    # a silent change of the device asked for; exports and zeros_like refuse it so)
    import producers as P
    x = dt.from_dlpack(P.from_numpy(np.arange(4.0), device=(P.CUDA_HOST, 0)))
    p = P.from_numpy(np.arange(4.0), device=(P.CUDA_HOST, 0))  # (a producer, who copies not)
    for call in (lambda: dt.asarray(x, device="cuda_host", copy=True),
                 lambda: dt.from_dlpack(x, device="cuda_host", copy=True),
                 lambda: dt.asarray(x, dtype=dt.float32, device="cuda_host"),
                 lambda: dt.from_dlpack(p, device="cuda_host", copy=True),
                 lambda: dt.asarray(p, device="cuda_host", copy=True)):
        with pytest.raises(BufferError, match="cannot allocate cuda_host:0"):
            call()
    assert dt.from_dlpack(p, copy=True).device == dt.Device(1, 0)

    class CopiesToPageable(P.Producer):  # (as a PyTorch pinned tensor's clone may be)
        def __dlpack__(self, *, copy=None, **kw):
            if copy:
                self.copy_of = P.from_numpy(np.arange(4.0))
                return self.copy_of.__dlpack__(**kw)
            return super().__dlpack__(copy=copy, **kw)
    q = CopiesToPageable(np.arange(4.0), device=(P.CUDA_HOST, 0), dtype=(2, 64, 1), shape=(4,))
    for take in (dt.from_dlpack, dt.asarray):
        with pytest.raises(BufferError, match="not on cuda_host:0"):
            take(q, device="cuda_host", copy=True)
    assert dt.from_dlpack(q, copy=True).device == dt.Device(1, 0)
    for call in (lambda: dt.astype(x, dt.float32, device="cuda_host"),
                 lambda: dt.astype(x, dt.float64, device="cuda_host")):
        with pytest.raises(RuntimeError, match="cannot allocate cuda_host:0"):
            call()
    # (nothing new: x itself; no device asked: a copy on the CPU, labelled so)
    assert dt.asarray(x, device="cuda_host") is x
    assert dt.astype(x, dt.float64, device="cuda_host", copy=False) is x
    for y in (dt.asarray(x, copy=True), dt.astype(x, dt.float32), dt.from_dlpack(x, copy=True),
              dt.asarray(x, device="cpu", copy=True)):
        assert y.device == dt.Device(1, 0)


def test_numpys_arrays_of_pinned_memory_keep_its_label():
    # (np.from_dlpack of pinned memory: NumPy's array says cuda_host, and its exports too;
    # taken, it was labelled cpu while its exports, NumPy's, said cuda_host)
    import producers as P
    x = dt.from_dlpack(P.from_numpy(np.arange(4.0), device=(P.CUDA_HOST, 0)))
    n = np.from_dlpack(x)
    assert n.__dlpack_device__()[0] == P.CUDA_HOST
    for y in (dt.asarray(n), dt.from_dlpack(n), dt.asarray(n[1:]), dt.asarray(n.view())):
        assert y.device == x.device and y.__dlpack_device__()[0] == P.CUDA_HOST
        cap = y.__dlpack__(max_version=(1, 0))
        assert P.capsule_struct(cap).dl_tensor.device.device_type == P.CUDA_HOST
        assert (y + 1).device == dt.Device(1, 0) and y.to_device("cpu").device == dt.Device(1, 0)
    for m in (np.arange(3.0), np.arange(3.0)[1:], np.arange(6.0).reshape(2, 3).T):
        assert dt.asarray(m).device == dt.Device(1, 0) == dt.from_dlpack(m).device


def test_copy_false_refuses_a_dtype_change_after_a_move_that_was_a_view_or_a_host_copy():
    # (pinned memory to the CPU is a view, and the copy=False asked of a dtype change was
    # dropped as though the move had copied; with a dtype, a held producer's host copy was
    # asked for with copy=None, a copy returned under copy=False)
    import producers as P
    x = dt.from_dlpack(P.from_numpy(np.arange(6.0), device=(P.CUDA_HOST, 0)))
    with pytest.raises(ValueError, match="copy=False"):
        dt.asarray(x, dtype=dt.float32, device="cpu", copy=False)
    p = Producer(data=FAKE_POINTER, device=(ROCM, 0), shape=(6,), dtype=(2, 64, 1),
                 host=np.arange(6.0))
    for dtype in (dt.float64, dt.float32):
        with pytest.raises(ValueError, match="copy=False") as e:
            dt.asarray(p, dtype=dtype, device="cpu", copy=False)
        assert isinstance(e.value, BufferError)  # (both, as without dtype=)
    del e
    assert dt.asarray(x, dtype=dt.float32, device="cpu").device == dt.Device(1, 0)


def test_a_producers_memory_error_on_its_host_copy_propagates():
    # (the spec: from_dlpack propagates a producer's failure to materialize the data, as
    # NumPy's does; it was replaced by dltensor's own refusal to move ROCm memory)
    import producers as P

    class OutOfHostMemory(P.Producer):
        def __dlpack__(self, *, dl_device=None, **kw):
            if dl_device is not None and tuple(dl_device) == (1, 0):
                raise MemoryError("not enough host memory to materialize the copy")
            return super().__dlpack__(dl_device=dl_device, **kw)

    p = OutOfHostMemory(data=FAKE_POINTER, device=(ROCM, 0), dtype=(2, 64, 1), shape=(4,))
    for take in (dt.from_dlpack, dt.asarray):
        for copy in (None, True):
            with pytest.raises(MemoryError, match="not enough host memory"):
                take(p, device="cpu", copy=copy)
    assert p.exports == []  # (nothing taken)


@pytest.mark.parametrize("device", ["rocm:0", (ROCM, 0), dt.Device(ROCM, 0)])
def test_a_copy_on_the_producers_own_device_is_the_producers_to_make(device):
    # (as without device=: it was imported and copied here, which dltensor cannot on ROCm)
    import producers as P

    class CopiesOnItsDevice(P.Producer):
        def __dlpack__(self, *, copy=None, **kw):
            if copy:  # (its copy: another fake tensor on its device, flagged IS_COPIED)
                self.requests.append(dict(copy=copy))
                self.copies = P.Producer(data=FAKE_POINTER + 4096, device=(ROCM, 0),
                                         dtype=(2, 64, 1), shape=(4,), flags=P.IS_COPIED)
                return self.copies.__dlpack__(**kw)
            return super().__dlpack__(copy=copy, **kw)

    p = CopiesOnItsDevice(data=FAKE_POINTER, device=(ROCM, 0), dtype=(2, 64, 1), shape=(4,))
    for take in (dt.from_dlpack, dt.asarray):
        x = take(p, device=device, copy=True)
        assert str(x.device) == "rocm:0" and x.data_ptr == FAKE_POINTER + 4096
        assert p.requests[-1]["copy"] is True and p.exports == []
        del x
        gc.collect()
        assert p.copies.deleter_calls == 1


def test_a_producer_that_ignores_dl_device_is_moved_or_refused_here():
    # from_dlpack(x, device="cpu") asks the producer for a host copy; one that hands its own
    # memory instead is moved here (pinned: relabelled) or refused (ROCm: no copy dltensor
    # can make), never returned on its device.
    import gc
    import producers as P

    class IgnoresDlDevice(P.Producer):
        def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
            return super().__dlpack__(stream=stream, max_version=max_version)

    a = np.arange(3, dtype=np.float32)
    pinned = IgnoresDlDevice(buffer=a, shape=(3,), strides=(1,), device=(P.CUDA_HOST, 0))
    assert str(dt.from_dlpack(pinned, device="cpu").device) == "cpu"
    rocm = IgnoresDlDevice(buffer=a, shape=(3,), strides=(1,), device=(10, 0))
    with pytest.raises(BufferError, match="cannot move memory from rocm:0 to cpu"):
        dt.from_dlpack(rocm, device="cpu")
    gc.collect()
    assert rocm.deleter_calls == len(rocm.exports) == 1
