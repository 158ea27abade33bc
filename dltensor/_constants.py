"""The array API constants (plain Python floats, as the standard defines them)."""

import math

__all__ = ["e", "inf", "nan", "newaxis", "pi"]

e = math.e
inf = math.inf
nan = math.nan
newaxis = None  # x[newaxis] adds an axis, as in NumPy
pi = math.pi
