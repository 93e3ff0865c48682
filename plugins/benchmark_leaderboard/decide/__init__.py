"""Decide: fill each report's row (fill), rank and group the rows (rank), say how sure each rank is
(uncertainty), follow a model across releases (history), compare two leaderboards (comparison), and
the document leaderboard.json is (document); pipeline runs read and decide once a build and returns
the one immutable Leaderboard. Nothing here shows, publishes or writes."""
