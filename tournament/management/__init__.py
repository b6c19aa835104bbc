"""Management commands of the organizer's domain."""
