"""Library code written once against the array API, run on dltensor arrays.

``array_api_compat.array_namespace(x)`` is how array-API-aware libraries (scikit-learn, SciPy,
...) find the functions for their inputs: for a dltensor array it returns the ``dltensor``
module itself, found through ``x.__array_namespace__()``. The same ``softmax`` below then
computes with NumPy arrays, PyTorch tensors and dltensor arrays, each in its own namespace.

Run: python examples/array_api_compat_namespace.py
"""

from __future__ import annotations

import array_api_compat
import numpy as np
import torch

import dltensor as dt


def softmax(x, axis: int = -1):
    """A numerically stable softmax for any array API array."""
    xp = array_api_compat.array_namespace(x)
    z = x - xp.max(x, axis=axis, keepdims=True)
    e = xp.exp(z)
    return e / xp.sum(e, axis=axis, keepdims=True)


def main() -> dict:
    x = dt.asarray([[1.0, 2.0, 3.0], [1.0, 1.0, 1.0]])
    xp = array_api_compat.array_namespace(x)
    assert xp is dt, xp
    assert array_api_compat.is_array_api_obj(x)
    assert array_api_compat.device(x) == x.device

    s = softmax(x)
    assert isinstance(s, dt.ndarray)              # computed in dltensor's namespace
    np.testing.assert_allclose(np.asarray(dt.sum(s, axis=-1)), 1.0, rtol=1e-12)

    # The same function on NumPy and PyTorch, and on dltensor views of their memory.
    a = np.asarray(x)
    t = torch.from_dlpack(x)
    assert t.data_ptr() == x.data_ptr               # one buffer, three libraries
    for other in (softmax(a), softmax(t), softmax(dt.asarray(t))):
        np.testing.assert_allclose(np.asarray(other), np.asarray(s), rtol=1e-12)

    # Mixing namespaces is refused, as the standard wants: convert explicitly.
    try:
        array_api_compat.array_namespace(x, a)
    except TypeError as e:
        print("mixing dltensor and NumPy arrays:", e)
    else:  # pragma: no cover - array-api-compat changed its rule
        raise AssertionError("array_namespace accepted two namespaces")
    assert array_api_compat.array_namespace(x, dt.asarray(a)) is dt

    print(f"array_namespace(x) is {xp.__name__} (array API {xp.__array_api_version__}); "
          f"softmax row sums {dt.sum(s, axis=-1)}")
    return {"namespace": xp, "softmax": s}


if __name__ == "__main__":
    main()
