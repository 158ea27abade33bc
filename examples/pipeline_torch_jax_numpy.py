"""PyTorch -> dltensor -> JAX -> NumPy, one buffer all the way: no hand-off copies.

A batch made by PyTorch is normalised with the array API (dltensor, computed by NumPy), handed
to JAX for a jitted step, and read back by NumPy. Each hand-off is checked by comparing data
pointers: equal pointers mean the libraries share the memory.

float32 and PyTorch's CPU allocator matter here: XLA's CPU client copies buffers that are not
64-byte aligned (jax#29810) and converts float64 to float32 unless x64 is enabled. PyTorch
aligns its CPU allocations to 64 bytes.

Run: python examples/pipeline_torch_jax_numpy.py
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import torch

import dltensor as dt


def main() -> dict:
    batch = torch.randn(256, 64, dtype=torch.float32)
    assert batch.data_ptr() % 64 == 0, "XLA would copy an unaligned buffer"

    # PyTorch -> dltensor: DLPack's C exchange API, no capsule, no copy.
    x = dt.asarray(batch)
    assert x.data_ptr == batch.data_ptr()

    # The array API in place: centre each feature, writing into the shared buffer.
    x[...] = x - dt.mean(x, axis=0)
    assert x.data_ptr == batch.data_ptr()

    # dltensor -> JAX: a legacy capsule JAX accepts; aligned and compact, so shared.
    j = jnp.from_dlpack(x)
    assert j.unsafe_buffer_pointer() == batch.data_ptr()
    # A transpose is still a compact layout of the same buffer: shared too.
    jt = jnp.from_dlpack(x.mT)
    assert jt.unsafe_buffer_pointer() == batch.data_ptr()

    gram = jax.jit(lambda a, b: a @ b)(jt, j)   # JAX computes; its result is a new buffer

    # JAX -> NumPy: the input buffer, still the same memory; NumPy imports JAX's legacy
    # capsule read-only (numpy#28600), which suits an immutable JAX array.
    back = np.from_dlpack(j)
    assert back.ctypes.data == batch.data_ptr()
    assert not back.flags.writeable

    # The result travels back the same way: JAX -> dltensor without a copy.
    g = dt.asarray(gram)
    assert g.data_ptr == gram.unsafe_buffer_pointer()
    np.testing.assert_allclose(np.from_dlpack(g), back.T @ back, rtol=1e-4, atol=1e-3)
    np.testing.assert_allclose(back.mean(axis=0), 0.0, atol=1e-5)

    pointers = {"torch": batch.data_ptr(), "dltensor": x.data_ptr,
                "jax": j.unsafe_buffer_pointer(), "numpy": back.ctypes.data}
    for name, ptr in pointers.items():
        print(f"{name:9s} {ptr:#x}")
    print("one buffer across PyTorch, dltensor, JAX and NumPy; gram", g.shape, g.dtype)
    return pointers


if __name__ == "__main__":
    main()
