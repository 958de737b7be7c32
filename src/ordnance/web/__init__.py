"""The table in the browser: an ASGI app over the game service (``ordnance serve``).

A face, like ``cli/``: it parses what the browser or an API client sends, calls the game
service, and renders what the service and the rulesets answer. No rule is decided here.

- :mod:`.table`: the service shared by every request (one lock), the AI's turns, the news feed
  that server-sent events read.
- :mod:`.security`: side cookies, CSRF tokens, upload limits.
- :mod:`.pages` (HTML) and :mod:`.api` (JSON, described by the app's OpenAPI document).
- :mod:`.charts`: the odds bar chart and dice faces, SVG written here.
"""
