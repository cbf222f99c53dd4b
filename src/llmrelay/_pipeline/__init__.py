"""The pipeline behind `Client`: plan → flow (repair, fallback) → retry → adapter → respond.

`setup.Pipeline` reads a client's arguments and builds each request's flow; `drive` makes the
flow's calls; `flow` decides repairs and fallbacks and keeps the trace; `plan`, `retry`,
`repair`, `respond`, `output` and `stream` are its parts (see docs/architecture.md). Nothing
here imports the clients (`_client.py`): they import the pipeline.
"""
