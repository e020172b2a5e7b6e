"""QUASH on Discord: nine spots a side and the track on the table; a placement is chosen
card then spot. In advanced play a swap chain is played one placement at a time: a card
onto an occupied slot names the card it displaces, which is then in the air; the hand
message shows it and where it may go, with a button taking the whole chain back. Plus
secret tiebreak choices."""

from __future__ import annotations

from typing import Any


from bot.service import HandSnapshot, TableSnapshot
from games.base import Action
from games.cards import parse_card, pretty

from ..ui import GameUI, MoveLayout, seat_number

SIDES = ("RED", "BLACK")
SIDE_MARKS = {"RED": "🟥", "BLACK": "⚫"}  # ⬛ is nearly invisible on the dark theme
LEGEND = "✓ won the spot · ✗ failed run · ▢ open slot · ◀ the spot being scored"
NBSP = "\u00a0"
ACE_HIGH = {rank: i for i, rank in enumerate(("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"))}
HOW = {"rank": "higher card", "top": "higher top card", "suit": "same-suit run", "failed": "run vs failed",
       "tiebreak": "tiebreak", "no-cards": "no leftover cards"}


def by_rank(codes: list[str]) -> list[str]:
    return sorted(codes, key=lambda c: (ACE_HIGH[parse_card(c).rank], "SHDC".index(parse_card(c).suit)))


def spot_cards(spot: dict[str, Any], space: str = " ") -> str:
    """A spot's cards and open slots; ``space`` joins them (a no-break space keeps a spot on one line)."""
    return space.join([*(parse_card(c).pretty for c in by_rank(spot["cards"])), *["▢"] * spot["open"]]) or "▢"


def result_text(spot: dict[str, Any]) -> str:
    """One scored spot of a round summary, e.g. "`2` ⚫ +2 (run vs failed)"."""
    number, winner, how = spot["spot"], spot["winner"], spot["how"]
    if winner is None:
        return f"`{number}` both failed, +1 each" if how == "both-failed" else f"`{number}` nobody ({HOW[how]})"
    return f"`{number}` {SIDE_MARKS[winner]} +{spot['points'][SIDES.index(winner)]} ({HOW.get(how, how)})"


def round_summary(view: dict[str, Any]) -> list[str]:
    """The previous round, spot by spot: the next deal clears the board, and a round's
    scoring lines are more than the table's Latest lines can hold. The view keeps who won
    each spot but not the cards (they go back into the deck and may be hidden again)."""
    last = view.get("last_round")
    if not last:
        return []
    lines = [f"**Round {last['round']} scored** — RED +{last['points'][0]} · BLACK +{last['points'][1]}"]
    spots = {spot["spot"]: spot for spot in last["spots"]}
    for section in view["sections"]:
        parts = [result_text(spots[n]) for n in section if n in spots]
        final = spots.get(section[-1])
        if final and final["quash"] and final["winner"]:
            parts.append(f"QUASH {SIDE_MARKS[final['winner']]} +2")
        if parts:
            lines.append(" · ".join(parts))
    return lines


def chain_text(chain: dict[str, Any]) -> str:
    """The open chain in words: "9♦ into spot 1 for 6♣, then 6♣ into spot 4 for 7♠"."""
    steps = chain["steps"]
    displaced = [step["card"] for step in steps[1:]] + [chain["flying"]]
    return ", then ".join(f"{parse_card(step['card']).pretty} into spot {step['spot']} for {parse_card(out).pretty}"
                          for step, out in zip(steps, displaced))


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
    lines = ["**Your side:**"] + [" · ".join(f"`{n}` {spot_cards(board[n - 1], NBSP)}" for n in section)
                                  for section in view["sections"]]
    if view["players"] == 4:
        partner = next(seat for seat in view["teams"][view["sides"].index(view["side"])] if seat != hand.seat)
        lines.append(f"Your partner **{hand.table.names[partner]}** ({view['seat_sides'][partner]}) places on these "
                     f"spots too ({view['hand_counts'][partner]} cards in hand): every card here is yours or theirs.")
    return lines


class QuashUI(GameUI):
    start_description = "Open a QUASH table in this channel (2 players, or 4 in two teams)"
    step_end = ">"

    def options_text(self, options: dict[str, Any]) -> str:
        return f"first to {options['finish']}" + (" · advanced (hidden cards, swaps)" if options["advanced"] else "")

    def board(self, table: TableSnapshot) -> str:
        view, names = table.view or {}, table.names
        red, black = (f"{SIDE_MARKS[side]} **{side}** ({', '.join(seat_number(names, s) for s in view['teams'][i])})"
                      for i, side in enumerate(view["sides"]))
        lines = [f"{red} **{view['track'][0]}** · {black} **{view['track'][1]}** — first to {view['finish']}",
                 f"Round {view['round']} · dealer {names[view['dealer']]} · draw pile {view['pile_count']}",
                 LEGEND]
        current, why = being_scored(view), " ◀ tiebreak" if view.get("tiebreak") else " ◀ scoring"
        for section in view["sections"]:
            lines.append("")
            for number in section:
                spots = view["board"][0][number - 1], view["board"][1][number - 1]
                lines.append(f"`{number}` {spots[0]['kind']} — 🟥 {spot_cards(spots[0])}{spot_mark(spots[0], 'RED')}"
                             f" · ⚫ {spot_cards(spots[1])}{spot_mark(spots[1], 'BLACK')}"
                             + (why if number == current else ""))
        chain = view.get("chain")
        if chain:
            lines += ["", f"⛓ {names[chain['seat']]} is swapping on {chain['side']}'s side: {chain_text(chain)}; "
                          f"{parse_card(chain['flying']).pretty} is in the air."]
        if view["phase"] == "play" and view.get("last_round") and not round_started(view):
            lines += ["", *round_summary(view)]
        tiebreak = view.get("tiebreak")
        if tiebreak:
            waiting = ", ".join(names[s] for s in tiebreak["waiting"])
            lines.append(f"\n**Tiebreaker for spot {tiebreak['spot']}** — waiting for {waiting} to choose a card "
                         f"(leftovers: RED {view['leftover_counts'][0]}, BLACK {view['leftover_counts'][1]}).")
        return "\n".join(lines)

    def hand(self, hand: HandSnapshot) -> str:
        view = hand.view
        lines = [f"You play for **{view['side']}**.",
                 f"**Your {'leftover cards' if view['phase'] == 'tiebreak' else 'hand'} ({len(view['hand'])}):** "
                 f"{pretty(by_rank(view['hand'])) or '—'}"]
        if view.get("your_tiebreak_card"):
            lines.append(f"Your side's face-down tiebreak card: {parse_card(view['your_tiebreak_card']).pretty}")
        lines += side_lines(hand)
        if view.get("free_placement"):
            lines.append("No placement can keep a run possible: any card may go on any open slot this turn.")
        chain = view.get("chain")
        if chain and chain["seat"] == hand.seat:
            flying = parse_card(chain["flying"]).pretty
            lines += [f"**In the air: {flying}** (your chain: {chain_text(chain)}).",
                      f"Put {flying} on an open slot to end your turn, or swap it into a spot to displace "
                      "another card; or take the whole chain back."]
        return "\n".join(lines)

    def move_layout(self, hand: HandSnapshot, step: str | None = None) -> MoveLayout:
        """While a card is in the air, its moves need no card menu: they start at its spots,
        and the take-back button is always there."""
        chain = hand.view.get("chain")
        if not chain or chain["seat"] != hand.seat or not hand.actions:
            return super().move_layout(hand, step)
        layout = super().move_layout(hand, step or chain["flying"] + self.step_end)
        takeback = [action for action in hand.actions if action.kind == "takeback"]
        return MoveLayout(layout.numbers, layout.menus, [*layout.actions, *takeback])

    def step_path(self, action: Action) -> tuple[str, ...]:
        # A placement: the card menu, then a button per spot. A swap step: the card, a spot menu, then a
        # button per card it may displace there.
        return tuple(map(str, action.args[:-1])) if action.kind in ("place", "swap") else ()

    def step_placeholder(self, path: tuple[str, ...]) -> str:
        return "Place a card…" if len(path) == 1 else "…or swap a card out of a spot…"

    def step_label(self, path: tuple[str, ...], hand: HandSnapshot) -> str:
        return self._token_label(path[-1], hand) + (" — swap a card out" if len(path) == 2 else "")

    def _token_label(self, token: str, hand: HandSnapshot) -> str:
        if token.isdigit():
            spot = hand.view["board"][hand.seat % 2][int(token) - 1]
            return f"Spot {token} ({spot['kind']}): {spot_cards(spot)}"
        return parse_card(token).pretty

    def action_label(self, action: Action, hand: HandSnapshot) -> str:
        if action.kind == "place":
            return f"{parse_card(action.args[0]).pretty} → {self._token_label(str(action.args[1]), hand)}"
        if action.kind == "swap":
            card, spot, out = action.args[:3]
            return f"{parse_card(card).pretty} into spot {spot} for {parse_card(out).pretty}"
        if action.kind == "takeback":
            return "↩ Take the whole chain back"
        if action.kind == "tiebreak":
            return f"Play {parse_card(action.args[0]).pretty} face down"
        if action.kind == "chooser":
            return f"Let {hand.table.typed_names[action.args[0]]} choose our tiebreak cards"
        return str(action)


UI = QuashUI
