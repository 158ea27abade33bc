"""Layer 1: the DLPack ABI, capsules, consuming and producing. Knows nothing of any array library."""

from .abi import *  # noqa: F401,F403
from .abi import __all__ as _abi_all
from .consume import (FIRST_PAGE, HOST_READABLE, ManagedTensor, PreDLPack1Producer, compact_strides, consume_capsule, hold_capsule, live_count,
                      own, shares_memory, request_capsule, taking_capsule, valid_bits)
from .exchange import current_stream_getter, managed_tensor_taker
from .produce import c_release_in_use, make_capsule, owning_capsule, use_c_release
from .capsule import is_capsule, capsule_name

__all__ = [*_abi_all, "FIRST_PAGE", "HOST_READABLE", "ManagedTensor", "compact_strides", "shares_memory", "consume_capsule", "hold_capsule", "live_count", "request_capsule",
           "valid_bits", "own", "taking_capsule", "managed_tensor_taker", "current_stream_getter", "make_capsule", "owning_capsule", "use_c_release", "c_release_in_use", "is_capsule",
           "capsule_name", "PreDLPack1Producer"]
