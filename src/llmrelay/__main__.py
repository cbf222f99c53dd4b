"""`python -m llmrelay`: the same as the `llmrelay` command."""

from ._cli import main

raise SystemExit(main())
