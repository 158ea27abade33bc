"""dltensor: a lightweight array API tensor on DLPack, the currency type between array libraries.

``dltensor.asarray(x)`` takes an array from NumPy, PyTorch, JAX, CuPy, TensorFlow (bare
capsules too) or any buffer without copying; every DLPack consumer takes a dltensor array back
the same way. Compute goes to NumPy (CPU memory) or CuPy (CUDA memory); memory on any other
device is held and handed on untouched.
"""

__version__ = "0.1.0"
__array_api_version__ = "2025.12"

# (``name as name``: the form type checkers read as a re-export)
from ._devices import (
    Device as Device, get_default_device as get_default_device,
    set_default_device as set_default_device,
)
from ._dtypes import (
    DType as DType, bool as bool, int8 as int8, int16 as int16, int32 as int32,
    int64 as int64, uint8 as uint8, uint16 as uint16, uint32 as uint32, uint64 as uint64,
    float16 as float16, float32 as float32, float64 as float64, complex64 as complex64,
    complex128 as complex128, bfloat16 as bfloat16,
)
from ._array import ndarray as ndarray
from ._interop import asarray as asarray, from_dlpack as from_dlpack

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
