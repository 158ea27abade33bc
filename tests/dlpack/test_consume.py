"""Layer 1 consuming: negotiation with producers, field validation, and ownership of the
managed tensor (renamed capsule, deleter exactly once).

Malformed tensors are in tests/test_malformed.py."""


import gc
import os
import subprocess
import sys

import numpy as np
import pytest

import dltensor
import producers as P
from dltensor import _dlpack
from dltensor._dlpack import consume_capsule, live_count, request_capsule, valid_bits


def _capsule(**kw):
    a = kw.pop("buffer", None)
    if a is None:
        a = np.arange(12, dtype=np.float32)
    kw.setdefault("data", a.__array_interface__["data"][0])
    kw.setdefault("shape", (3, 4))
    kw.setdefault("strides", (4, 1))
    return P.make_capsule(keep=(a,), **kw)


@pytest.mark.parametrize("versioned", [True, False])
def test_fields_are_copied_out(versioned):
    a = np.arange(24, dtype=np.int16)
    base = a.__array_interface__["data"][0]
    cap, e = _capsule(buffer=a, data=base, device=(P.CUDA_HOST, 3), dtype=(0, 16, 1),
                      shape=(2, 3), strides=(1, 2), byte_offset=6, flags=P.READ_ONLY,
                      versioned=versioned, version=(1, 2))
    mt = consume_capsule(cap)
    assert mt.versioned is versioned
    assert mt.version == ((1, 2) if versioned else (0, 0))
    # A legacy tensor cannot carry flags: it is never read-only as far as DLPack says.
    assert mt.flags == (P.READ_ONLY if versioned else 0)
    assert mt.read_only is versioned
    assert (mt.device_type, mt.device_id) == (P.CUDA_HOST, 3)
    assert (mt.code, mt.bits, mt.lanes) == (0, 16, 1)
    assert mt.shape == (2, 3) and mt.strides == (1, 2) and mt.size == 6
    assert mt.data == base and mt.byte_offset == 6 and mt.pointer == base + 6
    assert mt.address == e.address
    mt.release()


@pytest.mark.parametrize("versioned, used", [(True, b"used_dltensor_versioned"),
                                             (False, b"used_dltensor")])
@pytest.mark.usefixtures("leak_accounting")  # (no collection moves live_count meanwhile)
def test_ownership_is_taken_by_renaming(versioned, used):
    cap, e = _capsule(versioned=versioned)
    before = live_count()
    mt = consume_capsule(cap)
    assert P.capsule_name(cap) == used
    assert live_count() == before + 1
    del cap
    assert e.deleter_calls == 0, "a consumed capsule must leave the deleter to its consumer"
    mt.release()
    assert e.deleter_calls == 1
    assert live_count() == before
    mt.release()
    del mt
    assert e.deleter_calls == 1


def test_garbage_collection_releases():
    cap, e = _capsule()
    mt = consume_capsule(cap)
    del mt
    assert e.deleter_calls == 1


def test_release_survives_a_deleter_that_is_null():
    cap, e = _capsule(deleter=False)
    gc.collect()
    gc.disable()  # (no collection of other tests' garbage moves live_count meanwhile)
    try:
        before = live_count()
        mt = consume_capsule(cap)
        assert live_count() == before
    finally:
        gc.enable()
    mt.release()
    assert e.deleter_calls == 0


def test_null_strides_mean_row_major():
    cap, e = _capsule(shape=(2, 0, 3), strides=None)
    mt = consume_capsule(cap)
    assert mt.strides == (3, 3, 1)
    mt.release()
    cap, e = _capsule(shape=(2, 3, 4), strides=None, data=0x1000)
    mt = consume_capsule(cap)
    assert mt.strides == (12, 4, 1)
    mt.release()


def test_zero_dim_may_have_null_shape_and_strides():
    cap, e = _capsule(shape=(), null_shape=True, null_strides=True)
    mt = consume_capsule(cap)
    assert mt.shape == () and mt.strides == () and mt.size == 1
    mt.release()
    assert e.deleter_calls == 1


def test_size_zero_may_have_null_data():
    cap, e = _capsule(data=0, shape=(0, 5), strides=(5, 1))
    mt = consume_capsule(cap)
    assert mt.size == 0 and mt.data == 0 and mt.pointer == 0
    mt.release()


@pytest.mark.parametrize("version", [(1, 0), (1, 3), (1, 200)])
def test_any_minor_of_major_1_is_accepted(version):
    cap, e = _capsule(version=version)
    mt = consume_capsule(cap)
    assert mt.version == version
    mt.release()


def test_repr_describes_the_tensor():
    cap, e = _capsule(flags=P.READ_ONLY | P.IS_COPIED)
    mt = consume_capsule(cap)
    r = repr(mt)
    assert "versioned 1.3" in r and "(3, 4)" in r and "0x3" in r
    mt.release()


@pytest.mark.parametrize("code, bits, ok", [
    (0, 8, True), (0, 64, True), (0, 4, True), (0, 128, False), (0, 0, False),
    (1, 1, True), (1, 12, False), (2, 16, True), (2, 8, False), (2, 128, False),
    (3, 64, True), (4, 16, True), (4, 32, False), (5, 64, True), (5, 128, True),
    (5, 32, False), (6, 8, True), (6, 1, False), (7, 8, True), (14, 8, True), (10, 16, False),
    (15, 6, True), (16, 8, False), (17, 4, True), (17, 8, False), (18, 8, False),
])
def test_valid_bits(code, bits, ok):
    assert valid_bits(code, bits) is ok


# --- negotiation --------------------------------------------------------------------------

def test_request_asks_with_max_version_and_passes_keywords():
    p = P.Producer(np.zeros(3, np.float32), shape=(3,), strides=(1,))
    cap = request_capsule(p, dl_device=(1, 0), copy=False)
    assert p.requests == [dict(stream=None, max_version=(1, 3), dl_device=(1, 0), copy=False)]
    assert P.capsule_name(cap) == b"dltensor_versioned"


def test_request_falls_back_for_an_old_producer():
    p = P.OldProducer(np.zeros(3, np.float32), shape=(3,), strides=(1,))
    cap = request_capsule(p)
    assert P.capsule_name(cap) == b"dltensor"
    assert p.requests == [dict(stream=None, max_version=None, dl_device=None, copy=None)]


def test_request_takes_a_producer_whose_dlpack_takes_no_arguments():
    # A minimal wrapper around a capsule, as users write them: __dlpack__(self) and no more.
    p = P.OldProducer(np.zeros(3, np.float32), shape=(3,), strides=(1,))

    class Bare:
        def __dlpack__(self):
            return P.OldProducer.__dlpack__(p)

        def __dlpack_device__(self):
            return (1, 0)

    assert P.capsule_name(request_capsule(Bare())) == b"dltensor"
    assert dltensor.from_dlpack(Bare()).shape == (3,)


def test_request_refuses_to_drop_copy_or_device_for_an_old_producer():
    p = P.OldProducer(np.zeros(3, np.float32), shape=(3,), strides=(1,))
    with pytest.raises(BufferError, match="dl_device/copy"):
        request_capsule(p, copy=True)
    assert p.exports == []


def test_request_does_not_loop_on_type_error():
    p = P.AlwaysTypeErrorProducer()
    with pytest.raises(TypeError):
        request_capsule(p)
    assert p.calls == 2


def test_dlpack_layer_exports_its_names():
    for name in ("ManagedTensor", "consume_capsule", "hold_capsule", "live_count",
                 "request_capsule", "make_capsule", "is_capsule", "capsule_name",
                 "DLManagedTensorVersioned"):
        assert name in _dlpack.__all__ and hasattr(_dlpack, name)


@pytest.mark.parametrize("versioned", [True, False])
@pytest.mark.usefixtures("leak_accounting")
def test_a_held_capsule_is_not_renamed_and_its_destructor_releases_the_tensor(versioned):
    # hold_capsule: a capsule made for this import alone (a trusted C exporter's) is kept, not
    # consumed; its own destructor calls the deleter once, when the tensor and its views go.
    cap, e = _capsule(versioned=versioned)
    before = live_count()
    mt = _dlpack.hold_capsule(cap, versioned)
    assert P.capsule_name(cap) == (b"dltensor_versioned" if versioned else b"dltensor")
    assert mt.capsule is cap and mt.shape == (3, 4) and mt.address == e.address
    assert live_count() == before  # (no deleter left for dltensor to call)
    del cap
    v = mt.view((4,), (1,), 16)
    mt.release()  # (the capsule's to release, not ours)
    del mt
    assert e.deleter_calls == 0
    del v
    assert e.deleter_calls == 1


@pytest.mark.parametrize("versioned", [True, False])
def test_a_held_capsule_refused_is_released_once_by_its_capsule(versioned):
    cap, e = _capsule(versioned=versioned, shape=(3, -4))
    with pytest.raises(BufferError, match="negative extent"):
        _dlpack.hold_capsule(cap, versioned)
    assert e.deleter_calls == 0 and P.capsule_name(cap).startswith(b"dltensor")
    del cap
    assert e.deleter_calls == 1
    cap, e = _capsule(versioned=not versioned)  # (a capsule of the other kind: its name)
    with pytest.raises(ValueError):
        _dlpack.hold_capsule(cap, versioned)
    del cap
    assert e.deleter_calls == 1


@pytest.mark.parametrize("versioned", [True, False])
def test_a_borrowed_tensor_dropped_before_its_caller_decides_leaves_the_deleter_to_its_capsule(
        versioned):
    # own(borrowed=True) (hold_capsule's and taking_capsule's) gives a tensor that is still
    # its capsule's: dropped as it is (an exception before its caller disarmed it), it called
    # the deleter, and the capsule's destructor called it again.
    from dltensor._dlpack.consume import own
    cap, e = _capsule(versioned=versioned)
    mt = own(P.capsule_pointer(cap), versioned, borrowed=True)
    assert mt.shape == (3, 4)
    del mt
    assert e.deleter_calls == 0
    del cap
    assert e.deleter_calls == 1


def test_a_view_may_reach_int64s_largest_byte_offset_but_not_pass_it():
    # (on Vulkan, whose data pointer is a handle: the offset alone says where a view starts)
    cap, _ = P.make_capsule(data=4096, device=(7, 0), dtype=(0, 8, 1), shape=(2,), strides=(1,),
                            byte_offset=2**63 - 2)
    t = consume_capsule(cap)
    assert t.view((1,), (1,), 1).byte_offset == 2**63 - 1
    with pytest.raises(BufferError, match="bytes past this tensor's data pointer"):
        t.view((0,), (1,), 2)


def test_a_view_keeps_the_tensor_it_describes_until_both_are_gone():
    cap, e = _capsule()
    t = consume_capsule(cap)
    v = t.view((4,), (1,), 16)
    w = v.view((2,), (2,), 4)  # (a view of a view keeps the first tensor, not the view)
    assert v.base is t and w.base is t and v.pointer == t.pointer + 16
    del t, v
    assert e.deleter_calls == 0
    del w
    assert e.deleter_calls == 1


# An array held by a module imported before dltensor (os): at exit its globals are wiped after
# consume.py's, which __main__ keeps alive. The deleter is the script's, with all it uses bound.
_AT_EXIT = r"""
import ctypes, os, sys
sys.path[:0] = sys.argv[1:3]
import dltensor as dt
import producers as P
from dltensor._dlpack import consume  # noqa: F401


@ctypes.CFUNCTYPE(None, ctypes.c_void_p)
def deleter(address, write=os.write):
    write(1, b"deleter ran\n")


cap, export = P.make_capsule(data=P.FAKE_POINTER, device=(P.METAL, 0), shape=(3,))
export.struct.deleter = ctypes.cast(deleter, ctypes.c_void_p).value
os._held = (dt.asarray(cap), deleter)
print("exiting", flush=True)
"""


def test_a_deleter_runs_when_the_last_array_goes_after_consumes_globals():
    # (__del__ read a module global after taking the deleter: at exit, with the globals None,
    # "TypeError: 'NoneType' object is not an iterator" and a deleter that never ran)
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    r = subprocess.run([sys.executable, "-c", _AT_EXIT, root, os.path.join(root, "tests")],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and r.stdout.split("\n")[:2] == ["exiting", "deleter ran"], \
        r.stdout + r.stderr
    assert "Exception ignored" not in r.stderr, r.stderr


@pytest.mark.parametrize("versioned", [True, False])
def test_a_capsule_taken_between_its_check_and_its_read_is_a_buffer_error(monkeypatch, versioned):
    # (another library's consumer on another thread, or from 3.12 a finalizer on this one,
    # may rename it between the two C calls: PyCapsule_GetPointer's ValueError escaped)
    from dltensor._dlpack import capsule as cap, consume
    p = P.Producer(data=P.FAKE_POINTER, device=(P.METAL, 0), shape=(3,))
    c = p.__dlpack__(max_version=(1, 0) if versioned else None)
    name, used = ((b"dltensor_versioned", b"used_dltensor_versioned") if versioned
                  else (b"dltensor", b"used_dltensor"))
    real = consume._is_valid

    def valid_then_taken(capsule, asked):
        ok = real(capsule, asked)
        if ok:
            cap.PyCapsule_SetName(capsule, used)
        return ok

    monkeypatch.setattr(consume, "_is_valid", valid_then_taken)
    with pytest.raises(BufferError, match="consumed meanwhile"):
        consume_capsule(c)
    monkeypatch.undo()
    cap.PyCapsule_SetName(c, name)  # (its own again: its destructor calls the deleter)
    del c
    gc.collect()  # (were the traceback's frames in a cycle)
    assert p.deleter_calls == 1
