"""Slash commands as a client in one language shows them, read from what Discord was given
(the sync's PUT body: every name with its ``name_localizations``), for tests that check a
text names commands the way its reader's client does: ``/q2j start variant:Classic`` is
``/q2j démarrer variante:Classic`` for a French client."""

from __future__ import annotations

import re
from collections.abc import Iterator

SYNC = r"^/applications/\d+/commands$"
"""The path of the global sync (``PUT``), whose body is every command."""
SUBCOMMANDS = {1, 2}
"""Option types that are a command's words (SUB_COMMAND, SUB_COMMAND_GROUP), not options."""
NEXT_OPTION = re.compile(r" (?=[\w-]+:)")


def shown_name(item: dict, language: str) -> str:
    """A command's, option's or choice's name as a client in ``language`` shows it."""
    return (item.get("name_localizations") or {}).get(language, item["name"])


def _children(node: dict, subcommands: bool) -> dict[str, dict]:
    """A command's subcommands (and groups), or its options, by English name."""
    return {item["name"]: item for item in node.get("options") or []
            if (item.get("type", 1) in SUBCOMMANDS) == subcommands}


def _child(node: dict, name: str, subcommand: bool) -> dict:
    found = _children(node, subcommand).get(name)
    assert found, f"no {'command' if subcommand else 'option'} {name!r} in {node.get('name', '/')}"
    return found


def _everything(items: list[dict]) -> Iterator[dict]:
    """Every command, group, subcommand and option of a tree."""
    for item in items:
        yield item
        if item.get("type", 1) in SUBCOMMANDS:
            yield from _everything(item.get("options") or [])


def typed_command(commands: list[dict], typed: str) -> tuple[list[dict], str]:
    """The command, groups and subcommand ``typed`` (``/q2j start variant:Classic``) names, and what follows them."""
    node, path = {"options": commands}, []
    parts = typed.removeprefix("/").split(" ")
    while parts and (not path or parts[0] in _children(node, subcommands=True)):
        node = _child(node, parts.pop(0), subcommand=True)
        path.append(node)
    return path, " ".join(parts)


def shown_option(option: dict, typed: str, language: str) -> str:
    """``name:value`` typed for ``option`` as the client shows it: a choice by its whole name, or by
    its name before a bracketed gloss as texts shorten it (``variant:Classic``), the same part of
    its translation; any other value as typed (numbers, ``True``, what autocomplete takes)."""
    name, colon, value = typed.partition(":")
    choices = option.get("choices") or []
    for choice in choices:
        for english, shown in ((choice["name"], shown_name(choice, language)),
                               (choice["name"].split(" (")[0], shown_name(choice, language).split(" (")[0])):
            if value == english:
                return f"{shown_name(option, language)}:{shown}"
    assert not (choices and value), f"{value!r} is none of {option['name']}'s choices"
    return shown_name(option, language) + colon + value


def as_shown(span: str, commands: list[dict], language: str) -> str:
    """A code span written in English as a client in ``language`` shows it (``/q2j start
    variant:Classic`` is ``/q2j démarrer variante:Classic`` in French); English as it is. A span
    without a slash is one name, named alike wherever the tree has it: an option (``timer:0``)
    or, without a colon, a subcommand too (``start``)."""
    typed = span.strip("`")
    if typed.startswith("/"):
        path, rest = typed_command(commands, typed)
        shown = ["/" + " ".join(shown_name(item, language) for item in path)]
        shown += [shown_option(_child(path[-1], part.partition(":")[0], subcommand=False), part, language)
                  for part in NEXT_OPTION.split(rest) if part]
        return f"`{' '.join(shown)}`"
    name = typed.partition(":")[0]
    same_name = {shown_option(item, typed, language) for item in _everything(commands)
                 if item["name"] == name and (":" not in typed or item.get("type", 1) not in SUBCOMMANDS)}
    assert len(same_name) == 1, f"{span}: {sorted(same_name) or 'no such command or option'}"
    return f"`{same_name.pop()}`"
