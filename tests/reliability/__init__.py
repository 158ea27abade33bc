"""Reliability workloads shared by the CI tests (small counts) and ``soak.py`` (full counts)."""
