"""A whole tournament as one JSON document: export for archiving or moving to another server, The entry points: ``exchange.services``."""
