"""Placeholder: filled in by the array API work (issue 5)."""

__all__: list[str] = []
