"""Decide: fill each report's row (fill), rank and group the rows (rank), say how sure each rank is
(uncertainty), gather a model's rows across releases (history), compare two leaderboards
(comparison), and encode the two documents the schemas define, leaderboard.json and uncertainty.json
(document); pipeline runs read and decide once a build and returns the one immutable Leaderboard.
Nothing here words, draws or writes."""
