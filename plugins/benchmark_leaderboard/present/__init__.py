"""Present: what every page and file shows, made from the decided Leaderboard. The page objects
(pages, model_pages), the values each template looks up (view, columns, chart, leaves, badge,
changes_page, feed), the data files as bytes (publish, downloads), and the one sound shortcut of
rendering (included). Nothing here writes a file."""
