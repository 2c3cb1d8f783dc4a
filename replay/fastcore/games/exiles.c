/* The kernel of exiles (replay/games/exiles.py): its legal moves in the engine's order and its moves
 * carried out, every ruling included (foundations, reversal, reversal-bases, replacement-number, redeals,
 * play-during-deal, rule-three, chain-king, thirteenth-packet).  The bases of foundations = withdrawn-first
 * come on the table from the engine (Setup.bases); nothing else of that reading is the kernel's.
 *
 * Options (game->opt, written by exiles._fast_options), in this order:
 *   exiles pile, recheck_replacement (1: replacement-number = same), play_after_deal (1: after),
 *   passes (the last pass allowed), one_of_each (1: foundations = withdrawn-first or aces-and-kings),
 *   reversal (0 one-card, 1 unlimited, 2 both-directions), bases_stay (1: reversal-bases = bases-stay),
 *   king_ends (1: chain-king = ends-chain), spread (packet 13's container under thirteenth-packet = spread,
 *   else -1),
 *   np, the np packets in deal order (packet 1 first), ng, the gather order (ng piles),
 *   ns, then ns pairs (foundation, step): foundation_steps (card + step = the next card).
 *
 * Vars (Table.vars; exiles._fast_vars writes them and exiles._fast_vars_back reads them back):
 *   [0]      the travelling chain's packet (container index), 0xFF for None          (vars 'chain')
 *   [1..4]   cards changed between the orders (counted under reversal = one-card only), uint32 LE (vars 'reversed')
 *   [5]      how many positions the chain has been in                           (len(vars '_seen'))
 *   [6..]    those positions' codes, 8 bytes each (little-endian), oldest first: the engine's own code
 *            of a position (exiles._positions: the packets in deal order, each one's cards bottom first
 *            and closed by the byte 255, read as one little-endian number modulo 2**61 - 1), so the two
 *            lists are the same numbers.
 */
#include "core.h"

enum { O_EXILES, O_RECHECK, O_AFTER, O_PASSES, O_ONE_EACH, O_REVERSAL, O_BASES_STAY, O_KING_ENDS, O_SPREAD, O_NP,
       O_PACKETS };
enum { REV_ONE_CARD = 0, REV_UNLIMITED = 1, REV_BOTH = 2 };
enum { V_CHAIN = 0, V_REV = 1, V_NSEEN = 5, V_SEEN = 6 };
#define NO_CHAIN 0xFF
#define MAX_SEEN ((FC_VARS - V_SEEN) / 8)

/* ---- options ---- */
static inline int np_(const fc_game *g) { return g->opt[O_NP]; }
static inline int packet(const fc_game *g, int k) { return g->opt[O_PACKETS + k]; }
static inline int ngather(const fc_game *g) { return g->opt[O_PACKETS + np_(g)]; }
static inline int gathered(const fc_game *g, int k) { return g->opt[O_PACKETS + np_(g) + 1 + k]; }
static inline int nsteps(const fc_game *g) { return g->opt[O_PACKETS + np_(g) + 1 + ngather(g)]; }
static inline int step_f(const fc_game *g, int k) { return g->opt[O_PACKETS + np_(g) + 2 + ngather(g) + 2 * k]; }
static inline int step_d(const fc_game *g, int k) { return g->opt[O_PACKETS + np_(g) + 3 + ngather(g) + 2 * k]; }

/* ---- vars ---- */
static inline int chain_of(const fc_state *s) { return s->vars[V_CHAIN] == NO_CHAIN ? -1 : s->vars[V_CHAIN]; }
static inline uint32_t reversed_of(const fc_state *s) {
    return (uint32_t)s->vars[V_REV] | (uint32_t)s->vars[V_REV + 1] << 8 | (uint32_t)s->vars[V_REV + 2] << 16 |
           (uint32_t)s->vars[V_REV + 3] << 24;
}
static inline void set_reversed(fc_state *s, uint32_t r) {
    for (int k = 0; k < 4; k++) s->vars[V_REV + k] = (uint8_t)(r >> (8 * k));
}
static inline uint64_t seen_at(const fc_state *s, int k) {
    uint64_t h = 0;
    for (int b = 7; b >= 0; b--) h = h << 8 | s->vars[V_SEEN + 8 * k + b];
    return h;
}
static inline void set_seen_count(fc_state *s, int k) {
    s->vars[V_NSEEN] = (uint8_t)k;
    s->vlen = (uint16_t)(V_SEEN + 8 * k);
}

/* card's number for counting (cards.value_of): ace 1 … king 13 */
static inline int value_of(int card) { return (card >> 2) + 1; }


/* mirrors _base_allowed, and one_foundation_of_each_suit_per_kind (ex-6) where one_of_each holds */
static int base_allowed(const fc_game *g, const fc_state *s, int f, int card) {
    if (fc_len(s, f) || !g->opt[O_ONE_EACH]) return 1;
    for (int k = 0; k < g->nfound; k++) {
        int h = g->found[k];
        if (h != f && g->fbase[h] == g->fbase[f] && s->fsuit[h] == fc_suit(card)) return 0;
    }
    return 1;
}

/* mirrors _foundation_play_exists: the top card of some packet (any card of a spread packet 13) can go to a
 * foundation */
static int foundation_play_exists(const fc_game *g, const fc_state *s) {
    uint64_t tops = 0;
    for (int k = 0; k < np_(g); k++) {
        int c = fc_top(s, packet(g, k));
        if (c >= 0) tops |= 1ULL << c;
    }
    const int spread = g->opt[O_SPREAD];
    if (spread >= 0)
        for (int x = 0; x < fc_len(s, spread); x++) tops |= 1ULL << fc_at(s, spread, x);
    if (!tops) return 0;
    int empty[FC_MAXC], ne = 0;
    for (int k = 0; k < nsteps(g); k++) {
        int f = step_f(g, k);
        int top = fc_top(s, f);
        if (top >= 0) {
            int next = top + step_d(g, k);
            if (next >= 0 && next < 52 && (tops >> next & 1)) return 1;
        } else {
            empty[ne++] = f;
        }
    }
    if (!ne) return 0;
    int owner[13][4];  /* {(fbase, fsuit): foundation}, the last one listed winning (a dict) */
    for (int r = 0; r < 13; r++)
        for (int u = 0; u < 4; u++) owner[r][u] = -1;
    if (g->opt[O_ONE_EACH])
        for (int k = 0; k < g->nfound; k++) {
            int h = g->found[k];
            if (s->fsuit[h] >= 0 && g->fbase[h] >= 0 && g->fbase[h] < 13) owner[g->fbase[h]][s->fsuit[h]] = h;
        }
    for (int c = 0; c < 52; c++) {
        if (!(tops >> c & 1)) continue;
        int rank = c >> 2, suit = c & 3;
        for (int e = 0; e < ne; e++) {
            int f = empty[e];
            if (g->fbase[f] != rank) continue;
            if ((s->fsuit[f] == -1 || s->fsuit[f] == suit) && (owner[rank][suit] < 0 || owner[rank][suit] == f))
                return 1;
        }
    }
    return 0;
}

static inline void put_n(fc_move *out, int *n, int type, int src, int dst, int count) {
    out[*n].type = (uint8_t)type;
    out[*n].src = (int8_t)src;
    out[*n].dst = (int8_t)dst;
    out[*n].count = (uint8_t)count;
    (*n)++;
}

static inline void put(fc_move *out, int *n, int type, int src, int dst) { put_n(out, n, type, src, dst, 1); }

/* the moves from the piles of one role to the foundations: only_top_cards_are_played (or, for the tableau
 * under thirteenth-packet = spread, the_spread_thirteenth_packet_gives_any_card and the candidates of
 * _plays_home_from_the_spread_packet: every card of packet 13, count = its place from the top),
 * foundations_follow_in_suit and one_foundation_of_each_suit_per_kind (ex-6, ex-13); sources in layout
 * order, then the card's place, then the foundations in layout order */
static void plays_home(const fc_game *g, const fc_state *s, int role, fc_move *out, int *n) {
    for (int src = 0; src < g->n; src++) {
        if (g->role[src] != role || !fc_len(s, src)) continue;
        int places = role == FC_TABLEAU && src == g->opt[O_SPREAD] ? fc_len(s, src) : 1;
        for (int depth = 1; depth <= places; depth++) {
            int card = fc_at(s, src, fc_len(s, src) - depth);
            for (int k = 0; k < g->nfound; k++) {
                int f = g->found[k];
                if (fc_fits_foundation(g, s, f, card) && base_allowed(g, s, f, card))
                    put_n(out, n, FC_MOVE, src, f, depth);
            }
        }
    }
}

/* Game._legal over the entries in the order build() allows them:
 * deal, redeal, move T->F, move R->F, move T->T, move F->F, tuck R->T, tuck T->T (_chain_tucks). */
static int legal(const fc_game *g, const fc_state *s, fc_move *out) {
    int n = 0;
    const int exiles = g->opt[O_EXILES];
    const int stock_empty = fc_len(s, g->stock) == 0;
    const int chain = chain_of(s);
    const int fpe = foundation_play_exists(g, s);
    /* a_travelling_chain_is_followed_to_its_end (ex-10): every type but tuck */
    const int chain_goes_on = chain >= 0 && !fpe;
    /* play_begins_when_all_cards_are_laid_out (ex-6): every type but deal and redeal */
    const int not_yet = g->opt[O_AFTER] && !stock_empty;
    /* exiles_wait_until_nothing_can_be_played (ex-8, ex-10) */
    const int exiles_wait = !stock_empty || fpe || chain >= 0;

    /* deal: deal_while_the_pack_lasts (ex-4, ex-6) */
    if (!stock_empty && !chain_goes_on) put(out, &n, FC_DEAL, -1, -1);
    /* redeal: gather_when_the_exiles_are_out (ex-12; engine.common.game_won: not once every card is home) */
    if (stock_empty && fc_len(s, exiles) == 0 && fc_home(g, s) < FC_CARDS && s->passes < g->opt[O_PASSES] &&
        !chain_goes_on)
        put(out, &n, FC_REDEAL, -1, -1);
    if (not_yet || chain_goes_on) goto tucks;
    /* move T->F: only_top_cards_are_played, foundations_follow_in_suit,
     * one_foundation_of_each_suit_per_kind (ex-6, ex-13) */
    plays_home(g, s, FC_TABLEAU, out, &n);
    /* move R->F: exiles_wait_until_nothing_can_be_played and the rules of T->F */
    if (!exiles_wait) plays_home(g, s, FC_RESERVE, out, &n);
    /* move T->T: only_top_cards_are_played, a_space_takes_a_card_from_the_packets (ex-7) */
    for (int src = 0; src < g->n; src++) {
        if (g->role[src] != FC_TABLEAU || !fc_len(s, src)) continue;
        for (int dst = 0; dst < g->n; dst++)
            if (dst != src && g->role[dst] == FC_TABLEAU && !fc_len(s, dst)) put(out, &n, FC_MOVE, src, dst);
    }
    /* move F->F: one_card_from_ascending_to_descending / one_card_either_way_between_the_orders
     * (_changed_card_fits), only_one_card_in_the_game, the_bases_stay_on_their_foundations (ex-13) */
    if (!(g->opt[O_REVERSAL] == REV_ONE_CARD && reversed_of(s) >= 1))
        for (int a = 0; a < g->nfound; a++) {
            int src = g->found[a];
            if (!fc_len(s, src) || (g->opt[O_BASES_STAY] && fc_len(s, src) == 1)) continue;
            int card = fc_top(s, src);
            for (int b = 0; b < g->nfound; b++) {
                int dst = g->found[b];
                if (dst == src) continue;
                if (g->opt[O_REVERSAL] == REV_BOTH ? g->fdir[src] == g->fdir[dst]
                                                   : (g->fdir[src] != 1 || g->fdir[dst] != -1))
                    continue;
                if (fc_len(s, dst) && fc_fits_foundation(g, s, dst, card)) put(out, &n, FC_MOVE, src, dst);
            }
        }
tucks:
    if (g->opt[O_AFTER] && !stock_empty) return n;  /* play_begins… asks tucks too */
    /* tuck R->T: exiles_wait_until_nothing_can_be_played, an_exile_that_fits_goes_to_its_foundation,
     * a_card_goes_under_the_packet_of_its_number (ex-8) */
    if (!exiles_wait)
        for (int src = 0; src < g->n; src++) {
            if (g->role[src] != FC_RESERVE || !fc_len(s, src)) continue;
            int card = fc_top(s, src), fits = 0;
            for (int k = 0; k < g->nfound && !fits; k++)
                fits = fc_fits_foundation(g, s, g->found[k], card) && base_allowed(g, s, g->found[k], card);
            if (fits) continue;
            int want = packet(g, value_of(card) - 1);
            for (int dst = 0; dst < g->n; dst++)
                if (g->role[dst] == FC_TABLEAU && dst != src && dst == want) put(out, &n, FC_TUCK, src, dst);
        }
    /* tuck T->T (_chain_tucks: the chain's packet onto every packet in deal order, itself included):
     * the_chain_continues_from_the_same_packet, a_card_goes_under_the_packet_of_its_number (ex-10) */
    if (chain >= 0 && fc_len(s, chain) && !fpe) {
        int want = packet(g, value_of(fc_top(s, chain)) - 1);
        for (int k = 0; k < np_(g); k++)
            if (packet(g, k) == want) put(out, &n, FC_TUCK, chain, want);
    }
    return n;
}

/* mirrors deal_a_row_counting_one_to_thirteen (ex-1 … ex-5) */
static void deal_row(const fc_game *g, fc_state *s) {
    const int n = g->n, stock = g->stock, exiles = g->opt[O_EXILES], recheck = g->opt[O_RECHECK];
    for (int k = 0; k < np_(g); k++) {
        int number = k + 1;
        if (!fc_len(s, stock)) break;
        int card = fc_pop(s, n, stock);
        while (value_of(card) == number) {  /* bounded: each turn takes a card from the stock */
            fc_push(s, n, exiles, card);
            if (!fc_len(s, stock)) {
                card = -1;
                break;
            }
            card = fc_pop(s, n, stock);
            if (!recheck) break;
        }
        if (card >= 0) fc_push(s, n, packet(g, k), card);
    }
    s->rounds++;
}

/* mirrors take_up_the_packets_in_order (ex-12: engine.common.gather, bottom first) */
static void take_up(const fc_game *g, fc_state *s) {
    fc_gather(g, s, g->opt + O_PACKETS + np_(g) + 1, ngather(g), 1);
    s->vars[V_CHAIN] = NO_CHAIN;
}

/* x * 256 + b modulo the Mersenne prime P = 2**61 - 1, for x < P (2**61 = 1 modulo P) */
#define POSITION_MODULUS ((1ULL << 61) - 1)
static inline uint64_t code_step(uint64_t x, unsigned b) {
    uint64_t r = ((x << 8) & POSITION_MODULUS) + (x >> 53) + b;
    return r >= POSITION_MODULUS ? r - POSITION_MODULUS : r;
}

/* mirrors the two codes of _positions: the code of the packets (in deal order), optionally after the top
 * card of packet src goes under packet dst (src < 0: as they are).  The little-endian number is read from
 * its last byte (packet 13's closing 255) down to its first (packet 1's bottom card). */
static uint64_t packets_code(const fc_game *g, const fc_state *s, int src, int dst) {
    uint64_t h = 0;
    int card = src >= 0 ? fc_top(s, src) : -1;
    for (int k = np_(g) - 1; k >= 0; k--) {
        int i = packet(g, k), len = fc_len(s, i);
        const uint8_t *p = fc_pile(s, i);
        h = code_step(h, 0xFFu);
        if (src >= 0 && i == src) len--;
        for (int x = len - 1; x >= 0; x--) h = code_step(h, p[x]);
        if (src >= 0 && i == dst) h = code_step(h, (unsigned)card);
    }
    return h;
}

/* mirrors follow_the_chain (ex-10, ex-11) after put_under_the_packet.  The vars hold MAX_SEEN (191) codes;
 * a chain that has been in more positions (never met: the longest in the tests' walks is some 40) is
 * marked by a count of MAX_SEEN + 1, which beyond() reports, so the search gives that root to Python. */
static void follow_the_chain(const fc_game *g, fc_state *s, const fc_move *m) {
    int nseen = s->vars[V_NSEEN];
    if (m->src == g->opt[O_EXILES]) nseen = 0;
    if (nseen > MAX_SEEN) return;  /* beyond the kernel already */
    int card = fc_top(s, m->dst);
    int then_dst = packet(g, value_of(card) - 1);
    uint64_t now = packets_code(g, s, -1, -1), then = packets_code(g, s, m->dst, then_dst);
    int found = 0;
    for (int k = 0; k < nseen && !found; k++) found = seen_at(s, k) == then;
    if (!found) found = now == then;
    if (!found && nseen == MAX_SEEN) {  /* no room for now: beyond the kernel */
        s->vars[V_CHAIN] = (uint8_t)m->dst;
        s->vars[V_NSEEN] = MAX_SEEN + 1;
        return;
    }
    if (found) {
        s->vars[V_CHAIN] = NO_CHAIN;
        set_seen_count(s, 0);
        return;
    }
    for (int b = 0; b < 8; b++) s->vars[V_SEEN + 8 * nseen + b] = (uint8_t)(now >> (8 * b));
    s->vars[V_CHAIN] = (uint8_t)m->dst;
    set_seen_count(s, nseen + 1);
}

/* the kernel's beyond: a chain longer than the vars hold (follow_the_chain) */
static int beyond(const fc_game *g, const fc_state *s) {
    (void)g;
    return s->vars[V_NSEEN] > MAX_SEEN;
}

/* mirrors take_the_card_from_its_place (ex-6, thirteenth-packet = spread): the card at place depth from the
 * top of src onto foundation dst, which takes its suit when it has none */
static void take_from_its_place(const fc_game *g, fc_state *s, int src, int dst, int depth) {
    uint8_t rest[FC_CARDS];
    int len = fc_len(s, src), at = len - depth;
    int card = fc_at(s, src, at);
    memcpy(rest, fc_pile(s, src), (size_t)len);
    memmove(rest + at, rest + at + 1, (size_t)(depth - 1));
    fc_set_pile(s, g->n, src, rest, len - 1);
    fc_push(s, g->n, dst, card);
    if (s->fsuit[dst] < 0) s->fsuit[dst] = (int8_t)fc_suit(card);
}

/* Table.push: the entry's performer and its effects */
static void apply(const fc_game *g, fc_state *s, const fc_move *m) {
    switch (m->type) {
    case FC_DEAL:
        deal_row(g, s);
        return;
    case FC_REDEAL:
        take_up(g, s);
        return;
    case FC_TUCK: {  /* put_under_the_packet (ex-8, ex-10), then follow_the_chain and a_king_ends_the_chain */
        int card = fc_pop(s, g->n, m->src);
        fc_insert_bottom(s, g->n, m->dst, card);
        follow_the_chain(g, s, m);
        if (g->opt[O_KING_ENDS] && value_of(card) == 13) {
            s->vars[V_CHAIN] = NO_CHAIN;
            set_seen_count(s, 0);
        }
        return;
    }
    default: {
        int src_role = g->role[m->src], dst_role = g->role[m->dst];
        if (m->count > 1)
            take_from_its_place(g, s, m->src, m->dst, m->count);
        else
            fc_transfer(g, s, m->src, m->dst, 1);
        if (dst_role == FC_FOUNDATION && src_role == FC_FOUNDATION) {
            if (g->opt[O_REVERSAL] == REV_ONE_CARD)  /* count_the_change (ex-13): under reversal = one-card only */
                set_reversed(s, reversed_of(s) + 1);
        } else if (dst_role == FC_FOUNDATION) {  /* a_freed_card_ends_the_chain (ex-11) */
            s->vars[V_CHAIN] = NO_CHAIN;
            set_seen_count(s, 0);
        }
        return;
    }
    }
}

/* what frees_a_card asks of the engine (Game.allows of Move("move", src, f) for each foundation f): a legal move
 * of one card, the top one, from src to a foundation; a card taken from deeper in a spread packet 13 (count
 * above one) does not count */
static int frees(const fc_game *g, const fc_state *s, int src) {
    fc_move buf[FC_MAXMOVES];
    int n = legal(g, s, buf);
    for (int i = 0; i < n; i++)
        if (buf[i].type == FC_MOVE && buf[i].src == src && buf[i].count == 1 && g->role[buf[i].dst] == FC_FOUNDATION)
            return 1;
    return 0;
}

/* mirrors a_card_the_last_deal_cannot_bring_home (SEARCH['root_dead_ends']; the kernel's lost, for a search
 * that asks it at every position, as SEARCH['dead_ends'] would): the same
 * least fixpoint of the same rules (its docstring argues them), so the same verdict; held equal by
 * tests/test_fastcore_exiles.py (test_kernel_follows_the_engine_on_random_walks asks both at every step).
 * Instances 0 .. n0-1 are the cards of the packets (deal order, bottom first) and of the exiles; n0 + i is
 * the twin of i, tucked under the packet of its number.  above[i] is the range [alo, ahi) of instances. */
static int lost(const fc_game *g, const fc_state *s) {
    if (s->passes < g->opt[O_PASSES] || fc_len(s, g->stock)) return 0;
    const int np = np_(g), spread = g->opt[O_SPREAD], exiles = g->opt[O_EXILES], nf = g->nfound;
    int card[2 * FC_CARDS], place[2 * FC_CARDS], alo[2 * FC_CARDS], ahi[2 * FC_CARDS];
    int first[FC_MAXC + 2];  /* the originals of packet k: first[k] .. first[k + 1] (k = np: the exiles) */
    int n0 = 0;

    for (int k = 0; k <= np; k++) {
        int c = k < np ? packet(g, k) : exiles, len = fc_len(s, c);

        first[k] = n0;
        for (int h = 0; h < len; h++, n0++) {
            card[n0] = fc_at(s, c, h);
            place[n0] = k < np ? c : -1;
            alo[n0] = c == spread ? n0 : n0 + 1;
            ahi[n0] = c == spread ? n0 : first[k] + len;
        }
    }
    first[np + 1] = n0;
    if (!n0) return 0;
    for (int i = 0; i < n0; i++) {
        int k = value_of(card[i]) - 1;
        card[n0 + i] = card[i];
        place[n0 + i] = packet(g, k);
        alo[n0 + i] = first[k];
        ahi[n0 + i] = first[k + 1];
    }
    const int n = 2 * n0, both = g->opt[O_REVERSAL] == REV_BOTH;
    uint8_t top[FC_MAXC][4][13], empty[FC_MAXC];
    memset(top, 0, sizeof top);
    for (int k = 0; k < nf; k++) {
        int f = g->found[k], t = fc_top(s, f);
        empty[k] = t < 0;
        if (t >= 0) top[k][s->fsuit[f]][fc_rank(t)] = 1;
    }
    uint8_t exposed[2 * FC_CARDS] = {0}, home[2 * FC_CARDS] = {0}, leaves[2 * FC_CARDS] = {0},
            tucked[2 * FC_CARDS] = {0}, reached[FC_MAXC] = {0};
    if (chain_of(s) >= 0) reached[chain_of(s)] = 1;
    int space = 0;
    for (int k = 0; k < np; k++) space |= !fc_len(s, packet(g, k));
    for (int changed = 1; changed;) {
        changed = 0;
        for (int i = n - 1; i >= 0; i--) {  /* top cards first: what leaves exposes the card beneath at once */
            if (!exposed[i]) {
                if (i >= n0 && !tucked[i - n0]) continue;
                int all = 1;
                for (int j = alo[i]; j < ahi[i] && all; j++) all = leaves[j];
                if (!all) continue;
                exposed[i] = changed = 1;
            }
            int r = fc_rank(card[i]), su = fc_suit(card[i]);
            for (int k = 0; k < nf; k++) {
                int f = g->found[k], q = r - g->fdir[f];
                if (s->fsuit[f] >= 0 && s->fsuit[f] != su) continue;
                if ((empty[k] && r == g->fbase[f] && (s->fsuit[f] < 0 || s->fsuit[f] == su)) ||
                    (q >= 0 && q < 13 && top[k][su][q])) {
                    if (!top[k][su][r]) top[k][su][r] = changed = 1;
                    if (!home[i]) home[i] = changed = 1;
                }
            }
            int travels = place[i] < 0 || reached[place[i]];
            if (travels && i < n0 && !tucked[i]) {
                tucked[i] = changed = 1;
                reached[packet(g, value_of(card[i]) - 1)] = 1;
            }
            if (!leaves[i] && (home[i] || travels || space)) leaves[i] = changed = 1;
        }
        for (int a = 0; a < nf; a++)
            for (int b = 0; b < nf; b++) {
                int fa = g->found[a], fb = g->found[b];
                if (g->fdir[fa] == g->fdir[fb] || (!both && g->fdir[fa] < 0)) continue;
                for (int su = 0; su < 4; su++) {
                    if (s->fsuit[fa] >= 0 && s->fsuit[fa] != su) continue;
                    for (int x = 0; x < 13; x++) {
                        int q = x - g->fdir[fb];
                        if (!top[a][su][x] || q < 0 || q >= 13 || !top[b][su][q]) continue;
                        if (!top[b][su][x]) top[b][su][x] = changed = 1;
                        if (x == g->fbase[fa]) {
                            if (!empty[a]) empty[a] = changed = 1;
                        } else if (!top[a][su][x - g->fdir[fa]]) {
                            top[a][su][x - g->fdir[fa]] = changed = 1;
                        }
                    }
                }
            }
        if (!space)
            for (int k = 0; k < np && !space; k++) {
                if (first[k] == first[k + 1]) continue;
                int all = 1;
                for (int j = first[k]; j < first[k + 1] && all; j++) all = leaves[j];
                if (all) space = changed = 1;
            }
    }

    for (int i = 0; i < n0; i++)
        if (!home[i] && !home[n0 + i]) return 1;
    return 0;
}

const fc_kernel fc_kernel_exiles = {"exiles", legal, apply, NULL, lost, frees, beyond};
