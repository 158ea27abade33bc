"""SciPy's special functions on dltensor arrays, through the array API.

With SCIPY_ARRAY_API=1 SciPy's array-API-aware functions accept any array API array and
return arrays of the same namespace. ``scipy.special`` is one of them: the ufuncs (erf,
gammaln, expit, ...) and the reductions (logsumexp, softmax) take dltensor arrays and give
dltensor arrays back, equal to what NumPy inputs give.

The variable must be in the environment before SciPy is first imported (SciPy reads it once),
so this script sets it before importing SciPy; a process that already imported SciPy without
it cannot switch it on.

Run: python examples/scipy_special.py
"""

from __future__ import annotations

import os

os.environ.setdefault("SCIPY_ARRAY_API", "1")  # read once, when SciPy is first imported

import numpy as np  # noqa: E402
import scipy.special as special  # noqa: E402

import dltensor as dt  # noqa: E402

# name -> how to call it on a positive float64 array
CALLS = {
    "erf": lambda f, x: f(x),
    "gammaln": lambda f, x: f(x),
    "expit": lambda f, x: f(x),
    "ndtr": lambda f, x: f(x),
    "log_ndtr": lambda f, x: f(x),
    "i0": lambda f, x: f(x),
    "xlogy": lambda f, x: f(x, x + 1),
    "betaln": lambda f, x: f(x, x + 1),
    "entr": lambda f, x: f(x),
    "logsumexp": lambda f, x: f(x),
    "softmax": lambda f, x: f(x),
}


def main() -> dict:
    from scipy._lib._array_api import SCIPY_ARRAY_API  # noqa: PLC0415
    if not SCIPY_ARRAY_API:
        raise RuntimeError("SciPy was imported before SCIPY_ARRAY_API=1 was set; run this "
                           "script in a fresh interpreter")
    a = np.linspace(0.1, 4.0, 40)
    x = dt.asarray(a)
    results = {}
    for name, call in CALLS.items():
        f = getattr(special, name)
        r = call(f, x)
        assert isinstance(r, dt.ndarray), f"scipy.special.{name} returned {type(r).__name__}"
        assert r.dtype == dt.float64 and r.device == x.device
        np.testing.assert_allclose(np.asarray(r), call(f, a), rtol=1e-12, atol=1e-300)
        results[name] = r
    total = float(dt.sum(results["softmax"]))
    assert abs(total - 1.0) < 1e-12
    print(f"{len(results)} scipy.special functions returned dltensor arrays, equal to NumPy's; "
          f"softmax sums to {total:.15f}")
    return results


if __name__ == "__main__":
    main()
