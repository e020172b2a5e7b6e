"""``/rules``: every game's rules, paged in embeds, privately unless asked to post publicly.

The text is data: each registered game's ``Game.rules`` (:mod:`games.rules_text`).
A rules message is one page (an embed) with ◀ / ▶ buttons and a section menu.
Those controls are dynamic items whose custom_id carries all their state, so
they keep working after a restart:

    dh:rules:<game>:<page>:prev|next   go to page <page> (the verb keeps the two ids apart)
    dh:rules:<game>:section            section menu; the chosen value is a section id

The words are in one language (``language``, English unless told: the reader's language is
picked by whoever calls); page numbers are those of that language's pages.

Clicks edit the message in place. On a public rules message, only the person
who posted it pages it for everyone; anyone else who clicks gets a private copy
at the page they asked for, so a post can't be paged away from under its reader.
A rules control of another game (forged onto the post) answers privately too.
"""

from __future__ import annotations

import re
from typing import Any, Self

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from bot.errors import UserError
from games import all_rules
from games.i18n import SOURCE, SlashCommand, SlashOption, say
from games.rules_text import GameRules, Page, first_page, pages, words
from games.tournament import rules_text as tournament_rules

from .common import guarded, public_language, static_view
from .control import Anywhere, Control, Place
from .language import reader_language
from .limits import CHOICE_NAME, COMMAND_CHOICES, SELECT_OPTION_TEXT, SELECT_OPTIONS, clip
from .parsing import QUOTE, chosen_value, control_template, edits_in_place, page_number, whole_number
from .translator import slash_name
from .ui import EMBED_COLOUR

# -- looking things up ------------------------------------------------------------------


def every_rules() -> dict[str, GameRules]:
    """What ``/rules`` explains, by id: every game's rules, then how tournaments run."""
    return {**all_rules(), tournament_rules.ID: tournament_rules.RULES}

LISTING = 1500
"""Characters of the games or sections a refusal lists (so it stays within Discord's 2000)."""
CHOOSE_A_SECTION = say("Choose one section from the menu.")
PREVIOUS, NEXT = say("◀ Previous"), say("Next ▶")


def _norm(text: str) -> str:
    return " ".join(text.lower().replace("_", " ").replace("-", " ").split())


def _names(rules: GameRules, language: str) -> list[str]:
    """What a game may be called: its id, its name in English and in ``language``, its aliases."""
    return [_norm(rules.id), _norm(words(rules.name)), _norm(words(rules.name, language)),
            *(_norm(a) for a in rules.aliases)]


def find_game(text: str, language: str = SOURCE) -> GameRules:
    """The game named by an id, a name (in English or ``language``) or an alias (any case);
    :class:`UserError` listing the games otherwise."""
    wanted = _norm(text or "")
    for rules in every_rules().values():
        if wanted in _names(rules, language):
            return rules
    listing = "\n".join(f"- `{r.id}`: {words(r.name, language)}" for r in every_rules().values())
    raise UserError(say("Sorry, I don't know a game called “{input}”. The games I have rules for are:\n{listing}\n"
                        "Pick one from the list that appears as you type `game:`.",
                        input=clip(str(text), QUOTE), listing=clip(listing, LISTING)))


def find_section(rules: GameRules, text: str, language: str = SOURCE) -> int:
    """The first page in ``language`` of the section named by ``text`` (its id, its title in English or
    in ``language``, any case, or a page number)."""
    wanted = _norm(text or "")
    all_pages = pages(rules, language)
    for section in rules.sections:
        if wanted in (_norm(section.id), _norm(words(section.title, language)), _norm(words(section.title))):
            return first_page(rules, section.id, language)
    try:
        return whole_number(wanted, 1, len(all_pages), "page") - 1
    except UserError:
        pass
    rules = rules.in_language(language)
    listing = "\n".join(f"- `{s.id}`: {s.title}" for s in rules.sections)
    raise UserError(say("Sorry, {game} has no section “{input}”. Its sections are:\n{listing}\n"
                        "Leave `section:` out to start at the beginning.",
                        game=rules.name, input=clip(str(text), QUOTE), listing=clip(listing, LISTING)))


def game_choices(current: str, language: str = SOURCE) -> list[app_commands.Choice[str]]:
    """Games whose id, name (in English or ``language``) or aliases contain what was typed (every game
    when nothing was), named in ``language``."""
    typed = _norm(current or "")
    found = []
    for rules in every_rules().values():
        if not typed or any(typed in n for n in _names(rules, language)):
            found.append(app_commands.Choice(name=words(rules.name, language), value=rules.id))
    return found[:COMMAND_CHOICES]


def section_choices(game: str | None, current: str, language: str = SOURCE) -> list[app_commands.Choice[str]]:
    """The chosen game's sections whose id or title contain what was typed, titled in ``language``;
    none while the game is unknown."""
    try:
        rules = find_game(game or "", language)
    except UserError:
        return []
    typed = _norm(current or "")
    titles = {section.id: words(section.title, language) for section in rules.sections}
    return [
        app_commands.Choice(name=clip(title, CHOICE_NAME), value=section_id)
        for section_id, title in titles.items()
        if not typed or typed in _norm(section_id) or typed in _norm(title)
    ][:COMMAND_CHOICES]


# -- rendering ----------------------------------------------------------------------------


def page_embed(page: Page) -> discord.Embed:
    """The page, its footer saying how to come back to it as the reader's client types it: the
    command and options in the reader's language, the section by its title there (which
    :func:`find_section` takes back)."""
    total = len(pages(page.game, page.language))
    embed = discord.Embed(title=page.title, description=page.body, colour=EMBED_COLOUR)
    command = " ".join([SlashCommand("/rules").render(page.language),
                        f"{SlashOption('game').render(page.language)}:{page.game.id}",
                        f"{SlashOption('section').render(page.language)}:{page.section.title}"])
    embed.set_footer(text=say("Page {page} of {total} · {command}", page=page.index + 1, total=total,
                              command=command).render(page.language))
    return embed


def page_view(page: Page) -> discord.ui.View:
    """◀ / ▶ (disabled at the ends) and the section menu."""
    total = len(pages(page.game, page.language))
    items: list[discord.ui.Item] = [
        PageButton.make(page.game.id, page.index - 1, "prev", disabled=page.index == 0, language=page.language),
        PageButton.make(page.game.id, page.index + 1, "next", disabled=page.index >= total - 1,
                        language=page.language),
    ]
    if len(page.game.sections) > 1:
        items.append(SectionSelect.make(page.game, page.section.id, page.language))
    return static_view(items)


def page_message(game_id: str, index: int, language: str = SOURCE) -> dict:
    """Keyword arguments to send or edit a message showing page ``index`` (clamped) of a game in ``language``."""
    all_pages = pages(_known_game(game_id), language)
    page = all_pages[max(0, min(index, len(all_pages) - 1))]
    return {"embed": page_embed(page), "view": page_view(page)}


async def page_language(interaction: discord.Interaction, public: bool) -> str:
    """The language of rules pages: the server's for a post everyone in a server sees, else the reader's."""
    return await public_language(interaction) if public and interaction.guild_id is not None \
        else reader_language(interaction)


def rules_controls(game_id: str) -> str:
    """How the custom_ids of one game's rules controls begin."""
    return f"dh:rules:{game_id}:"


def in_place(interaction: discord.Interaction, game_id: str) -> bool:
    """Whether a rules control edits the message it was clicked on: a private message, or a public
    post of this game's rules clicked by its poster (:func:`edits_in_place`)."""
    return edits_in_place(interaction, rules_controls(game_id), poster_only=True)


async def clicked_language(interaction: discord.Interaction, game_id: str) -> str:
    """The language of the page a rules control shows: its post's when its poster turns a public
    post's page in place, else the clicker's (a private message, or a private copy)."""
    message = interaction.message
    public = message is not None and not message.flags.ephemeral and in_place(interaction, game_id)
    return await page_language(interaction, public)


async def show_page(interaction: discord.Interaction, game_id: str, index: int, language: str = SOURCE) -> None:
    """Answer a click: edit the clicked message in place, or answer with a private copy."""
    if in_place(interaction, game_id):
        await interaction.response.edit_message(**page_message(game_id, index, language))
    else:
        await interaction.response.send_message(ephemeral=True, **page_message(game_id, index, language))


# -- controls -----------------------------------------------------------------------------


def _known_game(game_id: str) -> GameRules:
    rules = every_rules().get(game_id)
    if rules is None:
        raise UserError(say("Those rules aren't available any more; ask `/rules` again."))
    return rules


class RulesControl(Control):
    """The rules belong to no server: their pages turn anywhere."""

    def place(self) -> Place:
        return Anywhere()


class PageButton(
    RulesControl, discord.ui.DynamicItem[discord.ui.Button],
    template=control_template(r"dh:rules:(?P<game>[a-z0-9-]+):(?P<page>\d+):(?P<verb>prev|next)"),
):
    def __init__(self, game_id: str, page: int, verb: str, button: discord.ui.Button | None = None) -> None:
        super().__init__(button or discord.ui.Button(label=verb, custom_id=f"{rules_controls(game_id)}{page}:{verb}"))
        self.game_id, self.page = game_id, max(page, 0)

    @classmethod
    def make(cls, game_id: str, page: int, verb: str, disabled: bool, language: str = SOURCE) -> PageButton:
        label = (PREVIOUS if verb == "prev" else NEXT).render(language)
        button: discord.ui.Button = discord.ui.Button(
            label=label, style=discord.ButtonStyle.secondary, disabled=disabled, row=0,
            custom_id=f"{rules_controls(game_id)}{max(page, 0)}:{verb}")
        return cls(game_id, page, verb, button)

    @classmethod
    def parse(cls, match: re.Match[str], item: discord.ui.Item[Any] | None) -> Self:
        return cls(match["game"], page_number(match["page"]), match["verb"])

    async def run(self, interaction: discord.Interaction) -> None:
        rules = _known_game(self.game_id)
        await show_page(interaction, rules.id, self.page, await clicked_language(interaction, rules.id))


class SectionSelect(
    RulesControl, discord.ui.DynamicItem[discord.ui.Select],
    template=control_template(r"dh:rules:(?P<game>[a-z0-9-]+):section"),
):
    def __init__(self, game_id: str, select: discord.ui.Select | None = None) -> None:
        super().__init__(select or discord.ui.Select(custom_id=f"{rules_controls(game_id)}section"))
        self.game_id = game_id

    @classmethod
    def make(cls, rules: GameRules, current: str, language: str = SOURCE) -> SectionSelect:
        options = [
            discord.SelectOption(label=clip(words(section.title, language), SELECT_OPTION_TEXT), value=section.id,
                                 default=section.id == current)
            for section in rules.sections[:SELECT_OPTIONS]
        ]
        select: discord.ui.Select = discord.ui.Select(custom_id=f"{rules_controls(rules.id)}section", options=options,
                                                      placeholder=say("Jump to a section…").render(language), row=1)
        return cls(rules.id, select)

    @classmethod
    def parse(cls, match: re.Match[str], item: discord.ui.Item[Any] | None) -> Self:
        return cls(match["game"])

    async def run(self, interaction: discord.Interaction) -> None:
        rules = _known_game(self.game_id)
        section = chosen_value(interaction, CHOOSE_A_SECTION)
        if rules.section(section) is None:
            raise UserError(CHOOSE_A_SECTION)
        language = await clicked_language(interaction, rules.id)
        await show_page(interaction, rules.id, first_page(rules, section, language), language)


# -- the command --------------------------------------------------------------------------


class RulesCog(commands.Cog):
    """``/rules game:<game> [section] [public]``."""

    @app_commands.command(name=slash_name("rules"),
                          description=locale_str("The rules of a Deckhand game, with its table options"))
    @app_commands.rename(game=slash_name("game"), section=slash_name("section"), public=slash_name("public"))
    @app_commands.describe(
        game=locale_str("Which game"),
        section=locale_str("Open at this section (default: the beginning)"),
        public=locale_str("Post the rules in the channel for everyone (default: only you see them)"),
    )
    @guarded
    async def rules(self, interaction: discord.Interaction, game: str, section: str | None = None,
                    public: bool = False) -> None:
        language = await page_language(interaction, public)
        rules = find_game(game, language)
        index = 0 if section is None or not section.strip() else find_section(rules, section, language)
        await interaction.response.send_message(ephemeral=not public, **page_message(rules.id, index, language))

    @rules.autocomplete("game")
    async def game_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return game_choices(current, reader_language(interaction))

    @rules.autocomplete("section")
    async def section_autocomplete(self, interaction: discord.Interaction,
                                   current: str) -> list[app_commands.Choice[str]]:
        return section_choices(getattr(interaction.namespace, "game", None), current, reader_language(interaction))
