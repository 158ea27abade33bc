"""Fake cupy.cuda.runtime."""
import os

_events = {}


class CUDARuntimeError(RuntimeError):
    pass


def getDeviceCount():
    return int(os.environ.get("FAKE_CUPY_GPUS", "2"))


def getDevice():
    from . import _current_id
    return _current_id()


def setDevice(i):
    from . import Device
    Device(i).use()


def getDeviceProperties(i):
    return {"name": b"Fake GPU (NumPy)", "totalGlobalMem": 1 << 34}


def runtimeGetVersion():
    return 12080


def driverGetVersion():
    return 12080


class _Attributes:
    def __init__(self, type, device):
        self.type, self.device = type, device
        self.devicePointer = self.hostPointer = 0


def pointerGetAttributes(ptr):
    if not isinstance(ptr, int):
        raise TypeError("ptr must be an int")
    from .. import _owner_of
    dev = _owner_of(ptr)
    if dev is None:
        return _Attributes(0, -2)  # unregistered host memory (CUDA 11+)
    return _Attributes(2, dev)


def streamWaitEvent(stream, event, flags=0):
    from . import LOG
    if not isinstance(stream, int) or not isinstance(event, int):
        raise TypeError("streamWaitEvent takes ints")
    if event not in _events:
        raise CUDARuntimeError("cudaErrorInvalidResourceHandle")
    LOG.append(("streamWaitEvent", stream, _events[event].stream))


def streamSynchronize(stream):
    from . import LOG
    if not isinstance(stream, int):
        raise TypeError("streamSynchronize takes an int")
    LOG.append(("streamSynchronize", stream))


def deviceSynchronize():
    pass
