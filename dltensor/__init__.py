"""dltensor: a lightweight array API tensor on DLPack, the currency type between array libraries.

``dltensor.asarray(x)`` takes an array from NumPy, PyTorch, JAX, CuPy, TensorFlow (bare
capsules too) or any buffer without copying; every DLPack consumer takes a dltensor array back
the same way. Compute goes to NumPy (CPU memory) or CuPy (CUDA memory); memory on any other
device is held and handed on untouched.
"""

__version__ = "0.1.0"
__array_api_version__ = "2025.12"

from ._devices import Device, get_default_device, set_default_device
from ._dtypes import (
    DType, bool, int8, int16, int32, int64, uint8, uint16, uint32, uint64,
    float16, float32, float64, complex64, complex128, bfloat16,
)
from ._array import ndarray
from ._interop import asarray, from_dlpack

from ._constants import *  # noqa: E402,F401,F403
from ._creation import *  # noqa: F401,F403
from ._dtype_functions import *  # noqa: F401,F403
from ._elementwise import *  # noqa: F401,F403
from ._indexing import *  # noqa: F401,F403
from ._linalg_functions import *  # noqa: F401,F403
from ._manipulation import *  # noqa: F401,F403
from ._searching import *  # noqa: F401,F403
from ._set import *  # noqa: F401,F403
from ._sorting import *  # noqa: F401,F403
from ._statistical import *  # noqa: F401,F403
from ._utility import *  # noqa: F401,F403
from ._info import *  # noqa: F401,F403
from . import fft, linalg  # noqa: F401

Array = ndarray  # the name the array API standard uses for the array type
