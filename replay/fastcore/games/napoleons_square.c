/* napoleons-square: the kernel of replay/games/napoleons_square.py (Napoleon's Square, text 003).
 *
 * Options (the module's _fast_options, in this order):
 *   opt[0] in_suit        marriage-suit=in-suit (marriages one below in suit; else any suit)
 *   opt[1] sequences      sequence-moves=whole-sequence
 *   opt[2] space_any      space-fill=any-card
 *   opt[3] talon_marries  talon-to-square=allowed
 *   opt[4] take_back      take-back=allowed (a foundation's top card, not its ace, may come back to the square)
 *   opt[5] talon          the talon's container (options["talon"])
 *   opt[6] npackets       how many packets, then opt[7 ..] the packets in options["packets"] (deal) order
 * Table.vars is empty for this game (vlen 0).
 *
 * The order of the legal moves is the engine's (Game._legal over Game._candidate_plan), the kinds in
 * the order build() allows them: deal; tableau -> foundation; talon -> foundation; tableau -> tableau
 * (the module's own _square_moves); talon -> tableau; pack -> tableau; foundation -> tableau (take-back).
 *
 * Held equal to the engine by tests/test_fastcore_napoleons_square.py (random walks under every reading).
 */
#include "core.h"

#define O_IN_SUIT 0
#define O_SEQUENCES 1
#define O_SPACE_ANY 2
#define O_TALON_MARRIES 3
#define O_TAKE_BACK 4
#define O_TALON 5
#define O_NPACKETS 6
#define O_PACKETS 7
#define PACKET 4

/* mirrors options["marries"]: one_below_in_suit / one_below_any_suit (engine.common) */
static int marries(const fc_game *g, int under, int over) {
    if (fc_rank(over) != fc_rank(under) - 1) return 0;
    return !g->opt[O_IN_SUIT] || fc_suit(under) == fc_suit(over);
}

static int emit(fc_move *out, int k, int type, int src, int dst, int count) {
    if (k >= FC_MAXMOVES) return k;  /* never reached in this game; keeps the writes bounded */
    out[k].type = (uint8_t)type;
    out[k].src = (int8_t)src;
    out[k].dst = (int8_t)dst;
    out[k].count = (uint8_t)count;
    return k + 1;
}

/* move <role> -> foundation: mirrors the_square_is_dealt_first (table-wide, asked by the caller),
 * only_top_cards_are_available (per source: a pile with cards, one card) and
 * aces_found_and_suits_follow_up_to_the_kings; sources then foundations in layout order */
static int to_foundations(const fc_game *g, const fc_state *s, int role, fc_move *out, int k) {
    for (int src = 0; src < g->n; src++) {
        if (g->role[src] != role || fc_len(s, src) == 0) continue;
        int card = fc_top(s, src);
        for (int dst = 0; dst < g->n; dst++)
            if (dst != src && g->role[dst] == FC_FOUNDATION && fc_fits_foundation(g, s, dst, card))
                k = emit(out, k, FC_MOVE, src, dst, 1);
    }
    return k;
}

/* move tableau -> tableau: the candidates of _square_moves (every top run that could move, count 1 up
 * to the longest married run under sequence-moves=whole-sequence, onto every other packet, empty or
 * whose top it marries), kept when only_top_cards_are_available, a_moved_sequence_is_a_marriage,
 * a_space_takes_one_card_from_talon_or_pack (ns-4/ns-5: a space takes a square card only under
 * space-fill=any-card) and marriages_descend_on_the_square allow them */
static int square_moves(const fc_game *g, const fc_state *s, fc_move *out, int k) {
    int np = g->opt[O_NPACKETS];
    const int32_t *packets = g->opt + O_PACKETS;
    for (int a = 0; a < np; a++) {
        int src = packets[a];
        int len = fc_len(s, src);
        if (len == 0) continue;
        const uint8_t *pile = fc_pile(s, src);
        int longest = 1;
        if (g->opt[O_SEQUENCES])
            while (longest < len && marries(g, pile[len - longest - 1], pile[len - longest])) longest++;
        for (int count = 1; count <= longest; count++) {
            int lead = pile[len - count];
            for (int b = 0; b < np; b++) {
                int dst = packets[b];
                if (dst == src) continue;
                int top = fc_top(s, dst);
                if (top < 0) {
                    if (g->opt[O_SPACE_ANY]) k = emit(out, k, FC_MOVE, src, dst, count);
                } else if (marries(g, top, lead)) {
                    k = emit(out, k, FC_MOVE, src, dst, count);
                }
            }
        }
    }
    return k;
}

/* move talon -> tableau: mirrors only_top_cards_are_available (per source),
 * talon_cards_marry_onto_the_square (per target, ruling talon-to-square),
 * a_space_takes_one_card_from_talon_or_pack (a space takes the talon's card) and
 * marriages_descend_on_the_square; sources then packets in layout order */
static int talon_to_square(const fc_game *g, const fc_state *s, fc_move *out, int k) {
    for (int src = 0; src < g->n; src++) {
        if (g->role[src] != FC_WASTE || fc_len(s, src) == 0) continue;
        int card = fc_top(s, src);
        for (int dst = 0; dst < g->n; dst++) {
            if (dst == src || g->role[dst] != FC_TABLEAU) continue;
            int top = fc_top(s, dst);
            if (top < 0 || (g->opt[O_TALON_MARRIES] && marries(g, top, card)))
                k = emit(out, k, FC_MOVE, src, dst, 1);
        }
    }
    return k;
}

/* move pack -> tableau: mirrors only_top_cards_are_available, the_pack_only_fills_spaces (ns-4, per
 * target) and a_space_takes_one_card_from_talon_or_pack; spaces in layout order */
static int pack_to_spaces(const fc_game *g, const fc_state *s, fc_move *out, int k) {
    for (int src = 0; src < g->n; src++) {
        if (g->role[src] != FC_STOCK || fc_len(s, src) == 0) continue;
        for (int dst = 0; dst < g->n; dst++)
            if (dst != src && g->role[dst] == FC_TABLEAU && fc_len(s, dst) == 0)
                k = emit(out, k, FC_MOVE, src, dst, 1);
    }
    return k;
}

/* move foundation -> tableau, allowed only under take-back=allowed: mirrors only_top_cards_are_available
 * (per source: one card), a_card_built_on_an_ace_may_come_back (per source: the ace stays),
 * a_space_takes_one_card_from_talon_or_pack (a space takes it only under space-fill=any-card) and
 * marriages_descend_on_the_square; foundations then packets in layout order */
static int foundation_to_square(const fc_game *g, const fc_state *s, fc_move *out, int k) {
    if (!g->opt[O_TAKE_BACK]) return k;
    for (int src = 0; src < g->n; src++) {
        if (g->role[src] != FC_FOUNDATION || fc_len(s, src) < 2) continue;
        int card = fc_top(s, src);
        for (int dst = 0; dst < g->n; dst++) {
            if (dst == src || g->role[dst] != FC_TABLEAU) continue;
            int top = fc_top(s, dst);
            if (top < 0 ? g->opt[O_SPACE_ANY] : marries(g, top, card)) k = emit(out, k, FC_MOVE, src, dst, 1);
        }
    }
    return k;
}

/* Game.legal_moves: the kinds in build()'s order */
static int legal(const fc_game *g, const fc_state *s, fc_move *out) {
    int k = 0;
    /* deal: mirrors deal_while_the_pack_lasts (ns-7, ns-4: while the pack has cards) */
    if (g->stock >= 0 && fc_len(s, g->stock) > 0) k = emit(out, k, FC_DEAL, -1, -1, 1);
    /* every move: mirrors the_square_is_dealt_first (ns-7, table-wide) */
    if (s->rounds == 0) return k;
    k = to_foundations(g, s, FC_TABLEAU, out, k);
    k = to_foundations(g, s, FC_WASTE, out, k);
    k = square_moves(g, s, out, k);
    k = talon_to_square(g, s, out, k);
    k = pack_to_spaces(g, s, out, k);
    k = foundation_to_square(g, s, out, k);
    return k;
}

/* mirrors deal_twelve_packets_of_four (ns-7: engine.common.deal_round with per_pile=4) */
static void deal_packets(const fc_game *g, fc_state *s) {
    int n = g->n, np = g->opt[O_NPACKETS];
    int len = fc_len(s, g->stock);
    int dealt = np * PACKET < len ? np * PACKET : len;
    uint8_t dealing[FC_CARDS];
    const uint8_t *stock = fc_pile(s, g->stock);
    for (int j = 0; j < dealt; j++) dealing[j] = stock[len - 1 - j];  /* the next card first */
    fc_set_pile(s, n, g->stock, stock, len - dealt);
    for (int j = 0; j < dealt; j++) fc_push(s, n, g->opt[O_PACKETS + j / PACKET], dealing[j]);
    s->rounds++;
}

/* mirrors turn_the_next_card_onto_the_talon (ns-4) */
static void turn_to_talon(const fc_game *g, fc_state *s) {
    int card = fc_pop(s, g->n, g->stock);
    fc_push(s, g->n, g->opt[O_TALON], card);
    s->rounds++;
}

/* Table.push: deal (the module's deal: the square first, then a card at a time); a move is the
 * engine's transfer (no performer or effect of its own) */
static void apply(const fc_game *g, fc_state *s, const fc_move *m) {
    if (m->type == FC_DEAL) {
        if (s->rounds == 0) deal_packets(g, s);
        else turn_to_talon(g, s);
        return;
    }
    fc_transfer(g, s, m->src, m->dst, m->count);
}

/* mirrors a_card_nothing_can_marry_onto_is_safe_to_play (SEARCH['safe_move']) */
static int safe(const fc_game *g, const fc_state *s, const fc_move *m) {
    if (m->dst < 0 || m->src < 0 || g->role[m->dst] != FC_FOUNDATION) return 0;
    if (g->role[m->src] != FC_TABLEAU && g->role[m->src] != FC_WASTE) return 0;
    int card = fc_top(s, m->src);
    if (card < 0) return 0;
    int rank = fc_rank(card);
    if (rank == 0) return 1;
    int lo = g->opt[O_IN_SUIT] ? fc_suit(card) : 0, hi = g->opt[O_IN_SUIT] ? fc_suit(card) : 3;
    for (int suit = lo; suit <= hi; suit++) {
        int copies = 0;
        for (int x = 0; x < g->nfound; x++) {
            int f = g->found[x];
            if (fc_len(s, f) && fc_suit(fc_at(s, f, 0)) == suit && fc_rank(fc_top(s, f)) >= rank - 1) copies++;
        }
        if (copies < 2) return 0;  /* C.PACKS */
    }
    return 1;
}

/* whether a legal move takes the top card of src to a foundation: what to_foundations would list for
 * src (the square dealt, a card that fits a foundation), without listing every move */
static int frees(const fc_game *g, const fc_state *s, int src) {
    if (s->rounds == 0 || (g->role[src] != FC_TABLEAU && g->role[src] != FC_WASTE)) return 0;
    int card = fc_top(s, src);
    if (card < 0) return 0;
    for (int x = 0; x < g->nfound; x++)
        if (g->found[x] != src && fc_fits_foundation(g, s, g->found[x], card)) return 1;
    return 0;
}

const fc_kernel fc_kernel_napoleons_square = {"napoleons-square", legal, apply, safe, NULL, frees};
