#!/usr/bin/env python3
"""A small Chinchón bot speaking tapete's bot protocol (docs/bot-protocol.md).

Try it:

    tapete arena chinchon --a "cmd:python3 examples/python/chinchon_bot.py" --b random --games 100
    tapete arena chinchon --players 4 --a "cmd:python3 examples/python/chinchon_bot.py" --b basico --games 50
    tapete play chinchon --players 3 --bots "cmd:python3 examples/python/chinchon_bot.py"

tapete writes one JSON object per line on stdin ("hello", then an "act" per decision,
then "end") and this program answers each "act" with one line on stdout:

    {"id": 7, "action": "descarto 12o"}

Chinchón's actions are `robo` (draw from the stock), `tomo` (take the pile's top),
`descarto CARD`, `cierro CARD` (close, putting CARD down), `meto CARD` (lay a card onto the
closer's melds) and `listo`. The view holds the seat's own `hand` (a list of cards such as
"7o" or "J" for a joker), the `pile` (its last card is the top), the `phase` ("draw",
"discard", "lay_off", "over") and everything public (scores, what each seat took).

The strategy is simple and sensible: close whenever a close is legal; take the pile's top
only if it makes a group or a run with two cards already held; otherwise draw; discard the
card that helps least (not in a meld, highest value first); lay off every card it can.
"""

import json
import sys

PROTOCOL = 1


def log(*args):
    """Notes for people: stderr, so that stdout carries answers only."""
    print("chinchon_bot:", *args, file=sys.stderr, flush=True)


def parse(card):
    """'12o' -> (12, 'o'); the joker 'J' -> (None, None)."""
    if card.upper() == "J":
        return None, None
    return int(card[:-1]), card[-1].lower()


def order(n, deck48):
    """A card's place in its suit's sequence: 7 is followed by the sota in 40 cards."""
    if deck48 or n <= 7:
        return n
    return n - 2


def value(n):
    return 50 if n is None else n


def helpers(card, hand, deck48):
    """How many cards of `hand` sit with `card` in a possible meld (same number, or the
    same suit one or two places away)."""
    n, s = parse(card)
    if n is None:
        return 3
    count = 0
    for other in hand:
        m, t = parse(other)
        if m is None or other == card:
            continue
        if m == n:
            count += 1
        elif t == s and abs(order(m, deck48) - order(n, deck48)) <= 2:
            count += 1
    return count


def decide(view, legal, deck48):
    closes = [a for a in legal if a.startswith("cierro ")]
    if closes:
        return closes[0]
    lays = [a for a in legal if a.startswith("meto ")]
    if lays:
        return lays[0]
    if "listo" in legal:
        return "listo"
    hand = view.get("hand") or []
    if "robo" in legal or "tomo" in legal:
        pile = view.get("pile") or []
        if "tomo" in legal and pile and helpers(pile[-1], hand, deck48) >= 2:
            return "tomo"
        return "robo" if "robo" in legal else "tomo"
    discards = [a for a in legal if a.startswith("descarto ")]
    if discards:
        def cost(action):
            card = action.split(" ", 1)[1]
            n, _ = parse(card)
            return (helpers(card, hand, deck48), -value(n))
        return min(discards, key=cost)
    return legal[0]


def main():
    deck48 = False
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        msg = json.loads(line)
        kind = msg.get("type")
        if kind == "hello":
            if msg.get("protocol") != PROTOCOL or msg.get("game") != "chinchon":
                log("this bot plays Chinchón, protocol 1:", msg.get("game"))
                return
            deck48 = (msg.get("rules") or {}).get("deck") == 48
        elif kind == "act":
            action = decide(msg.get("view") or {}, msg["legal"], deck48)
            print(json.dumps({"id": msg["id"], "action": action}), flush=True)
        elif kind == "error":
            log("refused:", msg.get("message"))
        elif kind == "end":
            return


if __name__ == "__main__":
    main()
