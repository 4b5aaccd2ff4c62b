"""Text for terminals: events, the status board and lists of effects, kept out of the engine.

Everything here is pure: it takes events or a state and returns strings. A Discord front end
draws embeds from the same events; this package is the plain-text counterpart.
"""

from bot.render.events import render_events, render_lines
from bot.render.lines import action_line, describe_action, event_line, lasts, wrap
from bot.render.names import Names
from bot.render.status import effect_lines, middle_lines, remaining, render_status

__all__ = [
    "Names",
    "action_line",
    "describe_action",
    "effect_lines",
    "event_line",
    "lasts",
    "middle_lines",
    "remaining",
    "render_events",
    "render_lines",
    "render_status",
    "wrap",
]
