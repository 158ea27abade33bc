"""The C exchange API reader (DLPack 1.3's ``__dlpack_c_exchange_api__``): which types it takes.

A type is taken only with a capsule of the API's name, at major version 1, and each getter
only where its function pointer is set (the pointers are read; only the work-stream function
here is ever called). (Calls through the API: tests/test_cudasim_streams.py, test_gpu.py.)
"""

import ctypes

import pytest

from dltensor import _dlpack
from dltensor._dlpack import capsule as cap
from producers import EXCHANGE_STREAM, ExchangeAPI


@EXCHANGE_STREAM
def _null_stream(device_type, device_id, out):  # (the default stream: a NULL handle)
    ctypes.c_void_p.from_address(out).value = None
    return 0


_SOME_FUNCTION = ctypes.cast(_null_stream, ctypes.c_void_p).value


def _offering(major=1, from_py=_SOME_FUNCTION, stream=_SOME_FUNCTION,
              name=b"dlpack_exchange_api"):
    api = ExchangeAPI(major, 3, None, None, from_py, None, None, stream)
    return type("Offering", (), {"__dlpack_c_exchange_api__": cap.PyCapsule_New(
        ctypes.addressof(api), name, None), "keep": api})


@pytest.mark.parametrize("tp", [
    object, int,
    type("NotACapsule", (), {"__dlpack_c_exchange_api__": 1}),
    _offering(name=b"another_api"),  # (a capsule of another name is not read)
    _offering(major=2),
], ids=["object", "int", "not a capsule", "another name", "major 2"])
def test_types_without_the_api_at_major_1_get_no_functions(tp):
    assert _dlpack.managed_tensor_taker(tp) is None
    assert _dlpack.current_stream_getter(tp) is None


def test_each_function_is_offered_only_where_its_pointer_is_set():
    assert _dlpack.managed_tensor_taker(_offering(from_py=None)) is None
    assert _dlpack.current_stream_getter(_offering(from_py=None)) is not None
    assert _dlpack.managed_tensor_taker(_offering(stream=None)) is not None
    assert _dlpack.current_stream_getter(_offering(stream=None)) is None


def test_a_null_work_stream_is_the_default_stream_0():
    assert _dlpack.current_stream_getter(_offering())(2, 0) == 0
