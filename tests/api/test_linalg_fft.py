"""linalg, fft and the main namespace's matmul/tensordot/vecdot, against array-api-strict.

Both compute with NumPy's LAPACK and pocketfft, so results agree to rounding; dtypes and shapes
must agree exactly. Also: the dtype and shape rules the spec sets where NumPy is looser.
"""

import math
import warnings

import array_api_strict as strict
import numpy as np
import pytest

import dltensor as dlt
from dltensor._dtypes import dtype_from_dlpack
import oracle
from oracle import alike, bits
import producers as P

rng = np.random.default_rng(0)
G = rng.standard_normal((3, 4, 4))                       # a stack of general matrices
SPD = G @ np.swapaxes(G, -1, -2) + 4 * np.eye(4)         # symmetric positive definite
HPD = (G + 1j * G[::-1]) @ np.conj(np.swapaxes(G + 1j * G[::-1], -1, -2)) + 4 * np.eye(4)
R = rng.standard_normal((2, 5, 3))                       # rectangular
V3 = rng.standard_normal((4, 3))
C = rng.standard_normal((3, 8)) + 1j * rng.standard_normal((3, 8))
I16 = rng.integers(-50, 50, size=(3, 3, 4)).astype(np.int16)


def _rounding(dtype):
    single = dtype in (np.float32, np.complex64)
    return (2e-5, 1e-5) if single else (1e-10, 1e-9)


def same(got, want):
    """Agree to rounding: both compute with NumPy's LAPACK and pocketfft."""
    oracle.same(got, want, tol=_rounding)


def f32(a):
    return a.astype(np.float32)


LINALG = {
    "cholesky": lambda xp: xp.linalg.cholesky(xp.asarray(SPD)),
    "cholesky upper complex": lambda xp: xp.linalg.cholesky(xp.asarray(HPD), upper=True),
    "cholesky float32": lambda xp: xp.linalg.cholesky(xp.asarray(f32(SPD))),
    "cross": lambda xp: xp.linalg.cross(xp.asarray(V3), xp.asarray(V3[::-1])),
    "cross broadcast axis -2": lambda xp: xp.linalg.cross(xp.asarray(V3.T),
                                                          xp.asarray(V3[:1].T), axis=-2),
    "cross ints": lambda xp: xp.linalg.cross(xp.asarray(I16[0, :, :3]),
                                             xp.asarray(I16[1, :, :3])),
    "det": lambda xp: xp.linalg.det(xp.asarray(G)),
    "det float32": lambda xp: xp.linalg.det(xp.asarray(f32(G))),
    "diagonal": lambda xp: xp.linalg.diagonal(xp.asarray(I16), offset=1),
    "diagonal negative offset": lambda xp: xp.linalg.diagonal(xp.asarray(R), offset=-2),
    "eigvalsh": lambda xp: xp.linalg.eigvalsh(xp.asarray(SPD)),
    "eigvalsh complex": lambda xp: xp.linalg.eigvalsh(xp.asarray(HPD)),
    "eigvals": lambda xp: xp.linalg.eigvals(xp.asarray(SPD)),
    "eigvals float32": lambda xp: xp.linalg.eigvals(xp.asarray(f32(SPD))),
    "inv": lambda xp: xp.linalg.inv(xp.asarray(G)),
    "matmul": lambda xp: xp.linalg.matmul(xp.asarray(G), xp.asarray(R[0, :4])),
    "matrix_norm fro": lambda xp: xp.linalg.matrix_norm(xp.asarray(R)),
    "matrix_norm nuc keepdims": lambda xp: xp.linalg.matrix_norm(xp.asarray(R), ord="nuc",
                                                                 keepdims=True),
    "matrix_norm -inf complex": lambda xp: xp.linalg.matrix_norm(xp.asarray(HPD),
                                                                 ord=-float("inf")),
    "matrix_norm 2 float32": lambda xp: xp.linalg.matrix_norm(xp.asarray(f32(G)), ord=2),
    "matrix_power 3": lambda xp: xp.linalg.matrix_power(xp.asarray(G), 3),
    "matrix_power -2": lambda xp: xp.linalg.matrix_power(xp.asarray(SPD), -2),
    "matrix_rank": lambda xp: xp.linalg.matrix_rank(xp.asarray(R)),
    "matrix_rank rtol": lambda xp: xp.linalg.matrix_rank(xp.asarray(SPD), rtol=0.5),
    "matrix_rank rtol array": lambda xp: xp.linalg.matrix_rank(
        xp.asarray(SPD), rtol=xp.asarray([0.0, 0.5, 1.0])),
    "matrix_transpose": lambda xp: xp.linalg.matrix_transpose(xp.asarray(R)),
    "outer": lambda xp: xp.linalg.outer(xp.asarray(V3[0]), xp.asarray(f32(V3[1]))),
    "outer ints": lambda xp: xp.linalg.outer(xp.asarray(I16[0, 0]), xp.asarray(I16[1, 1])),
    "pinv": lambda xp: xp.linalg.pinv(xp.asarray(R)),
    "pinv rtol": lambda xp: xp.linalg.pinv(xp.asarray(R), rtol=0.3),
    "qr": lambda xp: xp.linalg.qr(xp.asarray(R)),
    "qr complete": lambda xp: xp.linalg.qr(xp.asarray(R), mode="complete"),
    "slogdet": lambda xp: xp.linalg.slogdet(xp.asarray(G)),
    "slogdet complex": lambda xp: xp.linalg.slogdet(xp.asarray(HPD)),
    "solve vector": lambda xp: xp.linalg.solve(xp.asarray(SPD), xp.asarray(V3[:, 0])),
    "solve matrices": lambda xp: xp.linalg.solve(xp.asarray(SPD), xp.asarray(G[:, :, :2])),
    "solve promotes": lambda xp: xp.linalg.solve(xp.asarray(f32(SPD)),
                                                 xp.asarray(G[:, :, :2])),
    "svdvals": lambda xp: xp.linalg.svdvals(xp.asarray(R)),
    "svdvals complex": lambda xp: xp.linalg.svdvals(xp.asarray(HPD)),
    "tensordot": lambda xp: xp.linalg.tensordot(xp.asarray(G), xp.asarray(R[0, :4]), axes=1),
    "tensordot axes pairs": lambda xp: xp.tensordot(xp.asarray(I16), xp.asarray(I16),
                                                    axes=([0, -1], [0, 2])),
    "trace": lambda xp: xp.linalg.trace(xp.asarray(G)),
    "trace int16": lambda xp: xp.linalg.trace(xp.asarray(I16), offset=-1),
    "trace uint8": lambda xp: xp.linalg.trace(xp.asarray(I16.astype(np.uint8))),
    "trace dtype": lambda xp: xp.linalg.trace(xp.asarray(I16), dtype=xp.float64),
    "trace float32": lambda xp: xp.linalg.trace(xp.asarray(f32(G))),
    "vecdot": lambda xp: xp.vecdot(xp.asarray(C), xp.asarray(C[::-1])),
    "vecdot axis -2": lambda xp: xp.linalg.vecdot(xp.asarray(G), xp.asarray(G[0]), axis=-2),
    "vecdot ints": lambda xp: xp.vecdot(xp.asarray(I16), xp.asarray(I16)),
    "vector_norm": lambda xp: xp.linalg.vector_norm(xp.asarray(G)),
    "vector_norm axes": lambda xp: xp.linalg.vector_norm(xp.asarray(G), axis=(0, 2), ord=1,
                                                         keepdims=True),
    "vector_norm inf complex": lambda xp: xp.linalg.vector_norm(xp.asarray(C), axis=-1,
                                                                ord=float("inf")),
    "vector_norm 0 float32": lambda xp: xp.linalg.vector_norm(xp.asarray(f32(G)), ord=0),
    "matmul int8 uint8": lambda xp: xp.matmul(xp.asarray(I16[0].astype(np.int8)),
                                              xp.asarray(I16[0].T.astype(np.uint8))),
    "matmul vectors": lambda xp: xp.matmul(xp.asarray(V3[0]), xp.asarray(V3[1])),
}


@pytest.mark.parametrize("case", LINALG)
def test_linalg_matches_strict(case):
    same(LINALG[case](dlt), LINALG[case](strict))


def _eigvecs_ok(x, res):
    """Each pair satisfies x @ v = v * w (eigenvectors are unique only up to phase)."""
    a, w, v = (np.from_dlpack(t) for t in (x, res.eigenvalues, res.eigenvectors))
    np.testing.assert_allclose(a @ v, v * w[..., None, :], atol=1e-8)


def test_eigh_and_eig_decompose():
    for f, a in [(dlt.linalg.eigh, SPD), (dlt.linalg.eigh, HPD), (dlt.linalg.eig, G)]:
        x = dlt.asarray(a)
        res = f(x)
        want = (strict.linalg.eigh if f is dlt.linalg.eigh else strict.linalg.eig)(
            strict.asarray(a))
        assert type(res).__name__ == ("EighResult" if f is dlt.linalg.eigh else "EigResult")
        assert [t.dtype.name for t in res] == [str(t.dtype).rpartition(".")[2] for t in want]
        _eigvecs_ok(x, res)


@pytest.mark.parametrize("full_matrices", [True, False])
def test_svd_reconstructs(full_matrices):
    x = dlt.asarray(R)
    res = dlt.linalg.svd(x, full_matrices=full_matrices)
    want = strict.linalg.svd(strict.asarray(R), full_matrices=full_matrices)
    assert res._fields == ("U", "S", "Vh")
    assert [t.shape for t in res] == [t.shape for t in want]
    u, s, vh = (np.from_dlpack(t) for t in res)
    k = s.shape[-1]
    np.testing.assert_allclose((u[..., :k] * s[..., None, :]) @ vh[..., :k, :], R, atol=1e-10)


REFUSED = {
    "det of ints": (lambda: dlt.linalg.det(dlt.asarray(I16[:, :3, :3])), TypeError),
    "inv of bools": (lambda: dlt.linalg.inv(dlt.asarray(np.eye(2, dtype=bool))), TypeError),
    "cholesky of ints": (lambda: dlt.linalg.cholesky(dlt.asarray(np.eye(2, dtype=int))),
                         TypeError),
    "matmul int and float": (lambda: dlt.matmul(dlt.asarray(I16[0]), dlt.asarray(G[0])),
                             TypeError),
    "matmul int64 and uint64": (lambda: dlt.matmul(dlt.asarray(np.eye(2, dtype=np.int64)),
                                                   dlt.asarray(np.eye(2, dtype=np.uint64))),
                                TypeError),
    "matmul bools": (lambda: dlt.matmul(dlt.asarray(np.eye(2, dtype=bool)),
                                        dlt.asarray(np.eye(2, dtype=bool))), TypeError),
    "matmul 0-d": (lambda: dlt.matmul(dlt.asarray(1.0), dlt.asarray(G[0])), ValueError),
    "matmul shapes": (lambda: dlt.matmul(dlt.asarray(G), dlt.asarray(R)), ValueError),
    "tensordot int and float": (lambda: dlt.tensordot(dlt.asarray(I16), dlt.asarray(G)),
                                TypeError),
    "tensordot negative int axes": (lambda: dlt.tensordot(dlt.asarray(G), dlt.asarray(G),
                                                          axes=-1), ValueError),
    "tensordot broadcast axis": (lambda: dlt.tensordot(dlt.asarray(np.ones((3, 1))),
                                                       dlt.asarray(np.ones((3, 4))),
                                                       axes=([1], [1])), ValueError),
    "vecdot broadcast axis": (lambda: dlt.vecdot(dlt.asarray(np.ones((2, 1))),
                                                 dlt.asarray(np.ones((2, 3)))), ValueError),
    "vecdot positive axis": (lambda: dlt.vecdot(dlt.asarray(G), dlt.asarray(G), axis=0),
                             ValueError),
    "vecdot int and complex": (lambda: dlt.vecdot(dlt.asarray(I16), dlt.asarray(I16 * 1j)),
                               TypeError),
    "cross of 2-vectors": (lambda: dlt.linalg.cross(dlt.asarray(V3[:, :2]),
                                                    dlt.asarray(V3[:, :2])), ValueError),
    "cross broadcast axis": (lambda: dlt.linalg.cross(dlt.asarray(np.ones((3, 1))),
                                                      dlt.asarray(np.ones((3, 3)))),
                             ValueError),
    "cross positive axis": (lambda: dlt.linalg.cross(dlt.asarray(V3), dlt.asarray(V3),
                                                     axis=1), ValueError),
    "outer of matrices": (lambda: dlt.linalg.outer(dlt.asarray(G[0]), dlt.asarray(G[0])),
                          ValueError),
    "outer of a vector and a matrix": (lambda: dlt.linalg.outer(dlt.asarray(G[0, 0]),
                                                                dlt.asarray(G[0])), ValueError),
    "tensordot of three axis sequences": (lambda: dlt.tensordot(
        dlt.asarray(G), dlt.asarray(G), axes=([0], [0], [0])), TypeError),
    "cross of 3 and 2 elements": (lambda: dlt.linalg.cross(dlt.asarray(np.ones(3)),
                                                           dlt.asarray(np.ones(2))), ValueError),
    "solve int": (lambda: dlt.linalg.solve(dlt.asarray(SPD), dlt.asarray(I16[0, 0])),
                  TypeError),
    "trace of bools": (lambda: dlt.linalg.trace(dlt.asarray(np.eye(2, dtype=bool))),
                       TypeError),
    "trace numpy dtype": (lambda: dlt.linalg.trace(dlt.asarray(G), dtype=np.float32),
                          TypeError),
    "vector_norm of ints": (lambda: dlt.linalg.vector_norm(dlt.asarray(I16)), TypeError),
    "matrix_transpose 1-D": (lambda: dlt.matrix_transpose(dlt.asarray(V3[0])), ValueError),
    "a NumPy array": (lambda: dlt.linalg.det(G), TypeError),
    # matrix_power(x, 1) returned x as it was (NumPy checks nothing of its shape then)
    "matrix_power 1 of non-square": (lambda: dlt.linalg.matrix_power(dlt.asarray(G[..., :3]), 1),
                                     np.linalg.LinAlgError),
    "matrix_power 1 of a vector": (lambda: dlt.linalg.matrix_power(dlt.asarray(V3[0]), 1),
                                   np.linalg.LinAlgError),
    # ints are ints: NumPy read True as 1 in some of these, refused NumPy ints in tensordot
    "tensordot bool axes": (lambda: dlt.tensordot(dlt.asarray(G), dlt.asarray(G.T), axes=True),
                            TypeError),
    "tensordot axes of ints": (lambda: dlt.tensordot(dlt.asarray(G), dlt.asarray(G.T),
                                                     axes=(1, 0)), TypeError),
    "tensordot axes of other lengths": (lambda: dlt.tensordot(
        dlt.asarray(G), dlt.asarray(G.T), axes=([1], [0, 1])), ValueError),
    "vecdot bool axis": (lambda: dlt.vecdot(dlt.asarray(G), dlt.asarray(G), axis=True),
                         TypeError),
    "matrix_norm bool ord": (lambda: dlt.linalg.matrix_norm(dlt.asarray(SPD), ord=True),
                             TypeError),
    "trace bool offset": (lambda: dlt.linalg.trace(dlt.asarray(SPD), offset=True), TypeError),
    "diagonal bool offset": (lambda: dlt.linalg.diagonal(dlt.asarray(SPD), offset=True),
                             TypeError),
    "vector_norm bool axis": (lambda: dlt.linalg.vector_norm(dlt.asarray(SPD), axis=True),
                              TypeError),
    # rtol: a real number or a real floating-point array (NumPy took 1j as 0)
    "matrix_rank complex rtol": (lambda: dlt.linalg.matrix_rank(dlt.asarray(SPD), rtol=1j),
                                 TypeError),
    "pinv bool rtol": (lambda: dlt.linalg.pinv(dlt.asarray(SPD), rtol=True), TypeError),
    "pinv int rtol array": (lambda: dlt.linalg.pinv(dlt.asarray(SPD), rtol=dlt.asarray(1)),
                            TypeError),
}


@pytest.mark.parametrize("case", REFUSED)
def test_linalg_refuses_what_the_spec_does_not_define(case):
    f, error = REFUSED[case]
    with pytest.raises(error):
        f()


def test_vecdot_conjugates_x1():
    x1, x2 = dlt.asarray([1j, 2j, 3j]), dlt.asarray([1, 2j, 3])
    assert complex(dlt.linalg.vecdot(x1, x2)) == 4 - 10j
    assert complex(dlt.vecdot(x1, x2)) == 4 - 10j


@pytest.mark.parametrize("f", [dlt.vecdot, dlt.linalg.vecdot, dlt.linalg.cross])
def test_vector_products_of_0d_arrays_say_they_need_a_dimension(f):
    with pytest.raises(ValueError, match="at least one dimension, not 0-d"):
        f(dlt.asarray(1.0), dlt.asarray(1.0))


# --- fft ----------------------------------------------------------------------------------------

X = rng.standard_normal((4, 6))
Z = X + 1j * rng.standard_normal((4, 6))

FFT = {
    "fft": lambda xp: xp.fft.fft(xp.asarray(Z)),
    "fft n axis norm": lambda xp: xp.fft.fft(xp.asarray(Z), n=9, axis=0, norm="ortho"),
    "fft complex64": lambda xp: xp.fft.fft(xp.asarray(Z.astype(np.complex64))),
    "ifft": lambda xp: xp.fft.ifft(xp.asarray(Z), norm="forward"),
    "fftn": lambda xp: xp.fft.fftn(xp.asarray(Z)),
    "fftn s axes": lambda xp: xp.fft.fftn(xp.asarray(Z), s=(3, 5), axes=(1, 0)),
    "ifftn complex64": lambda xp: xp.fft.ifftn(xp.asarray(Z.astype(np.complex64))),
    "rfft": lambda xp: xp.fft.rfft(xp.asarray(X)),
    "rfft float32": lambda xp: xp.fft.rfft(xp.asarray(f32(X)), n=5),
    "irfft": lambda xp: xp.fft.irfft(xp.asarray(Z), n=10),
    "irfft complex64": lambda xp: xp.fft.irfft(xp.asarray(Z.astype(np.complex64))),
    "rfftn": lambda xp: xp.fft.rfftn(xp.asarray(X), axes=(0,)),
    "irfftn": lambda xp: xp.fft.irfftn(xp.asarray(Z), s=(4, 8), axes=(0, 1)),
    "hfft": lambda xp: xp.fft.hfft(xp.asarray(Z)),
    "hfft complex64": lambda xp: xp.fft.hfft(xp.asarray(Z.astype(np.complex64)), n=7),
    "ihfft": lambda xp: xp.fft.ihfft(xp.asarray(X), axis=0),
    "ihfft float32": lambda xp: xp.fft.ihfft(xp.asarray(f32(X))),
    "fftfreq": lambda xp: xp.fft.fftfreq(7),
    "fftfreq d dtype": lambda xp: xp.fft.fftfreq(8, d=0.5, dtype=xp.float32),
    "rfftfreq": lambda xp: xp.fft.rfftfreq(7, d=2.0),
    "rfftfreq dtype": lambda xp: xp.fft.rfftfreq(8, dtype=xp.float32),
    "fftshift": lambda xp: xp.fft.fftshift(xp.asarray(X)),
    "fftshift axes": lambda xp: xp.fft.fftshift(xp.asarray(Z), axes=1),
    "ifftshift": lambda xp: xp.fft.ifftshift(xp.asarray(f32(X)), axes=(0,)),
}


@pytest.mark.parametrize("case", FFT)
def test_fft_matches_strict(case):
    same(FFT[case](dlt), FFT[case](strict))


def test_fft_round_trips():
    x = dlt.asarray(Z)
    np.testing.assert_allclose(np.from_dlpack(dlt.fft.ifftn(dlt.fft.fftn(x))), Z, atol=1e-12)
    r = dlt.asarray(X)
    np.testing.assert_allclose(np.from_dlpack(dlt.fft.irfft(dlt.fft.rfft(r), n=6)), X,
                               atol=1e-12)


def test_frequencies_on_the_requested_device():
    assert dlt.fft.fftfreq(4, device="cpu").device == dlt.Device(1, 0)
    assert dlt.fft.rfftfreq(4, device=dlt.Device(1, 0)).device == dlt.Device(1, 0)
    with pytest.raises(ValueError, match="real floating"):
        dlt.fft.fftfreq(4, dtype=dlt.complex64)
    with pytest.raises(TypeError, match="dltensor dtype"):  # (a dtype's name: was ValueError)
        dlt.fft.rfftfreq(4, dtype="float32")


def test_trace_refuses_a_dtype_it_cannot_compute_in():
    # (a held-only dtype's missing NumPy dtype read as None: summed in float64, dtype ignored)
    x = dlt.eye(3)
    for dtype in (dtype_from_dlpack(17, 4), dtype_from_dlpack(0, 4)):
        with pytest.raises(TypeError, match="cannot compute"):
            dlt.linalg.trace(x, dtype=dtype)
    with pytest.raises(TypeError):
        dlt.linalg.trace(x, dtype="float32")
    assert dlt.linalg.trace(x, dtype=dlt.float32).dtype == dlt.float32


@pytest.mark.parametrize("f, a", [
    (dlt.fft.fft, X), (dlt.fft.ifftn, X), (dlt.fft.irfft, X), (dlt.fft.hfft, X),
    (dlt.fft.rfft, Z), (dlt.fft.rfftn, Z), (dlt.fft.ihfft, Z), (dlt.fft.fftshift, I16),
], ids=lambda v: getattr(v, "__name__", ""))
def test_fft_refuses_the_wrong_kind_of_input(f, a):
    with pytest.raises(TypeError):
        f(dlt.asarray(a))


# --- devices (needs CuPy and a CUDA device) ---------------------------------------------------

@pytest.mark.gpu
def test_results_stay_on_the_cuda_device():
    cupy = pytest.importorskip("cupy")
    try:
        if cupy.cuda.runtime.getDeviceCount() < 1:
            pytest.skip("no CUDA device")
    except Exception:
        pytest.skip("no CUDA device")
    x = dlt.asarray(cupy.asarray(SPD))
    dev = x.device
    for r in [dlt.linalg.cholesky(x), dlt.linalg.inv(x), dlt.matmul(x, x),
              dlt.linalg.eigh(x).eigenvalues, dlt.fft.fft(dlt.asarray(cupy.asarray(Z))),
              x[0, 1:, :], x[dlt.asarray(cupy.asarray([0, 2])), 0, 0]]:
        assert r.device == dev
    np.testing.assert_allclose(cupy.asnumpy(cupy.from_dlpack(dlt.linalg.inv(x))),
                               np.linalg.inv(SPD), rtol=1e-8)
    with pytest.raises(ValueError, match="different devices"):
        dlt.matmul(x, dlt.asarray(SPD))


# --- where NumPy (and array-api-compat) depart from the spec --------------------------------

def test_matrix_rank_of_empty_matrices_is_zero():
    # A 0 x N matrix has no singular values (array-api-compat took the largest of none).
    for shape, batch in (((0, 3), ()), ((3, 0), ()), ((2, 0, 3), (2,)), ((0, 3, 3), (0,))):
        r = dlt.linalg.matrix_rank(dlt.zeros(shape))
        assert r.dtype == dlt.int64 and r.shape == batch and not np.asarray(r).any()
    assert dlt.linalg.matrix_rank(dlt.zeros((2, 0, 3)), rtol=dlt.zeros((3, 1))).shape == (3, 2)
    # an rtol on another device is refused for them too (it was read for its shape alone)
    elsewhere = dlt.from_dlpack(P.Producer(data=P.FAKE_POINTER, device=(P.METAL, 0), shape=(2,),
                                           strides=(1,), dtype=(2, 64, 1)))
    for x in (dlt.ones((2, 3, 3)), dlt.zeros((2, 0, 3))):
        with pytest.raises(ValueError, match="different devices"):
            dlt.linalg.matrix_rank(x, rtol=elsewhere)


def test_diagonal_is_a_writable_view_of_writable_arrays():
    # NumPy's diagonal is a read-only view; dltensor's read-only means a producer said so.
    x = dlt.asarray(np.arange(9.0).reshape(3, 3))
    d = dlt.linalg.diagonal(x, offset=1)
    assert not d.read_only
    d += 100
    assert np.asarray(x).tolist() == [[0, 101, 2], [3, 4, 105], [6, 7, 8]]
    ro = np.arange(4.0).reshape(2, 2)
    ro.flags.writeable = False
    assert dlt.linalg.diagonal(dlt.asarray(ro)).read_only


def test_diagonal_commonest_call_answers_as_the_checked_path():
    # An int offset into a CPU array is NumPy's own diagonal view (a NumPy int offset takes
    # the checked path): the same arrays and flags, and the same errors in the same words
    a = np.arange(24.0).reshape(2, 3, 4)
    ro = a.copy()
    ro.flags.writeable = False
    for x in (dlt.asarray(a), dlt.asarray(a[..., ::-1]), dlt.asarray(a[0]), dlt.asarray(ro),
              dlt.asarray(a[0, 0]), dlt.asarray(np.array(1.0)), dlt.zeros((0, 3)),
              dlt.broadcast_to(dlt.asarray(a[0]), (2, 3, 4))):
        for k in (0, 1, -2, 4, -5, 2**63):
            alike(lambda: dlt.linalg.diagonal(x, offset=k),
                  lambda: dlt.linalg.diagonal(x, offset=np.int64(min(k, 99))), (x.shape, k))
            if x.ndim >= 2:
                assert dlt.linalg.diagonal(x, offset=k).read_only == x.read_only


def test_outer_commonest_call_answers_as_the_checked_path():
    # Two CPU vectors of one numeric dtype are NumPy's own outer at once (the checked path:
    # arrays not yet computed, made fresh for each call): the same bits, the same errors
    def lazy(a):
        return lambda: dlt.from_dlpack(P.from_numpy(np.array(a)))

    v = np.array([1.0, -0.0, np.nan, np.inf, -3e300, 5e-324])
    c = v + 1j * v[::-1]
    ro = v.copy()
    ro.flags.writeable = False
    pairs = [(v, v), (v[::-2], v[:2]), (ro, v), (c, c[::-1]), (c.astype(np.complex64), c[:3]
             .astype(np.complex64)), (v.astype(np.float16), v[:0].astype(np.float16)),
             (np.arange(5, dtype=np.uint8), np.arange(3, dtype=np.uint8)), (v, v[0]),
             (v.reshape(2, 3), v[:3]), (v, np.arange(2)), (v > 0, v > 1), (v, c),
             (np.array([1.1 + 1.9j]), np.array([2.1 + 1.1j]))]  # (multiply.outer: an ulp off)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # (inf * 0, overflow)
        for a, b in pairs:
            alike(lambda: dlt.linalg.outer(dlt.asarray(a), dlt.asarray(b)),
                  lambda: dlt.linalg.outer(lazy(a)(), lazy(b)()), (a, b))
            r = dlt.linalg.outer(dlt.asarray(a), dlt.asarray(b)) if a.ndim == b.ndim == 1 \
                and a.dtype == b.dtype and a.dtype != bool else None
            assert r is None or not r.read_only and np.asarray(r).flags.c_contiguous


def test_tensordot_commonest_calls_answer_as_the_checked_path():
    # Two CPU arrays of one numeric dtype with an int count of axes, or a pair of tuples of
    # axes that pass the checks, are NumPy's own tensordot at once (the checked path: arrays
    # not yet computed): the same bits, the same errors in the same words
    def lazy(a):
        return dlt.from_dlpack(P.from_numpy(np.array(a)))

    v = np.array([1.0, -0.0, np.nan, np.inf, -3e300, 5e-324])
    m = np.arange(12.0).reshape(3, 4) - 5.5
    t = np.arange(24).reshape(2, 3, 4)
    pairs = [(v, v), (v[::-1], v), (m, m.T), (m, m), (t, t), (t, m), (m, t.transpose(2, 1, 0)),
             (m + 1j * m, m - 1j), (t.astype(np.uint8), t.astype(np.uint8)), (v, v[:3]),
             (np.array(2.0), v), (np.array(2.0), np.array(-0.0)), (m[:0], m[:0].T),
             (t.astype(np.int8), t.astype(np.int16)), (m, m.astype(np.float32)), (m > 0, m > 1),
             (m.astype(np.float16), m.T.astype(np.float16)), (v, v.astype(np.int64))]
    axes = [0, 1, 2, 3, -1, True, 2**63, np.int64(1), 1.0, None, "1", ((0,), (0,)),
            ((1,), (0,)), ((-1,), (-2,)), ((0, 1), (1, 0)), ((1, 0), (0, 1)), ((), ()),
            ((0, 0), (0, 1)), ((5,), (0,)), ((0,), (-9,)), ((0,), (0, 1)), [[1], [0]],
            ((1,), [0]), ((True,), (0,)), ((np.int64(1),), (0,)), ((2**63,), (0,)), ((0,),),
            ((0,), (0,), (0,)), (0, 0), ((0.0,), (0,)), ((0,), (True,)),
            ((0,), (np.int64(0),)), (0, (0,))]
    for n in range(1, 5):  # (each axis at and past the ends of 1-D to 3-D arrays)
        axes += [((n,), (0,)), ((0,), (n,)), ((-n,), (0,)), ((0,), (-n,))]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # (inf * 0, overflow)
        for a, b in pairs:
            for ax in axes:
                alike(lambda: dlt.tensordot(dlt.asarray(a), dlt.asarray(b), axes=ax),
                      lambda: dlt.tensordot(lazy(a), lazy(b), axes=ax), (a, b, ax))


def test_fft_argument_rules():
    with pytest.raises(TypeError, match="real floating-point"):
        dlt.fft.rfft(dlt.asarray([1j, 2j]))
    for f in (dlt.fft.fftn, dlt.fft.ifftn, dlt.fft.irfftn):
        with pytest.raises(ValueError, match="axes"):  # s without axes (NumPy: deprecated)
            f(dlt.asarray(C), s=(4,))
    with pytest.raises(ValueError, match="axes"):
        dlt.fft.rfftn(dlt.asarray(R), s=(4,))
    for call in (lambda: dlt.fft.fft(dlt.asarray(C), axis=True),  # (NumPy: axis 1)
                 lambda: dlt.fft.fftn(dlt.asarray(C), s=(4,), axes=(True,)),
                 lambda: dlt.fft.fft(dlt.asarray(C), n=2.0),
                 lambda: dlt.fft.fftn(dlt.asarray(C), axes=1),
                 lambda: dlt.fft.fftfreq(4, d=1j),  # (NumPy: a complex step, cast to real)
                 lambda: dlt.fft.rfftfreq(0, d=None), lambda: dlt.fft.fftfreq(4, d=True)):
        with pytest.raises(TypeError):
            call()
    assert dlt.tensordot(dlt.asarray(G), dlt.asarray(G.T), axes=np.int64(1)).shape == \
        np.tensordot(G, G.T, axes=1).shape  # (a NumPy int is an int)
    assert dlt.fft.fft(dlt.asarray(C), n=np.int64(2)).shape[-1] == 2
    for f in (dlt.fft.fftfreq, dlt.fft.rfftfreq):  # (10**400 * d was an OverflowError)
        for n in (10**400, 2**63):
            with pytest.raises(ValueError, match="past the largest array"):
                f(n)
    # a length of 1 is the least (0 and -1 are ValueErrors, for n and s alike)
    assert np.asarray(dlt.fft.fft(dlt.asarray([3 + 1j, 5j]), n=1)).tolist() == [3 + 1j]
    assert dlt.fft.fftn(dlt.asarray(C), s=(1,), axes=(0,)).shape[0] == 1
    for call in (lambda: dlt.fft.fft(dlt.asarray(C), n=0),
                 lambda: dlt.fft.fftn(dlt.asarray(C), s=(0,), axes=(0,))):
        with pytest.raises(ValueError, match="positive"):
            call()
    for shift in (dlt.fft.fftshift, dlt.fft.ifftshift):  # all of no axes: x as it is
        r = shift(dlt.asarray(2.5))
        assert r.shape == () and float(r) == 2.5


def test_qr_takes_the_spec_modes_only():
    for mode in ("raw", "r", "economic"):
        with pytest.raises(ValueError, match="mode"):
            dlt.linalg.qr(dlt.asarray(R), mode=mode)


def test_results_that_numpy_returns_as_the_input_itself_are_new_arrays():
    # matrix_power(x, 1) and fftn over no axes returned x's own buffer: a write to the
    # result changed the input (PyTorch copies).
    x = dlt.asarray([[2.0, 1.0], [1.0, 3.0]])
    c = dlt.asarray([1 + 0j, 2 + 0j])
    for result, source in ((dlt.linalg.matrix_power(x, 1), x), (dlt.fft.fftn(c, axes=()), c),
                           (dlt.fft.ifftn(dlt.asarray(c[0]), axes=None), c)):
        before = np.asarray(source).copy()
        result[...] = 7
        assert np.asarray(source).tolist() == before.tolist()
    assert np.asarray(dlt.linalg.matrix_power(x, np.int64(2))).tolist() == [[5.0, 5.0], [5.0, 10.0]]
    with pytest.raises(TypeError, match="int"):
        dlt.linalg.matrix_power(x, 1.0)


def test_transforms_with_no_axis_to_transform_say_so():
    with pytest.raises(IndexError, match="dimension 0"):  # (an AxisError: an invalid axis)
        dlt.fft.fft(dlt.asarray(1 + 0j))
    for f, x in ((dlt.fft.rfftn, dlt.ones(2)), (dlt.fft.irfftn, dlt.ones(2, dtype=dlt.complex64))):
        with pytest.raises(ValueError, match="at least one axis"):
            f(x, axes=())
        with pytest.raises(ValueError, match="at least one axis"):
            f(x[0])


def test_irfftn_s_of_minus_one_uses_every_input_element():
    # The spec: "If n equals M[i] or -1, all elements along axis i ... must be used", so the
    # last axis's output is 2 * (M - 1) long, as PyTorch has it (NumPy made it M).
    c = np.random.default_rng(0).standard_normal((4, 5)) + 0j
    got = dlt.fft.irfftn(dlt.asarray(c), s=(-1,), axes=(1,))
    assert got.shape == (4, 8)
    assert np.allclose(np.asarray(got), np.fft.irfftn(c, s=(8,), axes=(1,)))


@pytest.mark.parametrize("name, kwargs", [
    ("fftn", {"s": (-1, 4), "axes": (0, 1)}), ("fftn", {"s": (2, -1), "axes": (1, 0)}),
    ("ifftn", {"s": (-1,), "axes": (1,)}), ("rfftn", {"s": (-1, -1), "axes": (0, 1)}),
    ("irfftn", {"s": (-1, 5), "axes": (0, 1)}), ("fftn", {"s": (-1, -1), "axes": (-1, -2)})])
def test_minus_one_in_s_is_the_whole_axis_as_numpy_reads_it(name, kwargs, monkeypatch):
    # dltensor says the axis's length (CuPy reads -1 as a slice's stop, dropping an element)
    x = np.arange(12.0).reshape(3, 4) + (0j if name != "rfftn" else 0)
    asked = []
    backend = dlt.fft._backend[name]
    monkeypatch.setitem(dlt.fft._backend, name,
                        lambda x, **kw: asked.append(kw["s"]) or backend(x, **kw))
    got = np.asarray(getattr(dlt.fft, name)(dlt.asarray(x), **kwargs))
    want = getattr(np.fft, name)(x, **kwargs)
    assert got.shape == want.shape and np.allclose(got, want)
    assert -1 not in asked[0]  # (what a backend is given: CuPy would slice [0:-1])


def test_minus_one_in_s_on_an_empty_axis_is_refused_whatever_follows():
    # All of no elements is a length of 0, which no transform takes (NumPy's ValueError), said
    # before any path of dltensor's for empty arrays (a repeated axis took its first length)
    for f in (dlt.fft.fftn, dlt.fft.ifftn, dlt.fft.rfftn):
        dtype = dlt.float64 if f is dlt.fft.rfftn else dlt.complex64
        for shape, axes, s in (((4, 0, 0), (2, -1), (3, -1)), ((0, 2), (0,), (-1,)),
                               ((0, 2), (0, 1), (-1, 3))):
            with pytest.raises(ValueError, match="s's -1 along axis"):
                f(dlt.zeros(shape, dtype=dtype), axes=axes, s=s)
    with pytest.raises(ValueError, match="is a length of 0"):  # (irfftn: 2 * (1 - 1))
        dlt.fft.irfftn(dlt.ones((2, 1), dtype=dlt.complex64), axes=(0, 1), s=(2, -1))
    assert dlt.fft.fftn(dlt.zeros((3, 0), dtype=dlt.complex64), axes=(1, 0), s=(2, -1)).shape \
        == (3, 2)  # (-1 on a whole axis, a length given to an empty one)


def test_frequencies_of_an_empty_window():
    # NumPy divided by zero; PyTorch and JAX give the spec's shapes (n,) and (n // 2 + 1,).
    assert dlt.fft.fftfreq(0).shape == (0,)
    r = dlt.fft.rfftfreq(0)
    assert r.shape == (1,) and np.isnan(np.asarray(r)).all()
    for f in (dlt.fft.fftfreq, dlt.fft.rfftfreq):
        with pytest.raises(ValueError):
            f(-1)
        with pytest.raises(TypeError):
            f(2.5)


def test_vector_norm_ord_is_a_real_number():
    x = dlt.asarray([3.0, 4.0])
    for bad in ([0], True, "fro", None):
        with pytest.raises(TypeError, match="ord"):  # (NumPy took [0], giving [inf])
            dlt.linalg.vector_norm(x, ord=bad)
    assert float(dlt.linalg.vector_norm(x, ord=np.int64(1))) == 7.0


def test_vector_norm_axes_are_a_reductions():
    # (a list is NumPy's and array-api-strict's TypeError, as for every reduction; it was taken)
    x = dlt.ones((2, 3, 4))
    for m, a in ((dlt, x), (strict, strict.ones((2, 3, 4)))):
        with pytest.raises(TypeError):
            m.linalg.vector_norm(a, axis=[0, 1])
    assert dlt.linalg.vector_norm(x, axis=(0, 1)).shape == (4,)


def test_cross_and_vecdot_axes_out_of_bounds_are_axis_errors():
    # AxisError, both the IndexError NumPy's and array-api-strict's cross raise and the
    # ValueError of array-api-strict's vecdot (cross's was a ValueError alone); a nonnegative
    # axis, which the spec refuses, stays a ValueError
    a, s = dlt.ones((3, 3)), strict.ones((3, 3))
    for axis in (-3, 2):
        for f in (dlt.linalg.cross, dlt.vecdot):
            with pytest.raises(np.exceptions.AxisError, match="out of bounds"):
                f(a, a, axis=axis)
        with pytest.raises(IndexError):
            strict.linalg.cross(s, s, axis=axis)
        with pytest.raises(ValueError):
            strict.vecdot(s, s, axis=axis)
    with pytest.raises(ValueError, match=r"must be in \[-2, -1\]"):
        dlt.linalg.cross(a, a, axis=0)


def test_matrix_power_of_every_int():
    # NumPy's abs(n) is an int64's: at n = -2**63 it returned None
    m = dlt.asarray([[2.0, 1.0], [1.0, 3.0]])
    for n in (-2**63, -2**64, -2**63 + 1):
        r = dlt.linalg.matrix_power(m, n)
        assert type(r) is dlt.ndarray and not np.asarray(r).any()  # (the inverse's: below 1)
    np.testing.assert_allclose(np.asarray(dlt.linalg.matrix_power(m, -3)),
                               np.linalg.matrix_power(np.asarray(m), -3))
    r = dlt.linalg.matrix_power(m, -1)
    np.testing.assert_allclose(np.asarray(r), np.linalg.inv(np.asarray(m)))
    with pytest.raises(np.linalg.LinAlgError):
        dlt.linalg.matrix_power(dlt.zeros((2, 2)), -2)
    for bad in (dlt.asarray([1.0, 2.0]), dlt.ones((2, 3))):  # (NumPy's error for every n)
        with pytest.raises(np.linalg.LinAlgError, match="matrix_power needs square"):
            dlt.linalg.matrix_power(bad, -1)
    with pytest.raises(TypeError, match="matrix_power needs float32"):
        dlt.linalg.matrix_power(dlt.ones((2, 2), dtype=dlt.float16), -3)


def test_matrix_norm_ord_is_a_real_number_or_a_name():
    m = dlt.asarray([[1.0, 2.0], [3.0, 4.0]])
    # (NumPy read a 2-D array by its truth value, a ValueError in its words, and True as 1)
    for bad in (dlt.asarray([[0, 1], [1, 0]]), dlt.asarray(1), object(), True, [1]):
        with pytest.raises(TypeError, match="matrix_norm's ord must be"):
            dlt.linalg.matrix_norm(m, ord=bad)
    for bad in ("x", 3, 0.5):  # the right type, a norm the spec does not name
        with pytest.raises(ValueError):
            dlt.linalg.matrix_norm(m, ord=bad)
    assert float(dlt.linalg.matrix_norm(m, ord=np.int64(1))) == 6.0
    assert float(dlt.linalg.matrix_norm(m, ord=None)) == float(dlt.linalg.matrix_norm(m))


@pytest.mark.parametrize("axis", [-1, 0])
def test_cudas_real_ends_are_the_imaginary_parts_numpys_irfft_ignores(axis):
    # (on CUDA, irfft, hfft and irfftn make 0 the imaginary parts NumPy's pocketfft does not
    # read, before cuFFT, which may read them: fft._real_ends, run here over NumPy arrays.
    # Which parts NumPy ignores is found by changing each and looking for a change; those it
    # truncates away (past n // 2) it ignores too, and so does CuPy)
    from dltensor import fft
    g = np.random.default_rng(0)
    for m in range(1, 9):
        for n in [None, *range(1, 2 * m + 3)]:
            if n is None and m == 1:
                continue
            x = g.standard_normal((m, 2)) + 1j * g.standard_normal((m, 2))
            x = np.moveaxis(x, 0, axis)
            made = x.copy()
            fft._real_ends(made, n, axis)
            zeroed = set(np.flatnonzero(np.moveaxis(made.imag == 0, axis, 0)[:, 0]))
            assert np.array_equal(made.real, x.real)
            base = np.fft.irfft(x, n, axis=axis)
            ignored = set()
            for k in range(m):
                changed = x.copy()
                np.moveaxis(changed, axis, 0)[k] += 1j
                if np.array_equal(np.fft.irfft(changed, n, axis=axis), base):
                    ignored.add(k)
            kept = (2 * (m - 1) if n is None else n) // 2
            assert zeroed == {k for k in ignored if k <= kept}, (m, n, zeroed, ignored)


def test_fft_axes_given_as_numpy_ints_and_s_without_axes():
    r = dlt.asarray([1.0, 2.0, 3.0])
    assert np.asarray(dlt.fft.fftshift(r, axes=np.int64(0))).tolist() == [3.0, 1.0, 2.0]
    with pytest.raises(TypeError):
        dlt.fft.fftshift(r, axes=True)
    c = dlt.asarray(np.ones((2, 3)) + 0j)
    for axes in ((1,), [np.int64(1)], (-1,)):
        assert dlt.fft.irfftn(c, s=(-1,), axes=axes).shape == (2, 4)
    with pytest.raises(ValueError):  # an s for no axes is still NumPy's error, not a copy
        dlt.fft.fftn(c, s=(3,), axes=())


def test_float16_trace_adds_in_float32_as_sum_does():
    # (NumPy adds a float16 diagonal that is not its innermost axis in float16: 2048 + 1 + 1 + 1
    # stalled at 2048, where sum of the diagonal, and CuPy's trace, give 2052)
    base = np.zeros((4, 4, 2), np.float16)
    base[np.arange(4), np.arange(4)] = np.array([2048, 1, 1, 1], np.float16)[:, None]
    x = dlt.permute_dims(dlt.asarray(base), (2, 0, 1))
    want = dlt.sum(dlt.linalg.diagonal(x), axis=-1)
    for got in (dlt.linalg.trace(x), dlt.linalg.trace(x, dtype=dlt.float16)):
        assert got.dtype == dlt.float16 and np.asarray(got).tolist() == [2052.0, 2052.0]
        assert np.array_equal(np.asarray(got), np.asarray(want))
    assert np.asarray(dlt.linalg.trace(x, dtype=dlt.float32)).tolist() == [2051.0, 2051.0]
    assert np.asarray(dlt.linalg.trace(x, offset=1)).tolist() == [0.0, 0.0]


def test_trace_refuses_a_real_dtype_for_complex_input_as_sum_does():
    z = dlt.ones((2, 2), dtype=dlt.complex128) * 1j
    with pytest.raises(TypeError, match="imaginary"):
        dlt.linalg.trace(z, dtype=dlt.float64)
    assert complex(dlt.linalg.trace(z, dtype=dlt.complex64)) == 2j


def test_cross_of_more_than_32_dimensions():
    # NumPy's cross broadcasts with np.broadcast, which stops at 32 dimensions (RuntimeError)
    a, b = np.random.rand(2, 3, 1), np.random.rand(1, 3, 4)
    want = np.cross(a, b, axis=-2)
    r = dlt.linalg.cross(dlt.asarray(a.reshape((1,) * 33 + a.shape)),
                         dlt.asarray(b.reshape((1,) * 34 + b.shape)), axis=-2)
    assert r.shape == (1,) * 34 + want.shape
    np.testing.assert_allclose(np.asarray(r).reshape(want.shape), want)


def test_cross_and_vector_norm_of_33_dimensions():
    # (33: the first past NumPy's np.broadcast in cross; vector_norm is no function of
    # matrices, whose stacks are folded: its axes are x's own)
    a = np.random.default_rng(33).standard_normal((2,) + (1,) * 31 + (3,))
    r = dlt.linalg.cross(dlt.asarray(a), dlt.asarray(a[::-1].copy()))
    assert r.ndim == 33
    np.testing.assert_allclose(np.asarray(r).reshape(2, 3),
                               np.cross(a.reshape(2, 3), a[::-1].reshape(2, 3)))
    n = dlt.linalg.vector_norm(dlt.asarray(a), axis=0)
    assert n.shape == (1,) * 31 + (3,)
    np.testing.assert_allclose(np.asarray(n).ravel(), np.linalg.norm(a.reshape(2, 3), axis=0))


def test_diagonal_default_offset_and_float16_matrix_norms():
    m = dlt.asarray(np.arange(9.0).reshape(3, 3))
    assert np.asarray(dlt.linalg.diagonal(m)).tolist() == [0.0, 4.0, 8.0]
    # (float16's refusal is for LAPACK's functions: a Frobenius norm needs none)
    h = dlt.linalg.matrix_norm(dlt.asarray(np.full((2, 2), 2.0, np.float16)))
    assert h.dtype == dlt.float16 and float(h) == 4.0


def test_matrix_rank_tolerance_counts_the_matrix_not_the_stack():
    # rtol's default is max(M, N) * eps of each matrix: a singular value of 10 eps beside 1
    # counts, in a stack of 100 matrices as alone (not scaled by the stack's extent)
    eps = np.finfo(np.float64).eps
    m = np.broadcast_to(np.diag([1.0, 10 * eps]), (100, 2, 2)).copy()
    assert np.asarray(dlt.linalg.matrix_rank(dlt.asarray(m))).tolist() == [2] * 100
    assert np.linalg.matrix_rank(m[0]) == 2


@pytest.mark.parametrize("ndim", [33, 63, 64])
def test_stacks_of_up_to_64_dimensions(ndim):
    # NumPy's linalg gufuncs stop short of 64 axes ("too many dimensions for generalized
    # ufunc": eigh and eig at 64, svd and pinv at 63); the stack is folded into one axis
    m = np.random.default_rng(ndim).standard_normal((2, 3, 3))
    m = m @ np.swapaxes(m, -1, -2) + 3 * np.eye(3)
    x, small = dlt.asarray(m.reshape((2,) + (1,) * (ndim - 3) + (3, 3))), dlt.asarray(m)
    for f in (dlt.linalg.eigh, dlt.linalg.eig, dlt.linalg.svd, dlt.linalg.pinv, dlt.linalg.qr,
              dlt.linalg.slogdet, dlt.linalg.cholesky, dlt.linalg.inv, dlt.linalg.svdvals,
              lambda v: dlt.linalg.matrix_norm(v, keepdims=True, ord="nuc")):
        got, want = f(x), f(small)
        for g, w in zip(*((r,) if not isinstance(r, tuple) else r for r in (got, want))):
            assert g.shape == (2,) + (1,) * (ndim - 3) + w.shape[1:]
            assert np.array_equal(np.asarray(g).reshape(w.shape), np.asarray(w))


@pytest.mark.parametrize("ndim", [33, 62, 64])
def test_an_array_rtol_folds_with_a_stack_past_32_dimensions(ndim):
    # pinv and matrix_rank with an rtol array, one per matrix or 0-d: the stack was folded
    # only for a float rtol (from 62 axes NumPy's svd refused: "too many dimensions")
    m = np.array([[[1.0, 0.0], [0.0, 1e-5]]] * 2)
    x, small = dlt.asarray(m.reshape((2,) + (1,) * (ndim - 3) + (2, 2))), dlt.asarray(m)
    for rtol in ((np.array([1e-3, 1e-7]), np.array(1e-3))):
        big = dlt.asarray(rtol.reshape(rtol.shape + (1,) * (ndim - 3) if rtol.ndim else ()))
        for f in (dlt.linalg.pinv, dlt.linalg.matrix_rank):
            got, want = f(x, rtol=big), f(small, rtol=dlt.asarray(rtol))
            assert got.shape == (2,) + (1,) * (ndim - 3) + want.shape[1:]
            assert np.array_equal(np.asarray(got).reshape(want.shape), np.asarray(want))


def test_norm_is_checked_also_where_nothing_is_transformed():
    # fftn of a 0-d array or of axes=() returned a copy whatever norm said, and every transform
    # took None as "backward" (NumPy's reading; the spec's norm is one of three strings)
    z0, z1 = dlt.asarray(1 + 2j), dlt.asarray([1 + 0j, 2 + 0j])
    for call in (lambda n: dlt.fft.fftn(z0, norm=n), lambda n: dlt.fft.ifftn(z1, axes=(), norm=n),
                 lambda n: dlt.fft.fft(z1, norm=n), lambda n: dlt.fft.rfft(dlt.ones(2), norm=n)):
        for bad in ("bogus", None, [1]):
            with pytest.raises(ValueError, match="norm must be"):
                call(bad)
        for good in ("backward", "ortho", "forward"):
            call(good)


def test_padding_an_empty_axis_gives_zeros():
    # The spec zero-pads to n; NumPy's pocketfft transformed memory it never wrote when the
    # axis was empty (irfft, hfft, irfftn: garbage that changed from run to run). PyTorch: 0.
    for _ in range(3):
        for dtype in (dlt.complex64, dlt.complex128):
            e = dlt.zeros((0,), dtype=dtype)
            for f in (dlt.fft.irfft, dlt.fft.hfft, dlt.fft.fft, dlt.fft.ifft):
                r = f(e, n=4)
                assert r.shape == (4,) and not np.asarray(r).any(), f
            r = dlt.fft.irfftn(dlt.zeros((2, 0), dtype=dtype), s=(2, 4), axes=(0, 1))
            assert r.shape == (2, 4) and r.dtype == (dlt.float32 if dtype == dlt.complex64
                                                     else dlt.float64)
            assert not np.asarray(r).any()
    assert dlt.fft.irfft(dlt.zeros((3, 0), dtype=dlt.complex64), n=6, axis=0).shape == (6, 0)
    with pytest.raises(ValueError):  # no n: 2 * (0 - 1) points, as NumPy says
        dlt.fft.irfft(dlt.zeros((0,), dtype=dlt.complex64))


def test_frequencies_with_a_zero_spacing_follow_ieee():
    # k / (d * n) with d = 0: NaN, then infinities (PyTorch and JAX); NumPy: ZeroDivisionError
    got = np.asarray(dlt.fft.fftfreq(4, d=0.0))
    assert np.isnan(got[0]) and got[1:].tolist() == [math.inf, -math.inf, -math.inf]
    assert np.asarray(dlt.fft.fftfreq(4, d=-0.0))[1:].tolist() == [-math.inf, math.inf, math.inf]
    assert np.asarray(dlt.fft.rfftfreq(4, d=0.0))[1:].tolist() == [math.inf, math.inf]


def test_frequencies_with_a_subnormal_spacing_are_zero_at_zero():
    # 1 / (d * n) overflows there: NumPy's k * inf made the zero frequency NaN (0 * inf)
    tiny = float(1 / np.finfo(np.float64).max)  # (1 / tiny is inf too: the bound included)
    for d in (1e-310, 1e-320, -1e-310, tiny, tiny / 4):
        for f, n in ((dlt.fft.fftfreq, 1), (dlt.fft.fftfreq, 4), (dlt.fft.rfftfreq, 4)):
            got = np.asarray(f(n, d=d))
            assert got[0] == 0 and math.copysign(1, got[0]) == math.copysign(1, d)
            assert not np.isnan(got).any() and (d == tiny or np.isinf(got[1:]).all())
    with warnings.catch_warnings():  # float32's own infinities, without a cast's warning
        warnings.simplefilter("error")
        got = dlt.fft.fftfreq(2, d=1e-40, dtype=dlt.float32)
    assert got.dtype == dlt.float32 and np.asarray(got).tolist() == [0.0, -math.inf]


def test_frequencies_of_python_numbers_answer_as_the_checked_path():
    # A Python float or int spacing skips numbers.Real's check, and float64 frequencies the
    # cast under errstate (the checked path: NumPy's float64 spacing): the same bits and
    # flags, the same errors in the same words; frequencies computed in NumPy's long double
    # are still made float64
    for f in (dlt.fft.fftfreq, dlt.fft.rfftfreq):
        for n in (0, 1, 4, 7, -1, True):
            for d in (1.0, 0.1, -2.5, 3, 0, -0.0, 1e-320, 1e308, math.nan, -math.inf, 2**70):
                for kw in ({}, {"dtype": dlt.float64}, {"dtype": dlt.float32}):
                    alike(lambda: f(n, d=d, **kw), lambda: f(n, d=np.float64(d), **kw),
                          (f, n, d, kw))
                    r = f(n, d=d, **kw) if n > 0 and n is not True else None
                    assert r is None or not r.read_only and np.asarray(r).flags.writeable
        got = f(4, d=np.longdouble(0.5))
        assert got.dtype == dlt.float64 and np.asarray(got).tolist() == np.asarray(
            f(4, d=0.5)).tolist()


def test_fft_axes_out_of_range_are_axis_errors():
    c = dlt.zeros((2, 2), dtype=dlt.complex64)
    for call in (lambda: dlt.fft.fft(c, axis=2), lambda: dlt.fft.ifft(c, axis=-3),
                 lambda: dlt.fft.fftshift(c, axes=2), lambda: dlt.fft.fftn(c, axes=(0, -3)),
                 lambda: dlt.fft.rfftn(dlt.zeros((2, 2)), axes=(5,))):
        with pytest.raises(np.exceptions.AxisError, match="out of bounds for an array of "
                                                          "dimension 2"):
            call()
    # tensordot's axes too (NumPy: a bare "tuple index out of range")
    for axes, which in ((((5,), (0,)), "x1"), (((0,), (-3,)), "x2")):
        with pytest.raises(np.exceptions.AxisError, match=f"tensordot \\({which}\\): axis"):
            dlt.tensordot(dlt.ones((2, 2)), dlt.ones((2, 2)), axes=axes)


def test_fft_axis_is_an_int_and_axes_are_no_string():
    c = dlt.zeros((2, 2), dtype=dlt.complex64)
    for f in (dlt.fft.fft, dlt.fft.ifft, dlt.fft.irfft, dlt.fft.hfft):
        with pytest.raises(TypeError, match="axis .* must be an int, not None"):  # (NumPy:
            f(c, axis=None)  # "'<=' not supported between instances of 'int' and 'NoneType'")
    for f in (dlt.fft.fftn, dlt.fft.fftshift):  # (was read a character at a time)
        with pytest.raises(TypeError, match="axes must be a sequence of ints, not '01'"):
            f(c, axes="01")


def test_fft_of_a_length_past_the_largest_array_is_a_value_error():
    # NumPy made a length past a C long an object array: its ufunc's casting TypeError
    c = dlt.zeros((2,), dtype=dlt.complex128)
    for call in (lambda: dlt.fft.ifft(c, n=10**20), lambda: dlt.fft.irfft(c, n=2**63),
                 lambda: dlt.fft.ihfft(dlt.zeros(2), n=10**20),
                 lambda: dlt.fft.fftn(c, s=(10**19,), axes=(0,))):
        with pytest.raises(ValueError, match="past the largest array"):
            call()


def test_functions_of_several_arrays_take_imports_not_yet_computed_on():
    # An imported array's compute view is made on first use: each array handed to the backend
    # must be that view (its _array was passed as it was, None, for a fresh import).

    def fresh(a):
        x = dlt.from_dlpack(P.from_numpy(np.asarray(a, dtype=np.float64)))
        assert x._array is None
        return x

    a, b = np.array([[2.0, 1.0], [1.0, 3.0]]), np.array([1.0, 2.0])
    v, w = np.array([1.0, 2.0, 3.0]), np.array([4.0, 5.0, 6.0])
    for got, want in ((dlt.linalg.solve(fresh(a), fresh(b)), np.linalg.solve(a, b)),
                      (dlt.linalg.cross(fresh(v), fresh(w)), np.cross(v, w)),
                      (dlt.linalg.outer(fresh(v), fresh(w)), np.outer(v, w)),
                      (dlt.diff(fresh(v), prepend=fresh(w)), np.diff(v, prepend=w)),
                      (dlt.fft.rfft(fresh(v)), np.fft.rfft(v))):
        np.testing.assert_allclose(np.asarray(got), want)


def test_float16_norms_are_computed_in_float32():
    # as float16 sums are: NumPy squared and added in float16 (the norm of [300, 400] was
    # inf, the 1-norm of 4096 ones 2048, and the count ord=0 too)
    f = dlt.float16
    assert float(dlt.linalg.vector_norm(dlt.asarray([300.0, 400.0], dtype=f))) == 500.0
    ones = dlt.ones((4096, 2), dtype=f)
    for got in (dlt.linalg.vector_norm(ones, axis=0, ord=1),
                dlt.linalg.vector_norm(ones, axis=0, ord=0), dlt.linalg.matrix_norm(ones, ord=1)):
        assert got.dtype == f and np.all(np.asarray(got) == 4096.0)
    x = dlt.asarray(G.astype(np.float16))
    for ord in ("fro", "nuc", 2, -2, 1, math.inf):
        got = dlt.linalg.matrix_norm(x, ord=ord, keepdims=True)
        want = np.linalg.matrix_norm(G.astype(np.float16).astype(np.float32), ord=ord,
                                     keepdims=True).astype(np.float16)
        assert got.dtype == f and np.array_equal(np.asarray(got), want), ord


def test_transforms_commonest_calls_answer_as_the_checked_path():
    # A transform with no length and an int axis (or all axes), the norm by name, is NumPy's
    # own at once; a NumPy int axis (or the axes named) takes the checked path: the same
    # arrays, and the same errors in the same words
    real = np.array([[1.5, -0.0, 3.0, np.inf], [0.25, -2.0, np.nan, 8.0]])
    with np.errstate(invalid="ignore"):
        z = real + 1j * real[::-1]
    arrays = {"c": [z, (real + 0.5j)[:1, :1], (real - 1j)[0], z[0, 0], z[:0]],
              "r": [real, real[:, :1], real[0], real.astype(np.float32), real[1, 1], real[:, :0]]}
    one_d = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"]
    for name in one_d + ["fftn", "ifftn", "rfftn", "irfftn", "fftshift", "ifftshift"]:
        f = getattr(dlt.fft, name)
        kind = "r" if name in ("rfft", "rfftn", "ihfft") else "c"
        for a in arrays[kind] + (arrays["r"] if "shift" in name else []):
            x = dlt.asarray(a)
            norms = [{}] if "shift" in name else [{}, {"norm": "ortho"}, {"norm": "forward"}]
            for norm in norms:
                if name in one_d:
                    for axis in range(-a.ndim - 1, a.ndim + 1):
                        alike(lambda: f(x, axis=axis, **norm),
                               lambda: f(x, axis=np.int64(axis), **norm), (name, a, axis))
                else:
                    alike(lambda: f(x, **norm), lambda: f(x, axes=tuple(range(a.ndim)), **norm),
                           (name, a, norm))
    with pytest.raises(ValueError, match="norm"):  # (its checks are the checked path's)
        dlt.fft.fft(dlt.asarray(arrays["c"][0]), norm="bad")
    with pytest.raises(TypeError):
        dlt.fft.fft(dlt.asarray(arrays["c"][0]), axis=True)


def test_vector_norm_commonest_calls_answer_as_the_checked_path():
    # An int or float ord, a bool keepdims and no axis or an int one in x: NumPy's own
    # vector_norm at once (the checked path: pinned memory, or an import not yet computed on)
    arrays = [G, R.astype(np.float32), HPD, R[:, :2], np.array(3.0), G[0, :0],
              np.array([np.inf, -np.nan, 1.0]), I16, R.astype(np.float16), G.T]
    for a in arrays:
        for device in ((P.CPU, 0), (P.CUDA_HOST, 0)):
            x = dlt.from_dlpack(P.from_numpy(a, device=device))
            np.asarray(x)  # (computed on: the fast path's, where it takes it)
            for ord in (2, 1, 0, -1, 3.5, math.inf, -math.inf, 2**63, True, np.float64(2)):
                for axis in (None, 0, -1, 1, -2, 2, True, (0,)):
                    for keepdims in (False, True, 1):
                        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
                            alike(lambda: dlt.linalg.vector_norm(x, ord=ord, axis=axis,
                                                                 keepdims=keepdims),
                                  lambda: dlt.linalg.vector_norm(
                                      dlt.from_dlpack(P.from_numpy(a, device=device)),
                                      ord=ord, axis=axis, keepdims=keepdims),
                                  (a.dtype, a.shape, device, ord, axis, keepdims))


def test_trace_and_norms_commonest_calls_answer_as_the_checked_paths():
    # trace with an int offset and no dtype is NumPy's own trace (the checked path: a NumPy
    # int offset); matrix_norm, vector_norm and pinv of CPU arrays are NumPy's linalg, as
    # array-api-compat's (pinv's default rtol the spec's max(M, N) * eps, not NumPy's 1e-15)
    import array_api_compat.numpy as compat
    for a in (G, I16, I16.astype(np.uint8), R.astype(np.float32), HPD, G[0, :0], R[:, :2]):
        x = dlt.asarray(a)
        for offset in (-5, -1, 0, 2, 4, 5, 2**70):
            alike(lambda: dlt.linalg.trace(x, offset=offset),
                   lambda: dlt.linalg.trace(x, offset=np.int64(min(offset, 2**62))),
                   (a.dtype, offset))
    near_singular = np.diag([1.0, 7e-16])  # (above the spec's 2 * eps, below NumPy's 1e-15)
    for a in (G, R, SPD.astype(np.float32), HPD, near_singular):
        x = dlt.asarray(a)
        for ord in ("fro", "nuc", 1, -1, 2, -2, math.inf, -math.inf):
            for keepdims in (False, True):
                bits(dlt.linalg.matrix_norm(x, ord=ord, keepdims=keepdims),
                      compat.linalg.matrix_norm(a, ord=ord, keepdims=keepdims), (a, ord))
        for ord in (2, 1, 0, -1, 3.5, math.inf, -math.inf):
            for axis in (None, -1, (0, -1)):
                with np.errstate(divide="ignore"):  # (a negative ord of a zero)
                    bits(dlt.linalg.vector_norm(x, ord=ord, axis=axis),
                          compat.linalg.vector_norm(a, ord=ord, axis=axis), (a, ord, axis))
        for rtol in (None, 0.5, 1e-20):
            bits(dlt.linalg.pinv(x, rtol=rtol), compat.linalg.pinv(a, rtol=rtol), (a, rtol))
    assert np.asarray(dlt.linalg.pinv(dlt.asarray(near_singular)))[1, 1] > 1e15, \
        "the spec's default rtol keeps the tiny singular value (NumPy's 1e-15 drops it)"
    x = dlt.asarray(G)
    rtol = dlt.asarray(np.array([0.5, 1e-20, 0.0]))
    bits(dlt.linalg.pinv(x, rtol=rtol), compat.linalg.pinv(G, rtol=np.asarray(rtol)), "rtols")


# --- stacks of matrices with no elements ------------------------------------------------------

# NumPy's matmul and linalg loop in C over every matrix of a stack, with nothing to do for an
# empty one (2**27 took 0.6-10 s; 2**40 would not return): dltensor computes one and spreads it.
# N: the long axis (None in a shape: 3 when compared with NumPy, 2**40 when timed).
N = None
_EMPTY_STACK_CALLS = {
    "matmul": lambda m, x: m.matmul(x((N, 2, 0, 4)), x((4, 5))),
    "matmul-k": lambda m, x: m.matmul(x((N, 2, 2, 0)), x((2, 0, 5))),  # (zeros, not empty)
    "matmul-1d": lambda m, x: m.matmul(x((4,)), x((N, 2, 4, 0))),
    "matmul-1d-right": lambda m, x: m.matmul(x((N, 2, 0, 4)), x((4,))),
    "det": lambda m, x: m.linalg.det(x((N, 2, 0, 0))),
    "slogdet": lambda m, x: tuple(m.linalg.slogdet(x((N, 2, 0, 0)))),
    "inv": lambda m, x: m.linalg.inv(x((N, 2, 0, 0))),
    "qr": lambda m, x: tuple(m.linalg.qr(x((N, 2, 0, 4)), mode="complete")),
    "svd": lambda m, x: tuple(m.linalg.svd(x((N, 2, 4, 0)))),  # (U: identities)
    "svd-reduced": lambda m, x: tuple(m.linalg.svd(x((N, 2, 4, 0)), full_matrices=False)),
    "svdvals": lambda m, x: m.linalg.svdvals(x((N, 2, 0, 4))),
    "eigh": lambda m, x: tuple(m.linalg.eigh(x((N, 2, 0, 0)))),
    "cholesky": lambda m, x: m.linalg.cholesky(x((N, 2, 0, 0))),
    "pinv": lambda m, x: m.linalg.pinv(x((N, 2, 4, 0))),
    "matrix_norm": lambda m, x: m.linalg.matrix_norm(x((N, 2, 0, 4)), keepdims=True),
    "matrix_norm-2": lambda m, x: m.linalg.matrix_norm(x((N, 2, 4, 0)), ord=2),
    "matrix_power": lambda m, x: m.linalg.matrix_power(x((N, 2, 0, 0)), 3),
    "solve": lambda m, x: m.linalg.solve(x((N, 2, 0, 0)), x((2, 0, 3))),
    "solve-vector": lambda m, x: m.linalg.solve(x((N, 2, 4, 4)), x((N, 2, 4, 0))),
    "solve-1d": lambda m, x: m.linalg.solve(x((N, 2, 0, 0)), x((0,))),
    "take": lambda m, x: m.take(x((N, 4, 0)), m.asarray([0, 3, 1]), axis=1),
    "take_along_axis": lambda m, x: m.take_along_axis(
        x((N, 0, 4)), m.astype(x((N, 0, 2)), m.int64), axis=2),
    "repeat": lambda m, x: m.repeat(x((N, 4, 0)), 3, axis=1),
    "repeat-counts": lambda m, x: m.repeat(x((N, 4, 0)), m.asarray([0, 2, 1, 5]), axis=-2),
    "rfftn": lambda m, x: m.fft.rfftn(x((N, 0)), axes=(0, 1), s=(4, 2)),
    # (a norm that is a maximum over nothing is 0: computed over zeros, once made N long)
    "vector_norm-inf": lambda m, x: m.linalg.vector_norm(x((N, 0)), ord=math.inf),
    "matrix_norm-inf": lambda m, x: m.linalg.matrix_norm(x((2, N, 0)), ord=math.inf),
    "matrix_norm--1": lambda m, x: m.linalg.matrix_norm(x((2, 0, N)), ord=-1),
    "matrix_norm-nuc": lambda m, x: m.linalg.matrix_norm(x((0, N)), ord="nuc"),
    "svdvals-one": lambda m, x: m.linalg.svdvals(x((0, N))),
    # (one matrix of no rows, or no right-hand sides: NumPy's qr of (0, 2**30) took 20 s)
    "qr-one": lambda m, x: tuple(m.linalg.qr(x((0, N)))),
    "qr-one-complete": lambda m, x: tuple(m.linalg.qr(x((1, 0, N)), mode="complete")),
    "qr-of-no-matrices": lambda m, x: tuple(m.linalg.qr(x((0, 2, N)))),
    "qr-of-no-matrices-complete": lambda m, x: tuple(m.linalg.qr(x((2, 0, 2, N)),
                                                                 mode="complete")),
    "qr-one-complete-of-elements": lambda m, x: tuple(m.linalg.qr(x((N, 0)), mode="complete")),
    "svd-one": lambda m, x: tuple(m.linalg.svd(x((1, 0, N)), full_matrices=False)),
    "svd-one-full": lambda m, x: tuple(m.linalg.svd(x((0, N)))),  # (Vh: an identity)
    "solve-one": lambda m, x: m.linalg.solve(x((0, 0)), x((1, 0, N))),
    "svdvals-of-no-matrices": lambda m, x: m.linalg.svdvals(x((0, 2, 3))),  # (of elements)
    # (and beyond linalg: NumPy's diff loops over n in Python, its tril and triu make a mask
    # of rows * columns, its tile copies before a 0 empties the copies)
    "diff": lambda m, x: (lambda a: m.diff(a, axis=0, n=a.shape[0] - 1))(x((N, 0))),
    "diff-prepend": lambda m, x: (lambda a: m.diff(a, axis=0, n=a.shape[0],
                                                   prepend=x((2, 0))))(x((N, 0))),
    "tril": lambda m, x: m.tril(x((0, N, 2)), k=-1),
    "triu": lambda m, x: m.triu(x((0, 2, N))),
    "tile": lambda m, x: m.tile(x((2, 3)), (x((N, 0)).shape[0], 1, 0)),
}


@pytest.mark.parametrize("name", sorted(_EMPTY_STACK_CALLS))
@pytest.mark.parametrize("dtype", ["float32", "complex128"])
def test_calls_on_stacks_of_no_elements_answer_as_numpy(name, dtype):
    # (array-api-strict computes with NumPy's own loops: the same results, shapes and dtypes)
    call = _EMPTY_STACK_CALLS[name]
    if name == "rfftn" and dtype == "complex128" or name.startswith("take") or \
            name.startswith("repeat") or name == "matmul-k" and dtype == "complex128":
        dtype = "float64"
    def maker(m, n=3):
        def x(shape):
            shape = tuple(n if d is None else d for d in shape)
            if name == "solve-vector" and 0 not in shape:  # (nonsingular, beside no vectors)
                return m.broadcast_to(m.eye(shape[-1], dtype=getattr(m, dtype)), shape)
            return m.zeros(shape, dtype=getattr(m, dtype))
        return x
    make = {m: maker(m) for m in (dlt, strict)}
    got = call(dlt, make[dlt])
    try:
        want = call(strict, make[strict])
    except ValueError:  # (NumPy < 2.3: a maximum of nothing; dltensor's norm is 0, as 2.3's)
        assert "norm" in name and np.lib.NumpyVersion(np.__version__) < "2.3.0"
        real = dlt.float32 if dtype == "float32" else dlt.float64
        assert got.dtype == real and not np.asarray(got).any(), got
        return
    oracle.same(got, want)
    for g in got if isinstance(got, tuple) else (got,):
        if g.size > 1:  # (a new array, each element its own: not a broadcast of one)
            g[(0,) * g.ndim] = 5
            assert np.asarray(g).ravel()[-1] != 5


def test_calls_on_stacks_of_no_elements_return_at_once():
    # 2**40 matrices of no elements: each call would loop in NumPy for hours, or make 2**40
    # zeros (run apart, so that a loop that does not return fails the test at the timeout,
    # not the whole run; the results are compared with NumPy's above)
    big = 2**40
    # (not those with results of 2**40 elements, nor solve's 2**40 nonsingular matrices)
    names = sorted(set(_EMPTY_STACK_CALLS) - {"matmul-k", "det", "slogdet", "matrix_norm",
                                              "matrix_norm-2", "solve-vector", "svd",
                                              "svd-one-full", "qr-one-complete-of-elements"})
    code = (
        "import sys, dltensor as dlt\n"
        "sys.path[:0] = [sys.argv[1], sys.argv[1] + '/..']\n"
        "from test_linalg_fft import _EMPTY_STACK_CALLS\n"
        f"x = lambda s: dlt.zeros(tuple({big} if d is None else d for d in s))\n"
        "for name in sys.argv[2:]:\n"
        "    r = _EMPTY_STACK_CALLS[name](dlt, x)\n"
        "    print(name, [a.shape for a in (r if isinstance(r, tuple) else (r,))])\n")
    import os
    import subprocess
    import sys
    done = subprocess.run([sys.executable, "-c", code, os.path.dirname(__file__), *names],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert [line.split()[0] for line in lines] == names


def test_answers_for_no_elements_keep_numpys_errors():
    # (the shortcuts above come after the checks NumPy makes of the same call)
    with pytest.raises(TypeError):
        dlt.take(dlt.zeros((3, 4, 0)), dlt.asarray([1]), axis=True)
    x1 = dlt.asarray(np.stack([np.eye(2), np.zeros((2, 2))]))  # (the second singular)
    for x2 in (dlt.zeros((2, 2, 0)), dlt.zeros((2, 0))):
        with pytest.raises(np.linalg.LinAlgError):
            dlt.linalg.solve(x1, x2)
    with pytest.raises(ValueError, match="non-negative"):
        dlt.diff(dlt.zeros((3, 0)), axis=0, n=-1)
    assert dlt.tile(dlt.zeros((2, 0)), ()).shape == (2, 0)
    with pytest.raises(ValueError, match="negative"):
        dlt.repeat(dlt.zeros((3, 4, 0)), dlt.asarray([1, -2, 3, 4]), axis=1)


def test_svd_and_pinv_of_an_infinity_refuse_at_once():
    # (NumPy 2.4's svd of this matrix never returned: LAPACK's xBDSQR loops forever,
    # numpy/numpy#32591; NumPy 2.5 refuses non-finite input, as dltensor on every version. In
    # a process of its own: a hang fails the test, not CI's clock)
    import subprocess
    import sys
    code = """
import numpy as np, dltensor as dt
for t in (dt.float32, dt.float64, dt.complex128):
    x = dt.asarray([[np.inf, 1.0, 1.0], [1.0, 1.0, 1.0], [1.0, 1.0, 1.0]], dtype=t)
    for f in (dt.linalg.svd, dt.linalg.pinv, lambda y: dt.linalg.svd(y, full_matrices=False)):
        try:
            f(x)
        except np.linalg.LinAlgError as e:
            assert "did not converge" in str(e)
        else:
            raise AssertionError(t)
print("ok")
"""
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr
    # (the whole SVD family, as NumPy 2.5 refuses it: NumPy 2.4 gave NaN singular values)
    x = dlt.asarray([[np.inf, 1.0], [1.0, 1.0]])
    for f in (dlt.linalg.svdvals, dlt.linalg.matrix_rank, lambda y: dlt.linalg.pinv(y),
              lambda y: dlt.linalg.matrix_norm(y, ord=2), lambda y: dlt.linalg.matrix_norm(
                  y, ord=-2), lambda y: dlt.linalg.matrix_norm(y, ord="nuc")):
        with pytest.raises(np.linalg.LinAlgError, match="did not converge"):
            f(x)
    assert math.isinf(float(dlt.linalg.matrix_norm(x)))  # (no SVD: Frobenius's)


def test_solve_for_no_right_hand_sides_over_a_long_stack_answers_at_once():
    # (x1's matrices factorised, each once, then nothing to solve: NumPy loops over the
    # broadcast stack, 12 s at 2**26; in a process of its own, so that a slow answer fails)
    import subprocess
    import sys
    code = """
import dltensor as dt
r = dt.linalg.solve(dt.eye(3, dtype=dt.float32), dt.empty((2**36, 3, 0), dtype=dt.float32))
assert r.shape == (2**36, 3, 0) and r.dtype == dt.float32
print("ok")
"""
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr
    with pytest.raises(np.linalg.LinAlgError):  # (each matrix still factorised)
        dlt.linalg.solve(dlt.zeros((3, 3)), dlt.empty((2**20, 3, 0)))
    assert dlt.linalg.solve(dlt.eye(3, dtype=dlt.float32), dlt.empty((2, 3, 0))).dtype == \
        dlt.float64


@pytest.mark.parametrize("name", ["rfft", "ihfft", "rfftn"])
@pytest.mark.parametrize("norm", ["backward", "ortho", "forward"])
def test_a_float16_transform_is_its_float32_inputs(name, norm):
    # (NumPy scales a float16 input's transform by 1/n or 1/sqrt(n) rounded to float16:
    # ihfft([1, 2, 3, 5, 7])[0] was 3.5991, not 3.6; CuPy computes in float32)
    x = dlt.asarray([1.0, 2.0, 3.0, 5.0, 7.0], dtype=dlt.float16)
    got = getattr(dlt.fft, name)(x, norm=norm)
    want = getattr(dlt.fft, name)(dlt.astype(x, dlt.float32), norm=norm)
    assert got.dtype == want.dtype == dlt.complex64
    assert np.array_equal(np.asarray(got), np.asarray(want))


@pytest.mark.parametrize("name", ["fftshift", "ifftshift"])
def test_a_float16_shift_stays_float16(name):
    # (the spec: the same dtype as x; the float32 that rfft of float16 computes in leaked
    # into the shifts, which only move values)
    x = dlt.asarray([1.0, 2.0, 3.0, 5.0, 7.0], dtype=dlt.float16)
    got = getattr(dlt.fft, name)(x)
    assert got.dtype == dlt.float16
    assert np.array_equal(np.asarray(got), getattr(np.fft, name)(np.asarray(x)))


def test_calls_that_copy_x_on_memory_no_backend_reaches_say_so_as_any_other():
    # matrix_power(x, 1) and a transform of no axes copy x: on held memory that was copied's
    # BufferError (a copy's), where every other n and axes raise NoBackendError
    from dltensor._backends import NoBackendError
    x = dlt.from_dlpack(P.Producer(data=P.FAKE_POINTER, device=(P.METAL, 0), shape=(2, 2),
                                   strides=(2, 1), dtype=(5, 64, 1)))  # complex64
    for call in (lambda: dlt.linalg.matrix_power(x, 1), lambda: dlt.fft.fftn(x, axes=()),
                 lambda: dlt.fft.fftshift(x, axes=()), lambda: dlt.fft.ifftshift(x, axes=[])):
        with pytest.raises(NoBackendError, match="metal:0"):
            call()
    assert x._array is None


def test_vecdot_and_count_nonzero_of_numpy_arrays_keep_the_spec_checks():
    # (NumPy's own vecdot and count_nonzero on the CPU, without array-api-compat's layers)
    x = dlt.asarray(np.arange(6.0).reshape(2, 3))
    r = dlt.vecdot(x[0, ...], x[0, ...])
    assert r.shape == () and float(r) == 5.0 and r.dtype == dlt.float64
    for axis, error in ((0, ValueError), (-3, IndexError), (True, TypeError)):
        with pytest.raises(error):
            dlt.vecdot(x, x, axis=axis)
    with pytest.raises(TypeError, match="no promotion"):
        dlt.vecdot(x, dlt.astype(x, dlt.int64))
    n = dlt.count_nonzero(x)
    assert n.shape == () and int(n) == 5 and n.dtype == dlt.int64
    assert dlt.count_nonzero(x, axis=(0, 1)).shape == ()
    assert dlt.count_nonzero(x, keepdims=True).shape == (1, 1)
    pinned = dlt.from_dlpack(P.from_numpy(np.ones((2, 3)), device=(P.CUDA_HOST, 0)))
    assert int(dlt.count_nonzero(pinned)) == 6 and dlt.vecdot(pinned, pinned).shape == (2,)


def test_cross_solve_and_matrix_rank_commonest_calls_answer_as_the_checked_paths():
    # NumPy's own cross, solve and matrix_rank's calls for NumPy arrays on the CPU (the
    # checked paths: a NumPy int axis, pinned memory): the same results, the same errors
    def pinned(a):
        return dlt.from_dlpack(P.from_numpy(np.ascontiguousarray(a), device=(P.CUDA_HOST, 0)))

    v = np.array([[1.0, -0.0, np.nan], [2.0, 3.0, -4.0], [1e300, 1e300, -1e300]])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # (overflow, inf - inf)
        for a, b in ((v, v[::-1]), (v[0], v), (v.T, v[:, ::-1]), (v[:2, :2], v[:2, :2]),
                     (v.astype(np.float32), v[::-1].astype(np.float32)), (v[:2], v[:2] + 0j),
                     (np.arange(9, dtype=np.uint8).reshape(3, 3), np.ones((3, 3), np.uint8)),
                     (v[:, :1], v[:, :1]), (v[0, :0], v[0, :0])):
            x1, x2 = dlt.asarray(a), dlt.asarray(b)
            for axis in (-1, -2, 0, 1):
                alike(lambda: dlt.linalg.cross(x1, x2, axis=axis),
                      lambda: dlt.linalg.cross(x1, x2, axis=np.int64(axis)), (a, b, axis))
    singular = np.ones((3, 3))
    for a, b in ((SPD, SPD[..., 0]), (SPD, SPD[0, 0]), (SPD[0], SPD[..., :2]), (HPD, HPD[0]),
                 (SPD.astype(np.float32), SPD[0].astype(np.float32)), (singular, singular[0]),
                 (SPD[0], SPD[:2, :3]), (R, R[0]), (SPD, SPD[:2, 0]), (np.asfortranarray(G[0]),
                 G[0, 0]), (SPD[0].astype(np.float16), SPD[0, 0].astype(np.float16))):
        alike(lambda: dlt.linalg.solve(dlt.asarray(a), dlt.asarray(b)),
              lambda: dlt.linalg.solve(pinned(a), pinned(b)), (a.shape, b.shape))
    nan = G.copy()
    nan[1, 2, 3] = np.nan
    for a in (G, R, R.astype(np.float32), HPD, singular, np.zeros((2, 2)), G[:, :1], nan,
              np.diag([1.0, 7e-16]), np.diag([np.inf, 1.0]), np.asfortranarray(R[0]), R[:, ::2],
              G[0, 0]):
        alike(lambda: dlt.linalg.matrix_rank(dlt.asarray(a)),
              lambda: dlt.linalg.matrix_rank(pinned(a)), a.shape)


def test_decompositions_commonest_calls_answer_as_the_checked_paths():
    # NumPy's own linalg for NumPy arrays on the CPU where _floating's checks would pass (the
    # checked path: pinned memory): the same results to the bit, the same errors
    def pinned(a):
        return dlt.from_dlpack(P.from_numpy(np.array(a, order="K"), device=(P.CUDA_HOST, 0)))

    nan, singular, indefinite = G.copy(), np.ones((3, 3)), -SPD
    nan[1, 2, 3] = np.nan
    calls = [(dlt.linalg.cholesky, {}), (dlt.linalg.cholesky, {"upper": True}),
             (dlt.linalg.det, {}), (dlt.linalg.slogdet, {}), (dlt.linalg.inv, {}),
             (dlt.linalg.eigh, {}), (dlt.linalg.eigvalsh, {}), (dlt.linalg.svdvals, {}),
             (dlt.linalg.svd, {}), (dlt.linalg.svd, {"full_matrices": False}),
             (dlt.linalg.qr, {}), (dlt.linalg.qr, {"mode": "complete"}),
             (dlt.linalg.pinv, {}), (dlt.linalg.pinv, {"rtol": 0.5}),
             (dlt.linalg.matrix_norm, {"ord": 2}), (dlt.linalg.vector_norm, {}),
             (dlt.linalg.vector_norm, {"axis": -1, "ord": 1, "keepdims": True})]
    for a in (G, SPD, HPD, R, R.astype(np.float32), SPD.astype(np.complex64), nan, singular,
              indefinite, np.asfortranarray(SPD[0]), R[:, ::2], G[0, 0], np.array(2.0),
              I16, SPD.astype(np.float16)):  # (the last two refused: no LAPACK dtype)
        for f, kwargs in calls:
            alike(lambda: f(dlt.asarray(a), **kwargs), lambda: f(pinned(a), **kwargs),
                  (f.__name__, kwargs, a.shape, a.dtype))


@pytest.mark.parametrize("dtype", ["float32", "complex64", "float64", "complex128"])
def test_a_number_rtol_is_xs_real_floating_dtypes(dtype):
    # The spec: a float rtol "is equivalent to a zero-dimensional array having a real-valued
    # floating-point data type determined by type promotion (as applied to x)". As a float64
    # it cut float32 singular values elsewhere: diag(1, 0.1) in float32 (0.1 is 0.100000001
    # there) had rank 2 with rtol=0.1, rank 1 with rtol a float32 array of 0.1.
    x = dlt.asarray(np.diag([1.0, 0.1]).astype(dtype))
    real = dlt.float32 if dtype in ("float32", "complex64") else dlt.float64
    for rtol in (0.1, 0.5, 0.05):
        as_array = dlt.asarray(rtol, dtype=real)
        assert int(dlt.linalg.matrix_rank(x, rtol=rtol)) == \
            int(dlt.linalg.matrix_rank(x, rtol=as_array))
        p, q = (np.from_dlpack(dlt.linalg.pinv(x, rtol=r)) for r in (rtol, as_array))
        assert p.dtype == q.dtype and p.tolist() == q.tolist()
    assert int(dlt.linalg.matrix_rank(x, rtol=0.1)) == 1  # (0.1 is not past 0.1 * 1)
    with warnings.catch_warnings():  # (past float32: inf, silently, as the array would be)
        warnings.simplefilter("error")
        assert int(dlt.linalg.matrix_rank(x, rtol=1e300)) == 0
