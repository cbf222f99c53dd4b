"""The tool loop behind `client.run`: `loop` (steps, transcript, when to stop) and `execute` (running the calls)."""
