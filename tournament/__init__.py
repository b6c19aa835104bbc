"""Players, tournaments, rounds, tables, seating and advancement (the organizer's domain)."""
