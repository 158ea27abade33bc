from . import Stream, ExternalStream, get_current_stream  # noqa: F401
