"""A real event on one laptop: ``make serve`` (server, scheduler, backups, HTTPS on the LAN)."""
