"""The live game page: a read-only view of a game, for webcam play and spectators.

:mod:`bot.web.view` turns a game into the data a page shows (pure; hidden information never
enters it), :mod:`bot.web.links` makes and checks the capability links that open a page, and
:mod:`bot.web.server` serves the page, its view and a stream of changes with aiohttp. Off
unless ``CHAOS_WEB_PORT`` is set (see :mod:`bot.config`).
"""
