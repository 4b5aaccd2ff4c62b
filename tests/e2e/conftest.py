from tests.fakediscord.plugin import fake_discord

__all__ = ["fake_discord"]
