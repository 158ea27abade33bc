"""The inspection API (array API 2025.12): ``__array_namespace_info__()``."""

from __future__ import annotations

import functools

from ._backends import NoBackendError, backend_for
from ._devices import CPU, CUDA_TYPE, Device, as_device, get_default_device
from ._dtypes import SPEC_DTYPES, DType, complex128, float64, int64

__all__ = ["__array_namespace_info__"]

# Kinds made of other kinds, as isdtype() reads them.
_COMPOSITE_KINDS = {
    "integral": ("signed integer", "unsigned integer"),
    "numeric": ("signed integer", "unsigned integer", "real floating", "complex floating"),
}
_ATOMIC_KINDS = frozenset(d.spec_kind for d in SPEC_DTYPES if d.spec_kind is not None)  # (all have one)
_DEFAULT_DTYPES = {"real floating": float64, "complex floating": complex128,
                   "integral": int64, "indexing": int64}


def _kinds(kind: str | tuple[str, ...] | None) -> frozenset[str]:
    """The atomic kinds a ``kind`` argument (a string or a tuple of them) names."""
    names = kind if isinstance(kind, tuple) else (kind,)
    out: set[str] = set()
    for k in names:
        if not isinstance(k, str):
            raise TypeError(f"a dtype kind must be a string like 'integral', not {k!r}")
        if k in _COMPOSITE_KINDS:
            out.update(_COMPOSITE_KINDS[k])
        elif k in _ATOMIC_KINDS:
            out.add(k)
        else:
            raise ValueError(f"unknown dtype kind {k!r}; expected one of "
                             f"{', '.join(sorted(_ATOMIC_KINDS | set(_COMPOSITE_KINDS)))}")
    return frozenset(out)


@functools.cache
def _max_dimensions() -> int:
    # Asked once per process: finding CuPy's limit imports CuPy and touches the GPU.
    ndim: int = backend_for(CPU).max_ndim()
    try:
        ndim = min(ndim, backend_for(Device(CUDA_TYPE, 0)).max_ndim())
    except NoBackendError:
        pass
    return ndim


class Info:
    """What this dltensor can do: capabilities, devices and dtypes."""

    __slots__ = ()

    def capabilities(self) -> dict[str, object]:
        """Boolean indexing and data-dependent shapes work; arrays may have as many axes as
        every backend this process computes with allows (64 for NumPy 2 and CuPy 14)."""
        return {"boolean indexing": True, "data-dependent shapes": True,
                "max dimensions": _max_dimensions()}

    def default_device(self) -> Device:
        """The device creation functions use when given none."""
        return get_default_device()

    def devices(self) -> tuple[Device, ...]:
        """The devices dltensor computes on: the CPU, and every GPU CuPy finds."""
        try:
            gpus = backend_for(Device(CUDA_TYPE, 0)).device_count()
        except NoBackendError:
            return (CPU,)
        return (CPU, *(Device(CUDA_TYPE, i) for i in range(gpus)))

    def default_dtypes(self, *,
                       device: Device | str | tuple[int, int] | None = None) -> dict[str, DType]:
        """The default dtypes (the same on every device)."""
        if device is not None:
            as_device(device)  # rejects what is not a device
        return dict(_DEFAULT_DTYPES)

    def dtypes(self, *, device: Device | str | tuple[int, int] | None = None,
               kind: str | tuple[str, ...] | None = None) -> dict[str, DType]:
        """The array API dtypes (of ``kind``, read as isdtype() reads it), name -> dtype.

        The same on every device: memory of any of them can be held and handed on anywhere.
        """
        if device is not None:
            as_device(device)
        if kind is None:
            return {d.name: d for d in SPEC_DTYPES}
        kinds = _kinds(kind)
        return {d.name: d for d in SPEC_DTYPES if d.spec_kind in kinds}


_INFO = Info()


def __array_namespace_info__() -> Info:
    """The namespace's inspection utilities: ``capabilities()``, ``devices()``, ``dtypes()``..."""
    return _INFO
