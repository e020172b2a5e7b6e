"""``/rules``: the rules text (complete, every ruling of RULINGS.md, every table option, pages
within Discord's limits; complete in every language with a catalog, English unchanged, commands
named as each reader's client shows them) and the command through Discord (ephemeral or public, sections,
paging in place, autocomplete, polite refusals)."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import discord
import pytest

import games
from cogs import rules as rules_cog
from cogs.looks import load_game_uis
from cogs.start_commands import start_group
from games import all_rules
from games.i18n import LANGUAGES, SOURCE, Text, catalog, say
from games.q2j import compare
from games.rules_text import PAGE_LIMIT, SECTION_ID, split_body, words
from games.rules_text import markdown as rules_markdown
from games.rules_text import pages as rules_pages

ROOT = Path(__file__).resolve().parent.parent
REQUIRED_SECTIONS = {"overview", "setup", "turn", "winning", "options", "deckhand"}
CARD_CODE = re.compile(r"(?<![\w/])(?:10|[2-9AJQK])[SHDC](?![\w])|\bJK\b")
EXAMPLE = re.compile(r"^- (\S+) (?:on|against) (\S+): \*\*(stronger|weaker|equal)\*\*", re.M)
VERDICT = {"stronger": 1, "weaker": -1, "equal": 0}


def pages(game_id: str):
    return rules_pages(all_rules()[game_id])


DOCUMENTED = re.compile(r"^`/rules game:([\w-]+)`$", re.M)


def documented() -> list[str]:
    """The ids of the games docs/rules.md holds, in its order."""
    return DOCUMENTED.findall((ROOT / "docs" / "rules.md").read_text(encoding="utf-8"))


def english(game_id: str):
    """A game's rules with their words in English (the text itself)."""
    return all_rules()[game_id].in_language()


def text_of(game_id: str) -> str:
    """A game's whole rules text, markdown emphasis removed, for looking facts up."""
    rules = english(game_id)
    return "\n".join(f"{s.title}\n{s.body}" for s in rules.sections).replace("*", "")


def section_text(game_id: str, section_id: str) -> str:
    return english(game_id).section(section_id).body.replace("*", "")


# ---------------------------------------------------------------------------------- the text


def test_every_game_has_rules_with_the_core_sections():
    assert tuple(all_rules()) == games.GAME_IDS
    for game_id in all_rules():
        rules = english(game_id)
        ids = [s.id for s in rules.sections]
        assert REQUIRED_SECTIONS <= set(ids), (game_id, REQUIRED_SECTIONS - set(ids))
        assert ids[0] == "overview" and len(set(ids)) == len(ids)
        assert len({s.title for s in rules.sections}) == len(ids)
        assert all(SECTION_ID.fullmatch(i) for i in ids), ids
        assert len(rules.sections) <= 25  # one select menu holds them all
        for section in rules.sections:
            assert section.body.strip() and section.title.strip()


def test_cards_are_written_in_display_form():
    for game_id in all_rules():
        found = CARD_CODE.findall(text_of(game_id))
        assert not found, f"{game_id} uses card codes instead of display form: {found}"
    assert "Q♥" in text_of("q2j") and "🃏" in text_of("queen-of-spades")


def test_every_page_fits_a_discord_embed():
    for game_id in all_rules():
        all_pages = pages(game_id)
        assert [p.index for p in all_pages] == list(range(len(all_pages)))
        for page in all_pages:
            embed = rules_cog.page_embed(page)
            assert len(embed.title) <= 256
            assert len(embed.description) <= PAGE_LIMIT <= 4096
            assert len(embed.footer.text) <= 2048
            assert len(embed) <= 5000  # Discord allows 6000 in all
            view = rules_cog.page_view(page)
            assert len(view.children) <= 25
            for item in view.children:
                assert len(item.custom_id) <= 100
                for option in getattr(item, "options", []):
                    assert len(option.label) <= 100 and len(option.value) <= 100
        # Every section starts on a page of its own, in order.
        assert [p.section.id for p in all_pages if p.part == 1] == [s.id for s in all_rules()[game_id].sections]


def test_long_sections_are_split_between_paragraphs_into_even_pages():
    paragraphs = [f"Paragraph {n}: " + " ".join(["word"] * (40 + 5 * n)) for n in range(40)]
    body = "\n\n".join(paragraphs)
    parts = split_body(body, limit=1500)
    assert len(parts) > 1 and all(len(p) <= 1500 for p in parts)
    assert "\n\n".join(parts) == body  # nothing lost, nothing cut inside a paragraph
    assert min(map(len, parts)) > 400  # no stub of a last page
    # A paragraph longer than a page is cut at lines, then between words.
    huge = "\n".join(" ".join(["longword"] * 30) for _ in range(40))
    parts = split_body(huge, limit=1000)
    assert all(len(p) <= 1000 for p in parts)
    assert " ".join(" ".join(parts).split()) == " ".join(huge.split())
    assert split_body("short") == ["short"]


def test_the_markdown_copy_is_up_to_date():
    """docs/rules.md is ``python -m games.rules_text``; regenerate it after editing the text. Each
    game it holds (and the tournaments') must read as its rules do now, in the registry's order; a game it doesn't hold
    yet (a new one, until its author regenerates the file) fails nothing."""
    ids = documented()
    assert set(ids) <= set(rules_cog.every_rules()), "docs/rules.md holds a game nobody registered"
    in_order = [rules for game_id, rules in rules_cog.every_rules().items() if game_id in ids]
    assert (ROOT / "docs" / "rules.md").read_text(encoding="utf-8") == rules_markdown(in_order)


def code(shown: str) -> str:
    """A card as the rules show it (``4♣``) as its code (``4C``)."""
    return shown.replace("♠", "S").replace("♥", "H").replace("♦", "D").replace("♣", "C")


def test_concept_examples_agree_with_the_engine():
    checked = 0
    for game_id in ("q2j", "war", "ng"):
        body = "\n".join(s.body for s in english(game_id).sections)
        for a, b, verdict in EXAMPLE.findall(body):
            assert compare(code(a), code(b)) == VERDICT[verdict], f"{game_id}: {a} against {b} is not {verdict}"
            checked += 1
    assert checked >= 20
    # The examples RULINGS §1 gives are all there.
    concept = english("q2j").section("concept").body
    for line in ("4♣ on J♣: **stronger**", "J♥ on 4♣: **stronger**", "A♠ on Q♣: **stronger**",
                 "K♦ on A♥: **weaker**", "7♠ on 7♥: **equal**"):
        assert line in concept


# Distinctive facts from every section of RULINGS.md, looked up in the game's text.
RULINGS_FACTS = {
    "q2j": [
        # §1 the concept
        "A=1", "K=13", "Same rank: the two cards are equally strong",
        "An ace against a face card (J, Q or K): the ace is stronger",
        "Same suit: the lower rank is stronger", "Different suits: the higher rank is stronger",
        "Strength always works both ways",
        # §2 the game
        "2 to 10 players", "fifth card is dealt face up", "K high, A low",
        "compare the first card they were dealt; if still tied, the second", "coin toss",
        "Its top card is turned over to start the discard pile",
        "you then draw one card as a penalty", "Drawing is always allowed, even when you could play",
        "it ends your turn",
        "play both at once as one play", "any top card except a jack or another Q² pair",
        "A single queen on top is fine", "ignores strength and never costs a penalty",
        "play a jack (a Joe) of any suit", "Drawing passes the duty to the next player",
        "The first jack played ends the duty", "normal play resumes with the player after",
        "any single card on the queens (no strength check, no penalty)",
        "the duty goes round the table again",
        "every card of the discard pile except its top card is shuffled",
        "both queens stay on the pile", "the draw is skipped, the turn passes, and the table is told",
        "the first player to empty their hand wins",
        "Single game (default)", "Elimination match",
        "that player is eliminated from the match", "until one player is left, who wins the match",
        "Classic: the original, simpler game", "only the concept applies", "there is no jack duty",
        "every hand is shown face up on the public table message",
        "for exactly two players", "dealt a single card, the other the usual five",
        "default: random, seeded",
        "a hand of 4, then 3, then 2, then 1", "empty their one-card hand wins",
        # the engine's rulings (games/q2j/__init__.py, docs/decisions.md)
        "A penalty card can always be found", "the next player still in the game gets that free choice",
        "every new game starts again with hands of 5", "the new hand holds what could be drawn",
        "can only draw until they hold cards again", "the coin decides who starts",
        "the first game settles the match", "reverse order of elimination",
        "ranked by how many cards they still had to shed",
        # options
        "`variant:`", "`match:`", "`short_hand:`", "`timer:`", "0 turns the timer off",
        "Choosing a seat with another variant is refused",
    ],
    "war": [
        "2 to 4 players", "26 and 26", "18, 17 and 17", "13 each", "the 18th card going to the player on the dealer's left",
        "top five cards", "untapped", "A field never holds more than five cards",
        "with three players, the one who got the extra card", "first card each player turned up",
        "K high, A low", "coin toss",
        "You can't pass", "Tap (turn sideways) one of your untapped field cards",
        "any card in any opponent's field, tapped or untapped", "the target goes to the discard pile",
        "Attacking with a weaker card is allowed", "both cards go to the discard pile",
        "Recover. Untap one of your tapped cards", "Put the top card of your deck into your field, untapped",
        "fewer than five cards and your deck isn't empty", "your turn is skipped and the table is told",
        "field and their deck are both empty", "as soon as their field is empty",
        "The last player with cards wins", "nobody wins", "share their place",
        "More than four isn't offered", "No anti-stall rule is needed", "close up",
        "`loss:`", "Out when field and deck are empty (default",
        "Out as soon as the field is empty",
    ],
    "ng": [
        "2 to 4 players", "5 cards to each player's hand", "5 face-down cards to each player's field",
        "five stacks of one card", "1 face-up card to each player's resource pile", "shared face-down deck",
        "Draw: take the top card of the shared deck", "Not possible once the deck is empty",
        "Pick: take any card of your own resource pile", "Defend: put a card from your hand face up on top of any stack",
        "Sacrifice: take the top card of one of your own stacks", "Attack: attack one target",
        "the top card of any stack, in your own field or an opponent's",
        "A face-down card is turned face up to compare, and stays face up",
        "chosen blind by its position", "it is revealed", "the top card of any resource pile, your own included",
        "the target goes to the discard pile, and your card goes on top of your resource pile",
        "your card goes to the discard pile and the target stays", "equal: both go to the discard pile",
        "A player whose field is empty is eliminated", "Their hand and resource pile go face up to the discard pile",
        "last player standing wins", "40 turns", "most field cards win together", "a tie is a shared win",
        "every card is public", "the whole deck in order",
        "gone for good", "hidden from everyone, its owner included", "Hand positions carry no information",
        "`faceup:`", "False (default)",
    ],
    "queen-of-spades": [
        "2 to 8 players", "two jokers each", "2 decks (108 cards) for 2 to 6 players", "3 decks (162 cards) for 7 or 8",
        "duplicates", "the deal then moves one seat on each round", "The player after the dealer starts",
        "a number from 1 to the size of the deck", "within ±4 cards", "equally likely",
        "13 × players", "13 × players + 1", "the dealer scores a 100 bonus",
        "The deal uses the cut packet first", "tops it up from the rest",
        "The next card is turned face up to start the discard pile",
        "If the dealer doesn't cut in time, Deckhand deals without a cut, and there is no bonus",
        "Take one card", "the top card of the draw pile",
        "only when it is the only card in the discard pile", "at once in a new natural set (no wild 2)",
        "at least two matching cards from your hand", "The rest of the discard pile then goes into your hand",
        "can't simply be added to a set you have already laid", "it merges with your earlier set of the same rank",
        "Discard exactly one card", "The discard ends your turn",
        "three or more cards of the same rank", "2s are wild", "at most one wild",
        "two 2s and one other card make no set", "natural set of 2s", "Jokers are not wild",
        "A set of jokers may take one wild 2", "add a wild 2 to any of your sets that doesn't have one yet",
        "You only ever lay and extend your own sets",
        "discarding your last card ends the round at once, and you score a 100 bonus",
        "you can't lay your last card", "nobody gets the going-out bonus",
        "Q♠, the queen of spades: 100", "🃏 joker: 50", "2 (wild or not): 20", "ace: 15",
        "10, J, Q, K (other queens): 10", "3 to 9: 5", "It can be negative",
        "Laid total: 190", "= 120", "+70",
        "Target score (default 1000)", "Target 0 means an endless match", "Rounds (default 0 = no limit)",
        "the highest total wins", "`target:`", "`rounds:`",
        # the engine's rulings
        "one set per rank", "Deckhand always puts Q♠ down first", "the whole discard pile", "unless the draw pile ran out on that same turn", "not even a player whose discard was their last card", "only the counts that are a possible cut", "after 10 turns in a row in which nobody drew from the draw pile", "equal totals share the win",
    ],
    "quash": [
        "2 players", "4 players in two teams", "Triple spots 1, 4, 7", "Double spots 2, 5, 8", "Single spots 3, 6, 9",
        "18 cards", "spots 1–3, 4–6 and 7–9", "Ranks go 2 3 4 5 6 7 8 9 10 J Q K A", "The ace is only high",
        "A 2 and K A 2 are not", "the highest rank deals", "players who tie for highest cut again", "with two players it alternates",
        "13 cards to each player", "the other 26 form the face-down draw pile", "The non-dealer plays first",
        "place one card from your hand face up on any open slot of your side, then draw one card",
        "Failed sequence", "you may put any card on any open slot", "both sides are full",
        "Each player then has 8 cards left in hand", "tiebreakers",
        "RED (seats 1 and 3) against BLACK (seats 2 and 4)", "the match is a draw", "13 each; there is no draw pile", "dealer's left",
        "each player has 4 cards left", "pools its 8", "The team's first seat chooses the team's tiebreak card",
        "in order from 1 to 9", "the higher rank wins the spot and 1 point", "the higher top card wins",
        "same-suit run beats a mixed one", "plus 1 bonus point", "each side scores 1", "nobody wins the spot",
        "all three spots of a section scores 2 more points", "credited right after that section's third spot",
        "secretly choose", "Equal ranks: both choose again", "gone for the rest of the round",
        "If one side has no leftover cards left, the other side wins the spot; if neither has any, nobody wins it",
        "finish (30 by default) wins at once, even in the middle of scoring",
        "6 cards are set aside face down", "23 each", "Swap chains", "occupied slot",
        "as long as the board allows", "each card moves at most once a turn", "never goes back to your hand", "take the whole chain back", "Switch side",
        "able to become a run", "Single spots take anything", "not onto a triple spot holding 10 J",
        "`finish:`", "`advanced:`", "default 30",
    ],
}


@pytest.mark.parametrize("game_id", list(RULINGS_FACTS))
def test_every_ruling_is_in_the_text(game_id):
    text = text_of(game_id)
    missing = [fact for fact in RULINGS_FACTS[game_id] if fact.replace("*", "") not in text]
    assert not missing, f"{game_id} rules lack: {missing}"


def test_the_brief_distinctive_facts():
    everything = "\n".join(text_of(g) for g in all_rules())
    for fact in ("±4", "13 × players", "two 2s", "Q²", "40 turns", "ace is only high", "+70"):
        assert fact in everything, fact


def test_worked_examples_agree_with_the_engines():
    import games.queen_of_spades as qos
    from games.queen_of_spades import rules_text as text

    laid = [list(s) for s in text.EXAMPLE_LAID]
    assert qos.round_score(laid, list(text.EXAMPLE_HAND)) == text.EXAMPLE_SCORE
    points = {"QS": 100, "JK": 50, "2H": 20, "AS": 15, "10D": 10, "QH": 10, "KC": 10, "3S": 5, "9D": 5}
    assert {c: qos.card_points(c) for c in points} == points


def test_quash_spot_examples_agree_with_the_engine():
    import games.quash as quash
    from games.quash.rules_text import SPOT_EXAMPLES

    for spot, ours, theirs, expected, why in SPOT_EXAMPLES:
        assert quash.score_spot(ours, theirs) == expected, (spot, ours, theirs, why)
    # The advanced-play examples: a 6 can't join 10 J; on a double 10 J the 10 may become a Q, not a 9.
    assert not quash.can_become_run(["10H", "JC", "6C"], 3)
    assert quash.can_become_run(["QH", "JC"], 2) and not quash.can_become_run(["9H", "JC"], 2)
    assert quash.can_become_run(["QS", "KH"], 2) and quash.is_run(["7D", "8D", "9D"])
    assert quash.is_run(["QS", "KH", "AD"]) and not quash.is_run(["KS", "AH", "2D"]) and not quash.is_run(["AS", "2H"])


def _start_commands() -> dict[str, discord.app_commands.Command]:
    """``game id -> its /<group> start command``, for every registered game."""
    return {ui.game.id: start_group(ui.game, ui.start_text()).get_command("start") for ui in load_game_uis()}


def test_every_table_option_is_documented_with_its_command():
    commands = _start_commands()
    assert {"q2j", "war", "ng"} <= set(commands)
    for game_id, command in commands.items():
        rules = all_rules()[game_id]
        assert rules.command == f"/{command.qualified_name}", (game_id, rules.command)
        options = section_text(game_id, "options")
        assert rules.command in options
        for parameter in command.parameters:
            assert f"`{parameter.name}:`" in options, (game_id, parameter.name)
            for choice in parameter.choices:
                assert choice.name.split(" (")[0] in options, (game_id, parameter.name, choice.name)


@pytest.mark.parametrize("game_id", games.GAME_IDS)
def test_every_engine_option_and_default_is_documented(game_id):
    game = games.get_game(game_id)
    options = section_text(game_id, "options")
    shown = {(bool, False): "False (default)", (bool, True): "True (default)", (str, "random"): "Random (default",
             (str, "standard"): "Standard (default)", (str, "single"): "Single game (default)",
             (str, "no-cards"): "field and deck are empty (default"}
    for spec in game.options:
        assert f"`{spec.name}:`" in options, (game_id, spec.name)
        default = shown.get((type(spec.default), spec.default), f"default {spec.default}")
        assert default in options, (game_id, spec.name, spec.default)


# ---------------------------------------------------------------------------------- in other languages

TRANSLATED = LANGUAGES[1:]
"""Every language with a catalog: the rules must read completely in each."""
PLACEHOLDER = re.compile(r"\{\w+\}")
CODE_SPAN = re.compile(r"`[^`]*`")
SHOWN_CARD = re.compile(r"(?<![\w-])(10|[2-9AJQKVDR])([♠♥♦♣])")
FRENCH_EXAMPLE = re.compile(
    r"^- (\S+) (?:sur|contre) (\S+)\u00a0: \*\*(plus forte|plus faible|égale)\*\*", re.M)
FRENCH_VERDICT = {"plus forte": 1, "plus faible": -1, "égale": 0}
FRENCH_RANKS = {"V": "J", "D": "Q", "R": "K"}


def texts(value):
    """Every :class:`Text` in a rules value, nested ones included."""
    if isinstance(value, Text):
        yield value
        for arg in value.args.values():
            yield from texts(arg)


def shown(rules, language: str = SOURCE) -> list[tuple[str, str, str]]:
    """A game's sections as ``(id, title, body)``, their words in ``language``."""
    return [(s.id, words(s.title, language), words(s.body, language)) for s in rules.sections]


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_game_reads_completely_in_every_language(language):
    """Every translatable string of the rules has its translation (a game's name may stay as it is),
    every placeholder is filled, and no section reads as in English."""
    messages = catalog(language)
    for game_id, rules in all_rules().items():
        names = {words(rules.name)}
        for section in rules.sections:
            for text in (*texts(section.title), *texts(section.body)):
                if not PLACEHOLDER.sub("", text.source).strip():
                    continue  # only placeholders (``joined``): nothing of its own to translate
                translated = messages.gettext(text.source)
                assert translated != text.source or text.source in names, \
                    f"{language}: {game_id}/{section.id} lacks {text.source[:80]!r}"
        sections = shown(rules, language)
        for (section_id, english_title, english_body), (_, title, body) in zip(shown(rules), sections):
            where = f"{language}: {game_id}/{section_id}"
            assert title != english_title and body != english_body, where
            assert not PLACEHOLDER.search(title + body), where
        assert len({title for _, title, _ in sections}) == len(sections)


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_page_fits_a_discord_embed_in_every_language(language):
    """Translations run longer (French by ~15–20 %): the pages still fit, and each section still
    starts on a page of its own."""
    for game_id, rules in all_rules().items():
        all_pages = rules_pages(rules, language)
        assert [p.index for p in all_pages] == list(range(len(all_pages)))
        assert [p.section.id for p in all_pages if p.part == 1] == [s.id for s in rules.sections]
        for page in all_pages:
            assert page.language == language
            embed = rules_cog.page_embed(page)
            assert len(embed.title or "") <= 256, embed.title
            assert len(embed.description or "") <= PAGE_LIMIT <= 4096
            assert len(embed.footer.text or "") <= 2048
            assert len(embed) <= 5000
            for item in rules_cog.page_view(page).children:
                assert len(getattr(item, "custom_id", "")) <= 100
                for option in getattr(item, "options", []):
                    assert len(option.label) <= 100 and len(option.value) <= 100
        message = rules_cog.page_message(game_id, 0, language)
        assert message["embed"].title == all_pages[0].title


def test_the_english_rules_are_the_text_itself():
    """English is the default everywhere and a language without a catalog (German, say) reads English: the same pages,
    word for word (docs/rules.md, checked above, is the English text)."""
    for rules in all_rules().values():
        english_pages = rules_pages(rules)
        assert english_pages == rules_pages(rules, SOURCE)
        assert [(p.title, p.body) for p in rules_pages(rules, "de")] == [(p.title, p.body) for p in english_pages]
        assert rules.in_language() is rules.in_language(SOURCE)
        for section, english in zip(rules.sections, rules.sections_in()):
            assert english.title == str(section.title) and english.body == str(section.body)


def test_the_french_rules_write_cards_the_french_way():
    """Cards are rank + suit with the French letters (V♥, D♠, R♣), the same cards as the English
    examples; the concept's examples still agree with the engine; French punctuation keeps its
    non-breaking space."""
    checked = 0
    for game_id, rules in all_rules().items():
        for (section_id, _, english_body), (_, title, body) in zip(shown(rules), shown(rules, "fr")):
            where = f"{game_id}/{section_id}"
            assert not re.search(r"[JQK][♠♥♦♣]", body), where
            cards = sorted((FRENCH_RANKS.get(rank, rank), suit) for rank, suit in SHOWN_CARD.findall(body))
            assert cards == sorted(SHOWN_CARD.findall(english_body)), where
            prose = CODE_SPAN.sub("", title + "\n" + body)
            assert not re.search(r" [:;!?»]|« ", prose), where
            for a, b, verdict in FRENCH_EXAMPLE.findall(body):
                def code(shown: str) -> str:
                    rank, suit = shown[:-1], shown[-1]
                    return FRENCH_RANKS.get(rank, rank) + {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}[suit]
                assert compare(code(a), code(b)) == FRENCH_VERDICT[verdict], f"{where}: {a} / {b} is not {verdict}"
                checked += 1
    assert checked >= 20


def test_rules_are_found_by_their_french_names_and_titles():
    assert rules_cog.find_game("q2j", "fr").id == "q2j"
    q2j = all_rules()["q2j"]
    joe = rules_pages(q2j, "fr")[rules_cog.find_section(q2j, "le Q² et la règle du Joe", "fr")]
    assert joe.section.id == "q-squared" and joe.title == "Règles de Q Squared Joe — Le Q² et la règle du Joe"
    # An English title still works for a French reader (a shared link, a habit).
    assert rules_cog.find_section(q2j, "Q² and the Joe rule", "fr") == joe.index
    choices = rules_cog.section_choices("quash", "départ", "fr")
    assert [(c.name, c.value) for c in choices] == [("Départages", "tiebreakers")]


# ---------------------------------------------------------------------------------- through Discord

from tests.slash_names import SYNC, as_shown, shown_name, typed_command  # noqa: E402
from tests.words import english_left  # noqa: E402


async def test_commands_options_and_choices_are_written_as_the_readers_client_shows_them(server):
    """Every code span of the rules, on every page in every language, is the English span as that
    language's client shows it (a French reader finds ``/q2j démarrer``, not ``/q2j start``), and
    every English span is a command, option or choice that exists; each start command's options
    section names its choices as the client does."""
    commands = server.h.requests_to("PUT", SYNC)[-1].body
    assert as_shown("`/q2j start variant:Countdown match:Elimination match timer:5`", commands, "fr") == \
        "`/q2j démarrer variante:Countdown match:Match à élimination minuteur:5`"
    for language in LANGUAGES:
        for game_id, rules in all_rules().items():
            spans: dict[str, list[str]] = {section.id: [] for section in rules.sections}
            for page in rules_pages(rules, language):
                spans[page.section.id] += CODE_SPAN.findall(page.body)
            for section_id, _, english_body in shown(rules):
                expected = Counter(as_shown(span, commands, language) for span in CODE_SPAN.findall(english_body))
                written = Counter(spans[section_id])
                assert written == expected, (f"{language}: {game_id}/{section_id} should write "
                                             f"{sorted(expected - written)} instead of {sorted(written - expected)}")
            options = words(rules.section("options").body, language)
            start, _ = typed_command(commands, rules.command)
            for option in start[-1]["options"]:
                for choice in option.get("choices") or []:
                    assert shown_name(choice, language).split(" (")[0] in options, (language, game_id, choice["name"])


def _embed(result_or_message) -> dict:
    embeds = result_or_message.embeds
    assert len(embeds) == 1
    return embeds[0]


def _button(message, verb: str) -> dict:
    return next(b for b in message.buttons if b["custom_id"].endswith(f":{verb}"))


@pytest.mark.parametrize("game_id", games.GAME_IDS)
async def test_rules_answer_privately_with_the_first_page(server, game_id):
    s = server
    r = await s.h.slash("rules", {"game": game_id}, user=s.user("ana"), channel=s.channel)
    assert r.response_type == 4 and r.ephemeral and r.message.visible_to == s.user("ana").id
    embed = _embed(r)
    total = len(pages(game_id))
    assert embed["title"] == pages(game_id)[0].title and "At a glance" in embed["title"]
    assert embed["footer"]["text"].startswith(f"Page 1 of {total}")
    assert _button(r.message, "prev")["disabled"] is True
    assert _button(r.message, "next").get("disabled", False) is (total == 1)
    menu = r.message.component(placeholder="Jump to a section…")
    assert [o["value"] for o in menu["options"]] == [sec.id for sec in all_rules()[game_id].sections]
    assert not s.h.public_messages(s.channel)


async def test_public_true_posts_for_everyone(server):
    s = server
    r = await s.h.slash("rules", {"game": "quash", "public": True}, user=s.user("ana"), channel=s.channel)
    assert r.response_type == 4 and not r.ephemeral
    assert s.h.latest_public(s.channel).id == r.message.id
    assert "QUASH" in _embed(r)["title"]


async def test_a_public_post_is_in_the_servers_language_and_a_private_copy_in_the_readers(server):
    s = server
    s.guild.locale = "fr"
    ana = s.user("ana")
    r = await s.h.slash("rules", {"game": "quash", "public": True}, user=ana, channel=s.channel)
    assert not r.ephemeral and "Règles de QUASH" in _embed(r)["title"], _embed(r)["title"]
    turned = await s.h.click(r.message, label="Suivante ▶", user=ana)  # its poster turns it in place
    assert turned.response_type == 7 and "Page 2 sur" in _embed(s.h.message(r.message.id))["footer"]["text"]
    copy = await s.h.click(r.message, label="Suivante ▶", user=s.user("ben"))  # an English client's copy
    assert copy.ephemeral and _embed(copy)["footer"]["text"].startswith("Page 3 of")


async def test_section_opens_at_that_section(server):
    s = server
    r = await s.h.slash("rules", {"game": "queen-of-spades", "section": "scoring"}, user=s.user("ben"),
                        channel=s.channel)
    embed = _embed(r)
    assert "Scoring" in embed["title"] and "+70" in embed["description"]
    index = next(p.index for p in pages("queen-of-spades") if p.section.id == "scoring")
    assert embed["footer"]["text"].startswith(f"Page {index + 1} of")
    menu = r.message.component(placeholder="Jump to a section…")
    assert [o["value"] for o in menu["options"] if o.get("default")] == ["scoring"]
    # A section typed by hand may be its title, in any case; a page number works too.
    r = await s.h.slash("rules", {"game": "Q2J", "section": "q² and the joe rule"}, user=s.user("ben"),
                        channel=s.channel)
    assert "Joe rule" in _embed(r)["title"]
    r = await s.h.slash("rules", {"game": "war", "section": "3"}, user=s.user("ben"), channel=s.channel)
    assert _embed(r)["footer"]["text"].startswith("Page 3 of")


async def test_paging_edits_in_place_and_stops_at_the_ends(server):
    s = server
    ana = s.user("ana")
    r = await s.h.slash("rules", {"game": "ng"}, user=ana, channel=s.channel)
    message = r.message
    total = len(pages("ng"))
    seen = [_embed(message)["title"]]
    for n in range(2, total + 1):
        click = await s.h.click(message, custom_id=_button(s.h.message(message.id), "next")["custom_id"], user=ana)
        assert click.response_type == 7 and click.message.id == message.id  # edited in place
        current = s.h.message(message.id)
        assert _embed(current)["footer"]["text"].startswith(f"Page {n} of {total}")
        seen.append(_embed(current)["title"])
    current = s.h.message(message.id)
    assert _button(current, "next")["disabled"] is True and not _button(current, "prev").get("disabled", False)
    assert seen == [p.title for p in pages("ng")]
    for n in range(total - 1, 0, -1):
        await s.h.click(message, custom_id=_button(s.h.message(message.id), "prev")["custom_id"], user=ana)
        assert _embed(s.h.message(message.id))["footer"]["text"].startswith(f"Page {n} of")
    assert _button(s.h.message(message.id), "prev")["disabled"] is True
    assert len(s.h.ephemeral_for(ana)) == 1  # one message, edited each time


async def test_a_french_reader_jumps_to_a_section_from_a_french_menu(server):
    s = server
    cat = s.user("cat")
    cat.locale = "fr"
    r = await s.h.slash("rules", {"game": "q2j"}, user=cat, channel=s.channel)
    assert r.ephemeral and not english_left(json.dumps(r.message.embeds, ensure_ascii=False)), r.message.embeds
    assert [b["label"] for b in r.message.buttons] == ["◀ Précédente", "Suivante ▶"]
    footer = _embed(r)["footer"]["text"]
    glance = words(all_rules()["q2j"].section("overview").title, "fr")
    assert footer.endswith(f"/règles jeu:q2j section:{glance}") and "overview" not in footer, footer
    assert rules_cog.find_section(all_rules()["q2j"], glance, "fr") == 0  # what the footer says, typed back
    placeholder = say("Jump to a section…").render("fr")
    picked = await s.h.select(r.message, ["elimination"], placeholder=placeholder, user=cat)
    assert picked.response_type == 7
    embed = _embed(s.h.message(r.message.id))
    assert embed["title"].endswith(words(all_rules()["q2j"].section("elimination").title, "fr"))
    assert not english_left(embed["description"]), embed


async def test_section_menu_jumps_in_place(server):
    s = server
    cat = s.user("cat")
    r = await s.h.slash("rules", {"game": "q2j"}, user=cat, channel=s.channel)
    picked = await s.h.select(r.message, ["elimination"], placeholder="Jump to a section…", user=cat)
    assert picked.response_type == 7
    embed = _embed(s.h.message(r.message.id))
    assert "Elimination matches" in embed["title"] and "eliminated" in embed["description"]


async def test_a_public_post_pages_for_its_poster_and_privately_for_others(server):
    s = server
    ana, ben = s.user("ana"), s.user("ben")
    r = await s.h.slash("rules", {"game": "war", "public": True}, user=ana, channel=s.channel)
    post = r.message
    other = await s.h.click(post, custom_id=_button(post, "next")["custom_id"], user=ben)
    assert other.response_type == 4 and other.ephemeral and other.message.visible_to == ben.id
    assert _embed(other)["footer"]["text"].startswith("Page 2 of")
    assert _embed(s.h.message(post.id))["footer"]["text"].startswith("Page 1 of")  # the post is unchanged
    mine = await s.h.click(post, custom_id=_button(post, "next")["custom_id"], user=ana)
    assert mine.response_type == 7
    assert _embed(s.h.message(post.id))["footer"]["text"].startswith("Page 2 of")


async def test_autocomplete_offers_games_and_that_games_sections(server):
    s = server
    ana = s.user("ana")
    r = await s.h.autocomplete("rules", "game", "", user=ana, channel=s.channel)
    assert [c["value"] for c in r.choices] == [*games.GAME_IDS, "tournament"]  # and how tournaments run
    r = await s.h.autocomplete("rules", "game", "queen", user=ana, channel=s.channel)
    assert [c["value"] for c in r.choices] == ["queen-of-spades"]
    r = await s.h.autocomplete("rules", "game", "joe", user=ana, channel=s.channel)
    assert [c["value"] for c in r.choices] == ["q2j", "war", "ng"]
    r = await s.h.autocomplete("rules", "section", "", {"game": "quash"}, user=ana, channel=s.channel)
    assert [c["value"] for c in r.choices] == [sec.id for sec in all_rules()["quash"].sections]
    r = await s.h.autocomplete("rules", "section", "tie", {"game": "quash"}, user=ana, channel=s.channel)
    assert [c["value"] for c in r.choices] == ["tiebreakers"]
    r = await s.h.autocomplete("rules", "section", "joe", {"game": "q2j"}, user=ana, channel=s.channel)
    assert [c["value"] for c in r.choices] == ["q-squared"]
    r = await s.h.autocomplete("rules", "section", "", {"game": "poker"}, user=ana, channel=s.channel)
    assert r.choices == []


async def test_unknown_game_or_section_gets_a_polite_private_list(server):
    s = server
    r = await s.h.slash("rules", {"game": "poker", "public": True}, user=s.user("ana"), channel=s.channel)
    assert r.ephemeral and "don't know a game called “poker”" in r.text
    for game_id in games.GAME_IDS:
        assert f"`{game_id}`" in r.text
    r = await s.h.slash("rules", {"game": "ng", "section": "jokers"}, user=s.user("ana"), channel=s.channel)
    assert r.ephemeral and "no section “jokers”" in r.text
    for section in all_rules()["ng"].sections:
        assert f"`{section.id}`" in r.text
    assert not s.h.public_messages(s.channel)


async def test_rules_controls_are_not_taken_for_unknown_ones(server):
    """The catch-all for unrecognised controls leaves the rules buttons alone (one answer per click)."""
    s = server
    ana = s.user("ana")
    r = await s.h.slash("rules", {"game": "q2j"}, user=ana, channel=s.channel)
    click = await s.h.click(r.message, custom_id=_button(r.message, "next")["custom_id"], user=ana)
    assert click.response_type == 7 and not click.followups


async def test_old_or_forged_rules_controls_are_answered_sensibly(server):
    """A page past the end (the text got shorter since) shows the last page; an unknown game is refused politely."""
    from tests.discord_play import forge_click

    s = server
    ana = s.user("ana")
    r = await s.h.slash("rules", {"game": "war"}, user=ana, channel=s.channel)
    click = await forge_click(s, r.message, "dh:rules:war:999:next", ana)
    assert click.response_type == 7
    total = len(pages("war"))
    assert _embed(s.h.message(r.message.id))["footer"]["text"].startswith(f"Page {total} of {total}")
    click = await forge_click(s, r.message, "dh:rules:poker:1:next", ana)
    assert click.ephemeral and "aren't available" in click.text
