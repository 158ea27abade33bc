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
