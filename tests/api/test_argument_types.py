"""Every namespace function given something that is not an array where the spec says ``array``
raises TypeError, not an AttributeError from deep inside, and not a result computed by NumPy
from a list, a scalar or None (which NumPy takes for any array argument).

The functions are found from the namespaces themselves, so a new op is covered as it lands.
"""

import inspect

import numpy as np
import pytest

import dltensor as dt
import producers as P

NOT_ARRAYS = [[1.0, 2.0], np.ones((2, 2)), None, "x", 2.5]


def _array_first_functions():
    for ns in (dt, dt.linalg, dt.fft):
        for name in getattr(ns, "__all__", dir(ns)):
            f = getattr(ns, name)
            if not inspect.isfunction(f) or name in ("asarray", "from_dlpack"):
                continue
            params = list(inspect.signature(f).parameters.values())
            # ("Any": the elementwise functions, made from a table)
            if params and params[0].annotation in ("ndarray", "ndarray | int", "Any"):
                yield pytest.param(f, params, id=f"{ns.__name__}.{name}")


def _takes_a_scalar_first(params):
    # isin, and the binary elementwise functions (a Python scalar with an array)
    required = [p for p in params if p.default is p.empty and p.kind is p.POSITIONAL_ONLY]
    return params[0].annotation == "ndarray | int" or (
        params[0].annotation == "Any" and len(required) == 2)


def _call(f, params, first, x=None, **extra):
    """f(first, ..., **extra), with ``x`` (default: a CPU array) for the other array
    parameters."""
    x = dt.ones((2, 2)) if x is None else x
    args = [first]
    for p in params[1:]:
        if p.kind is p.VAR_POSITIONAL:
            args.append(x)
        elif p.default is p.empty and p.kind is not p.KEYWORD_ONLY:
            args.append({"shape": (4,), "repetitions": (2,), "repeats": 2, "axes": (1, 0),
                         "source": 0, "destination": 1, "n": 2, "axis": 0}.get(p.name, x))
    kwargs = {p.name: x for p in params if p.kind is p.KEYWORD_ONLY and p.default is p.empty}
    return f(*args, **kwargs, **extra)


@pytest.mark.parametrize("f, params", list(_array_first_functions()))
@pytest.mark.parametrize("first", NOT_ARRAYS, ids=lambda v: type(v).__name__)
def test_a_non_array_where_an_array_belongs_is_a_type_error(f, params, first):
    if isinstance(first, float) and _takes_a_scalar_first(params):
        pytest.skip("takes a Python scalar there")
    with pytest.raises(TypeError):
        _call(f, params, first)


@pytest.mark.parametrize("f, params", list(_array_first_functions()))
def test_arguments_outside_the_spec_signature_are_type_errors(f, params):
    # The spec's keyword-only parameters are not positional, and NumPy's own (out=, initial=,
    # where=...) are not parameters: passed on to NumPy they answered for something else.
    x = dt.ones((2, 2))
    if not any(p.kind is p.VAR_POSITIONAL for p in params):
        n = sum(p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) for p in params)
        with pytest.raises(TypeError, match="positional argument"):
            f(*[x] * (n + 1))
    with pytest.raises(TypeError, match="unexpected keyword argument 'out'"):
        _call(f, params, x, out=None)
    required = [p for p in params[1:] if p.default is p.empty
                and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    if required and not _takes_a_scalar_first(params):  # (NumPy's squeeze took no axis)
        with pytest.raises(TypeError, match="missing"):
            f(x)


AXIS_NAMES = ("axis", "axes", "source", "destination")


@pytest.mark.parametrize("f, params", [p for p in _array_first_functions()
                                       if {q.name for q in p.values[1]} & set(AXIS_NAMES)])
@pytest.mark.parametrize("big", [2**63, -2**63 - 1, 2**70])
def test_an_axis_past_a_c_long_is_a_value_error(f, params, big):
    # NumPy converts an axis to a C long first (OverflowError); no array has such an axis, a
    # wrong value like any other out of range (AxisError: a ValueError and an IndexError)
    complex_in = f.__module__ == "dltensor.fft" and not f.__name__.startswith(("rfft", "ihfft"))
    x = dt.ones((2, 3), dtype=dt.complex128 if complex_in else None)
    fixed = {"source": 0, "destination": 1, "shift": 1, "repeats": 2,
             "indices": dt.zeros((1, 1), dtype=dt.int64)}
    for p in params[1:]:
        if p.name not in AXIS_NAMES or p.name == "axes" and f.__name__ == "tensordot":
            continue  # (tensordot's axes is a count or pairs of lists: its own test)
        many = ("tuple" in str(p.annotation) or "Sequence" in str(p.annotation)) \
            and "int |" not in str(p.annotation)
        bad = (0, big) if many else big
        args = [x] + [fixed.get(q.name, x) for q in params[1:]
                      if q.default is q.empty and q.kind is not q.KEYWORD_ONLY and q is not p]
        kwargs = {p.name: bad} if p.kind is p.KEYWORD_ONLY else {}
        if not kwargs:
            args.insert(params.index(p), bad)
        with pytest.raises(ValueError):
            f(*args, **kwargs)


def _names(params):
    return {q.name for q in params or ()}


def _bool_parameters():
    for f, params in (p.values for p in _array_first_functions()):
        for q in params:
            if q.annotation == "bool" and q.kind is q.KEYWORD_ONLY:
                yield pytest.param(f, params, q.name, id=f"{f.__module__}.{f.__name__}.{q.name}")
    linspace = dt.linspace  # (its first parameter is a number)
    yield pytest.param(linspace, None, "endpoint", id="dltensor.linspace.endpoint")


@pytest.mark.parametrize("f, params, name", list(_bool_parameters()))
def test_a_bool_parameter_takes_a_bool_only(f, params, name):
    # NumPy and CuPy read any object's truth: keepdims="no" kept the axes, full_matrices=None
    # was False (PyTorch refuses them, as the spec types them bool)
    x = dt.asarray([[4.0, 1.0], [1.0, 3.0]])  # (positive definite: cholesky takes it)
    call = (lambda **kw: f(0.0, 1.0, 3, **kw)) if params is None else \
        (lambda **kw: f(x, dt.float32, **kw)) if f is dt.astype else \
        (lambda **kw: f(dt.ones(2), **kw)) if "include_initial" in _names(params) else \
        (lambda **kw: _call(f, params, x, x, **kw))
    for bad in ("no", None, 1, [True]):
        with pytest.raises(TypeError, match=f"{name} must be a bool"):
            call(**{name: bad})
    for good in (True, False, np.True_):
        call(**{name: good})


def test_the_check_covers_the_whole_namespace():
    # (so that the parametrisation above cannot silently shrink to nothing)
    names = {p.id for p in _array_first_functions()}
    assert {"dltensor.sum", "dltensor.unstack", "dltensor.zeros_like", "dltensor.flip",
            "dltensor.searchsorted", "dltensor.linalg.inv", "dltensor.fft.fft", "dltensor.exp",
            "dltensor.add", "dltensor.isin"} <= names
    assert len(names) > 150


@pytest.mark.parametrize("f", [dt.concat, dt.stack])
def test_joining_takes_a_sequence_of_arrays(f):
    for bad in (dt.ones(2), None, 3):
        with pytest.raises(TypeError):
            f(bad)
    with pytest.raises(TypeError):
        f([dt.ones(2), [1.0, 2.0]])
    with pytest.raises(ValueError):
        f([])


def test_variadic_array_functions_check_every_array():
    for f in (dt.meshgrid, dt.broadcast_arrays):
        with pytest.raises(TypeError):
            f(dt.ones(2), [1.0, 2.0])


def test_isin_takes_arrays_and_python_scalars_only():
    x = dt.asarray([1, 2, 3])
    assert bool(dt.isin(2, x)) and not bool(dt.any(dt.isin(x, 5)))
    assert bool(dt.isin(np.int64(2), x))  # a NumPy scalar is a scalar (see below)
    for bad in ([1, 2], None, "2", np.ones(2)):
        with pytest.raises(TypeError):
            dt.isin(bad, x)
        with pytest.raises(TypeError):
            dt.isin(x, bad)


# NumPy's number scalars (what an argmax, a sum or np.sqrt(2) gives) are taken as the Python
# scalars they hold, weak as the spec's Python scalars are: the array's dtype wins.
NUMPY_SCALARS = [np.float64(1.5), np.float32(1.5), np.int64(2), np.uint8(2), np.bool_(True),
                 np.complex128(1j)]


@pytest.mark.parametrize("s", NUMPY_SCALARS, ids=lambda s: type(s).__name__)
def test_numpy_scalars_are_weak_python_scalars(s):
    f32, i8 = dt.asarray([1.0, 2.0], dtype=dt.float32), dt.asarray([1, 2], dtype=dt.int8)
    py = s.item()
    for x in (f32, i8):
        for op in (lambda a, b: a + b, lambda a, b: b * a, dt.add, dt.maximum if
                   not isinstance(py, complex) else dt.add):
            try:
                want = op(x, py)
            except TypeError:  # (a float with an int8 array: refused alike)
                with pytest.raises(TypeError):
                    op(x, s)
                continue
            got = op(x, s)
            assert got.dtype == want.dtype and np.asarray(got).tolist() == \
                np.asarray(want).tolist()
    if type(py) in (int, float):
        assert np.asarray(dt.where(f32 > 1, f32, s)).tolist() == [py, 2.0]
        assert dt.result_type(f32, s) == dt.float32
    y = dt.zeros(2, dtype={bool: dt.bool, int: dt.int64, float: dt.float32,
                           complex: dt.complex64}[type(py)])
    y[0] = s
    assert complex(y[0]) == complex(py)


def test_numpy_arrays_in_operators_are_refused_in_our_words():
    # (NumPy's own message would be "operand 'ndarray' does not support ufuncs")
    x = dt.ones(2)
    for op in (lambda: x + np.ones(2), lambda: np.ones(2) + x, lambda: x < np.ones(2),
               lambda: x @ np.ones(2), lambda: np.ones(2) @ x):
        with pytest.raises(TypeError, match="numpy.ndarray.*dltensor.asarray"):
            op()


def test_our_own_types_are_named_by_their_public_names():
    # (a dtype given for an array was "dltensor._dtypes.DType", a private module's path)
    x = dt.asarray([1.0, 2.0])
    with pytest.raises(TypeError, match=r"not dltensor\.DType;"):
        dt.searchsorted(x, dt.asarray([1.0]), sorter=dt.int8)
    with pytest.raises(TypeError, match=r"not dltensor\.DType$"):
        x[0] = dt.int8
    with pytest.raises(TypeError, match=r"not dltensor\.Device;"):
        dt.sort(dt.Device(1, 0))


def test_a_sequence_times_an_array_is_a_type_error_not_a_repetition():
    # Left to Python, a sequence is repeated by the array's __index__: dt.asarray(2) * [1, 2]
    # was [1, 2, 1, 2] ('ab' * it 'abab'), and a float array's error spoke of indices.
    import array
    import collections
    for x in (dt.asarray(2), dt.asarray([1.0]), dt.asarray([1, 2])):
        for seq in ([1, 2], (1,), "ab", b"ab", bytearray(b"a"), range(2),
                    collections.deque([1]), array.array("d", [1.0])):
            for op in (lambda: x * seq, lambda: seq * x):
                with pytest.raises(TypeError, match="dltensor.asarray"):
                    op()
            with pytest.raises(TypeError):
                y = x
                y *= seq
            with pytest.raises(TypeError):
                s = seq
                s *= x


@pytest.mark.parametrize("f, params", list(_array_first_functions()))
def test_every_function_on_memory_it_cannot_reach_says_where_to_take_it(f, params):
    # Memory on a device no backend computes on (Metal here: its pointer is never touched):
    # every function refuses, naming the device and from_dlpack, and reads nothing; except
    # those that describe the same memory anew (views: transposes, reshapes, broadcasts...).
    def held(dtype):
        return dt.from_dlpack(P.Producer(data=P.FAKE_POINTER, device=(P.METAL, 0),
                                         shape=(2, 2), strides=(2, 1), dtype=dtype))
    for dtype in ((2, 32, 1), (5, 64, 1)):  # float32, complex64 (for the fft functions)
        x = held(dtype)
        try:
            r = _call(f, params, x, x)
            # a view of x's memory (test_held_views.py checks each against NumPy's), else
            # something computed, which memory dltensor cannot reach never is
            if all(type(v) is dt.ndarray and v._tensor is not None and v._tensor.base is
                   x._tensor for v in (r if isinstance(r, tuple) else (r,))):
                continue
        except RuntimeError as e:  # NoBackendError
            assert "metal:0" in str(e) and "from_dlpack" in str(e), e
        except TypeError as e:  # a dtype the function does not take, said before anything
            assert "dtype" in str(e) or "complex" in str(e) or "float" in str(e), e
        except ValueError as e:  # a shape it does not take (outer, cross), likewise
            assert "device" not in str(e), e
        else:
            raise AssertionError(f"{f.__name__} computed on memory it cannot reach")
        assert x._array is None


def _nested(depth, make):
    v = 0
    for _ in range(depth):
        v = make(v)
    return v


def test_an_argument_nested_past_the_recursion_limit_is_a_type_error():
    # (the TypeError's message showed the argument's repr, which for a list 10,000 deep raised
    # RecursionError; the message now elides it past a few levels, as NumPy's TypeError does)
    deep = _nested(10_000, lambda v: [v])
    x = dt.arange(4)
    f = dt.astype(x, dt.float64)
    for call in (lambda: dt.zeros(deep), lambda: dt.full(deep, 1.0), lambda: dt.eye(deep),
                 lambda: dt.arange(deep), lambda: dt.linspace(0, 1, deep),
                 lambda: dt.reshape(x, deep), lambda: dt.broadcast_to(x, deep),
                 lambda: dt.sum(x, axis=deep), lambda: dt.tile(x, deep),
                 lambda: dt.repeat(x, deep), lambda: dt.roll(x, deep),
                 lambda: dt.tensordot(f, f, axes=deep), lambda: dt.broadcast_shapes(deep),
                 lambda: dt.linalg.vector_norm(f, axis=deep), lambda: dt.fft.fftn(f, axes=deep)):
        with pytest.raises(TypeError) as e:
            call()
        assert "..." in str(e.value) or len(str(e.value)) < 400
