"""`client.complete(..., output=Weather).output` is a `Weather` to mypy (strict), sync and async."""

from __future__ import annotations

from pathlib import Path

import pytest

api = pytest.importorskip("mypy.api")


def test_output_types_check() -> None:
    checked = Path(__file__).parent / "typing" / "output_types.py"
    stdout, stderr, status = api.run([str(checked), "--strict", "--no-incremental", "--python-version", "3.10"])
    assert status == 0, stdout + stderr


def test_a_wrong_type_is_caught(tmp_path: Path) -> None:
    wrong = tmp_path / "wrong.py"
    wrong.write_text(
        "import pydantic\nfrom typing_extensions import assert_type\nfrom llmrelay import Client\n"
        "class W(pydantic.BaseModel):\n    city: str\n"
        "def f(client: Client) -> None:\n    assert_type(client.complete('x', output=W).output, None)\n"
    )
    stdout, _, status = api.run([str(wrong), "--strict", "--no-incremental", "--python-version", "3.10"])
    assert status == 1 and 'Expression is of type "W", not "None"' in stdout
