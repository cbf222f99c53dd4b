"""What each model can do: the shipped database, config overrides, and what was learned at runtime.

```python
from llmrelay.capabilities import CapabilityLearner, classify_rejection, lookup, modes

caps = lookup("groq", "llama-3.3-70b-versatile")
modes(caps)                     # ('native_tools', 'json_object', 'text')
caps.sources["json_schema"]     # "models.toml: groq '*'"

learner = CapabilityLearner()
if (feature := classify_rejection(400, error_message)) is not None:
    learner.record_rejection("groq", "llama-3.3-70b-versatile", feature, error_message)
caps = learner.apply("groq", "llama-3.3-70b-versatile", caps)
```

Importing this package reads nothing: `models.toml` is parsed on the first `lookup()`.
"""

from .._envelope import Mode
from ._capabilities import Capabilities, Feature, modes
from ._learner import CapabilityLearner
from ._lookup import lookup, specificity
from ._rejections import classify_rejection

__all__ = [
    "Capabilities",
    "CapabilityLearner",
    "Feature",
    "Mode",
    "classify_rejection",
    "lookup",
    "modes",
    "specificity",
]
