"""Present: what every page and file shows, made from the decided Leaderboard. The page objects
(pages, model_pages), the values each template looks up (report_details, board_view, columns, chart,
history, leaves, badge, changes_page, feed), the scripts' data and the CSVs as bytes (publish,
downloads), and the one sound shortcut of rendering (included). Nothing here writes a file."""
