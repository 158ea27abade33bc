from . import Device  # noqa: F401
