"""discord.py extensions, one per slash-command group. Thin: options, permissions, rendering."""
