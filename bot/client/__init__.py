"""The Discord front end: the bot (:mod:`bot.client.bot`), its buttons and status board, and
the flow every command shares (:mod:`bot.client.play`).

Cogs (in ``cogs/``) declare the slash commands and say which engine action each one means;
everything they share is here. Nothing in this package decides a rule.
"""
