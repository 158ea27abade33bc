"""Views of held memory: the metadata-only functions on arrays dltensor holds but cannot
compute on (memory on a device it has no backend for, or of a dtype its backend lacks).

A slice, transpose, reshape or broadcast of such an array describes the same memory anew and
reads none of it, so dltensor makes it on any device, as PyTorch does on its own. The answer
is the CPU backend's own (the same checks, errors and results as for a CPU array), computed
on NumPy's stand-in for the tensor (``numpy_backend.stand_in``: its shape and strides, opaque
elements, at an address nothing is mapped at); the view's shape, strides and address say how
to describe the held memory (``ManagedTensor.view``). Only functions NumPy answers with a view
are in ``VIEWS``, so the stand-in's memory is never read; a function that would need to read
it (a reshape no view can make, an index array) refuses as any computation on held memory does.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ._array import from_tensor, held_streams, ndarray
from ._backends import numpy_backend
from ._dlpack import ManagedTensor

__all__ = ["VIEWS", "held_view"]


def _reshape(s: Any, shape: tuple[int, ...], *, copy: bool | None = None) -> Any:
    """reshape, but never the copy NumPy makes where no view has the shape (it reads)."""
    if not copy:
        try:
            return np.reshape(s, shape, copy=False)
        except ValueError:
            if copy is False:  # (the spec's error, as for a CPU array)
                raise
    # A copy is needed or asked for, but a bad shape is still the CPU's error: every reshape of
    # elements all at one address is a view, so one raising there is the shape's fault.
    np.reshape(np.broadcast_to(np.empty((), s.dtype), s.shape), shape, copy=False)
    return None


def _getitem(s: Any, key: tuple[Any, ...]) -> Any:
    """s[key] for a key of integers, slices, ... and None (as ``_keys.backend_key`` gives
    them); None for one holding index arrays or masks, which read their indices and copy."""
    if all(type(k) is int or type(k) is slice or k is None or k is Ellipsis for k in key):
        return s[key]
    return None


# The functions NumPy answers with a view: name -> the function to call on the stand-in,
# None for the CPU namespace's own (array-api-compat's, as CPU arrays get).
VIEWS: dict[str, Callable[..., Any] | None] = {
    "__getitem__": _getitem,
    "broadcast_to": None,
    "expand_dims": None,
    "flip": None,
    "matrix_transpose": None,
    "moveaxis": None,
    "permute_dims": None,
    "reshape": _reshape,
    "squeeze": None,
    "unstack": None,
}


def held_view(name: str, x: ndarray, *args: Any, **kwargs: Any) -> Any:
    """``name(x, *args, **kwargs)`` for held ``x``: views of its memory, or the refusal any
    computation on it meets where ``name`` would need to read it."""
    t: ManagedTensor = x._tensor
    f = VIEWS[name] or getattr(numpy_backend.namespace(), name)
    if t.bits % 8 == 0:
        r = f(numpy_backend.stand_in(t), *args, **kwargs)
        if type(r) is tuple:
            return tuple(_viewed(t, v) for v in r)
        if r is not None:
            return _viewed(t, r)
    else:  # packed below a byte, strides cannot say a view: only the CPU's errors, on bytes
        f(np.broadcast_to(np.empty((), np.uint8), t.shape), *args, **kwargs)  # (real memory)
    x._compute()  # raises what computing on x raises
    raise AssertionError("held memory computed")


_2_63, _2_64 = 1 << 63, 1 << 64


def _viewed(t: ManagedTensor, v: Any) -> ndarray:
    """The array viewing ``t``'s memory as the stand-in's view ``v`` views the stand-in."""
    itemsize = v.itemsize
    # (NumPy's address arithmetic wraps modulo 2**64: the offset is the signed difference)
    offset = (v.__array_interface__["data"][0] - numpy_backend.NOWHERE + _2_63) % _2_64 - _2_63
    view = t.view(v.shape, tuple(s // itemsize for s in v.strides), offset,
                  read_only=not v.flags.writeable)
    stream = held_streams.get(t)
    if stream is not None:  # (pending work on a producer's stream: the view's as well)
        held_streams[view] = stream
    return from_tensor(view)
