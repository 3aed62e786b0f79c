#!/usr/bin/env python3
"""A small Mus bot speaking tapete's bot protocol (docs/bot-protocol.md).

Try it:

    tapete arena mus --a "cmd:python3 examples/python/mus_bot.py" --b random --games 100
    tapete sim mus --games 20 --bots "cmd:python3 examples/python/mus_bot.py"
    tapete play mus --bots "cmd:python3 examples/python/mus_bot.py"

How it works: tapete starts this program once per seat and game and writes one JSON
object per line on its stdin:

    {"type": "hello", "protocol": 1, "game": "mus", "seat": 0, "seats": 4, "rules": {...}, ...}
    {"type": "act", "id": 7, "view": {...}, "legal": ["paso", "envido 2", ..., "órdago"]}
    {"type": "error", "id": 7, "message": "...", "answers_left": 2}
    {"type": "end", "outcome": {"winners": [0, 2], "summary": "..."}, "won": true, "view": {...}}

and the program answers every "act" with one line on its stdout, one of the legal
actions as written:

    {"id": 7, "action": "envido 2"}

The view is everything this seat may know (its own four cards, what was said, the
scores); the bot decides from that alone. Its strategy is simple and sensible: cut the
mus with pares or juego, discard what does not help grande, bet and accept with good
hands for the lance being played, and decline otherwise. Anything it prints for people
goes to stderr, never to stdout, which is reserved for answers.
"""

import json
import sys

PROTOCOL = 1
FIGURES = (10, 11, 12)


def log(*args):
    """Notes for people: stderr, so that stdout carries answers only."""
    print("mus_bot:", *args, file=sys.stderr, flush=True)


def rank(card, mode):
    """The rank a card plays as: '12o' -> 12; in 8 reyes, 3s are reyes and 2s are ases."""
    r = int(card[:-1])
    if mode == "8reyes":
        if r == 3:
            return 12
        if r == 2:
            return 1
    return r


def points(r):
    """Points towards juego and punto: figures count 10."""
    return 10 if r in FIGURES else r


class Hand:
    """What can be read from one's own four cards."""

    def __init__(self, cards, mode):
        self.cards = cards
        self.ranks = sorted((rank(c, mode) for c in cards), reverse=True)
        counts = {}
        for r in self.ranks:
            counts[r] = counts.get(r, 0) + 1
        self.counts = counts
        self.total = sum(points(r) for r in self.ranks)
        groups = sorted(counts.values(), reverse=True)
        if groups[0] == 4 or groups[:2] == [2, 2]:
            self.pares = 3  # duples
        elif groups[0] == 3:
            self.pares = 2  # medias
        elif groups[0] == 2:
            self.pares = 1  # a par
        else:
            self.pares = 0
        self.pair_rank = max((r for r, n in counts.items() if n >= 2), default=0)
        self.reyes = counts.get(12, 0)
        self.ases = counts.get(1, 0)
        self.juego = self.total >= 31

    def strength(self, lance):
        """0 (nothing) to 3 (very strong) for a lance."""
        if lance == "grande":
            return min(3, self.reyes) if self.reyes >= 2 else 0
        if lance == "chica":
            low = sum(1 for r in self.ranks if r <= 4)
            return min(3, self.ases + (1 if low >= 3 else 0)) if self.ases >= 2 else 0
        if lance == "pares":
            if self.pares >= 2:
                return 3
            if self.pares == 1:
                return 2 if self.pair_rank >= 11 else 1
            return 0
        if lance == "juego":
            if self.total == 31:
                return 3
            if self.total == 32:
                return 2
            return 1 if self.juego else 0
        if lance == "punto":
            if self.total >= 29:
                return 3 if self.total == 30 else 2
            return 1 if self.total >= 27 else 0
        return 0


def first_of(legal, *wanted):
    """The first of `wanted` that is legal, or None."""
    for w in wanted:
        if w in legal:
            return w
    return None


def choose_discard(hand, legal):
    """Keep reyes and pairs, throw the rest; at least one card goes."""
    keep = [c for c, r in zip(hand.cards, (rank(c, hand.mode) for c in hand.cards))
            if r == 12 or hand.counts[r] >= 2]
    throw = [c for c in hand.cards if c not in keep]
    if not throw:
        # Everything is worth keeping: let go of the lowest card.
        throw = [min(hand.cards, key=lambda c: rank(c, hand.mode))]
    want = set(throw)
    for a in legal:
        if a.startswith("descarto") and set(a.split()[1:]) == want:
            return a
    return None


def decide(view, legal):
    mode = view["rules"]["mode"]
    hand = Hand(view["cards"], mode)
    hand.mode = mode
    phase = view["phase"]["phase"]

    if len(legal) == 1:
        return legal[0]  # declarations: there is only the truthful one
    if phase == "mus":
        if hand.pares >= 1 or hand.juego or hand.reyes >= 3:
            return first_of(legal, "no hay mus")
        return first_of(legal, "mus")
    if phase == "discard":
        return choose_discard(hand, legal)
    if phase == "senas":
        signals = [a for a in legal if a != "seña ninguna"]
        return signals[0] if signals else first_of(legal, "seña ninguna")
    if phase == "bet":
        lance = view["phase"]["lance"]
        s = hand.strength(lance)
        bet = view.get("bet")
        if bet is None:
            if s >= 3:
                return first_of(legal, "envido 3", "envido 2", "paso")
            if s == 2:
                return first_of(legal, "envido 2", "paso")
            return first_of(legal, "paso")
        if bet["ordago"]:
            return first_of(legal, "quiero" if s >= 3 else "no quiero")
        if s >= 3 and bet["total"] <= 10:
            return first_of(legal, "quiero")
        if s >= 2 and bet["total"] <= 4:
            return first_of(legal, "quiero")
        return first_of(legal, "no quiero", "paso")
    return None


def safe(legal):
    """Something always legal-looking when no rule applies."""
    return first_of(legal, "paso", "no quiero", "mus") or legal[0]


def answer(request):
    legal = request["legal"]
    action = decide(request["view"], legal)
    if action not in legal:
        action = safe(legal)
    print(json.dumps({"id": request["id"], "action": action}), flush=True)


def main():
    last = None
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        msg = json.loads(line)
        kind = msg.get("type")
        if kind == "hello":
            if msg.get("protocol") != PROTOCOL or msg.get("game") != "mus":
                log("this bot speaks protocol", PROTOCOL, "for mus only; bye")
                return
        elif kind == "act":
            last = msg
            answer(msg)
        elif kind == "error":
            log("tapete says:", msg.get("message"))
            if "played" not in msg and last is not None:
                # Try again with the safest legal action.
                legal = last["legal"]
                print(json.dumps({"id": last["id"], "action": safe(legal)}), flush=True)
        elif kind == "end":
            return


if __name__ == "__main__":
    main()
