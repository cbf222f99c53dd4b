"""The clients' default budgets, in a module of their own.

`Client`'s signature shows them, so they load with `from llmrelay import Client`; the modules they
bound (the answer, the flow, the deadline, the adapters' streams) load only when a client is made.
"""

DEFAULT_MAX_TOOL_CALLS = 128
"""Calls kept per answer, at most, by default (`Client(max_tool_calls=)`, `parse_response(max_calls=)`):
accepted and rejected alike, whatever the format (native, envelope, text). What is over the cap
is reported by one rejection that says how many were dropped. No model writes a hundred calls
in one answer; an answer that does is hostile, and `run()` must not execute all of it."""

DEFAULT_MAX_REQUESTS = 6
"""`Client(max_requests=...)`'s default: a step and its two repairs, then one more step and its repairs."""

DEFAULT_DEADLINE = 900.0
"""Seconds one `complete()` / `stream()` / `run()` step may take, retries, repairs and fallbacks included."""

DEFAULT_MAX_STREAM_BYTES = 64 * 1024 * 1024
"""A streamed answer may be this long (64 MiB); past it, reading stops with `ResponseTooLarge`."""
