#!/usr/bin/env python3
"""A small tikki bot speaking tapete's bot protocol (docs/bot-protocol.md).

Try it:

    tapete arena tikki --a "cmd:python3 examples/python/tikki_bot.py" --b random --games 100
    tapete arena tikki --players 4 --retreat --a "cmd:python3 examples/python/tikki_bot.py" --b basico --games 50
    tapete play tikki --bots "cmd:python3 examples/python/tikki_bot.py"

tapete writes one JSON object per line on stdin ("hello", then an "act" per decision,
then "end") and this program answers each "act" with one line on stdout:

    {"id": 7, "action": "lay 5S 5H"}

Tikki's actions are `lay CARDS` (one or more cards of the hand, face down), and in the
retreat round `retreat CARD reveal CARD` (take one face-down card back, turning another face
up for good) or `keep`. Cards are rank then suit: `1S` (ace, lowest) to `13C`, suits
S > H > D > C. The view holds the seat's own `hand` and `laid` cards, `laid_counts` (how
many cards each seat has on the table this trick, never which), `in_trick`, `revealed`
(cards shown in the retreat round, by seat), `piles`, `stock`, `scores` and the `phase`
("lay", "retreat", "over").

Only each player's single best combination counts, and it takes every card of the trick.
The strategy is simple and sensible: find the best combination of the hand; spend it when
it is at least a pair and as long as the most cards another player laid (a player who laid
three may hold three of a kind), or when the stock is empty and the last cards are being
played; otherwise shed the lowest card outside it. In the retreat round, when another
player's shown cards already beat its own lay, take its strongest face-down card back,
showing its weakest; otherwise keep.
"""

import json
import sys

PROTOCOL = 1
SUITS = "SHDC"  # strongest first

# The kinds of combination, weakest first.
SINGLE, PAIR, SF2, THREE, SF3, SF4, FOUR, SF5, SF6, SF7 = range(10)
OF_A_KIND = {1: SINGLE, 2: PAIR, 3: THREE, 4: FOUR}
STRAIGHT_FLUSH = {2: SF2, 3: SF3, 4: SF4, 5: SF5, 6: SF6, 7: SF7}


def log(*args):
    """Notes for people: stderr, so that stdout carries answers only."""
    print("tikki_bot:", *args, file=sys.stderr, flush=True)


def parse(card):
    """'10H' -> (10, 'H')."""
    return int(card[:-1]), card[-1].upper()


def strength(card):
    """Rank first, then suit: the higher, the stronger."""
    rank, suit = parse(card)
    return rank * 4 + (3 - SUITS.index(suit))


def best(cards):
    """The best combination among `cards` as (kind, top strength, its cards), or None."""
    found = None
    by_rank = {}
    for c in cards:
        by_rank.setdefault(parse(c)[0], []).append(c)
    for group in by_rank.values():
        kind = OF_A_KIND[len(group)]
        cand = (kind, max(strength(c) for c in group), sorted(group, key=strength))
        if found is None or cand[:2] > found[:2]:
            found = cand
    for suit in SUITS:
        ranks = sorted(parse(c)[0] for c in cards if parse(c)[1] == suit)
        run = []
        for r in ranks:
            run = run + [r] if run and run[-1] == r - 1 else [r]
            if len(run) >= 2:
                top = run[-min(len(run), 7):]
                combo = [f"{x}{suit}" for x in top]
                cand = (STRAIGHT_FLUSH[len(top)], strength(combo[-1]), combo)
                if found is None or cand[:2] > found[:2]:
                    found = cand
    return found


def lay(view):
    me = view["seat"]
    hand = view["hand"]
    mine = best(hand)
    others = [s for s in range(view["seats"]) if s != me and view["in_trick"][s]]
    most = max((view["laid_counts"][s] for s in others), default=0)
    kind, _, combo = mine
    if view["stock"] == 0 or (kind >= PAIR and len(combo) >= most):
        return "lay " + " ".join(combo)
    rest = [c for c in hand if c not in combo] or hand
    return "lay " + min(rest, key=strength)


def retreat(view):
    me = view["seat"]
    mine = best(view["laid"])
    beaten = any(
        s != me and view["revealed"][s] and best(view["revealed"][s])[:2] > mine[:2]
        for s in range(view["seats"])
    )
    down = [c for c in view["laid"] if c not in view["revealed"][me]]
    if not beaten or len(down) < 2:
        return "keep"
    down.sort(key=strength)
    return f"retreat {down[-1]} reveal {down[0]}"


def decide(view, legal):
    try:
        if view.get("phase") == "retreat":
            action = retreat(view)
        else:
            action = lay(view)
    except (KeyError, IndexError, TypeError, ValueError) as e:
        log("cannot read the view:", e)
        return legal[0]
    # Lays are legal in any order of their cards; keep to the legal list otherwise.
    return action if action.startswith("lay ") or action in legal else legal[0]


def main():
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        msg = json.loads(line)
        kind = msg.get("type")
        if kind == "hello":
            if msg.get("protocol") != PROTOCOL or msg.get("game") != "tikki":
                log("this bot plays tikki, protocol 1:", msg.get("game"))
                return
        elif kind == "act":
            action = decide(msg.get("view") or {}, msg["legal"])
            print(json.dumps({"id": msg["id"], "action": action}), flush=True)
        elif kind == "error":
            log("refused:", msg.get("message"))
        elif kind == "end":
            return


if __name__ == "__main__":
    main()
