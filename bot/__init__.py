"""Chaos Referee: a Discord bot that referees Chaos Magic."""

__version__ = "0.1.0"
