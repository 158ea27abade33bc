"""Scale-out: dltensor arrays travel through a real dask.distributed cluster and back.

Two worker processes on the loopback compute with the array API on arrays the client sends
them, and return arrays. dask serialises dltensor arrays with pickle protocol 5, so an array's
memory travels as its own out-of-band frame, not copied into the pickle stream.
"""

from __future__ import annotations

import logging

import numpy as np
import pytest

import dltensor as dt
import producers as P

distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def client():
    # Quiet: a refused serialisation is logged by dask at ERROR level with a traceback.
    logging.getLogger("distributed.protocol.pickle").setLevel(logging.CRITICAL)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  host="127.0.0.1", dashboard_address=None) as cluster, \
            distributed.Client(cluster) as c:
        yield c


def test_serialisation_sends_the_memory_out_of_band():
    a = np.arange(1 << 20, dtype=np.float64)
    x = dt.asarray(a)
    header, frames = distributed.protocol.serialize(x)
    assert header["serializer"] == "pickle"
    sizes = sorted(memoryview(f).nbytes for f in frames)
    assert sizes[-1] == a.nbytes and sum(sizes[:-1]) < 1024, sizes
    y = distributed.protocol.deserialize(header, frames)
    assert type(y) is dt.ndarray
    np.testing.assert_array_equal(np.asarray(y), a)


def test_workers_compute_with_the_array_api(client):
    def work(x):
        import dltensor
        assert type(x) is dltensor.ndarray  # arrived as a dltensor array, not NumPy
        return dltensor.sum(dltensor.exp(x)), dltensor.linalg.vector_norm(x)

    xs = [dt.linspace(0.0, 1.0, 1000 * (i + 1), dtype=dt.float64) for i in range(4)]
    results = client.gather(client.map(work, xs))
    for x, (s, n) in zip(xs, results):
        assert type(s) is dt.ndarray and s.shape == () and s.dtype == dt.float64
        a = np.asarray(x)
        np.testing.assert_allclose(float(s), np.exp(a).sum(), rtol=1e-12)
        np.testing.assert_allclose(float(n), np.linalg.norm(a), rtol=1e-12)
    # Both worker processes took part (two different pids answered).
    assert len(set(client.run(__import__("os").getpid).values())) == 2


def test_arrays_round_trip_through_workers_intact(client):
    rng = np.random.default_rng(1)
    cases = [
        dt.asarray(rng.standard_normal((300, 200))),
        dt.asarray(rng.integers(-100, 100, size=(7, 11), dtype=np.int16)),
        dt.asarray(rng.standard_normal(50) + 1j * rng.standard_normal(50)),
        dt.asarray(np.array([True, False, True])),
        dt.asarray(2.5),
    ]
    futures = [client.submit(lambda x: x, x, pure=False) for x in cases]
    for x, y in zip(cases, client.gather(futures)):
        assert type(y) is dt.ndarray and y.dtype == x.dtype and y.shape == x.shape
        np.testing.assert_array_equal(np.asarray(y), np.asarray(x))


def test_chained_tasks_keep_arrays_on_workers(client):
    import dltensor as d

    x = client.scatter(d.reshape(d.arange(12, dtype=d.float32), (3, 4)))
    gram = client.submit(lambda a: a @ d.matrix_transpose(a), x)
    centred = client.submit(lambda g: g - d.mean(g, axis=0), gram)
    out = centred.result()
    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    g = a @ a.T
    assert type(out) is d.ndarray and out.dtype == d.float32
    np.testing.assert_allclose(np.asarray(out), g - g.mean(axis=0), rtol=1e-6)


def test_worker_made_arrays_come_back(client):
    y = client.submit(lambda: dt.reshape(dt.arange(6, dtype=dt.int64), (2, 3)) * 2).result()
    assert type(y) is dt.ndarray and y.dtype == dt.int64
    np.testing.assert_array_equal(np.asarray(y), np.arange(6).reshape(2, 3) * 2)


def test_held_device_arrays_are_not_sent():
    x = dt.from_dlpack(P.Producer(data=P.FAKE_POINTER, device=(P.METAL, 0), shape=(4,),
                                  strides=(1,)))
    logging.getLogger("distributed.protocol.pickle").setLevel(logging.CRITICAL)
    with pytest.raises(TypeError, match="metal:0"):
        distributed.protocol.serialize(x, on_error="raise")
