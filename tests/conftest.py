from tests.fakediscord.fixtures import bot_runner, fake_discord  # noqa: F401
