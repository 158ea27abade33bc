"""PyCapsule and reference-count calls into the Python C API, typed once.

Every function gets ``argtypes`` and ``restype``: the ctypes default restype is ``int``, which
truncates pointers on 64-bit machines.
"""

from __future__ import annotations

import ctypes
from typing import Any

_api = ctypes.pythonapi
_obj = ctypes.py_object
_vp = ctypes.c_void_p
_cp = ctypes.c_char_p


def _fn(name: str, restype: Any, *argtypes: Any) -> Any:
    # A private function object, not ``ctypes.pythonapi.<name>``: that one is shared by every
    # library in the process, and another one setting its argtypes (pydlpack does) would
    # change ours under us.
    return ctypes.PYFUNCTYPE(restype, *argtypes)((name, _api))


CAPSULE_NAME = b"dltensor"
CAPSULE_NAME_VERSIONED = b"dltensor_versioned"
USED_CAPSULE_NAME = b"used_dltensor"
USED_CAPSULE_NAME_VERSIONED = b"used_dltensor_versioned"

PyCapsule_New = _fn("PyCapsule_New", _obj, _vp, _cp, _vp)
PyCapsule_IsValid = _fn("PyCapsule_IsValid", ctypes.c_int, _obj, _cp)
# GetName returns the name pointer; c_void_p lets us compare it and read it without a copy.
PyCapsule_GetName = _fn("PyCapsule_GetName", _vp, _obj)
PyCapsule_GetPointer = _fn("PyCapsule_GetPointer", _vp, _obj, _cp)
PyCapsule_SetName = _fn("PyCapsule_SetName", ctypes.c_int, _obj, _cp)
PyCapsule_GetDestructor = _fn("PyCapsule_GetDestructor", _vp, _obj)
# The same two of a capsule known by its address only: a capsule destructor's argument, an
# object being destroyed, which a py_object argument would take a new reference to.
PyCapsule_GetName_at = _fn("PyCapsule_GetName", _vp, _vp)
PyCapsule_GetPointer_at = _fn("PyCapsule_GetPointer", _vp, _vp, _cp)

Py_IncRef = _fn("Py_IncRef", None, _obj)
PyMem_Malloc = _fn("PyMem_Malloc", _vp, ctypes.c_size_t)
PyMem_Free = _fn("PyMem_Free", None, _vp)

_CapsuleType = type(PyCapsule_New(1, None, None))  # a capsule over a dummy non-NULL pointer


def is_capsule(obj: object) -> bool:
    """True when ``obj`` is a PyCapsule (of any name)."""
    return type(obj) is _CapsuleType


def capsule_name(capsule: object) -> bytes | None:
    """The capsule's name, or None for an unnamed capsule."""
    p = PyCapsule_GetName(capsule)
    return None if p is None else ctypes.string_at(p)
