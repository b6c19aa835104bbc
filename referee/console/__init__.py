"""The banker's console: its views (``views``), the picture of a table it shows (``picture``)
and the engine's answer before a banker confirms (``dry_run``)."""
