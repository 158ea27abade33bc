"""dltensor's benchmarks: hand-off latency, memory, and array API call overhead against peers.

Run them all with ``python -m benchmarks`` (``--quick`` for a fast pass); see run.py.
"""
