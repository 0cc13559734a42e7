"""A deal of French Tarot, step by step, by the letter of the rules (the reference engine).

Slow and obvious on purpose: hands are sorted lists of :class:`~tarotsim.cards.Card`, every
rule is a few lines that cite its id, every apply method checks the whole action first and
raises :class:`RuleViolation` before it touches anything, so a refused action leaves the deal
as it was.

The rules are those of docs/rules.md. The order of the steps is the one of
docs/engine-contract.md:

```text
petit sec? -> auction -> call (5) -> chien/écart -> chelem?
           -> tricks -> counting -> scores
```

and at each seat's first turn to play (in trick 1): poignée, misères (option ``misere``), card.
:meth:`ReferenceDeal.decision` says who acts next and what kind of decision it is.
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import echo
from ..cards import DECK, EXCUSE, JACK, KING, KNIGHT, N_CARDS, PETIT, QUEEN, Card
from ..rng import CHIEN_SIZE, HAND_SIZE, dealing_order
from ..rules import CONTRACT_OF, CONTRACTS, N_TRICKS, PILE_DEPTH, PILES, POIGNEE_LEVELS, Rules, ecart_trumps_needed
from ..scoring import DealFacts, ScoreBreakdown, score
from .errors import RuleViolation
from .tricks import in_order, is_king, play_duty, trick_winner

BIDS = ("pass",) + CONTRACTS
MISERE_KINDS = ("atout", "tete")
FACE_RANKS = (JACK, KNIGHT, QUEEN, KING)


def as_card(x) -> Card:
    """A Card from a Card, a card id or a card name."""
    if isinstance(x, Card):
        return x
    if isinstance(x, str) and x in _CARD_BY_NAME:  # the canonical name, as records have it
        return _CARD_BY_NAME[x]
    if isinstance(x, int) and not isinstance(x, bool):
        if not 0 <= x < N_CARDS:
            raise ValueError(f"no card with id {x}")
        return DECK[x]
    return Card.parse(x)


_CARD_BY_NAME = {str(c): c for c in DECK}


def as_cards(xs) -> list[Card]:
    return [as_card(x) for x in xs]


def names(cards) -> list[str]:
    """Card names in id order (the records' notation, docs/records.md)."""
    return [str(c) for c in in_order(cards)]


@dataclass(frozen=True)
class Decision:
    """Who acts next and what about.

    ``kind`` is one of ``bid``, ``call``, ``ecart``, ``chelem``, ``poignee``,
    ``misere_atout``, ``misere_tete``, ``card``.
    """

    kind: str
    seat: int


@dataclass(frozen=True)
class Trick:
    """A finished trick: its leader, the (seat, card) plays from the leader, the winner."""

    leader: int
    plays: tuple[tuple[int, Card], ...]
    winner: int
    excuse_won: bool = False  # won by the Excuse under R-EXC-4

    @property
    def cards(self) -> list[Card]:
        return [c for _, c in self.plays]


class ReferenceDeal:
    """One deal from the cards as dealt to its scores.

    Parameters
    ----------
    rules : Rules
        Table 3, 4, 5, 5d or 2 and the options of docs/rules.md §14.
    dealer : int
        The dealer's seat; trick 1 and the auction start at his right, ``dealer + 1``.
    hands : sequence of card collections, one per seat
        The hands as dealt (Card, id or name); the 5d dummy (the dealer) has none.
    chien : card collection
    forced : (seat, contract) or None
        A forced contract for studies: that seat takes that contract, the auction is skipped
        (``bids`` is that bid at its turn and ``pass`` for everyone else).
    piles : per seat, 6 piles of 3 cards, each from bottom to top (table 2 only, R-VAR-TWO)
        The cards laid before each player; the last card of each pile starts face up.

    Raises
    ------
    RuleViolation
        Hands, piles and chien do not partition the deck with the sizes of R-DEAL-1 and
        R-VAR-TWO (R-DEAL-1, R-DEAL-6, R-VAR-TWO).
    """

    def __init__(self, rules: Rules, dealer: int, hands, chien, forced=None, piles=None):
        if rules.table not in HAND_SIZE:
            raise RuleViolation("R-GEN-1", f"table {rules.table} is not played by the reference engine")
        self.rules = rules
        self.table = rules.table
        self.n_seats = rules.n_seats
        if not (isinstance(dealer, int) and 0 <= dealer < self.n_seats):
            raise RuleViolation("R-GEN-2", f"dealer {echo.shown(dealer)} is not a seat of a table of {self.n_seats}")
        self.dealer = dealer
        self.dummy = dealer if self.table == "5d" else None            # R-DEAL-6
        self.order = dealing_order(rules, dealer)                        # R-GEN-2, active seats
        self.n_active = len(self.order)
        self.n_tricks = N_TRICKS[self.table]                             # R-DEAL-1, R-VAR-TWO
        self.two_player = self.table == "2"                              # R-VAR-TWO

        self.forced: tuple[int, str] | None = None   # (seat, contract) of a forced contract
        self.initial_hands = [in_order(as_cards(h)) for h in hands]
        self.chien = in_order(as_cards(chien))
        self.initial_piles = self._read_piles(piles)
        self._check_partition()
        self.hands = [list(h) for h in self.initial_hands]
        # R-VAR-TWO: the cards left in each pile (bottom to top) and whether its top is face up
        self.piles = [[list(p) for p in ps] for ps in self.initial_piles]
        self.face_up = [[True] * len(ps) for ps in self.initial_piles]

        self.bids: list[tuple[int, str]] = []
        self.outcome: str | None = None          # "played" | "all_passed" | "petit_sec" once known
        self.petit_sec_seat: int | None = None
        self.taker: int | None = None
        self.contract: str | None = None
        self.called: Card | None = None
        self.partner: int | None = None
        self.ecart: list[Card] = []
        self.chelem_announced = False
        self.declarations: list[dict] = []       # record form, in the order made
        self.tricks: list[Trick] = []
        self.leader: int | None = None
        self.trick: list[tuple[int, Card]] = []  # the trick being played
        self._poignee_decided: set[int] = set()
        self._misere_decided: set[tuple[int, str]] = set()
        self._poignee_shown: dict[int, tuple[str, list[Card]]] = {}
        self._miseres: list[tuple[int, str]] = []
        # filled when the deal ends
        self.scores: list[int] = [0] * self.n_seats
        self.result: dict | None = None
        self.breakdown: ScoreBreakdown | None = None
        self.attack_pile: list[Card] = []
        self.defence_pile: list[Card] = []
        self.attack_half_points: int | None = None
        self.defence_half_points: int | None = None

        if forced is not None:
            self.forced = self._check_forced(forced)

        # Step 1: petit sec (R-DEAL-4), seats in dealing order; it annuls a forced deal too.
        self.phase = "bid"   # "bid" "call" "ecart" "chelem" "play" "done"
        if rules.petit_sec == "redeal" and not self.two_player:  # no petit sec at table 2 (R-VAR-TWO)
            for seat in self.order:
                if self.is_petit_sec(self.initial_hands[seat]):
                    self.petit_sec_seat = seat
                    self._end_without_play("petit_sec")
                    return
        if self.forced is not None:
            seat, contract = self.forced
            for s in self.order:
                self.bids.append((s, contract if s == seat else "pass"))
            self._close_auction()

    # ------------------------------------------------------------------ the deal itself
    def _read_piles(self, piles) -> list[list[list[Card]]]:
        """The piles as cards (R-VAR-TWO): 6 piles of 3 per seat at table 2, none elsewhere."""
        n_piles = PILES.get(self.table, 0)
        if not n_piles:
            if piles is not None and any(piles):
                raise RuleViolation("R-VAR-TWO", f"piles are laid out at table 2 only, not at table {self.table}")
            return [[] for _ in range(self.n_seats)]
        if piles is None:
            raise RuleViolation("R-VAR-TWO", f"at table 2 each player has {n_piles} piles of {PILE_DEPTH} cards")
        piles = list(piles)
        if len(piles) != self.n_seats:
            raise RuleViolation("R-VAR-TWO", f"{len(piles)} sets of piles for a table of {self.n_seats} seats")
        out = []
        for seat, ps in enumerate(piles):
            ps = list(ps)
            if len(ps) != n_piles:
                raise RuleViolation("R-VAR-TWO", f"seat {seat} has {len(ps)} piles, not {n_piles}")
            cards = [as_cards(p) for p in ps]
            for k, p in enumerate(cards):
                if len(p) != PILE_DEPTH:
                    raise RuleViolation("R-VAR-TWO", f"pile {k + 1} of seat {seat} has {len(p)} cards, "
                                                     f"not {PILE_DEPTH}")
            out.append(cards)
        return out

    def _check_partition(self) -> None:
        """Hands, piles and chien hold the 78 cards once each, with the sizes of R-DEAL-1 and R-VAR-TWO."""
        if len(self.initial_hands) != self.n_seats:
            raise RuleViolation("R-DEAL-1", f"{len(self.initial_hands)} hands for a table of {self.n_seats} seats")
        size = HAND_SIZE[self.table]
        for seat, hand in enumerate(self.initial_hands):
            if seat == self.dummy:
                if hand:
                    raise RuleViolation("R-DEAL-6", f"the dummy (seat {seat}) is dealt no cards, not {len(hand)}")
            elif len(hand) != size:
                raise RuleViolation("R-DEAL-1", f"seat {seat} has {len(hand)} cards, not {size}")
        if len(self.chien) != CHIEN_SIZE[self.table]:
            raise RuleViolation("R-DEAL-1", f"the chien has {len(self.chien)} cards, not {CHIEN_SIZE[self.table]}")
        seen: set[Card] = set()
        pile_cards = [c for ps in self.initial_piles for p in ps for c in p]
        for c in [c for h in self.initial_hands for c in h] + pile_cards + self.chien:
            if c in seen:
                raise RuleViolation("R-DEAL-1", f"{c} is dealt twice")
            seen.add(c)
        if len(seen) != N_CARDS:  # cannot happen with the sizes above, kept for clarity
            raise RuleViolation("R-DEAL-1", "the deal does not hold the 78 cards")

    @staticmethod
    def is_petit_sec(hand) -> bool:
        """The Petit as the only trump, without the Excuse (R-DEAL-4)."""
        trumps = [c for c in hand if c.is_trump]
        return len(trumps) == 1 and trumps[0].id == PETIT and not any(c.is_excuse for c in hand)

    def _end_without_play(self, outcome: str):
        """Thrown in (all passed, R-BID-3) or annulled (petit sec, R-DEAL-4): all scores 0."""
        self.outcome = outcome
        self.phase = "done"
        self.scores = [0] * self.n_seats

    # ------------------------------------------------------------------ who acts
    def decision(self) -> Decision | None:
        """The next decision to make, or None when the deal is over."""
        if self.phase == "bid":
            return Decision("bid", self._next_bidder())
        if self.phase == "call":
            return Decision("call", self._taker)
        if self.phase == "ecart":
            return Decision("ecart", self._taker)
        if self.phase == "chelem":
            return Decision("chelem", self._taker)
        if self.phase == "play":
            seat = self.next_player()
            assert seat is not None  # someone plays next in the play phase
            if self.at_first_turn(seat) and not self.two_player:  # no poignée, no misère at 2 (R-VAR-TWO)
                if seat not in self._poignee_decided:
                    return Decision("poignee", seat)
                for kind in self.misere_kinds(seat):
                    if (seat, kind) not in self._misere_decided:
                        return Decision("misere_" + kind, seat)
            return Decision("card", seat)
        return None

    @property
    def done(self) -> bool:
        return self.phase == "done"

    @property
    def _taker(self) -> int:
        """The taker's seat, once the auction has one (every phase from "call" on)."""
        assert self.taker is not None
        return self.taker

    def side_of(self, seat: int) -> str | None:
        """``attack`` (taker, partner), ``defence``, or None for the 5d dummy (R-GEN-3)."""
        if seat == self.dummy:
            return None
        return "attack" if seat in (self.taker, self.partner) else "defence"

    # ------------------------------------------------------------------ auction (R-BID)
    def _next_bidder(self) -> int:
        return self.order[len(self.bids)]

    def _highest_bid(self) -> str | None:
        made = [b for _, b in self.bids if b != "pass"]
        return max(made, key=CONTRACTS.index) if made else None

    def legal_bids(self) -> list[str]:
        """``pass``, then every contract strictly above the highest so far (R-BID-2)."""
        if self.phase != "bid":
            return []
        best = self._highest_bid()
        floor = -1 if best is None else CONTRACTS.index(best)
        return ["pass"] + [c for i, c in enumerate(CONTRACTS) if i > floor]

    def bid(self, seat: int, bid: str):
        """Seat ``seat`` says ``bid`` (``pass`` or a contract)."""
        if self.phase != "bid":
            raise RuleViolation("R-BID-2", "the auction is over")
        if seat != self._next_bidder():
            raise RuleViolation("R-BID-2", f"seat {seat} speaks out of turn: seat {self._next_bidder()} is to bid")
        if bid not in BIDS:
            raise RuleViolation("R-BID-1", f"unknown bid {echo.shown(bid)}: pass or one of {', '.join(CONTRACTS)}")
        if bid not in self.legal_bids():
            raise RuleViolation("R-BID-2", f"{bid} is not higher than the bid so far, {self._highest_bid()}")
        self.bids.append((seat, bid))
        if len(self.bids) == self.n_active:
            self._close_auction()

    def _check_forced(self, forced) -> tuple[int, str]:
        seat, contract = forced
        if seat not in self.order:
            raise RuleViolation("R-BID-2", f"forced taker {seat} is not an active seat")
        if contract not in CONTRACTS:
            raise RuleViolation("R-BID-1", f"unknown contract {echo.shown(contract)}")
        return seat, contract

    def _close_auction(self):
        best = self._highest_bid()
        if best is None:
            self._end_without_play("all_passed")  # R-BID-3
            return
        self.taker = next(s for s, b in self.bids if b == best)
        self.contract = best
        if self.table == "5":
            self.phase = "call"
        else:
            self._after_call()

    # ------------------------------------------------------------------ call (R-CALL)
    def legal_calls(self) -> list[Card]:
        """Cards the taker may call, in id order (R-CALL-1), judged on his hand as dealt."""
        if self.phase != "call":
            return []
        hand = self.initial_hands[self._taker]
        ranks = [KING]
        for lower, needed in ((QUEEN, (KING,)), (KNIGHT, (KING, QUEEN)), (JACK, (KING, QUEEN, KNIGHT))):
            if all(sum(1 for c in hand if c.suit is not None and c.rank == r) == 4 for r in needed):
                ranks.append(lower)
        return sorted(c for c in DECK if c.suit is not None and c.rank in ranks)

    def call(self, seat: int, card):
        """The taker names the called card (table 5)."""
        if self.phase != "call":
            raise RuleViolation("R-CALL-1", "not the time to call a card")
        if seat != self.taker:
            raise RuleViolation("R-CALL-1", f"only the taker (seat {self.taker}) calls a card, not seat {seat}")
        card = as_card(card)
        if card not in self.legal_calls():
            raise RuleViolation("R-CALL-1", self._why_not_callable(card))
        self.called = card
        # R-CALL-2: partner = the holder of the called card among the other seats; alone if it
        # is in the taker's hand or in the chien (écart cards come from the hand or the chien).
        holder = next((s for s, h in enumerate(self.initial_hands) if card in h), None)
        self.partner = holder if holder is not None and holder != self.taker else None
        self._after_call()

    def _why_not_callable(self, card: Card) -> str:
        if card.suit is None:
            return f"{card} is not a king, queen, knight or jack"
        need = {QUEEN: "four kings", KNIGHT: "four kings and four queens",
                JACK: "four kings, queens and knights"}.get(card.rank)
        if need:
            return f"may call {card} only when holding all {need}"
        return f"{card} cannot be called: call a king (or a lower face card when holding all higher ones)"

    def _after_call(self):
        if CONTRACT_OF[self.contract].ecart_made:
            self.hands[self.taker] = in_order(self.hands[self.taker] + self.chien)  # R-CHIEN-1
            self.phase = "ecart"
        else:
            self.phase = "chelem"  # R-CHIEN-3, R-CHIEN-4: no écart

    # ------------------------------------------------------------------ chien and écart (R-CHIEN)
    @property
    def ecart_size(self) -> int:
        return len(self.chien)

    def ecart_normal(self) -> list[Card]:
        """Cards of the taker's enlarged hand that are neither trump, king nor Excuse (R-CHIEN-2)."""
        return [c for c in self.hands[self._taker] if c.suit is not None and not is_king(c)]

    def ecart_trump_choices(self) -> list[Card]:
        """Trumps T2..T20 of the taker's enlarged hand: the only trumps that may go to the écart."""
        return [c for c in self.hands[self._taker] if c.is_trump and not c.is_oudler]

    def ecart_trumps_needed(self) -> int:
        """Trumps the écart must hold: max(0, E − eligible non-trump cards) (R-CHIEN-2)."""
        return ecart_trumps_needed(self.ecart_size, len(self.ecart_normal()))

    def check_ecart(self, seat: int, cards) -> list[Card]:
        """Raise RuleViolation unless ``cards`` is a legal écart for ``seat``; return them sorted."""
        if self.phase != "ecart":
            raise RuleViolation("R-CHIEN-1", "not the time for an écart" + (
                f" (no écart at {self.contract}, R-CHIEN-3, R-CHIEN-4)"
                if self.contract is not None and not CONTRACT_OF[self.contract].ecart_made else ""))
        if seat != self.taker:
            raise RuleViolation("R-CHIEN-1", f"only the taker (seat {self.taker}) makes the écart")
        cards = as_cards(cards)
        if len(set(cards)) != len(cards):
            raise RuleViolation("R-CHIEN-1", "the écart names a card twice")
        if len(cards) != self.ecart_size:
            raise RuleViolation("R-CHIEN-1", f"the écart has {self.ecart_size} cards, not {len(cards)}")
        hand = self.hands[self.taker]
        for c in cards:
            if c not in hand:
                for owner in range(self.n_seats):
                    pile = self.pile_of(owner, c)
                    if pile is not None:
                        raise RuleViolation("R-VAR-TWO", f"the écart is made from the hand only: {c} lies in "
                                                         f"pile {pile + 1} of seat {owner}")
                raise RuleViolation("R-CHIEN-1", f"{c} is neither in the taker's hand nor in the chien")
        for c in cards:
            if is_king(c):
                raise RuleViolation("R-CHIEN-2", f"never a king in the écart: {c}")
            if c.is_oudler:
                raise RuleViolation("R-CHIEN-2", f"never an oudler in the écart: {c}")
        trumps = sum(1 for c in cards if c.is_trump)
        needed = self.ecart_trumps_needed()
        if trumps != needed:
            n_normal = len(self.ecart_normal())
            if needed == 0:
                msg = (f"a trump only when short of other cards: {n_normal} cards that are neither "
                       f"king, trump nor Excuse are available")
            else:
                msg = (f"exactly {needed} trump(s) must go to the écart (only {n_normal} other "
                       f"eligible cards), not {trumps}")
            raise RuleViolation("R-CHIEN-2", msg)
        return in_order(cards)

    def is_legal_ecart(self, seat: int, cards) -> bool:
        try:
            self.check_ecart(seat, cards)
        except (RuleViolation, ValueError):
            return False
        return True

    def discard(self, seat: int, cards):
        """The taker lays the écart aside (R-CHIEN-1, R-CHIEN-2)."""
        cards = self.check_ecart(seat, cards)
        self.hands[self._taker] = [c for c in self.hands[self._taker] if c not in cards]
        self.ecart = cards
        self.phase = "chelem"

    # ------------------------------------------------------------------ chelem (R-SLAM-1)
    def announce_chelem(self, seat: int, yes: bool = True):
        """The taker announces a slam (``yes``) or not; then play begins (R-SLAM-1, R-PLAY-1)."""
        if self.phase != "chelem":
            raise RuleViolation("R-SLAM-1", "a slam is announced after the auction, the call and the "
                                            "écart, before the first card")
        if seat != self.taker:
            raise RuleViolation("R-SLAM-1", f"only the taker (seat {self.taker}) may announce a slam")
        if yes:
            self.chelem_announced = True
            self.declarations.append({"seat": seat, "kind": "chelem"})
        self.leader = self.taker if yes else self.order[0]  # R-PLAY-1
        self.phase = "play"

    # ------------------------------------------------------------------ first turn: poignée, misère
    def next_player(self) -> int | None:
        """The seat to play the next card (R-PLAY-1, R-PLAY-2), or None outside the play."""
        if self.phase != "play":
            return None
        assert self.leader is not None  # set when the play starts
        start = self.order.index(self.leader)
        return self.order[(start + len(self.trick)) % self.n_active]

    def at_first_turn(self, seat: int) -> bool:
        """``seat`` is about to play its first card (in trick 1)."""
        return self.phase == "play" and not self.tricks and self.next_player() == seat

    def poignee_trumps(self, seat: int) -> list[Card]:
        """The trumps a seat may show in a poignée (R-POIG-3).

        Trumps ``seat`` may show (R-POIG-3): its trumps, plus for the taker the trumps he put
        in the écart when option ``poignee_ecart_trumps`` is on."""
        trumps = [c for c in self.hands[seat] if c.is_trump]
        if seat == self.taker and self.rules.poignee_ecart_trumps:
            trumps += [c for c in self.ecart if c.is_trump]
        return sorted(trumps)

    def poignee_levels(self, seat: int) -> list[str]:
        """Levels ``seat`` can show now, ascending: size ≤ trumps available (+1 with the Excuse)."""
        if not self.at_first_turn(seat) or seat in self._poignee_decided or self.two_player:
            return []
        n = len(self.poignee_trumps(seat)) + (1 if self._holds_excuse(seat) else 0)
        sizes = self._poignee_sizes()
        return [lv for lv, size in zip(POIGNEE_LEVELS, sizes) if size <= n]

    def default_poignee_cards(self, seat: int, level: str) -> list[Card]:
        """The poignée cards the random bot shows.

        The set the random bot shows: the lowest ``size`` trumps available, or all of them and
        the Excuse when it has exactly ``size − 1`` (docs/engine-contract.md)."""
        size = self._poignee_sizes()[POIGNEE_LEVELS.index(level)]
        trumps = self.poignee_trumps(seat)
        if len(trumps) >= size:
            return trumps[:size]
        return sorted(trumps + [DECK[EXCUSE]])

    def _poignee_sizes(self) -> tuple[int, int, int]:
        sizes = self.rules.poignee_sizes
        assert sizes is not None  # only table 2 has none, where no poignée is asked (R-VAR-TWO)
        return sizes

    def _holds_excuse(self, seat: int) -> bool:
        return DECK[EXCUSE] in self.hands[seat]

    def check_poignee(self, seat: int, level: str, cards) -> list[Card]:
        """Raise RuleViolation unless showing ``cards`` as a ``level`` poignée is legal now."""
        if self.two_player:
            raise RuleViolation("R-VAR-TWO", "there is no poignée at table 2")
        if self.phase != "play" or self.tricks or seat not in self.order:
            raise RuleViolation("R-POIG-2", "a poignée is shown at the first turn to play, before the first card")
        if self.next_player() != seat:
            raise RuleViolation("R-POIG-2", f"seat {seat} shows a poignée out of turn: "
                                            f"seat {self.next_player()} is to play")
        if seat in self._poignee_shown:
            raise RuleViolation("R-POIG-2", f"seat {seat} has already shown a poignée (at most one)")
        if seat in self._poignee_decided:
            raise RuleViolation("R-POIG-2", f"seat {seat} has passed its chance to show a poignée")
        if level not in POIGNEE_LEVELS:
            raise RuleViolation("R-POIG-1", f"unknown poignée level {echo.shown(level)}")
        size = self._poignee_sizes()[POIGNEE_LEVELS.index(level)]
        cards = as_cards(cards)
        if len(set(cards)) != len(cards):
            raise RuleViolation("R-POIG-2", "the poignée shows a card twice")
        if len(cards) != size:
            raise RuleViolation("R-POIG-2", f"a {level} poignée at table {self.table} is {size} cards, not {len(cards)}")
        available = self.poignee_trumps(seat)
        for c in cards:
            if c.is_excuse:
                if not self._holds_excuse(seat):
                    raise RuleViolation("R-POIG-3", f"seat {seat} does not hold the Excuse")
            elif not c.is_trump:
                raise RuleViolation("R-POIG-3", f"a poignée is made of trumps, not {c}")
            elif c not in available:
                where = " (écart trumps may not be shown: option poignee_ecart_trumps is off)" if c in self.ecart else ""
                raise RuleViolation("R-POIG-3", f"seat {seat} does not hold {c}{where}")
        if any(c.is_excuse for c in cards):
            hidden = [c for c in self.hands[seat] if c.is_trump and c not in cards]
            if hidden:
                raise RuleViolation("R-POIG-3", f"the Excuse may be shown only with every trump held: {hidden[0]} is not shown")
        return in_order(cards)

    def declare_poignee(self, seat: int, level: str | None = None, cards=None):
        """Show a poignée (``level`` and its ``cards``), or decline it (``level=None``).

        ``cards=None`` with a level shows :meth:`default_poignee_cards`.
        """
        if self.two_player:
            raise RuleViolation("R-VAR-TWO", "there is no poignée at table 2")
        if level is None:
            if not self.at_first_turn(seat):
                raise RuleViolation("R-POIG-2", "a poignée is decided at the first turn to play")
            self._poignee_decided.add(seat)
            return
        if cards is None:
            cards = self.default_poignee_cards(seat, level) if level in POIGNEE_LEVELS else []
        cards = self.check_poignee(seat, level, cards)
        self._poignee_decided.add(seat)
        self._poignee_shown[seat] = (level, cards)
        self.declarations.append({"seat": seat, "kind": "poignee", "level": level, "cards": names(cards)})

    def misere_kinds(self, seat: int) -> list[str]:
        """Misères ``seat`` is eligible for on its current hand, atout then tête (R-MIS-1).

        Empty when option ``misere`` is off. Atout: no trump (nor the Excuse when option
        ``misere_excuse_is_trump``); tête: no king, queen, knight or jack.
        """
        if not self.rules.misere or seat not in self.order or self.two_player:
            return []
        hand = self.hands[seat]
        out = []
        if not any(c.is_trump or (c.is_excuse and self.rules.misere_excuse_is_trump) for c in hand):
            out.append("atout")
        if not any(c.suit is not None and c.rank in FACE_RANKS for c in hand):
            out.append("tete")
        return out

    def declare_misere(self, seat: int, kind: str, yes: bool = True):
        """Declare (``yes``) or decline misère ``kind`` (``atout`` or ``tete``) at the first turn."""
        if kind not in MISERE_KINDS:
            raise RuleViolation("R-MIS-1", f"unknown misère {echo.shown(kind)}: atout or tete")
        if self.two_player:
            raise RuleViolation("R-VAR-TWO", "there is no misère at table 2")
        if not self.rules.misere:
            raise RuleViolation("R-MIS-1", "misère needs option misere on")
        if not self.at_first_turn(seat):
            raise RuleViolation("R-MIS-1", "a misère is declared at the first turn to play, with the poignée")
        if (seat, kind) in self._misere_decided:
            raise RuleViolation("R-MIS-1", f"seat {seat} has already decided on misère {kind}")
        if yes and kind not in self.misere_kinds(seat):
            what = {"atout": "holds a trump" + (" or the Excuse" if self.rules.misere_excuse_is_trump else ""),
                    "tete": "holds a king, queen, knight or jack"}[kind]
            raise RuleViolation("R-MIS-1", f"misère {kind} refused: seat {seat} {what}")
        self._misere_decided.add((seat, kind))
        if yes:
            self._miseres.append((seat, kind))
            self.declarations.append({"seat": seat, "kind": "misere_" + kind})

    # ------------------------------------------------------------------ piles (R-VAR-TWO)
    def face_up_tops(self, seat: int) -> list[Card]:
        """The face-up tops of ``seat``'s piles, pile by pile (public: both players see them)."""
        return [p[-1] for p, up in zip(self.piles[seat], self.face_up[seat]) if p and up]

    def playable(self, seat: int) -> list[Card]:
        """The cards a seat may choose from.

        Every card ``seat`` may choose from: its hand and, at table 2, its face-up pile tops
        (R-VAR-TWO). The hand itself (kept in id order) at the other tables: no copy per card."""
        if not self.two_player:
            return self.hands[seat]
        return in_order(self.hands[seat] + self.face_up_tops(seat))

    def pile_of(self, seat: int, card: Card) -> int | None:
        """The index of ``seat``'s pile that still holds ``card``, or None."""
        for k, p in enumerate(self.piles[seat]):
            if card in p:
                return k
        return None

    def _turn_up_piles(self) -> None:
        """After a trick, a pile whose top was played turns its next card up (R-VAR-TWO)."""
        for ps, ups in zip(self.piles, self.face_up):
            for k, p in enumerate(ps):
                if p and not ups[k]:
                    ups[k] = True

    # ------------------------------------------------------------------ play (R-PLAY, R-CALL-4, R-EXC)
    def _duty(self, seat: int):
        # R-VAR-TWO: the duties of R-PLAY-4 count every card the player may play, pile tops included
        trick_cards = [c for _, c in self.trick]
        return play_duty(self.playable(seat), trick_cards, called=self.called, first_trick=not self.tricks,
                         called_suit_after_excuse=self.rules.called_suit_after_excuse)

    def legal_cards(self, seat: int) -> list[Card]:
        """Cards ``seat`` may play now, in id order; [] when it is not that seat's turn to play."""
        if self.phase != "play" or self.next_player() != seat:
            return []
        return self._duty(seat)[0]

    def check_play(self, seat: int, card) -> Card:
        """Raise RuleViolation unless ``seat`` may play ``card`` now (R-PLAY-2, R-PLAY-4a to R-PLAY-4e, R-CALL-4)."""
        if self.phase != "play":
            raise RuleViolation("R-PLAY-2", "no card is played now")
        if seat != self.next_player():
            raise RuleViolation("R-PLAY-2", f"seat {seat} plays out of turn: seat {self.next_player()} is to play")
        card = as_card(card)
        allowed, rule_id, reason = self._duty(seat)
        if card not in allowed:  # the allowed cards are held: a held card is looked for only now
            if card not in self.hands[seat] and (not self.two_player or card not in self.face_up_tops(seat)):
                pile = self.pile_of(seat, card)
                if pile is not None:
                    raise RuleViolation("R-VAR-TWO", f"{card} lies face down in pile {pile + 1} of seat {seat}: "
                                                     f"only a face-up pile top may be played")
                raise RuleViolation("R-PLAY-2", f"seat {seat} does not hold {card}")
            raise RuleViolation(rule_id, reason)
        return card

    def play(self, seat: int, card):
        """``seat`` plays ``card``; declarations not made yet are declined."""
        card = self.check_play(seat, card)
        self._poignee_decided.add(seat)
        for kind in MISERE_KINDS:
            self._misere_decided.add((seat, kind))
        if not self.two_player or card in self.hands[seat]:
            self.hands[seat].remove(card)
        else:  # a face-up pile top (R-VAR-TWO): the card under it stays face down until the trick ends
            k = self.pile_of(seat, card)
            assert k is not None  # check_play allowed it
            self.piles[seat][k].pop()
            self.face_up[seat][k] = False
        self.trick.append((seat, card))
        if len(self.trick) == self.n_active:
            self._close_trick()

    def _close_trick(self):
        plays = tuple(self.trick)
        cards = [c for _, c in plays]
        last = len(self.tricks) == self.n_tricks - 1
        excuse_won = last and cards[0].is_excuse and self._excuse_lead_wins(plays[0][0])
        winner = plays[trick_winner(cards, excuse_won)][0]
        self.tricks.append(Trick(self.leader, plays, winner, excuse_won))
        self.trick = []
        self.leader = winner  # R-PLAY-1
        self._turn_up_piles()
        if len(self.tricks) == self.n_tricks:
            self._finish()

    def _excuse_lead_wins(self, seat: int) -> bool:
        """R-EXC-4: the Excuse led to the last trick by a seat whose side won every earlier trick."""
        side = self.side_of(seat)
        if self.rules.excuse_slam_lead == "attack_only" and side != "attack":
            return False
        return all(self.side_of(t.winner) == side for t in self.tricks)

    # ------------------------------------------------------------------ counting (R-EXC-2, R-EXC-3, R-EXC-4, R-EXC-5, R-COUNT, R-PAB)
    def _finish(self):
        self.outcome = "played"
        self.phase = "done"
        self._count_piles()
        facts = self.facts()
        self.breakdown = score(facts)
        b = self.breakdown
        self.scores = list(b.scores)
        self.result = {
            "attack_half_points": facts.attack_half_points,
            "oudlers": facts.oudlers,
            "made": b.made,
            "difference": b.difference,
            "petit_au_bout": facts.petit_au_bout,
            "chelem": facts.chelem,
            "value": b.value,
        }

    def _count_piles(self):
        """Both piles as cards, and their half-points with the Excuse's low-card debt (R-EXC-2).

        Outside the last trick the Excuse stays with its owner's side; if the other side won
        that trick, the owner side owes it one low card: owner −1 half-point, winners +1 (the
        same whether paid at once, later, or as "the Excuse counts 4"). In the last trick the
        Excuse goes to the trick's winner like any card (R-EXC-3; under R-EXC-4 it won it).
        """
        piles = {"attack": [], "defence": []}
        debt = {"attack": 0, "defence": 0}
        for i, t in enumerate(self.tricks):
            won_by = self.side_of(t.winner)
            for seat, card in t.plays:
                if card.is_excuse and i < self.n_tricks - 1:
                    owner = self.side_of(seat)
                    piles[owner].append(card)
                    if owner != won_by:
                        debt[owner] -= 1
                        debt[won_by] += 1
                else:
                    piles[won_by].append(card)
        contract = CONTRACT_OF[self.contract]
        # the écart (R-CHIEN-1) or the unseen chien (R-CHIEN-3: the attack's; R-CHIEN-4: the defence's)
        piles[contract.chien_to] += self.ecart if contract.ecart_made else self.chien
        self.attack_pile = in_order(piles["attack"])
        self.defence_pile = in_order(piles["defence"])
        self.attack_half_points = sum(c.half_points for c in self.attack_pile) + debt["attack"]
        self.defence_half_points = sum(c.half_points for c in self.defence_pile) + debt["defence"]

    def petit_au_bout(self) -> str | None:
        """Side that earns the petit au bout, or None (R-PAB-1, R-PAB-2)."""
        last = self.tricks[-1]
        petit = DECK[PETIT]
        if petit in last.cards:
            return self.side_of(last.winner)
        if (last.excuse_won and self.rules.pab_slam_penultimate and len(self.tricks) >= 2
                and petit in self.tricks[-2].cards):
            return self.side_of(last.winner)
        return None

    def chelem_outcome(self) -> str | None:
        """The slam outcome as scoring names it (R-SLAM-2, R-SLAM-3)."""
        sides = {self.side_of(t.winner) for t in self.tricks}
        announced = "announced_" if self.chelem_announced else ""
        if sides == {"attack"}:
            return announced + "made"
        if sides == {"defence"}:
            return announced + "defence"
        return "announced_failed" if self.chelem_announced else None

    def facts(self) -> DealFacts:
        """The facts of the finished deal for :func:`tarotsim.scoring.score` (R-SCORE-5)."""
        if self.outcome != "played":
            raise RuleViolation("R-SCORE-5", "only a played deal has facts to score")
        assert self.contract is not None and self.attack_half_points is not None  # a played deal has both
        poignees = tuple((self._poignee_shown[s][0], self.side_of(s))
                         for s in [d["seat"] for d in self.declarations if d["kind"] == "poignee"])
        return DealFacts(
            rules=self.rules,
            contract=self.contract,
            attack_half_points=self.attack_half_points,
            oudlers=sum(1 for c in self.attack_pile if c.is_oudler),   # R-COUNT-2, R-EXC-5
            taker=self._taker,
            partner=self.partner,
            dummy=self.dummy,
            petit_au_bout=self.petit_au_bout(),
            poignees=poignees,
            chelem=self.chelem_outcome(),
            miseres=tuple(self._miseres),
        )
