"""What an operator asks a running site: its health (``/health/``,
``/health/ready/``), its metrics (``/metrics``) and its request log
(docs/operations.md, "Health, metrics and logs")."""
