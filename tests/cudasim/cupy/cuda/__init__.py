"""Fake cupy.cuda: devices, streams and events as CuPy 14 shapes them, with no GPU behind."""
import itertools
import os
import threading

from . import runtime  # noqa: F401

_tls = threading.local()
_ids = itertools.count(0x7f0000001000, 0x100)
LOG = []  # (what, args) of every ordering call, for tests of stream handling


def _stack():
    s = getattr(_tls, "devices", None)
    if s is None:
        s = _tls.devices = []
    return s


def _current_id():
    s = _stack()
    return s[-1] if s else getattr(_tls, "device", 0)


def is_available():
    return True


class Device:
    def __init__(self, device=None):
        if device is None:
            device = _current_id()
        elif isinstance(device, Device):
            device = device.id
        if not isinstance(device, int) or isinstance(device, bool):
            raise TypeError(f"device must be an int, not {device!r}")
        if not 0 <= device < runtime.getDeviceCount():
            raise runtime.CUDARuntimeError("cudaErrorInvalidDevice: invalid device ordinal")
        self.id = device

    def __enter__(self):
        _stack().append(self.id)
        return self

    def __exit__(self, *exc):
        _stack().pop()

    def use(self):
        _tls.device = self.id

    def synchronize(self):
        LOG.append(("device.synchronize", self.id))

    def __eq__(self, other):
        return isinstance(other, Device) and other.id == self.id

    def __hash__(self):
        return hash(self.id)

    def __repr__(self):
        return f"<CUDA Device {self.id}>"


def _streams(device_id):
    """This thread's stack of current streams on a GPU (its top is the current one)."""
    if not hasattr(_tls, "streams"):
        _tls.streams = {}
    return _tls.streams.setdefault(device_id, [])


class _BaseStream:
    # device_id: the GPU a stream was made on, or -1 for the null and per-thread default
    # streams, which are each GPU's own (as CuPy's are: the current GPU's where used)
    def _device(self):
        return _current_id() if self.device_id == -1 else self.device_id

    def __enter__(self):
        if not hasattr(_tls, "entered"):
            _tls.entered = []
        _tls.entered.append(self._device())
        _streams(_tls.entered[-1]).append(self)
        return self

    def __exit__(self, *exc):
        _streams(_tls.entered.pop()).pop()

    def use(self):
        _streams(self._device())[:] = [self]
        return self

    def wait_event(self, event):
        if not isinstance(event, Event):
            raise TypeError(f"event must be an Event, not {event!r}")
        if event.stream is None:
            raise AssertionError("waiting on an event never recorded")
        LOG.append(("wait_event", self.ptr, event.stream))

    def record(self, event=None):
        event = event or Event()
        event.record(self)
        return event

    def synchronize(self):
        LOG.append(("stream.synchronize", self.ptr))

    def __cuda_stream__(self):
        return (0, self.ptr)

    def __eq__(self, other):
        return isinstance(other, _BaseStream) and other.ptr == self.ptr

    def __hash__(self):
        return hash(self.ptr)

    def __repr__(self):
        return f"<{type(self).__name__} {self.ptr:#x} (device {self.device_id})>"


class Stream(_BaseStream):
    null = None

    def __init__(self, null=False, non_blocking=False, ptds=False):
        self.device_id = -1 if null or ptds else _current_id()
        self.ptr = 0 if null else 2 if ptds else next(_ids)

    @staticmethod
    def from_external(obj):
        if not hasattr(obj, "__cuda_stream__"):
            raise TypeError(f"{obj!r} has no __cuda_stream__")
        version, ptr = obj.__cuda_stream__()
        if version != 0 or not isinstance(ptr, int):
            raise ValueError(f"bad __cuda_stream__ {version, ptr}")
        return ExternalStream(ptr)  # (its GPU unknown, as CuPy 14's: -1)


class ExternalStream(_BaseStream):
    def __init__(self, ptr, device_id=-1):
        if not isinstance(ptr, int):
            raise TypeError("ptr must be an int")
        self.ptr = ptr
        self.device_id = device_id


Stream.null = Stream(null=True)


def get_current_stream(device_id=None):
    if device_id is None:
        device_id = _current_id()
    st = _streams(device_id)
    if st:
        return st[-1]
    if os.environ.get("CUPY_CUDA_PER_THREAD_DEFAULT_STREAM") == "1":
        return Stream(ptds=True)
    return Stream(null=True)


class Event:
    def __init__(self, block=False, disable_timing=False, interprocess=False):
        self.ptr = next(_ids)
        self.stream = None
        self.device_id = _current_id()  # (CUDA makes an event on the current device)

    def record(self, stream=None):
        if stream is None:
            stream = get_current_stream()
        if not isinstance(stream, _BaseStream):
            raise TypeError(f"stream must be a Stream, not {stream!r}")
        if stream.device_id not in (-1, self.device_id):
            # (cudaEventRecord fails for an event and a stream of different devices; the
            # default streams are each device's own, and an external stream's device is not
            # known, as CuPy's from_external does not know it)
            raise runtime.CUDARuntimeError("cudaErrorInvalidResourceHandle: invalid resource "
                                           "handle")
        self.stream = stream.ptr
        LOG.append(("record", self.ptr, stream.ptr))
        runtime._events[self.ptr] = self

    def synchronize(self):
        LOG.append(("event.synchronize", self.ptr))
