"""Every exception llmrelay raises, in one tree.

```
LLMRelayError
├── ConfigError                fixable in code or config (a bad tool, an unknown provider)
└── NormalizationError         nothing usable could be read from the answer
```

The normalizer itself never raises on text: what it cannot read is reported on the result.
"""

from __future__ import annotations


class LLMRelayError(Exception):
    """Base class of every llmrelay error."""


class ConfigError(LLMRelayError):
    """Something in the code or configuration must change: a bad tool definition, say."""


class NormalizationError(LLMRelayError):
    """Nothing usable could be read from the model's answer."""
