"""Net worth, placements, standings, the public leaderboard and printed sheets."""
