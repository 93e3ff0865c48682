{# A suite's panel (suite_panel.html) as a script that the index's tabs load when the suite is first
   shown: a same-origin script works from disk and under default-src 'self', which a fetched file
   would not from disk. Its links are written for the index. The text is JSON with <, >, & and '
   escaped, so that nothing in it can close a script element. #}
{% set html %}{% include "suite_panel.html" %}{% endset %}
(window.leaderboardPanels = window.leaderboardPanels || {})[{{ suite.anchor|tojson }}] = {{ html|tojson }};
