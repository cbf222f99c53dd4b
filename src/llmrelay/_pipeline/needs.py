"""What a request needs of a model (images, PDFs, reasoning), checked against the capability data before sending.

A model whose capability row says it lacks something the request needs is never called: its steps
are skipped (an `Attempt` with outcome `skipped` says why), so the plan moves to a fallback model
that has it. When no model of the plan has it, the request is refused with an
`UnsupportedFeatureError` naming the fact, before anything is sent. A fact the database leaves
unknown (None) does not stop the request: the provider decides.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .._effort import wants_reasoning
from .._envelope import Attempt
from .._types import Message
from ..capabilities import Capabilities
from ..errors import UnsupportedFeatureError
from .plan import Step

_WHY = {"vision": "an image input", "pdf_input": "a PDF input", "reasoning": "reasoning="}


def request_needs(messages: Sequence[Message], params: Mapping[str, Any]) -> list[str]:
    """The capability facts the request relies on, in a fixed order."""
    media = [part for message in messages for part in message.media]
    found = {
        "vision": any(part.kind == "image" for part in media),
        "pdf_input": any(part.kind == "document" for part in media),
        "reasoning": wants_reasoning(params),
    }
    return [fact for fact, needed in found.items() if needed]


def able_steps(
    steps: list[Step],
    messages: Sequence[Message],
    needs: list[str],
    capabilities: Callable[[str, str], Capabilities],
    trace: list[Attempt],
) -> list[Step]:
    """The steps whose model has every fact needed; each other model noted once in `trace` as skipped.

    Raises:
        UnsupportedFeatureError: no model of the plan has what the request needs.
    """
    if not needs and not any(message.media for message in messages):
        return steps
    kept: list[Step] = []
    missing_by_model: dict[tuple[str, str], list[str]] = {}
    for step in steps:
        key = (step.provider, step.model)
        if key not in missing_by_model:
            caps = capabilities(step.provider, step.model)
            missing_by_model[key] = [fact for fact in needs if getattr(caps, fact) is False]
            missing_by_model[key] += _too_large(messages, caps)
            if missing_by_model[key]:
                trace.append(Attempt(step.provider, step.model, step.mode, "skipped", _reason(missing_by_model[key])))
        if not missing_by_model[key]:
            kept.append(step)
    if kept or not steps:
        return kept
    first = steps[0]
    facts = missing_by_model[(first.provider, first.model)]
    raise UnsupportedFeatureError(
        f"{first.provider}:{first.model} {_reason(facts)} and no fallback model has it: "
        "use a model that does, add one to fallback_models, or override the capability if the data is wrong",
        feature=facts[0],
        provider=first.provider,
        model=first.model,
    )


def _too_large(messages: Sequence[Message], caps: Capabilities) -> list[str]:
    """The size facts an inline image or PDF of the request exceeds."""
    limits = {"image": ("max_image_bytes", caps.max_image_bytes), "document": ("max_pdf_bytes", caps.max_pdf_bytes)}
    over = {limits[p.kind][0] for m in messages for p in m.media if (cap := limits[p.kind][1]) and p.size > cap}
    return sorted(over)


def _reason(facts: list[str]) -> str:
    flags = [fact for fact in facts if fact in _WHY]
    sizes = [fact for fact in facts if fact not in _WHY]
    said = []
    if flags:
        said.append("cannot take " + " or ".join(_WHY[f] for f in flags) + f" (capability {', '.join(flags)}: false)")
    if sizes:
        said.append(f"takes no inline file this large (capability {', '.join(sizes)})")
    return "; ".join(said)
