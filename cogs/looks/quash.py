"""QUASH's look on Discord: both sides' spots and track, placements and swap chains chosen in steps.

Nine spots a side and the track on the table; a placement is chosen card then spot. In
advanced play a swap chain is played one placement at a time: a card onto an occupied slot
names the card it displaces, which is then in the air; the hand message shows it and where
it may go, with a button taking the whole chain back. Chains are written as arrows, each card
to its spot: "9♦→1 ⇒ 6♣→4". Plus secret tiebreak choices."""

from __future__ import annotations

from functools import cache
from typing import Any

from bot.service import HandSnapshot, TableSnapshot
from games.base import Action
from games.cards import parse_card
from games.i18n import Text, plural, say
from games.phrases import card_count
from games.quash.actions import parse
from games.quash.rules import KIND_WORDS
from games.quash.scoring import SIDES, side_name

from ..ui import GameUI, MoveLayout, cards_text, seat_number, shown

SIDE_MARKS = {"RED": "🎯", "BLACK": "🎱"}
"""Each side's marker: red and black each with white, so that one of its colours reads on
Discord's dark theme and one on its light theme (a plain ⚫ or 🟥 does not)."""
SIDE_COLOURS = {"RED": 0xDF5E5F, "BLACK": 0x858893}
"""The table's accent while a side is to act: a red and a grey that read on both themes."""
NBSP = "\u00a0"
ACE_HIGH = {rank: i for i, rank in enumerate(("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"))}
HOW = {"rank": say("higher card"), "top": say("higher top card"), "suit": say("same-suit run"),
       "failed": say("run vs failed"), "tiebreak": say("tiebreak"), "no-cards": say("no leftover cards")}


@cache  # 52 codes, sorted in every spot of every board shown
def rank_key(code: str) -> tuple[int, int]:
    card = parse_card(code)
    return ACE_HIGH[card.rank], "SHDC".index(card.suit)


def by_rank(codes: list[str]) -> list[str]:
    return sorted(codes, key=rank_key)


def spot_cards(spot: dict[str, Any], language: str, space: str = " ") -> str:
    """A spot's cards and open slots; ``space`` joins them (a no-break space keeps a spot on one line)."""
    return space.join([*(shown(c, language) for c in by_rank(spot["cards"])), *["▢"] * spot["open"]]) or "▢"


def result_text(spot: dict[str, Any]) -> Text:
    """One scored spot of a round summary, e.g. "`2` 🎱 +2 (run vs failed)"."""
    number, winner, how = spot["spot"], spot["winner"], spot["how"]
    if winner is None:
        return (say("`{spot}` both failed, +1 each", spot=number) if how == "both-failed"
                else say("`{spot}` nobody ({how})", spot=number, how=HOW[how]))
    return say("`{spot}` {side} +{n} ({how})", spot=number, side=SIDE_MARKS[winner],
               n=spot["points"][SIDES.index(winner)], how=HOW.get(how, how))


def round_summary(view: dict[str, Any], language: str) -> list[str]:
    """The previous round, spot by spot: the next deal clears the board, and a round's
    scoring lines are more than the table's Latest lines can hold. The view keeps who won
    each spot but not the cards (they go back into the deck and may be hidden again)."""
    last = view.get("last_round")
    if not last:
        return []
    lines = [say("**Round {round} scored** — RED +{red} · BLACK +{black}", round=last["round"], red=last["points"][0],
                 black=last["points"][1]).render(language)]
    spots = {spot["spot"]: spot for spot in last["spots"]}
    for section in view["sections"]:
        parts = [result_text(spots[n]) for n in section if n in spots]
        final = spots.get(section[-1])
        if final and final["quash"] and final["winner"]:
            parts.append(say("QUASH {side} +2", side=SIDE_MARKS[final["winner"]]))
        if parts:
            lines.append(" · ".join(part.render(language) for part in parts))
    return lines


def chain_text(chain: dict[str, Any], language: str) -> str:
    """The open chain as arrows, each card to its spot, then the card in the air: "9♦→1 ⇒ 6♣ in the air"."""
    steps = " ⇒ ".join(f"{shown(step['card'], language)}→{step['spot']}" for step in chain["steps"])
    return say("{chain} ⇒ {flying} in the air", chain=steps, flying=shown(chain["flying"], language)).render(language)


def being_scored(view: dict[str, Any]) -> int | None:
    """The spot being scored or tied now, if any."""
    if view.get("tiebreak"):
        return view["tiebreak"]["spot"]
    return (view.get("scoring") or {}).get("spot")


def round_started(view: dict[str, Any]) -> bool:
    """Whether the current round has its first placement (the last round's result stays until then)."""
    return any(spot["cards"] for side in view["board"] for spot in side)


def spot_mark(spot: dict[str, Any], side: str) -> str:
    if spot.get("failed"):
        return " ✗"
    return " ✓" if spot.get("scored") and spot.get("winner") == side else ""


def side_lines(hand: HandSnapshot, language: str) -> list[str]:
    """Your side's nine spots as three lines of three (a section a line, each spot unbroken);
    in teams, who your partner is: a side's spots hold both partners' placements."""
    view = hand.view
    board = view["board"][hand.seat % 2]
    lines = [say("**Your side:**").render(language)]
    lines += [" · ".join(f"`{n}` {spot_cards(board[n - 1], language, NBSP)}" for n in section)
              for section in view["sections"]]
    if view["players"] == 4:
        partner = next(seat for seat in view["teams"][view["sides"].index(view["side"])] if seat != hand.seat)
        lines.append(say("Your partner **{name}** ({side}) places on these spots too ({cards} in hand): every card "
                         "here is yours or theirs.", name=hand.table.names[partner],
                         side=side_name(view["seat_sides"][partner]),
                         cards=card_count(view["hand_counts"][partner])).render(language))
    return lines


class QuashUI(GameUI):
    start_description = say("Open a QUASH table in this channel (2 players, or 4 in two teams)")
    colour = 0xCB7100
    step_end = ">"
    hints = {"place": say("Place a card: choose it, then its spot."), "swap": say("Or swap it into a full spot."),
             "tiebreak": say("Choose a card to play face down for the tiebreak."),
             "chooser": say("Choose who picks your side's tiebreak cards.")}
    menus = {"place": say("Choose its spot…"), "swap": say("Choose the card it displaces…"),
             "tiebreak": say("Play a card face down…"), "chooser": say("Who picks our tiebreak cards…")}

    def options_text(self, options: dict[str, Any]) -> str:
        advanced = " · " + self.words(say("advanced (hidden cards, swaps)")) if options["advanced"] else ""
        return self.words(say("First to {n}", n=options["finish"])) + advanced

    def turn_colour(self, table: TableSnapshot, seat: int) -> int:
        return SIDE_COLOURS[SIDES[seat % 2]]

    def facts(self, table: TableSnapshot) -> list[str]:
        view = table.view or {}
        round_ = say("Round {round} · pile {pile}", round=view["round"], pile=view["pile_count"])
        track = say("{red} RED **{red_track}** · {black} BLACK **{black_track}** · first to {finish}",
                    red=SIDE_MARKS["RED"], red_track=view["track"][0], black=SIDE_MARKS["BLACK"],
                    black_track=view["track"][1], finish=view["finish"])
        return [" · ".join([self.words(round_), self.words(track)])]

    def board(self, table: TableSnapshot) -> str:
        view, names = table.view or {}, table.names
        red, black = (self.words(say("{mark} **{side}**: {names}", mark=SIDE_MARKS[side], side=side_name(side),
                                     names=", ".join(seat_number(names, s) for s in view["teams"][i])))
                      for i, side in enumerate(view["sides"]))
        lines = [f"{red} · {black}", self.words(say("Dealer: {dealer}", dealer=names[view["dealer"]])),
                 self.words(say("✓ won the spot · ✗ failed run · ▢ open slot · ◀ the spot being scored"))]
        current = being_scored(view)
        why = self.words(say(" ◀ tiebreak") if view.get("tiebreak") else say(" ◀ scoring"))
        for section in view["sections"]:
            lines.append("")
            for number in section:
                red, black = view["board"][0][number - 1], view["board"][1][number - 1]
                kind = self.words(KIND_WORDS[number - 1])  # a spot's size, in the reader's words ("single")
                lines.append(f"`{number}` {kind} — {SIDE_MARKS['RED']} {spot_cards(red, self.language)}"
                             f"{spot_mark(red, 'RED')} · {SIDE_MARKS['BLACK']} {spot_cards(black, self.language)}"
                             f"{spot_mark(black, 'BLACK')}"
                             f"{why if number == current else ''}")
        chain = view.get("chain")
        if chain:
            lines += ["", self.words(say("⛓ {name} is swapping on {side}'s side: {chain}.", name=names[chain["seat"]],
                                         side=side_name(chain["side"]), chain=chain_text(chain, self.language)))]
        if view["phase"] == "play" and view.get("last_round") and not round_started(view):
            lines += ["", *round_summary(view, self.language)]
        tiebreak = view.get("tiebreak")
        if tiebreak:
            lines += ["", self.words(say("**Tiebreaker for spot {spot}**: waiting for {names} to choose a card "
                                         "(leftovers: RED {red}, BLACK {black}).", spot=tiebreak["spot"],
                                         names=", ".join(names[s] for s in tiebreak["waiting"]),
                                         red=view["leftover_counts"][0], black=view["leftover_counts"][1]))]
        return "\n".join(lines)

    def hand(self, hand: HandSnapshot) -> str:
        view = hand.view
        cards = cards_text(by_rank(view["hand"]), self.language) or "—"
        count = len(view["hand"])
        held = (say("**Your leftover cards ({n}):** {cards}", n=count, cards=cards) if view["phase"] == "tiebreak"
                else say("**Your hand ({n}):** {cards}", n=count, cards=cards))
        lines = [self.words(held)]
        if view.get("your_tiebreak_card"):
            lines.append(self.words(say("Your side's face-down tiebreak card: {card}",
                                        card=shown(view["your_tiebreak_card"], self.language))))
        lines += side_lines(hand, self.language)
        if view.get("free_placement"):
            lines.append(self.words(say("No placement can keep a run possible: any card may go on any open slot this "
                                        "turn.")))
        chain = view.get("chain")
        if chain and chain["seat"] == hand.seat:
            lines.append("⛓ " + chain_text(chain, self.language))
        return "\n".join(lines)

    def prompt(self, hand: HandSnapshot) -> str:
        """Which side the seat plays for (above the picture of that side's board), then what it may do."""
        side = self.words(say("You play for **{side}**.", side=side_name(hand.view["side"])))
        chain = hand.view.get("chain")
        kinds = {action.kind for action in hand.actions}
        if chain and chain["seat"] == hand.seat and hand.actions:
            flying = shown(chain["flying"], self.language)
            if "place" not in kinds:
                doing = say("**{flying} is in the air**: swap it into a full spot.", flying=flying)
            elif "swap" not in kinds:
                doing = say("**{flying} is in the air**: put it on a spot with room.", flying=flying)
            else:
                doing = say("**{flying} is in the air**: put it on a spot with room, or swap it into a full one.",
                            flying=flying)
            return f"{side} {self.words(doing)}"
        if kinds == {"swap"}:  # the hint for swaps follows the placements' ("Or swap it…"): alone, it says more
            return f"{side} {self.words(say('Swap a card into a full spot: choose it, then the spot.'))}"
        return f"{side} {super().prompt(hand)}"

    def move_layout(self, hand: HandSnapshot, step: str | None = None) -> MoveLayout:
        """While a card is in the air, its moves need no card menu: they start at its spots,
        beside the take-back button."""
        chain = hand.view.get("chain")
        if not chain or chain["seat"] != hand.seat or not hand.actions:
            return super().move_layout(hand, step)
        if step:
            return super().move_layout(hand, step)
        layout = super().move_layout(hand, chain["flying"] + self.step_end)
        takeback = [action for action in hand.actions if action.kind == "takeback"]
        return MoveLayout(layout.numbers, layout.menus, [*layout.actions, *takeback])  # the prompt names the card

    def step_path(self, action: Action, hand: HandSnapshot) -> tuple[str, ...]:
        # A placement: the card menu, then a button per spot. A swap step: the card, a spot menu, then a
        # button per card it may displace there.
        return tuple(map(str, action.args[:-1])) if action.kind in ("place", "swap") else ()

    def step_placeholder(self, path: tuple[str, ...]) -> str:
        return self.words(say("Place a card…") if len(path) == 1 else say("Or swap into a full spot…"))

    def step_label(self, path: tuple[str, ...], hand: HandSnapshot) -> str:
        token = path[-1]
        if not token.isdigit():
            return shown(token, self.language)
        spot = hand.view["board"][hand.seat % 2][int(token) - 1]
        if len(path) == 2:
            return self.words(say("Swap into spot {spot}: {cards}", spot=token, cards=spot_cards(spot, self.language)))
        return f"{shown(path[0], self.language)}→{token}"

    def action_label(self, action: Action, hand: HandSnapshot) -> str:
        if action.kind == "place":
            spot = parse(action).spot
            cards = hand.view["board"][hand.seat % 2][spot]
            return self.words(say("Spot {spot}: {cards}", spot=spot + 1, cards=spot_cards(cards, self.language)))
        if action.kind == "swap":
            card, number, out = action.args[:3]
            return f"{shown(card, self.language)}→{number} ⇒ {shown(out, self.language)}"
        if action.kind == "takeback":
            return self.words(say("↩ Take the whole chain back"))
        if action.kind == "tiebreak":
            return self.words(say("Play {card} face down", card=shown(action.args[0], self.language)))
        if action.kind == "chooser":
            return self.words(say("Let {name} choose our tiebreak cards",
                                  name=hand.table.typed_names[parse(action).seat]))
        return super().action_label(action, hand)

    def standing(self, table: TableSnapshot, seat: int) -> str:
        scores = (table.row.outcome or {}).get("scores") or []
        return self.words(plural("{count} pt", "{count} pts", scores[seat])) if seat < len(scores) else ""


UI = QuashUI
