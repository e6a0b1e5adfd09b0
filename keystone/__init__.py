"""Keystone: North America, as a Discord bot and a pure game engine."""
