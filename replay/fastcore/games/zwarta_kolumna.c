/* zwarta-kolumna: the kernel of replay/games/zwarta_kolumna.py ("Zwarta kolumna", text 001), every
 * variant (fill-from-any-pile, chaldejski, gotycki-zamek, cztery-katy) and every ruling.
 *
 * Options (the module's _fast_options, in this order; containers below 32, masks over their indices):
 *   O_FILL_ANY       fill-from-any-pile (freed_places_are_not_refilled lets any top card into a space)
 *   O_ONE_BASE       bases placed during the deal (one_base_of_each_suit_per_kind)
 *   O_ROW_PARTNER    chaldejski with deferred bases (ace_and_king_of_a_suit_share_a_row)
 *   O_BASE_ANYWHERE  bases_come_from_anywhere replaces the reach rule (cztery-katy; gotycki-zamek with
 *                    base-placement=anywhere)
 *   O_CZTERY         cztery-katy: a_moved_base_is_replaced_from_a_corner, a_pending_replacement_comes_first,
 *                    the fill entry (replacement_is_the_top_of_another_corner, the_replacement_is_made)
 *   O_AT_ONCE        a_dealt_base_is_placed_at_once (deferred bases, base-timing=on-dealing)
 *   O_WHEN_STUCK     deal-timing=when-stuck (deal_only_when_no_move_remains on deal and redeal)
 *   O_BOTTOM_FIRST   gather-order=piles-bottom-first
 *   O_UNRESTRICTED   after-deal=unrestricted
 *   O_LAST_PASS      building-from=last-pass
 *   O_IF_EMPTY       replacement=if-empty
 *   O_PASSES         PASSES (3)
 *   O_CORNERS        mask of the corner piles (options["corners"])
 *   O_NDEAL, then O_DEAL ..   the order of the deal (options["deal"])
 *   O_NGATHER, then O_GATHER .. the order of gathering (options["gather"])
 *   O_REACH + i      mask of the foundations pile i reaches (options["reach"][i])
 *   O_PARTNER + f    mask of the foundations in f's row (options["row_partner"][f])
 *
 * Vars: cztery-katy keeps vars["replace"] in one byte (the index of the pile owed a card, 0xFF for None);
 * the other variants keep no vars (vlen 0).
 *
 * The order of the legal moves is the engine's (Game._legal over Game._candidate_plan): the kinds in
 * the order build() allows them, deal, redeal, move tableau -> foundation, move tableau -> tableau,
 * fill tableau -> tableau (cztery-katy); within a kind, sources then targets in layout order.  Every
 * rule of this game is a plain predicate of the move, so a kind's legal moves are its candidates
 * that every rule allows (table-wide, per-source, per-target and per-candidate alike).
 */
#include "core.h"

enum {
    O_FILL_ANY, O_ONE_BASE, O_ROW_PARTNER, O_BASE_ANYWHERE, O_CZTERY, O_AT_ONCE, O_WHEN_STUCK, O_BOTTOM_FIRST,
    O_UNRESTRICTED, O_LAST_PASS, O_IF_EMPTY, O_PASSES, O_CORNERS,
    O_NDEAL, O_DEAL, O_NGATHER = O_DEAL + 32, O_GATHER, O_REACH = O_GATHER + 32, O_PARTNER = O_REACH + 32,
    O_END = O_PARTNER + 32
};
#define NO_REPLACE 0xFF
#define ACE 0
#define KING 12

static inline int opt(const fc_game *g, int k) { return g->opt[k]; }
static inline int stock_empty(const fc_game *g, const fc_state *s) { return fc_len(s, g->stock) == 0; }
/* vars["replace"]: the pile owed a card, -1 for None (only in cztery-katy) */
static inline int pending(const fc_game *g, const fc_state *s) {
    return opt(g, O_CZTERY) && s->vlen > 0 && s->vars[0] != NO_REPLACE ? s->vars[0] : -1;
}

static inline void put(fc_move *out, int *n, int type, int src, int dst) {
    if (*n >= FC_MAXMOVES) return;  /* never reached: at most 12 * 19 + 1 moves */
    out[*n].type = (uint8_t)type;
    out[*n].src = (int8_t)src;
    out[*n].dst = (int8_t)dst;
    out[*n].count = 1;
    (*n)++;
}

/* mirrors corners_reach_every_foundation_others_only_their_row (zk-8, zk-7) */
static int within_reach(const fc_game *g, const fc_state *s, int src, int dst) {
    if (opt(g, O_REACH + src) >> dst & 1) return 1;
    return opt(g, O_UNRESTRICTED) && stock_empty(g, s);
}

/* the rules of move tableau -> foundation (rules_for_moves_to_the_foundations) but those asked before
 * every move: only_the_top_card_is_playable (src has cards: the caller's), foundations_build_in_suit,
 * corners_reach_every_foundation_others_only_their_row or bases_come_from_anywhere,
 * one_base_of_each_suit_per_kind and ace_and_king_of_a_suit_share_a_row where they apply */
static int to_foundation_ok(const fc_game *g, const fc_state *s, int src, int f) {
    int card = fc_top(s, src);
    if (!fc_fits_foundation(g, s, f, card)) return 0;
    int empty = fc_len(s, f) == 0;
    if (!(opt(g, O_BASE_ANYWHERE) && empty) && !within_reach(g, s, src, f)) return 0;
    if (empty && opt(g, O_ONE_BASE)) {  /* one_base_of_each_suit_per_kind (zk-19, zk-3) */
        for (int k = 0; k < g->nfound; k++) {
            int h = g->found[k];
            if (h != f && g->fbase[h] == g->fbase[f] && s->fsuit[h] == fc_suit(card)) return 0;
        }
    }
    if (empty && opt(g, O_ROW_PARTNER)) {  /* ace_and_king_of_a_suit_share_a_row (zk-18) */
        for (int k = 0; k < g->nfound; k++) {
            int h = g->found[k];
            if ((opt(g, O_PARTNER + f) >> h & 1) && s->fsuit[h] >= 0 && s->fsuit[h] != fc_suit(card)) return 0;
        }
    }
    return 1;
}

/* mirrors a_dealt_base_is_placed_at_once (zk-19, zk-22): whether an uncovered ace or king on a pile of
 * the deal may go to an empty foundation (Game.allows: the replacement rule holds none pending, the
 * caller's, and this rule lets such a move be) */
static int base_waits(const fc_game *g, const fc_state *s) {
    if (!opt(g, O_AT_ONCE)) return 0;
    for (int k = 0; k < opt(g, O_NDEAL); k++) {
        int p = opt(g, O_DEAL + k);
        int top = fc_top(s, p);
        if (top < 0 || (fc_rank(top) != ACE && fc_rank(top) != KING)) continue;
        for (int j = 0; j < g->nfound; j++) {
            int f = g->found[j];
            if (!fc_len(s, f) && to_foundation_ok(g, s, p, f)) return 1;
        }
    }
    return 0;
}

/* the moves of type move: tableau -> foundation, then tableau -> tableau.  Rules:
 * only_the_top_card_is_playable (zk-12), the foundation rules (to_foundation_ok), a_dealt_base_... (waits:
 * only moves to an empty foundation), freed_places_are_not_refilled (zk-9, zk-17),
 * building_waits_for_the_whole_deck (zk-14), build_in_suit_up_or_down (zk-14) */
static void card_moves(const fc_game *g, const fc_state *s, int waits, fc_move *out, int *n) {
    for (int src = 0; src < g->n; src++) {
        if (g->role[src] != FC_TABLEAU || !fc_len(s, src)) continue;
        for (int k = 0; k < g->nfound; k++) {
            int f = g->found[k];
            if (waits && fc_len(s, f)) continue;
            if (to_foundation_ok(g, s, src, f)) put(out, n, FC_MOVE, src, f);
        }
    }
    if (waits) return;
    const int building = stock_empty(g, s) && (!opt(g, O_LAST_PASS) || s->passes >= opt(g, O_PASSES));
    const int fill_any = opt(g, O_FILL_ANY);
    if (!building && !fill_any) return;
    for (int src = 0; src < g->n; src++) {
        if (g->role[src] != FC_TABLEAU || !fc_len(s, src)) continue;
        int card = fc_top(s, src);
        for (int dst = 0; dst < g->n; dst++) {
            if (dst == src || g->role[dst] != FC_TABLEAU) continue;
            int under = fc_top(s, dst);
            if (under < 0 ? fill_any
                          : building && fc_suit(under) == fc_suit(card) &&
                                (fc_rank(under) - fc_rank(card) == 1 || fc_rank(card) - fc_rank(under) == 1))
                put(out, n, FC_MOVE, src, dst);
        }
    }
}

/* Game._legal over the entries in build()'s order: deal, redeal, move T->F, move T->T, fill T->T */
static int legal(const fc_game *g, const fc_state *s, fc_move *out) {
    int n = 0;
    const int owed = pending(g, s);
    if (owed >= 0) {
        /* a_pending_replacement_comes_first (zk-23, table-wide): nothing but the fill;
         * replacement_is_the_top_of_another_corner (zk-23): from a corner with cards to the place owed */
        for (int src = 0; src < g->n; src++)
            if (g->role[src] == FC_TABLEAU && fc_len(s, src) && src != owed && (opt(g, O_CORNERS) >> src & 1) &&
                g->role[owed] == FC_TABLEAU)
                put(out, &n, FC_FILL, src, owed);
        return n;
    }
    const int waits = base_waits(g, s);
    /* the other moves first (into out + 1), as deal_only_when_no_move_remains asks whether there are any */
    int others = 0;
    card_moves(g, s, waits, out + 1, &others);
    int deal = 0, redeal = 0;
    if (!waits && (!opt(g, O_WHEN_STUCK) || others == 0)) {
        deal = !stock_empty(g, s);                                      /* deal_only_while_the_deck_lasts */
        /* gather_only_when_the_deck_is_out (engine.common.gathering_allowed: none on a won table) */
        redeal = stock_empty(g, s) && fc_home(g, s) < FC_CARDS && s->passes < opt(g, O_PASSES);
    }
    if (deal) put(out, &n, FC_DEAL, -1, -1);
    else if (redeal) put(out, &n, FC_REDEAL, -1, -1);
    else if (others) memmove(out, out + 1, sizeof(fc_move) * (size_t)others);
    return n + others;
}

/* mirrors deal_twelve_in_the_order_of_the_figure (zk-6, zk-10, zk-13: engine.common.deal_round) */
static void deal_round(const fc_game *g, fc_state *s) {
    for (int k = 0; k < opt(g, O_NDEAL) && fc_len(s, g->stock); k++)
        fc_push(s, g->n, opt(g, O_DEAL + k), fc_pop(s, g->n, g->stock));
    s->rounds++;
}

/* mirrors gather_from_pile_1_to_pile_12 (zk-15: engine.common.gather) */
static void gather(const fc_game *g, fc_state *s) {
    fc_gather(g, s, g->opt + O_GATHER, opt(g, O_NGATHER), opt(g, O_BOTTOM_FIRST));
}

/* Table.push: the entry's performer and its effects */
static void apply(const fc_game *g, fc_state *s, const fc_move *m) {
    switch (m->type) {
    case FC_DEAL:
        deal_round(g, s);
        return;
    case FC_REDEAL:
        gather(g, s);
        return;
    case FC_FILL:  /* the transfer, then the_replacement_is_made (zk-23) */
        fc_transfer(g, s, m->src, m->dst, 1);
        s->vars[0] = NO_REPLACE;
        return;
    default:
        fc_transfer(g, s, m->src, m->dst, 1);
        /* a_moved_base_is_replaced_from_a_corner (zk-23), after a move to a foundation in cztery-katy */
        if (opt(g, O_CZTERY) && g->role[m->dst] == FC_FOUNDATION && fc_len(s, m->dst) == 1 &&
            !(opt(g, O_IF_EMPTY) && fc_len(s, m->src))) {
            for (int c = 0; c < g->n; c++)
                if ((opt(g, O_CORNERS) >> c & 1) && c != m->src && fc_len(s, c)) {
                    s->vars[0] = (uint8_t)m->src;
                    break;
                }
        }
        return;
    }
}

/* whether a legal move takes the top card of src to a foundation (the scan of legal() the search
 * would make, without the other kinds) */
static int frees(const fc_game *g, const fc_state *s, int src) {
    if (pending(g, s) >= 0 || g->role[src] != FC_TABLEAU || !fc_len(s, src)) return 0;
    const int waits = base_waits(g, s);
    for (int k = 0; k < g->nfound; k++) {
        int f = g->found[k];
        if (waits && fc_len(s, f)) continue;
        if (to_foundation_ok(g, s, src, f)) return 1;
    }
    return 0;
}

const fc_kernel fc_kernel_zwarta_kolumna = {"zwarta-kolumna", legal, apply, NULL, NULL, frees};
