"""A fake Discord on 127.0.0.1 that the unmodified discord.py client logs into (see README.md)."""
