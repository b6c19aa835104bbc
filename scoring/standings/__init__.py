"""Standings: the pure computation (``compute``), the stored rows and their recompute
(``services``), and the reads of them (``selectors``)."""
