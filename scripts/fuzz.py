"""Run the property tests for longer than CI does: `python scripts/fuzz.py --seconds 600`.

The properties are the hypothesis tests of the suite (`-m hypothesis`): tests/fuzz (cassette
reader, config loading, message conversion, damaged JSON and answers) and tests/normalize (the
normalizer and the lenient JSON loader). CI runs them under the "ci" profile (100 examples each);
here they run under the "fuzz" profile of tests/conftest.py, `--examples` each, round after round
with a new seed, until the time is up. A round still running at the deadline is stopped.
Tests that pin their own `max_examples` keep it, but see new examples each round.

A failure stops the run and is printed with its seed and the `@reproduce_failure` blob; the
example is also saved in `.hypothesis/`, so the next plain `pytest` run replays it first.

Usage:
    python scripts/fuzz.py --seconds 600 [--examples 5000] [--seed N] [-- extra pytest arguments]
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGETS = ["tests/fuzz", "tests/normalize"]


def main(argv: list[str] | None = None) -> int:
    """Run rounds until the budget is spent; the exit status is pytest's on a failure, else 0."""
    parser = argparse.ArgumentParser(description="Run the property tests with a time budget.")
    parser.add_argument("--seconds", type=float, default=600.0, help="time budget for the whole run")
    parser.add_argument("--examples", type=int, default=5000, help="examples per property in each round")
    parser.add_argument("--seed", type=int, default=None, help="the first round's seed (default: random)")
    parser.add_argument("pytest_args", nargs="*", help="passed to pytest (after --)")
    options = parser.parse_args(argv)

    deadline = time.monotonic() + options.seconds
    seeds = random.Random(options.seed)
    environment = {**os.environ, "HYPOTHESIS_PROFILE": "fuzz", "LLMRELAY_FUZZ_EXAMPLES": str(options.examples)}
    rounds = 0
    while (left := deadline - time.monotonic()) > 1:
        seed = options.seed if rounds == 0 and options.seed is not None else seeds.randrange(2**32)
        command = [sys.executable, "-m", "pytest", *TARGETS, "-m", "hypothesis", "-q", "-x", "-p", "no:randomly"]
        command += [f"--hypothesis-seed={seed}", *options.pytest_args]
        print(f"round {rounds + 1}: seed {seed}, {left:.0f} s left", flush=True)
        try:
            finished = subprocess.run(command, cwd=ROOT, env=environment, timeout=left, check=False)
        except subprocess.TimeoutExpired:
            print("time is up: the last round was stopped", flush=True)
            break
        if finished.returncode != 0:
            print(f"round {rounds + 1} failed (seed {seed}): the failing example is above", flush=True)
            return finished.returncode
        rounds += 1
    print(f"{rounds} complete round(s), no failure", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
