import contextlib as _contextlib
import threading as _threading

import numpy as _np

_config = _threading.local()


@_contextlib.contextmanager
def errstate(*, divide=None, over=None, under=None, invalid=None, linalg=None):
    """cupyx.errstate: only linalg is kept (NumPy's linalg under the simulator raises
    LinAlgError whatever it is, as CuPy's does under "raise")."""
    if linalg not in (None, "ignore", "raise"):
        raise ValueError(f"linalg must be 'ignore' or 'raise', not {linalg!r}")
    old = getattr(_config, "linalg", "ignore")
    _config.linalg = linalg or old
    try:
        yield
    finally:
        _config.linalg = old


def empty_pinned(shape, dtype=float, order="C"):
    return _np.empty(shape, dtype, order=order)


def zeros_pinned(shape, dtype=float, order="C"):
    return _np.zeros(shape, dtype, order=order)
