"""QUASH on Discord: nine spots a side and the track on the table; a placement is chosen
card then spot. In advanced play a swap chain is played one placement at a time: a card
onto an occupied slot names the card it displaces, which is then in the air; the hand
message shows it and where it may go, with a button taking the whole chain back. Chains are
written as arrows, each card to its spot: "9♦→1 ⇒ 6♣→4". Plus secret tiebreak choices."""

from __future__ import annotations

from functools import cache
from typing import Any

from bot.service import HandSnapshot, TableSnapshot
from games.base import Action
from games.cards import parse_card, pretty

from ..ui import GameUI, MoveLayout, seat_number
from ..words import Word, Words

WORDS: dict[str, Word] = {
    "start": "Open a QUASH table in this channel (2 players, or 4 in two teams)",
    "first_to": "First to {n}",
    "advanced": "advanced (hidden cards, swaps)",
    "legend": "✓ won the spot · ✗ failed run · ▢ open slot · ◀ the spot being scored",
    "higher card": "higher card",
    "higher top card": "higher top card",
    "same-suit run": "same-suit run",
    "run vs failed": "run vs failed",
    "tiebreak": "tiebreak",
    "no leftover cards": "no leftover cards",
    "both_failed": "`{spot}` both failed, +1 each",
    "nobody": "`{spot}` nobody ({how})",
    "spot_won": "`{spot}` {side} +{n} ({how})",
    "round_scored": "**Round {round} scored** — RED +{red} · BLACK +{black}",
    "quash": "QUASH {side} +2",
    "chain_air": "{chain} ⇒ {flying} in the air",
    "your_side": "**Your side:**",
    "partner": "Your partner **{name}** ({side}) places on these spots too ({n} cards in hand): every card here is "
               "yours or theirs.",
    "team": "{mark} **{side}**: {names}",
    "dealer": "Dealer: {dealer}",
    "track": "{red} RED **{red_track}** · {black} BLACK **{black_track}** · first to {finish}",
    "round_facts": "Round {round} · pile {pile}",
    "scoring_mark": " ◀ scoring",
    "tiebreak_mark": " ◀ tiebreak",
    "swapping": "⛓ {name} is swapping on {side}'s side: {chain}.",
    "tiebreak_line": "**Tiebreaker for spot {spot}**: waiting for {names} to choose a card (leftovers: RED {red}, "
                     "BLACK {black}).",
    "you_play": "You play for **{side}**.",
    "your_hand": "**Your hand ({n}):** {cards}",
    "your_leftovers": "**Your leftover cards ({n}):** {cards}",
    "tiebreak_card": "Your side's face-down tiebreak card: {card}",
    "free": "No placement can keep a run possible: any card may go on any open slot this turn.",
    "in_air": "**{flying} is in the air**: put it on a spot with room, or swap it into a full one.",
    "place_hint": "Place a card: choose it, then its spot.",
    "swap_hint": "Or swap it into a full spot.",
    "tiebreak_hint": "Choose a card to play face down for the tiebreak.",
    "chooser_hint": "Choose who picks your side's tiebreak cards.",
    "place_menu": "Place a card…",
    "swap_menu": "Or swap it into a full spot…",
    "spot": "Spot {spot}: {cards}",
    "swap_into": "Swap into spot {spot}: {cards}",
    "step": "{card}→{spot}",
    "swap": "{card}→{spot} ⇒ {out}",
    "takeback": "↩ Take the whole chain back",
    "face_down": "Play {card} face down",
    "chooser": "Let {name} choose our tiebreak cards",
    "pts": ("{n} pt", "{n} pts"),
}
WORD = Words(WORDS)
SIDES = ("RED", "BLACK")
SIDE_MARKS = {"RED": "🟥", "BLACK": "⚫"}  # ⬛ is nearly invisible on the dark theme
SIDE_COLOURS = {"RED": 0xD83C3E, "BLACK": 0x4E5058}
NBSP = "\u00a0"
ACE_HIGH = {rank: i for i, rank in enumerate(("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"))}
HOW = {"rank": "higher card", "top": "higher top card", "suit": "same-suit run", "failed": "run vs failed",
       "tiebreak": "tiebreak", "no-cards": "no leftover cards"}


@cache  # 52 codes, sorted in every spot of every board shown
def rank_key(code: str) -> tuple[int, int]:
    card = parse_card(code)
    return ACE_HIGH[card.rank], "SHDC".index(card.suit)


def by_rank(codes: list[str]) -> list[str]:
    return sorted(codes, key=rank_key)


def spot_cards(spot: dict[str, Any], space: str = " ") -> str:
    """A spot's cards and open slots; ``space`` joins them (a no-break space keeps a spot on one line)."""
    return space.join([*(parse_card(c).pretty for c in by_rank(spot["cards"])), *["▢"] * spot["open"]]) or "▢"


def result_text(spot: dict[str, Any]) -> str:
    """One scored spot of a round summary, e.g. "`2` ⚫ +2 (run vs failed)"."""
    number, winner, how = spot["spot"], spot["winner"], spot["how"]
    if winner is None:
        return WORD("both_failed", spot=number) if how == "both-failed" else WORD("nobody", spot=number,
                                                                                  how=WORD(HOW[how]))
    return WORD("spot_won", spot=number, side=SIDE_MARKS[winner], n=spot["points"][SIDES.index(winner)],
                how=WORD(HOW[how]) if how in HOW else how)


def round_summary(view: dict[str, Any]) -> list[str]:
    """The previous round, spot by spot: the next deal clears the board, and a round's
    scoring lines are more than the table's Latest lines can hold. The view keeps who won
    each spot but not the cards (they go back into the deck and may be hidden again)."""
    last = view.get("last_round")
    if not last:
        return []
    lines = [WORD("round_scored", round=last["round"], red=last["points"][0], black=last["points"][1])]
    spots = {spot["spot"]: spot for spot in last["spots"]}
    for section in view["sections"]:
        parts = [result_text(spots[n]) for n in section if n in spots]
        final = spots.get(section[-1])
        if final and final["quash"] and final["winner"]:
            parts.append(WORD("quash", side=SIDE_MARKS[final["winner"]]))
        if parts:
            lines.append(" · ".join(parts))
    return lines


def chain_text(chain: dict[str, Any]) -> str:
    """The open chain as arrows, each card to its spot, then the card in the air: "9♦→1 ⇒ 6♣ in the air"."""
    steps = " ⇒ ".join(WORD("step", card=parse_card(step["card"]).pretty, spot=step["spot"]) for step in chain["steps"])
    return WORD("chain_air", chain=steps, flying=parse_card(chain["flying"]).pretty)


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


def side_lines(hand: HandSnapshot) -> list[str]:
    """Your side's nine spots as three lines of three (a section a line, each spot unbroken);
    in teams, who your partner is: a side's spots hold both partners' placements."""
    view = hand.view
    board = view["board"][hand.seat % 2]
    lines = [WORD("your_side")] + [" · ".join(f"`{n}` {spot_cards(board[n - 1], NBSP)}" for n in section)
                                   for section in view["sections"]]
    if view["players"] == 4:
        partner = next(seat for seat in view["teams"][view["sides"].index(view["side"])] if seat != hand.seat)
        lines.append(WORD("partner", name=hand.table.names[partner], side=view["seat_sides"][partner],
                          n=view["hand_counts"][partner]))
    return lines


class QuashUI(GameUI):
    start_description = WORD("start")
    colour = 0xFB8C00
    step_end = ">"
    hints = {"place": WORD("place_hint"), "swap": WORD("swap_hint"), "tiebreak": WORD("tiebreak_hint"),
             "chooser": WORD("chooser_hint")}

    def options_text(self, options: dict[str, Any]) -> str:
        return WORD("first_to", n=options["finish"]) + (" · " + WORD("advanced") if options["advanced"] else "")

    def turn_colour(self, table: TableSnapshot, seat: int) -> int:
        return SIDE_COLOURS[SIDES[seat % 2]]

    def facts(self, table: TableSnapshot) -> list[str]:
        view = table.view or {}
        return [" · ".join([WORD("round_facts", round=view["round"], pile=view["pile_count"]),
                            WORD("track", red=SIDE_MARKS["RED"], red_track=view["track"][0], black=SIDE_MARKS["BLACK"],
                                 black_track=view["track"][1], finish=view["finish"])])]

    def board(self, table: TableSnapshot) -> str:
        view, names = table.view or {}, table.names
        red, black = (WORD("team", mark=SIDE_MARKS[side], side=side,
                           names=", ".join(seat_number(names, s) for s in view["teams"][i]))
                      for i, side in enumerate(view["sides"]))
        lines = [f"{red} · {black}", WORD("dealer", dealer=names[view["dealer"]]), WORD("legend")]
        current = being_scored(view)
        why = WORD("tiebreak_mark" if view.get("tiebreak") else "scoring_mark")
        for section in view["sections"]:
            lines.append("")
            for number in section:
                red, black = view["board"][0][number - 1], view["board"][1][number - 1]
                # No words of its own (the spot's kind is the view's): an f-string, nine times a message.
                lines.append(f"`{number}` {red['kind']} — 🟥 {spot_cards(red)}{spot_mark(red, 'RED')} · "
                             f"⚫ {spot_cards(black)}{spot_mark(black, 'BLACK')}{why if number == current else ''}")
        chain = view.get("chain")
        if chain:
            lines += ["", WORD("swapping", name=names[chain["seat"]], side=chain["side"], chain=chain_text(chain))]
        if view["phase"] == "play" and view.get("last_round") and not round_started(view):
            lines += ["", *round_summary(view)]
        tiebreak = view.get("tiebreak")
        if tiebreak:
            lines += ["", WORD("tiebreak_line", spot=tiebreak["spot"], names=", ".join(names[s] for s in tiebreak["waiting"]),
                               red=view["leftover_counts"][0], black=view["leftover_counts"][1])]
        return "\n".join(lines)

    def hand(self, hand: HandSnapshot) -> str:
        view = hand.view
        key = "your_leftovers" if view["phase"] == "tiebreak" else "your_hand"
        lines = [WORD("you_play", side=view["side"]),
                 WORD(key, n=len(view["hand"]), cards=pretty(by_rank(view["hand"])) or "—")]
        if view.get("your_tiebreak_card"):
            lines.append(WORD("tiebreak_card", card=parse_card(view["your_tiebreak_card"]).pretty))
        lines += side_lines(hand)
        if view.get("free_placement"):
            lines.append(WORD("free"))
        chain = view.get("chain")
        if chain and chain["seat"] == hand.seat:
            lines.append("⛓ " + chain_text(chain))
        return "\n".join(lines)

    def prompt(self, hand: HandSnapshot) -> str:
        chain = hand.view.get("chain")
        if chain and chain["seat"] == hand.seat and hand.actions:
            return WORD("in_air", flying=parse_card(chain["flying"]).pretty)
        return super().prompt(hand)

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
        return WORD("place_menu" if len(path) == 1 else "swap_menu")

    def step_label(self, path: tuple[str, ...], hand: HandSnapshot) -> str:
        token = path[-1]
        if not token.isdigit():
            return parse_card(token).pretty
        spot = hand.view["board"][hand.seat % 2][int(token) - 1]
        card = parse_card(path[0]).pretty
        if len(path) == 2:
            return WORD("swap_into", spot=token, cards=spot_cards(spot), card=card)
        return WORD("step", card=card, spot=token)

    def action_label(self, action: Action, hand: HandSnapshot) -> str:
        if action.kind == "place":
            card, number = action.args[:2]
            spot = hand.view["board"][hand.seat % 2][int(number) - 1]
            return WORD("spot", spot=number, cards=spot_cards(spot))
        if action.kind == "swap":
            card, number, out = action.args[:3]
            return WORD("swap", card=parse_card(card).pretty, spot=number, out=parse_card(out).pretty)
        if action.kind == "takeback":
            return WORD("takeback")
        if action.kind == "tiebreak":
            return WORD("face_down", card=parse_card(action.args[0]).pretty)
        if action.kind == "chooser":
            return WORD("chooser", name=hand.table.typed_names[action.args[0]])
        return str(action)

    def standing(self, table: TableSnapshot, seat: int) -> str:
        scores = (table.row.outcome or {}).get("scores") or []
        return WORD.count("pts", scores[seat]) if seat < len(scores) else ""


UI = QuashUI
