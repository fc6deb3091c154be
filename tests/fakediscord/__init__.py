"""A local fake Discord (REST v10 + Gateway v10) for end-to-end tests of the real discord.py client."""

from .commands import CommandRefused
from .fixtures import client_options, start_client
from .model import Attachment, Channel, Guild, Member, Message, Role, User
from .server import BotFailure, FakeDiscord, InteractionRecord, Problem

__all__ = [
    "Attachment",
    "BotFailure",
    "Channel",
    "CommandRefused",
    "FakeDiscord",
    "Guild",
    "InteractionRecord",
    "Member",
    "Message",
    "Problem",
    "Role",
    "User",
    "client_options",
    "start_client",
]
