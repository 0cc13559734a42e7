/*
 * Full random deals of French Tarot at table 4, hand-written in C: the yardstick of the tarotsim
 * deal kernel. benchmarks/cbaseline.py compiles this file at run time (gcc -O3 -march=native),
 * loads it with ctypes and times both on the same deals; its docstring says what work is the
 * same and what is not.
 *
 * Written from docs/rules.md (the rule ids below) and docs/engine-contract.md (the draws of the
 * random player, in their order), so a deal here is the tarotsim deal of the same (seed, index):
 * the same cards, bids, écart, declarations, tricks and scores.
 *
 * Cards: id 0 the Excuse, 1..21 the trumps, 22 + 14 * suit + rank - 1 the suit cards (suits S H D
 * C, ranks 1..10, then jack 11, knight 12, queen 13, king 14). A set of cards is two words: the
 * trump word (bit c of card c < 22) and the suit word (bit c - 22 of a suit card).
 */

#include <stdint.h>
#include <stdlib.h>
#ifdef __BMI2__
#include <immintrin.h>
#endif

typedef uint64_t u64;
typedef int64_t i64;

enum { SEATS = 4, HAND = 18, CHIEN = 6, TRICKS = 18, DECK = 78, SUIT_BASE = 22 };
enum { PRISE, GARDE, GARDE_SANS, GARDE_CONTRE };
enum { DECL_POIGNEE, DECL_CHELEM, DECL_MISERE_ATOUT, DECL_MISERE_TETE };
enum { PLAYED, ALL_PASSED, PETIT_SEC };
enum { CHELEM_NONE, CHELEM_ANNOUNCED_MADE, CHELEM_MADE, CHELEM_ANNOUNCED_FAILED, CHELEM_DEFENCE,
       CHELEM_ANNOUNCED_DEFENCE };

#define EXCUSE 1ULL
#define PETIT 2ULL
#define T21 (1ULL << 21)
#define TRUMPS 0x3FFFFEULL                     /* T1..T21 */
#define OUDLERS (EXCUSE | PETIT | T21)         /* R-CARD-3 */
#define ECART_TRUMPS (TRUMPS & ~(PETIT | T21)) /* T2..T20 (R-CHIEN-2) */
#define SUIT 0x3FFFULL                         /* one suit's 14 cards, at suit 0 */
#define RANK(r) ((1ULL << ((r) - 1)) * (1ULL | 1ULL << 14 | 1ULL << 28 | 1ULL << 42))
#define KINGS RANK(14)
#define QUEENS RANK(13)
#define KNIGHTS RANK(12)
#define JACKS RANK(11)
#define HONOURS (KINGS | QUEENS | KNIGHTS | JACKS)

/* The splitmix64 streams of docs/engine-contract.md (tarotsim/rng.py): a state per (seed, index,
 * stream); the cards stream shuffles, the bots stream makes every random decision. */
enum { STREAM_CARDS = 0, STREAM_BOTS = 1 };
#define GOLDEN 0x9E3779B97F4A7C15ULL

static inline u64 mix64(u64 z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static inline u64 stream_state(u64 seed, u64 index, u64 stream)
{
    u64 h = mix64(seed + GOLDEN);
    h = mix64((h ^ index) + GOLDEN);
    return mix64((h ^ stream) + GOLDEN);
}

/* A uniform number in 0..n-1 (n < 2**31): the high 32 bits of the next output, scaled. */
static inline int below(u64 *st, int n)
{
    *st += GOLDEN;
    return (int)(((mix64(*st) >> 32) * (u64)n) >> 32);
}

static inline int popcount(u64 x) { return __builtin_popcountll(x); }

/* The k-th set bit of mask (k from 0) as a one-bit mask. */
static inline u64 kth_bit(u64 mask, int k)
{
#ifdef __BMI2__
    return _pdep_u64(1ULL << k, mask);
#else
    for (; k > 0; k--)
        mask &= mask - 1;
    return mask & -mask;
#endif
}

static inline int kth_index(u64 mask, int k) { return __builtin_ctzll(kth_bit(mask, k)); }

/* Half-points of a set of cards (R-CARD-4, R-GEN-4): 1 each, 9 an oudler or a king, 7 a queen,
 * 5 a knight, 3 a jack. */
static inline int half_points(u64 t, u64 s)
{
    return popcount(t) + 8 * popcount(t & OUDLERS) + popcount(s) + 8 * popcount(s & KINGS)
           + 6 * popcount(s & QUEENS) + 4 * popcount(s & KNIGHTS) + 2 * popcount(s & JACKS);
}

/* The options of docs/rules.md §14 that a table-4 deal reads, in this order (cbaseline.py fills
 * them from tarotsim.rules.Rules). */
enum { O_PETIT_SEC, O_EXCUSE_SLAM_EITHER_SIDE, O_PAB_SLAM_PENULTIMATE, O_PAB_MULTIPLIED, O_POIGNEE_TO_WINNER,
       O_POIGNEE_ECART_TRUMPS, O_DEFENCE_SLAM_BONUS, O_MISERE, O_MISERE_VALUE, O_MISERE_EXCUSE_IS_TRUMP, O_LEN };

/* One deal as its record holds it (docs/records.md), filled as the deal is played. */
struct record {
    i64 index;
    int8_t dealer, outcome, taker, contract, petit_sec_seat, slam_announced, n_ecart, n_decl;
    u64 hand_t[SEATS], hand_s[SEATS], chien_t, chien_s;
    int8_t bid_seat[SEATS], bid[SEATS];
    int8_t ecart[CHIEN];
    struct { int8_t seat, kind, level; u64 cards; } decl[1 + 3 * SEATS];
    int8_t leader[TRICKS], winner[TRICKS], cards[TRICKS][SEATS];
    /* the count and the score (R-COUNT, R-SCORE-1) */
    int16_t attack_hp, oudlers, attack_tricks, made, difference, pab, chelem, poignee_attack, poignee_defence,
        n_miseres;
    int32_t target_hp, multiplier, contract_term, pab_term, poignee_term, slam_term, value;
    int32_t scores[SEATS], miseres[SEATS];
};

/* The totals of a run of deals, in this order (cbaseline.TOTALS names them). */
enum { T_DEALS, T_PLAYED, T_ALL_PASSED, T_PETIT_SEC, T_TAKEN, T_MADE = T_TAKEN + 4, T_ATTACK_HP = T_MADE + 4,
       T_SCORE_SUM = T_ATTACK_HP + 4, T_TAKER_SCORE_SUM = T_SCORE_SUM + SEATS, T_PAB_ATTACK, T_PAB_DEFENCE,
       T_CHELEM, T_POIGNEES = T_CHELEM + 6, T_MISERES, T_LEN };

static void declare(struct record *r, int seat, int kind, int level, u64 cards)
{
    int n = r->n_decl++;
    r->decl[n].seat = (int8_t)seat;
    r->decl[n].kind = (int8_t)kind;
    r->decl[n].level = (int8_t)level;
    r->decl[n].cards = cards;
}

/* The random écart (R-CHIEN-2; the draws of docs/engine-contract.md): normal holds the suit cards
 * other than kings of the enlarged hand, trumps its T2..T20. */
static void random_ecart(u64 normal, u64 trumps, u64 *bst, u64 *et, u64 *es, struct record *r)
{
    int n_normal = popcount(normal), n = 0;
    *et = 0;
    *es = 0;
    if (n_normal >= CHIEN) {
        for (int i = 0; i < CHIEN; i++) {
            u64 b = kth_bit(normal, below(bst, n_normal - i));
            normal ^= b;
            *es |= b;
            r->ecart[n++] = (int8_t)(SUIT_BASE + __builtin_ctzll(b));
        }
        return;
    }
    *es = normal;
    for (u64 m = normal; m; m &= m - 1)
        r->ecart[n++] = (int8_t)(SUIT_BASE + __builtin_ctzll(m));
    int cands = popcount(trumps);
    for (int i = 0; i < CHIEN - n_normal; i++) {
        u64 b = kth_bit(trumps, below(bst, cands - i));
        trumps ^= b;
        *et |= b;
        r->ecart[n++] = (int8_t)__builtin_ctzll(b);
    }
}

/* Score the deal (R-COUNT-3, R-COUNT-4, R-PAB-3, R-POIG-4, R-SLAM-3, R-SCORE-1, R-SCORE-2, R-MIS-2). */
static void score(const i64 *o, int slam_side, int poignee_att, int poignee_def, struct record *r)
{
    static const int multiplier[4] = {1, 2, 4, 6};
    static const int target[4] = {56, 51, 41, 36};
    int m = multiplier[r->contract];
    int target_hp = 2 * target[r->oudlers];
    int gap = r->attack_hp - target_hp;
    int made = gap >= 0, s = made ? 1 : -1;
    int d = (abs(gap) + 1) / 2; /* a half point counts for the side ahead */
    int contract_term = s * (25 + d) * m;
    int pab_term = r->pab * 10 * (o[O_PAB_MULTIPLIED] ? m : 1);
    int poignee_term = o[O_POIGNEE_TO_WINNER] ? s * (poignee_att + poignee_def) : poignee_att - poignee_def;
    int slam_term;
    if (slam_side == 1)
        slam_term = r->slam_announced ? 400 : 200;
    else
        slam_term = (r->slam_announced ? -200 : 0) - (slam_side == -1 ? (int)o[O_DEFENCE_SLAM_BONUS] : 0);
    int value = contract_term + pab_term + poignee_term + slam_term;
    for (int seat = 0; seat < SEATS; seat++)
        r->scores[seat] = seat == r->taker ? 3 * value : -value;
    for (int seat = 0; seat < SEATS; seat++)
        if (r->miseres[seat])
            for (int other = 0; other < SEATS; other++)
                r->scores[other] += (int32_t)(r->miseres[seat] * o[O_MISERE_VALUE] * (other == seat ? SEATS - 1 : -1));
    r->target_hp = target_hp;
    r->made = (int16_t)made;
    r->difference = (int16_t)(s * d);
    r->multiplier = m;
    r->contract_term = contract_term;
    r->pab_term = pab_term;
    r->poignee_term = poignee_term;
    r->slam_term = slam_term;
    r->value = value;
    r->poignee_attack = (int16_t)poignee_att;
    r->poignee_defence = (int16_t)poignee_def;
    if (slam_side == 1)
        r->chelem = r->slam_announced ? CHELEM_ANNOUNCED_MADE : CHELEM_MADE;
    else if (slam_side == -1)
        r->chelem = r->slam_announced ? CHELEM_ANNOUNCED_DEFENCE : CHELEM_DEFENCE;
    else
        r->chelem = r->slam_announced ? CHELEM_ANNOUNCED_FAILED : CHELEM_NONE;
}

/* One whole deal (seed, index) into r: the steps of docs/engine-contract.md in order. */
static void play_deal(const i64 *o, u64 seed, i64 index, struct record *r)
{
    int dealer = (int)(index % SEATS), first = (dealer + 1) % SEATS;
    r->index = index;
    r->dealer = (int8_t)dealer;
    r->outcome = PLAYED;
    r->taker = r->contract = r->petit_sec_seat = -1;
    r->slam_announced = 0;
    r->n_ecart = 0;
    r->n_decl = 0;
    r->n_miseres = 0;
    for (int s = 0; s < SEATS; s++)
        r->scores[s] = r->miseres[s] = 0;

    /* R-DEAL-1, R-DEAL-2: the pack shuffled (Fisher-Yates from the top), hands of 18 cards in
     * dealing order from the dealer's right, the last 6 cards the chien */
    u64 st = stream_state(seed, (u64)index, STREAM_CARDS);
    uint8_t deck[DECK];
    for (int i = 0; i < DECK; i++)
        deck[i] = (uint8_t)i;
    for (int i = DECK - 1; i > 0; i--) {
        int j = below(&st, i + 1);
        uint8_t x = deck[i];
        deck[i] = deck[j];
        deck[j] = x;
    }
    u64 ht[SEATS], hs[SEATS];
    for (int k = 0; k < SEATS; k++) {
        int seat = (first + k) % SEATS;
        u64 t = 0, s = 0;
        for (int p = k * HAND; p < (k + 1) * HAND; p++) {
            if (deck[p] < SUIT_BASE)
                t |= 1ULL << deck[p];
            else
                s |= 1ULL << (deck[p] - SUIT_BASE);
        }
        ht[seat] = r->hand_t[seat] = t;
        hs[seat] = r->hand_s[seat] = s;
    }
    u64 chien_t = 0, chien_s = 0;
    for (int p = SEATS * HAND; p < DECK; p++) {
        if (deck[p] < SUIT_BASE)
            chien_t |= 1ULL << deck[p];
        else
            chien_s |= 1ULL << (deck[p] - SUIT_BASE);
    }
    r->chien_t = chien_t;
    r->chien_s = chien_s;

    /* R-DEAL-4: a petit sec (the Petit alone, without the Excuse) annuls the deal */
    if (o[O_PETIT_SEC]) {
        for (int k = 0; k < SEATS; k++) {
            int seat = (first + k) % SEATS;
            if (ht[seat] == PETIT) {
                r->outcome = PETIT_SEC;
                r->petit_sec_seat = (int8_t)seat;
                return;
            }
        }
    }

    /* R-BID-1, R-BID-2, R-BID-3: each seat once, pass or a contract above the highest */
    u64 bst = stream_state(seed, (u64)index, STREAM_BOTS);
    int highest = -1, taker = -1;
    for (int k = 0; k < SEATS; k++) {
        int seat = (first + k) % SEATS;
        int pick = below(&bst, 4 - highest);
        int bid = pick ? highest + pick : -1;
        r->bid_seat[k] = (int8_t)seat;
        r->bid[k] = (int8_t)bid;
        if (bid >= 0) {
            highest = bid;
            taker = seat;
        }
    }
    if (taker < 0) {
        r->outcome = ALL_PASSED;
        return;
    }
    int contract = highest;
    r->taker = (int8_t)taker;
    r->contract = (int8_t)contract;

    /* R-CHIEN-1 to R-CHIEN-4: the attack's pile starts with the écart or the unseen chien */
    u64 pile_t = 0, pile_s = 0, ecart_t = 0;
    if (contract <= GARDE) {
        u64 et, es;
        random_ecart((hs[taker] | chien_s) & ~KINGS, (ht[taker] | chien_t) & ECART_TRUMPS, &bst, &et, &es, r);
        r->n_ecart = CHIEN;
        ht[taker] = (ht[taker] | chien_t) & ~et;
        hs[taker] = (hs[taker] | chien_s) & ~es;
        pile_t = ecart_t = et;
        pile_s = es;
    } else if (contract == GARDE_SANS) {
        pile_t = chien_t;
        pile_s = chien_s;
    }

    /* R-SLAM-1, R-PLAY-1: an announced chelem makes the taker lead */
    int leader = first;
    if (below(&bst, 2)) {
        r->slam_announced = 1;
        declare(r, taker, DECL_CHELEM, 0, 0);
        leader = taker;
    }

    /* R-PLAY-2 to R-PLAY-5, R-EXC-1 to R-EXC-4, R-PAB-1, R-PAB-2: the tricks */
    int poignee_att = 0, poignee_def = 0, att_tricks = 0, exc_adj = 0, pab = 0;
    u64 prev_t = 0;
    for (int tr = 0; tr < TRICKS; tr++) {
        int seat = leader, win = leader, exc = -1, best = -1;
        int led = 0;        /* R-PLAY-3: set by the first card other than the Excuse */
        u64 led_suit = 0;   /* the led suit's mask, 0 when trumps were led */
        u64 above = TRUMPS; /* the trumps above the highest one in the trick */
        u64 tt = 0, ts = 0;
        r->leader[tr] = (int8_t)leader;
        for (int pos = 0; pos < SEATS; pos++) {
            u64 t = ht[seat], s = hs[seat];
            if (tr == 0) {
                /* R-POIG-1 to R-POIG-3: a poignée at the first turn, then R-MIS-1 */
                u64 avail = t & TRUMPS;
                if (seat == taker && o[O_POIGNEE_ECART_TRUMPS])
                    avail |= ecart_t;
                int cap = popcount(avail) + (int)(t & EXCUSE);
                int levels = (cap >= 10) + (cap >= 13) + (cap >= 15);
                int level = below(&bst, levels + 1);
                if (level) {
                    static const int size[3] = {10, 13, 15}, bonus[3] = {20, 30, 40};
                    int n = size[level - 1];
                    u64 shown = popcount(avail) >= n ? avail & ((kth_bit(avail, n - 1) << 1) - 1) : avail | EXCUSE;
                    declare(r, seat, DECL_POIGNEE, level, shown);
                    if (seat == taker)
                        poignee_att += bonus[level - 1];
                    else
                        poignee_def += bonus[level - 1];
                }
                if (o[O_MISERE]) {
                    if ((t & TRUMPS) == 0 && !(o[O_MISERE_EXCUSE_IS_TRUMP] && (t & EXCUSE)) && below(&bst, 2)) {
                        declare(r, seat, DECL_MISERE_ATOUT, 0, 0);
                        r->miseres[seat]++;
                        r->n_miseres++;
                    }
                    if ((s & HONOURS) == 0 && below(&bst, 2)) {
                        declare(r, seat, DECL_MISERE_TETE, 0, 0);
                        r->miseres[seat]++;
                        r->n_miseres++;
                    }
                }
            }
            /* the legal cards: the leader and a player before the suit is set are free (R-PLAY-3);
             * else R-PLAY-4a to R-PLAY-4e, the Excuse always allowed (R-EXC-1) */
            u64 lt = t, ls = s;
            if (led) {
                u64 follow = s & led_suit;
                u64 trumps = t & TRUMPS;
                u64 over = trumps & above;
                if (follow) {
                    lt = t & EXCUSE;
                    ls = follow;
                } else if (trumps) {
                    lt = (over ? over : trumps) | (t & EXCUSE);
                    ls = 0;
                }
            }
            /* the random card: uniform over the legal cards in id order */
            int nt = popcount(lt);
            int k = below(&bst, nt + popcount(ls));
            int c;
            u64 bt = 0, bs = 0;
            if (k < nt) {
                bt = kth_bit(lt, k);
                c = __builtin_ctzll(bt);
            } else {
                bs = kth_bit(ls, k - nt);
                c = SUIT_BASE + __builtin_ctzll(bs);
            }
            ht[seat] = t ^ bt;
            hs[seat] = s ^ bs;
            tt |= bt;
            ts |= bs;
            r->cards[tr][pos] = (int8_t)c;
            /* R-PLAY-3, R-PLAY-5: the led suit, the highest trump, the card winning so far */
            if (c == 0) {
                exc = seat;
            } else {
                if (!led) {
                    led = 1;
                    led_suit = bs ? SUIT << (14 * ((c - SUIT_BASE) / 14)) : 0;
                }
                if (bt) {
                    if (bt & above) {
                        above = TRUMPS & ~((bt << 1) - 1);
                        best = 100;
                        win = seat;
                    }
                } else if (best < 100 && (bs & led_suit) && c > best) {
                    best = c;
                    win = seat;
                }
            }
            seat = (seat + 1) % SEATS;
        }
        /* the Excuse and the trick's cards to their piles (R-EXC-2, R-EXC-3, R-EXC-4, R-COUNT-1) */
        int last = tr == TRICKS - 1, exc4 = 0;
        if (exc >= 0) {
            int own_att = exc == taker;
            if (!last) {
                tt &= ~EXCUSE; /* R-EXC-2: it stays with its side, for one low card if the trick is lost */
                if (own_att)
                    pile_t |= EXCUSE;
                if (own_att != (win == taker))
                    exc_adj += own_att ? -1 : 1;
            } else if (exc == leader && (own_att ? att_tricks == TRICKS - 1 : att_tricks == 0)
                       && (own_att || o[O_EXCUSE_SLAM_EITHER_SIDE])) {
                win = leader; /* R-EXC-4 */
                exc4 = 1;
            }
        }
        r->winner[tr] = (int8_t)win;
        if (win == taker) {
            pile_t |= tt;
            pile_s |= ts;
            att_tricks++;
        }
        if (last) {
            if ((tt & PETIT) || (exc4 && o[O_PAB_SLAM_PENULTIMATE] && (prev_t & PETIT))) /* R-PAB-1, R-PAB-2 */
                pab = win == taker ? 1 : -1;
        }
        prev_t = tt;
        leader = win;
    }

    /* R-COUNT-1, R-COUNT-2, R-EXC-5, R-SLAM-2 */
    r->attack_hp = (int16_t)(half_points(pile_t, pile_s) + exc_adj);
    r->oudlers = (int16_t)popcount(pile_t & OUDLERS);
    r->attack_tricks = (int16_t)att_tricks;
    r->pab = (int16_t)pab;
    score(o, att_tricks == TRICKS ? 1 : att_tricks == 0 ? -1 : 0, poignee_att, poignee_def, r);
}

static void add_to_totals(const struct record *r, i64 *tot)
{
    tot[T_DEALS]++;
    if (r->outcome == ALL_PASSED) {
        tot[T_ALL_PASSED]++;
        return;
    }
    if (r->outcome == PETIT_SEC) {
        tot[T_PETIT_SEC]++;
        return;
    }
    tot[T_PLAYED]++;
    tot[T_TAKEN + r->contract]++;
    tot[T_MADE + r->contract] += r->made;
    tot[T_ATTACK_HP + r->contract] += r->attack_hp;
    for (int s = 0; s < SEATS; s++)
        tot[T_SCORE_SUM + s] += r->scores[s];
    tot[T_TAKER_SCORE_SUM] += r->scores[r->taker];
    tot[T_PAB_ATTACK] += r->pab == 1;
    tot[T_PAB_DEFENCE] += r->pab == -1;
    tot[T_CHELEM + r->chelem]++;
    tot[T_POIGNEES] += r->poignee_attack + r->poignee_defence > 0;
    tot[T_MISERES] += r->n_miseres;
}

/* The deals start .. start + count - 1 of seed under the options o (O_*), added into tot (T_*). */
void cb_run(u64 seed, i64 start, i64 count, const i64 *o, i64 *tot)
{
    struct record r;
    for (i64 i = 0; i < count; i++) {
        play_deal(o, seed, start + i, &r);
        add_to_totals(&r, tot);
    }
}

/* One deal, for the tests: its outcome, taker, contract, attack half-points, oudlers, petit au
 * bout, chelem code, value, the four scores and its 72 cards in playing order (out: 84 slots). */
void cb_deal(u64 seed, i64 index, const i64 *o, i64 *out)
{
    struct record r;
    play_deal(o, seed, index, &r);
    i64 head[8] = {r.outcome, r.taker, r.contract, r.attack_hp, r.oudlers, r.pab, r.chelem, r.value};
    for (int i = 0; i < 8; i++)
        out[i] = r.outcome == PLAYED || i < 3 ? head[i] : 0;
    for (int s = 0; s < SEATS; s++)
        out[8 + s] = r.outcome == PLAYED ? r.scores[s] : 0;
    for (int i = 0; i < TRICKS * SEATS; i++)
        out[12 + i] = r.outcome == PLAYED ? r.cards[i / SEATS][i % SEATS] : -1;
}

int cb_totals_len(void) { return T_LEN; }
int cb_options_len(void) { return O_LEN; }
