"""Text for terminals: events, the status board and lists of effects, kept out of the engine.

Everything here is pure: it takes events or a state and returns strings. A Discord front end
draws embeds from the same events; this package is the plain-text counterpart.
"""

from bot.render.events import render_events, render_lines
from bot.render.ids import effect_ref, middle_ref, read_ref
from bot.render.lines import action_line, describe_action, event_line, lasts, wrap
from bot.render.names import Names
from bot.render.status import (
    chaos_lines,
    effect_lines,
    effect_section,
    fairness_lines,
    middle_lines,
    middle_section,
    offer_lines,
    pending_line,
    remaining,
    render_status,
    seat_lines,
    turn_summary,
)

__all__ = [
    "Names",
    "action_line",
    "chaos_lines",
    "describe_action",
    "effect_lines",
    "effect_ref",
    "effect_section",
    "event_line",
    "fairness_lines",
    "lasts",
    "middle_lines",
    "middle_ref",
    "middle_section",
    "offer_lines",
    "pending_line",
    "read_ref",
    "remaining",
    "render_events",
    "render_lines",
    "render_status",
    "seat_lines",
    "turn_summary",
    "wrap",
]
