"""Testing helpers for apps built on llmrelay (and for llmrelay's own tests).

Needs the `testing` extra: pip install "llmrelay[testing]".
"""

from ._http import installed_stacks, mock_http

__all__ = ["installed_stacks", "mock_http"]
