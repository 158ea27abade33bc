"""The inspection API: __array_namespace_info__()."""

import pytest

import dltensor as dlt

info = dlt.__array_namespace_info__()
SPEC_NAMES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
              "float32", "float64", "complex64", "complex128"]


def test_capabilities():
    assert info.capabilities() == {"boolean indexing": True, "data-dependent shapes": True,
                                   "max dimensions": 64}


def test_devices_are_a_tuple_starting_with_the_cpu():
    devices = info.devices()
    assert type(devices) is tuple and devices[0] == dlt.Device(1, 0)
    assert all(d.device_type == 2 for d in devices[1:])
    assert info.default_device() in devices
    for d in devices:  # each is usable as device= of a creation function
        assert dlt.zeros(1, device=d).device == d


def test_default_device_follows_set_default_device():
    dlt.set_default_device("cuda:3")
    try:
        assert info.default_device() == dlt.Device(2, 3)
    finally:
        dlt.set_default_device(None)
    assert info.default_device() == dlt.Device(1, 0)


def test_default_dtypes():
    expected = {"real floating": dlt.float64, "complex floating": dlt.complex128,
                "integral": dlt.int64, "indexing": dlt.int64}
    assert info.default_dtypes() == expected
    assert info.default_dtypes(device="cpu") == expected


def test_dtypes_are_the_spec_13_by_name():
    d = info.dtypes()
    assert list(d) == SPEC_NAMES  # float16 and bfloat16 compute but are not array API dtypes
    assert all(getattr(dlt, name) is dt for name, dt in d.items())
    assert info.dtypes(device=dlt.Device(1, 0)) == d


@pytest.mark.parametrize("kind, names", [
    ("bool", ["bool"]),
    ("signed integer", ["int8", "int16", "int32", "int64"]),
    ("unsigned integer", ["uint8", "uint16", "uint32", "uint64"]),
    ("integral", ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]),
    ("real floating", ["float32", "float64"]),
    ("complex floating", ["complex64", "complex128"]),
    ("numeric", SPEC_NAMES[1:]),
    (("bool", "complex floating"), ["bool", "complex64", "complex128"]),
])
def test_dtypes_by_kind(kind, names):
    assert list(info.dtypes(kind=kind)) == names


def test_dtypes_refuses_unknown_kinds():
    with pytest.raises(ValueError, match="floating point"):
        info.dtypes(kind="floating point")
    with pytest.raises(TypeError):
        info.dtypes(kind=dlt.float32)


OWN = ("arange empty empty_like eye full full_like linspace meshgrid ones ones_like tril triu "
       "zeros zeros_like broadcast_arrays broadcast_shapes broadcast_to concat expand_dims flip "
       "moveaxis permute_dims repeat reshape roll squeeze stack tile unstack argmax argmin "
       "count_nonzero nonzero searchsorted where argsort sort isin unique_all unique_counts "
       "unique_inverse unique_values cumulative_prod cumulative_sum max mean min prod std sum "
       "var all any diff matmul matrix_transpose tensordot vecdot").split() + [f"linalg.{n}" for n in dlt.linalg.__all__] + \
    [f"fft.{n}" for n in dlt.fft.__all__]


@pytest.mark.parametrize("name", OWN)
def test_signature_matches_the_spec(name):
    """Positional-only / keyword-only markers, names and defaults as the 2025.12 stubs (and
    array-api-strict, which follows them) have them: callers rely on f(x, axis=...) working."""
    import inspect

    import array_api_strict as strict

    def params(f):
        return [(p.name, p.kind, p.default) for p in inspect.signature(f).parameters.values()]

    def function(ns):
        for part in name.split("."):
            ns = getattr(ns, part)
        return ns

    assert params(function(dlt)) == params(function(strict))
