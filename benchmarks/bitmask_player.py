"""The yardstick of issue 17: a plain pure-Python bitmask random player of Hakka Cards.

Not an engine: the default decisions only, no validation, no errors, no
history, no observations, no scores; one function that deals a hand and plays
it to its end with uniform random legal moves, on card masks and precomputed
tables, as fast as straightforward Python goes. It imports nothing of the
engine, so a compiled engine is measured against what plain Python reaches.

It draws the same random choices as ``benchmarks/random_hands.py`` (the deal
of ``seeded_deck``, one uniform pick among the concrete actions plus the
discard option, in the engine's order of legal actions), so for the same seed
it plays the same hands: the action counts of the two scripts agree, which
checks that the yardstick plays the game the engine plays.

    python benchmarks/bitmask_player.py --hands 20000
"""

from __future__ import annotations

import argparse
import json
import random
import time
from itertools import combinations

M64 = (1 << 64) - 1
WAN_SIN = 36
WAN_SIN_BIT = 1 << WAN_SIN
SUIT_MASKS = tuple(0x1FF << (9 * s) for s in range(4))
NUMBER_MASKS = tuple(0 if n == 0 else sum(1 << (s * 9 + n - 1) for s in range(4)) for n in range(10))
NEVER_BEAT = 1 | (1 << 27) | WAN_SIN_BIT  # Sup1, Sin1, Wan Sin (ELD-6)
INITIAL_ELDERS = NEVER_BEAT | sum(1 << (s * 9 + 8) for s in range(4))  # ELD-1
FIVE_TIGERS = NUMBER_MASKS[1] | WAN_SIN_BIT  # TIG-1


def _elder_slice(gone: int) -> int:
    elders = 0
    for n in range(9, 0, -1):
        elders |= 1 << (n - 1)
        if not gone >> (n - 1) & 1:
            break
    return elders


ELDER_SLICES = tuple(_elder_slice(g) for g in range(512))
RUNS_IN = tuple(tuple(((1 << (top - low + 1)) - 1) << (low - 1) for low in range(1, 8) for top in range(low + 2, 10)
                      if b & (((1 << (top - low + 1)) - 1) << (low - 1)) == ((1 << (top - low + 1)) - 1) << (low - 1))
                for b in range(512))
"""Runs within a 9-bit suit slice, in the engine's order (by lowest card, then length)."""


def _subsets(bits: int) -> tuple[int, ...]:
    cards = [1 << i for i in range(37) if bits >> i & 1]
    return tuple(sum(c) for k in range(3, len(cards) + 1) for c in combinations(cards, k))


def _submasks(full: int) -> list[int]:
    return [sum(b for i, b in enumerate(bits_of(full)) if pick >> i & 1) for pick in range(1 << full.bit_count())]


def bits_of(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low)
        mask ^= low
    return out


SETS_IN = {sub: _subsets(sub) for n in range(1, 10) for sub in _submasks(NUMBER_MASKS[n])}
SINGLE_BEATERS = tuple(
    sum(1 << c for c in range(36) if not (1 << c) & NEVER_BEAT and c // 9 == w // 9 and c % 9 > w % 9) if w < 36 else 0
    for w in range(37))
"""The Singles that beat a non-Elder Single (PAT-6, D7 same-suit); Wan Sin beats nothing and is beaten by nothing."""


def elders_given(gone: int) -> int:
    return (NEVER_BEAT | ELDER_SLICES[gone & 0x1FF] | ELDER_SLICES[(gone >> 9) & 0x1FF] << 9
            | ELDER_SLICES[(gone >> 18) & 0x1FF] << 18 | ELDER_SLICES[(gone >> 27) & 0x1FF] << 27)


def seeded_deck(seed: int) -> list[int]:
    """SplitMix64 + Fisher-Yates (DEAL-5, D33), as every engine deals."""
    state, deck = seed, list(range(37))
    for i in range(36, 0, -1):
        state = (state + 0x9E3779B97F4A7C15) & M64
        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
        z ^= z >> 31
        j = z % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def runs(cards: int) -> list[int]:
    out = []
    for suit in range(4):
        bits = (cards >> (9 * suit)) & 0x1FF
        if bits:
            out += [r << (9 * suit) for r in RUNS_IN[bits]]
    return out


def sets(cards: int) -> list[int]:
    out: list[int] = []
    for n in range(1, 10):
        bits = cards & NUMBER_MASKS[n]
        if bits.bit_count() >= 3:
            out += SETS_IN[bits]
    return out


def rank(mask: int) -> int:
    """A Run's or Set's rank (PAT-2 suit then top, PAT-4 with 1s below 9s); patterns compared are of one kind."""
    low = (mask & -mask).bit_length() - 1
    if mask & SUIT_MASKS[low // 9] == mask and mask.bit_count() >= 3 and (mask >> low) & ((mask >> low) + 1) == 0:
        return (3 - low // 9) * 16 + (mask >> (9 * (low // 9))).bit_length()
    number = low % 9 + 1
    return 10 if number == 9 else 9 if number == 1 else number


def is_run(mask: int) -> bool:
    low = (mask & -mask).bit_length() - 1
    return mask & SUIT_MASKS[low // 9] == mask and (mask >> low) & ((mask >> low) + 1) == 0


def leadable_singles(cards: int, elders: int, privileged: bool) -> int:
    top = cards & WAN_SIN_BIT
    for suit_mask in SUIT_MASKS:
        if cards & suit_mask:
            top = cards & suit_mask
            break
    allowed = top & ~elders or top  # ELD-4, D10 top-suit-elder
    if privileged:  # ELD-5, D11 any-elder
        allowed |= cards & elders
    return allowed


def play_hand(dealer: int, seed: int, rng: random.Random) -> int:
    """Deal from ``seed`` and play to the end with uniform random legal moves; the number of actions."""
    dreamer = (dealer + 2) % 4
    hands = [0, 0, 0, 0]
    order = [(dealer + i) % 4 for i in range(4)]
    order += [s for s in order if s != dreamer] * 11
    for seat, card in zip(order, seeded_deck(seed), strict=True):
        hands[seat] |= 1 << card
    actions = 0
    caller = None
    for seat in (dealer, (dealer + 1) % 4, (dealer + 3) % 4):  # Calling (CALL-1..6, D3)
        actions += 1
        if rng.randrange(2) == 0:
            caller = seat
            break
    if caller is None:
        return actions  # void
    if any(hands[s] & FIVE_TIGERS == FIVE_TIGERS for s in (dealer, (dealer + 1) % 4, (dealer + 3) % 4)):
        return actions  # the Five Tigers win at once (TIG-1, D24 automatic)
    privileged = caller if caller != dealer else -1
    elders, played, tricks, leader = INITIAL_ELDERS, 0, [0, 0, 0, 0], dealer
    while True:
        # the lead (PLAY-2)
        cards = hands[leader]
        options = runs(cards) + sets(cards) + bits_of(leadable_singles(cards, elders, leader == privileged))
        best = options[rng.randrange(len(options))]
        best_elder, best_seat, size = bool(best & elders), leader, best.bit_count()
        kind = 1 if size == 1 else 2 if is_run(best) else 3
        best_rank = rank(best) if kind != 1 else 0
        hands[leader] ^= best
        played |= best
        elders = elders_given(played)
        actions += 1
        seat = leader
        for _ in range(2):  # the two followers (PLAY-3, PLAY-4, D12 must-beat, D13 best-so-far)
            seat = (seat + 1) % 4
            if seat == dreamer:
                seat = (seat + 1) % 4
            cards = hands[seat]
            if kind == 1:
                beats = [] if best_elder else bits_of(cards & SINGLE_BEATERS[best.bit_length() - 1])
            else:
                beats = [m for m in (runs(cards) if kind == 2 else sets(cards))
                         if m.bit_count() == size and rank(m) > best_rank]
            actions += 1
            if beats:
                pick = beats[rng.randrange(len(beats))]
                hands[seat] ^= pick
                played |= pick
                best, best_seat, best_elder = pick, seat, bool(pick & elders)
                best_rank = rank(pick) if kind != 1 else 0
                elders = elders_given(played)
            else:  # a discard of as many cards, face down (PLAY-4, PLAY-5)
                rng.randrange(1)  # the one pick random_hands.py draws among one entry, the discard option
                discard = sum(1 << c for c in rng.sample([b.bit_length() - 1 for b in bits_of(cards)], size))
                hands[seat] ^= discard
        tricks[best_seat] += size  # PLAY-6
        if tricks[best_seat] + (hands[best_seat] & elders).bit_count() >= 6:  # CLAIM-1, D21 optional
            actions += 1
            if rng.randrange(2) == 0:
                return actions  # claim
        if not hands[best_seat]:
            return actions  # played out (PLAY-8)
        leader = best_seat  # PLAY-7


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--hands", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="end with one JSON line of the figures")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    total = 0
    start, cpu_start = time.perf_counter(), time.process_time()
    for i in range(args.hands):
        total += play_hand(i % 4, rng.getrandbits(64), rng)
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu_start
    print(f"hands: {args.hands}  actions: {total}  ({total / args.hands:.1f} per hand)")
    print(f"wall: {elapsed:.2f} s  hands/s {args.hands / elapsed:,.0f}  actions/s {total / elapsed:,.0f}")
    print(f"cpu:  {cpu:.2f} s  hands/s {args.hands / cpu:,.0f}  actions/s {total / cpu:,.0f}")
    if args.json:
        print(json.dumps({"build": "yardstick", "hands": args.hands, "actions": total,
                          "hands_per_cpu_s": args.hands / cpu, "hands_per_s": args.hands / elapsed}))


if __name__ == "__main__":
    main()
