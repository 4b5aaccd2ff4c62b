"""/game verify: an uploaded export checked off the event loop, the verdict to the channel.

Anyone may check any log: a finished game's holds nothing secret. The work is
:class:`bot.verify.running.Verifier`'s (a worker thread, two at a time at most); this module
sizes the upload up before downloading it and words the answer. A log made to be slow (a long
game undone a few hundred times) costs up to the replay's time limit, and two such checks fill
every slot; so a member's checks count with their table checks (:mod:`bot.uploadlimits`): one
at a time, and a few in a while.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.client.embeds import text_embeds
from bot.client.interactions import reply, within_deadline
from bot.client.wording import plain
from bot.uploadlimits import UploadLimits
from bot.verify import MAX_BYTES, MismatchError, UnreadableLogError, Verdict
from bot.verify.running import Verifier


async def verify_upload(
    interaction: discord.Interaction[Any],
    verifier: Verifier,
    limits: UploadLimits,
    file: discord.Attachment,
    commitment: str | None,
) -> None:
    """Check `file` and answer: the verdict or the mismatch publicly, anything that keeps the
    file from being checked privately (as an error)."""
    if file.size > MAX_BYTES:
        raise UnreadableLogError(
            f"{file.filename} is {file.size // 1024} KB; a game's log is at most"
            f" {MAX_BYTES // 2**20} MB."
        )

    verifier.check_free()

    async def check() -> Verdict:
        async with verifier.slot():  # before the download: a busy bot holds no one's file
            data = await file.read()
            return await verifier.verify_in_slot(data, expected=commitment)

    try:
        with limits.hold(str(interaction.user.id)):
            verdict = await within_deadline(interaction, check())
    except MismatchError as error:  # a finding for the table, not the asker's mistake
        text = plain(str(error))
        await reply(
            interaction,
            embeds=text_embeds("Verification failed", text, colour=discord.Colour.red()),
        )
        return
    text = "\n\n".join(plain(line) for line in verdict.lines())
    await reply(interaction, embeds=text_embeds("Verified", text))
