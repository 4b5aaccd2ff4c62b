"""discord.py extensions, one per slash-command group. Thin: options, permissions, rendering.

A cog declares its commands (names, options, descriptions written for players) and says which
engine action each one means; :mod:`bot.client.play` carries it out. No rule is decided here.
The bot loads them by name (``bot.client.bot.EXTENSIONS``); nothing imports a cog.
"""
