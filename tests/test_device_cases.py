"""The device-comparison cases (tests/device_cases.py) checked on the CPU: each raises what it
says it raises, or gives a value, so the GPU comparison in tests/test_gpu.py compares what it
means to. The comparison itself is checked to fail on a difference."""

import numpy as np
import pytest

from device_cases import CASES, Case, Outcome, assert_same, outcome


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_case_does_on_the_cpu_what_it_says(case):
    got = outcome(case, "cpu")
    assert got.raised is None if case.raises is None else issubclass(got.raised, case.raises), \
        (got, case.raises)
    assert_same(case, got, outcome(case, "cpu"), "cpu")  # (and deterministically)


def test_cases_are_distinct_and_cover_errors_and_values():
    ids = [c.id for c in CASES]
    assert len(ids) == len(set(ids)) and len(ids) > 60
    assert sum(c.raises is not None for c in CASES) > 15


def test_the_comparison_fails_on_a_difference():
    case = Case("x", lambda d: None)
    one = ("float64", (2,), np.array([1.0, -0.0]), "cpu")
    for other in (("float32", (2,), np.array([1.0, -0.0]), "cpu"),  # dtype
                  ("float64", (2,), np.array([1.1, -0.0]), "cpu"),  # value
                  ("float64", (2,), np.array([1.0, 0.0]), "cpu"),   # the sign of a zero
                  ("float64", (2,), np.array([1.0, -0.0]), "cuda:1")):  # where it was made
        with pytest.raises(AssertionError):
            assert_same(case, Outcome(None, one), Outcome(None, other), "cuda:0")
    nan = ("complex128", (1,), np.array([complex(np.nan, 1.5)]), "cpu")
    with pytest.raises(AssertionError):  # NaN + 1.5j against NaN + NaN j
        assert_same(case, Outcome(None, nan), Outcome(None, (
            "complex128", (1,), np.array([complex(np.nan, np.nan)]), "cuda:0")), "cuda:0")
    with pytest.raises(AssertionError):  # an error against a value, or another error class
        assert_same(case, Outcome(IndexError, ""), Outcome(None, one), "cuda:0")
    with pytest.raises(AssertionError):
        assert_same(case, Outcome(IndexError, ""), Outcome(ValueError, ""), "cuda:0")
    assert_same(case, Outcome(IndexError, ""), Outcome(np.exceptions.AxisError, ""), "cuda:0")


def test_the_sweeps_reduction_allowances_let_through_only_what_they_name():
    # tests/device_sweep.py's ALLOWED for sum and prod: CuPy's sums start from +0.0 and its
    # complex products from 1+0j, where the CPU's are the spec's. Each lets that through and
    # no other difference (a real one still fails the comparison after it).
    from device_sweep import ALLOWED

    def through(name, want, got):
        w, g = ALLOWED[name][1]([[]], want, got)
        return np.array_equal(w[2], g[2], equal_nan=True) and \
            np.array_equal(np.signbit(w[2].real), np.signbit(g[2].real))

    def r(*v):
        return ("float64", (len(v),), np.array(v), "cpu")

    def c(*v):
        return ("complex128", (len(v),), np.array(v, dtype=complex), "cpu")

    for name in ("sum", "linalg.trace"):
        assert through(name, r(-0.0, 1.0), r(0.0, 1.0))  # (the GPU's +0.0 for -0.0s)
        assert not through(name, r(0.0), r(-0.0))        # (not the other way)
        assert not through(name, r(-0.0, 1.0), r(0.0, 2.0))
    nan, inf = np.nan, np.inf
    assert through("prod", c(complex(nan, 1), complex(-0.0, 2), complex(inf, 0)),
                   c(complex(nan, nan), complex(0.0, 2), complex(inf, nan)))
    assert not through("prod", c(2 + 3j), c(2 + 4j))
    assert not through("prod", r(-0.0), r(0.0))  # (real products: no allowance)
