/* printex-frame: the kernel of replay/games/printex_frame.py (the frame patience of text 000, PRINTEX),
 * both variants and every ruling (frame, foundation-arrangement, corner-refill, deal-timing,
 * gather-order, third-layout, build-suit).
 *
 * Options (the module's _fast_options, in this order):
 *   opt[0] refill_every   corner-refill=every-card (options["refill_every_card"])
 *   opt[1] third_round    third-layout=third-round (options["third_layout"] is _third_round_dealt)
 *   opt[2] in_suit        build-suit=in-suit (options["builds"] is next_in_suit, else next_any_suit)
 *   opt[3] any_pile       the variant any-pile-after-third-deal
 *   opt[4] cztery         the variant cztery-katy (moves between the piles of the frame)
 *   opt[5] when_stuck     deal-timing=when-stuck
 *   opt[6] bottom_first   gather-order=piles-bottom-first (options["bottom_first"])
 *   opt[7] passes         PASSES (three layouts of the deck)
 *   opt[8] n1, then n1 piles: options["first_deal"]; then n2 and options["later_deal"]; then ng and
 *          options["gather"]; then g->n ints, one per container: bit 0 set for a corner
 *          (options["corners"]), bit 1+k set when options["reach"][i][found[k]] holds; then ENDS_DEALS_LEFT
 *          (every_end_of_the_second_layout_strands_a_card's limit).
 * Table.vars is empty for this game (vlen 0).
 *
 * The order of the legal moves is the engine's (Game._legal over Game._candidate_plan), the kinds in
 * the order build() allows them: deal; redeal; tableau -> foundation; tableau -> tableau (cztery-katy).
 * Per kind, sources in layout order, then targets in layout order.
 */
#include "core.h"

enum { O_REFILL_EVERY, O_THIRD_ROUND, O_IN_SUIT, O_ANY_PILE, O_CZTERY, O_WHEN_STUCK, O_BOTTOM_FIRST, O_PASSES,
       O_LISTS };

/* ---- options ---- */
static inline int n_first(const fc_game *g) { return g->opt[O_LISTS]; }
static inline const int32_t *first_deal(const fc_game *g) { return g->opt + O_LISTS + 1; }
static inline int at_later(const fc_game *g) { return O_LISTS + 1 + n_first(g); }
static inline int n_later(const fc_game *g) { return g->opt[at_later(g)]; }
static inline const int32_t *later_deal(const fc_game *g) { return g->opt + at_later(g) + 1; }
static inline int at_gather(const fc_game *g) { return at_later(g) + 1 + n_later(g); }
static inline int n_gather(const fc_game *g) { return g->opt[at_gather(g)]; }
static inline const int32_t *gather_order(const fc_game *g) { return g->opt + at_gather(g) + 1; }
static inline const int32_t *flags(const fc_game *g) { return g->opt + at_gather(g) + 1 + n_gather(g); }
static inline int is_corner(const fc_game *g, int i) { return flags(g)[i] & 1; }
static inline int ends_deals_left(const fc_game *g) { return flags(g)[g->n]; }

static inline int stock_empty(const fc_game *g, const fc_state *s) { return fc_len(s, g->stock) == 0; }

static inline int emit(fc_move *out, int k, int type, int src, int dst) {
    if (k >= FC_MAXMOVES) return k;  /* never reached in this game; keeps the writes bounded */
    out[k].type = (uint8_t)type;
    out[k].src = (int8_t)src;
    out[k].dst = (int8_t)dst;
    out[k].count = 1;
    return k + 1;
}

/* mirrors position_decides_which_foundations_a_card_reaches (pf-8 … pf-12: options["reach"]), and
 * any_pile_plays_after_the_third_deal (pf-21) with the variant: every pile once the deck is out in the
 * third pass.  k is the foundation's place in g->found. */
static inline int reaches(const fc_game *g, const fc_state *s, int src, int k) {
    if (g->opt[O_ANY_PILE] && stock_empty(g, s) && s->passes >= g->opt[O_PASSES]) return 1;
    return (flags(g)[src] >> (1 + k)) & 1;
}

/* mirrors build_only_after_the_third_layout (pf-22): options["third_layout"], _third_pass_dealt or
 * _third_round_dealt */
static inline int third_layout(const fc_game *g, const fc_state *s) {
    if (g->opt[O_THIRD_ROUND]) return s->rounds >= 3;
    return s->passes >= g->opt[O_PASSES] && stock_empty(g, s);
}

/* mirrors options["builds"]: next_in_suit / next_any_suit (engine.common) */
static inline int builds(const fc_game *g, int under, int over) {
    int d = fc_rank(under) - fc_rank(over);
    if (d != 1 && d != -1) return 0;
    return !g->opt[O_IN_SUIT] || fc_suit(under) == fc_suit(over);
}

/* the moves of the piles, in the engine's order, written from out[k]; returns the new count:
 * move T->F: only_the_top_card_is_playable (pf-17), foundations_build_in_suit (pf-4, pf-16) and the
 * reach rule (see reaches); then, with cztery-katy, move T->T: only_the_top_card_is_playable,
 * build_only_after_the_third_layout, build_one_card_on_another_up_or_down (pf-22: never into a space) */
static int pile_moves(const fc_game *g, const fc_state *s, fc_move *out, int k) {
    for (int src = 0; src < g->n; src++) {
        if (g->role[src] != FC_TABLEAU || !fc_len(s, src)) continue;
        int card = fc_top(s, src);
        for (int f = 0; f < g->nfound; f++) {
            int dst = g->found[f];
            if (fc_fits_foundation(g, s, dst, card) && reaches(g, s, src, f)) k = emit(out, k, FC_MOVE, src, dst);
        }
    }
    if (g->opt[O_CZTERY] && third_layout(g, s))
        for (int src = 0; src < g->n; src++) {
            if (g->role[src] != FC_TABLEAU || !fc_len(s, src)) continue;
            int card = fc_top(s, src);
            for (int dst = 0; dst < g->n; dst++) {
                if (dst == src || g->role[dst] != FC_TABLEAU || !fc_len(s, dst)) continue;
                if (builds(g, fc_top(s, dst), card)) k = emit(out, k, FC_MOVE, src, dst);
            }
        }
    return k;
}

/* Game._legal: deal (deal_only_while_the_deck_lasts, pf-18; deal_only_when_no_move_remains with
 * when-stuck), redeal (gather_only_when_the_deck_is_out, pf-19, pf-20: engine.common.gathering_allowed, which
 * offers none on a won table; deal_only_when_no_move_remains with when-stuck), then the moves of the piles (pile_moves).  The deal and the redeal exclude each
 * other (stock full / empty): at most one comes first. */
static int legal(const fc_game *g, const fc_state *s, fc_move *out) {
    int n = pile_moves(g, s, out, 0);
    int blocked = g->opt[O_WHEN_STUCK] && n > 0;  /* other_moves_come_first: any move but deal, redeal */
    int type = -1;
    if (!stock_empty(g, s)) type = FC_DEAL;
    else if (s->passes < g->opt[O_PASSES] && fc_home(g, s) < FC_CARDS) type = FC_REDEAL;  /* a won game: none */
    if (type < 0 || blocked) return n;
    if (n >= FC_MAXMOVES) n = FC_MAXMOVES - 1;
    memmove(out + 1, out, (size_t)n * sizeof *out);
    emit(out, 0, type, -1, -1);
    return n + 1;
}

/* mirrors frees_a_card's question: a legal move takes the top card of src to a foundation (the moves
 * T->F are asked under no table-wide rule, so only their own rules count) */
static int frees(const fc_game *g, const fc_state *s, int src) {
    if (src < 0 || src >= g->n || g->role[src] != FC_TABLEAU || !fc_len(s, src)) return 0;
    int card = fc_top(s, src);
    for (int f = 0; f < g->nfound; f++)
        if (fc_fits_foundation(g, s, g->found[f], card) && reaches(g, s, src, f)) return 1;
    return 0;
}

/* mirrors deal_sixteen_on_the_same_positions (pf-5, pf-6, pf-15, pf-18): engine.common.deal_round
 * over options["first_deal"] in the first round of a pass, else options["later_deal"] */
static void deal(const fc_game *g, fc_state *s) {
    const int32_t *order = s->rounds == 0 ? first_deal(g) : later_deal(g);
    int len = s->rounds == 0 ? n_first(g) : n_later(g);
    for (int k = 0; k < len && fc_len(s, g->stock); k++) fc_push(s, g->n, order[k], fc_pop(s, g->n, g->stock));
    s->rounds++;
}

/* mirrors gather_in_dealing_order_without_shuffling (pf-19): engine.common.gather over
 * options["gather"], each pile bottom first or top first (gather-order) */
static void gather(const fc_game *g, fc_state *s) {
    fc_gather(g, s, gather_order(g), n_gather(g), g->opt[O_BOTTOM_FIRST]);
}

/* Table.push: the entry's performer, or the plain transfer of one card and then
 * corners_are_replaced_from_the_deck (pf-13, pf-14), the effect of both kinds of move */
static void apply(const fc_game *g, fc_state *s, const fc_move *m) {
    switch (m->type) {
    case FC_DEAL:
        deal(g, s);
        return;
    case FC_REDEAL:
        gather(g, s);
        return;
    default:
        fc_transfer(g, s, m->src, m->dst, 1);
        if (is_corner(g, m->src) && fc_len(s, g->stock) && (g->opt[O_REFILL_EVERY] || !fc_len(s, m->src)))
            fc_push(s, g->n, m->src, fc_pop(s, g->n, g->stock));
        return;
    }
}

/* mirrors _still_takes: some foundation pile p reaches (options["reach"]) may still take card: of its suit,
 * empty or its top not past the card's rank in its direction */
static int still_takes(const fc_game *g, const fc_state *s, int p, int card) {
    for (int k = 0; k < g->nfound; k++) {
        int f = g->found[k];
        if (!((flags(g)[p] >> (1 + k)) & 1) || s->fsuit[f] != fc_suit(card)) continue;
        int top = fc_top(s, f);
        if (top < 0 || (fc_rank(card) - fc_rank(top)) * g->fdir[f] > 0) return 1;
    }
    return 0;
}

/* mirrors a_side_card_of_the_third_layout_reaches_no_foundation: a card on a side pile, or laid on one by the
 * first deal still to come, in the third laying-out, that no foundation its pile reaches may still take */
static int side_card_lost(const fc_game *g, const fc_state *s) {
    if (s->passes < g->opt[O_PASSES] || g->opt[O_ANY_PILE] || g->opt[O_CZTERY]) return 0;
    for (int p = 0; p < g->n; p++) {
        if (g->role[p] != FC_TABLEAU || is_corner(g, p)) continue;
        for (int h = 0; h < fc_len(s, p); h++)
            if (!still_takes(g, s, p, fc_at(s, p, h))) return 1;
    }
    if (!s->rounds) {
        int len = fc_len(s, g->stock);
        for (int j = 0; j < n_first(g) && j < len; j++) {
            int p = first_deal(g)[j];
            if (!is_corner(g, p) && !still_takes(g, s, p, fc_at(s, g->stock, len - 1 - j))) return 1;
        }
    }
    return 0;
}

/* where a foundation's want list (replay.engine.proofs: from the card after its top to the end of its
 * direction) puts card, or -1 when the list does not hold it */
static inline int wanted_at(const fc_game *g, const fc_state *s, int f, int card) {
    if (fc_suit(card) != s->fsuit[f]) return -1;
    int i = (fc_rank(card) - fc_rank(fc_top(s, f))) * g->fdir[f] - 1;
    return i >= 0 && i < (g->fdir[f] > 0 ? 12 - fc_rank(fc_top(s, f)) : fc_rank(fc_top(s, f))) ? i : -1;
}

/* the least fixpoint of the pass's relaxation over the rest of the laying-out (replay.engine.proofs.
 * what_the_rest_of_the_pass_can_do, without building, the deck's cards landing anywhere: printex_frame.
 * _the_rest_of_the_laying_out), as counts: per foundation (its place k) its relaxed progress got[k] (how many of
 * its wanted cards have gone home: always a prefix of its list), per pile the height top[p] of its topmost card
 * that never leaves (-1 none; the cards above it leave, each by going home); per foundation and rank, avail
 * counts the exposed cards of its suit on piles reaching it.  0 when some foundation has no suit yet. */
static int rest_of_the_laying_out(const fc_game *g, const fc_state *s, int *top, int *got) {
    for (int k = 0; k < g->nfound; k++)
        if (s->fsuit[g->found[k]] < 0 || !fc_len(s, g->found[k])) return 0;
    uint8_t avail[FC_MAXC][13];
    memset(avail, 0, sizeof(avail));
    for (int k = 0; k < g->nfound; k++) got[k] = 0;
#define EXPOSE(p, h) do { int c_ = fc_at(s, (p), (h)); \
        for (int k_ = 0; k_ < g->nfound; k_++) \
            if (((flags(g)[(p)] >> (1 + k_)) & 1) && s->fsuit[g->found[k_]] == fc_suit(c_)) avail[k_][fc_rank(c_)]++; \
    } while (0)
    for (int p = 0; p < g->n; p++) {
        top[p] = g->role[p] == FC_TABLEAU ? fc_len(s, p) - 1 : -1;
        if (top[p] >= 0) EXPOSE(p, top[p]);
    }
    int nstock = fc_len(s, g->stock);
    for (int j = 0; j < nstock; j++) {  /* the deck's cards may land anywhere: exposed, reaching every foundation */
        int c = fc_at(s, g->stock, j);
        for (int k = 0; k < g->nfound; k++)
            if (s->fsuit[g->found[k]] == fc_suit(c)) avail[k][fc_rank(c)]++;
    }
    for (int changed = 1; changed;) {
        changed = 0;
        for (int k = 0; k < g->nfound; k++) {  /* a foundation takes its next wanted card when one is exposed */
            int f = g->found[k];
            for (;;) {
                int r = fc_rank(fc_top(s, f)) + g->fdir[f] * (got[k] + 1);
                if (r < 0 || r > 12 || !avail[k][r]) break;
                got[k]++; changed = 1;
            }
        }
        for (int p = 0; p < g->n; p++) {  /* a card leaves when some foundation its pile reaches has taken it */
            while (top[p] >= 0) {
                int c = fc_at(s, p, top[p]), leaves = 0;
                for (int k = 0; k < g->nfound && !leaves; k++) {
                    if (!((flags(g)[p] >> (1 + k)) & 1)) continue;
                    int i = wanted_at(g, s, g->found[k], c);
                    leaves = i >= 0 && i < got[k];
                }
                if (!leaves) break;
                if (--top[p] >= 0) EXPOSE(p, top[p]);
                changed = 1;
            }
        }
    }
#undef EXPOSE
    return 1;
}

/* mirrors a_card_kept_to_the_third_layout_lands_on_a_side_that_cannot_take_it, over the fixpoint: a card it never
 * lets leave, every place of the new deck it can take falling in the third laying-out's first deal onto side
 * piles that no foundation they reach may still take, is lost */
static int kept_card_lost(const fc_game *g, const fc_state *s, const int *top) {
    int nstock = fc_len(s, g->stock);
    const int32_t *first = first_deal(g), *order = gather_order(g), *later = later_deal(g);
    int nfirst = n_first(g), bottom_first = g->opt[O_BOTTOM_FIRST], lo = 0, hi = 0;
    int deals = (nstock + n_later(g) - 1) / n_later(g);  /* the deals left at most */
    for (int x = 0; x < n_gather(g) && lo < nfirst; x++) {
        int p = order[x], least = top[p] + 1, most = fc_len(s, p);
        if (deals) {  /* one card a deal on each pile the later deals name, and a corner's refill */
            for (int y = 0; y < n_later(g); y++) most += deals * (later[y] == p);
            most += is_corner(g, p);
        }
        for (int h = 0; h < least; h++) {
            int a = bottom_first ? lo + h : lo + least - 1 - h, b = bottom_first ? hi + h : hi + most - 1 - h;
            if (b >= nfirst) continue;
            int dead = 1;
            for (int j = a; j <= b && dead; j++)
                dead = !is_corner(g, first[j]) && !still_takes(g, s, first[j], fc_at(s, p, h));
            if (dead) return 1;
        }
        lo += least; hi += most;
    }
    return 0;
}

/* whether a card of the deck goes home in the fixpoint: exposed and reaching every foundation, it does when a
 * foundation of its suit has taken it (its place in the want list below the progress) */
static int stock_card_home(const fc_game *g, const fc_state *s, const int *got, int card) {
    for (int k = 0; k < g->nfound; k++) {
        int i = wanted_at(g, s, g->found[k], card);
        if (i >= 0 && i < got[k]) return 1;
    }
    return 0;
}

#define ENDS_MAX_DEALS 8  /* the deals to come the proof of the ends can follow at most (ENDS_DEALS_LEFT is less) */

/* mirrors every_end_of_the_second_layout_strands_a_card and _an_end_lays_the_first_deal_well: every way the deck
 * goes out and the piles end strands a card in the third laying-out's first deal.  Sets of cards and of places
 * are bits: well[j], the cards place j of the first deal may take (every card on a corner). */
static int ends_lost(const fc_game *g, const fc_state *s, const int *top, const int *got) {
    int n = fc_len(s, g->stock), nl = n_later(g), nfirst = n_first(g), deals_left = ends_deals_left(g);
    const int32_t *first = first_deal(g);
    if (!g->opt[O_BOTTOM_FIRST] || (n + nl - 1) / nl > deals_left || nfirst > 31 || deals_left > ENDS_MAX_DEALS)
        return 0;
    for (int k = 0; k < nl; k++)
        if (is_corner(g, later_deal(g)[k])) return 0;
    /* mirrors _what_the_deck_may_still_lay: reach[i][pos], the moves off corners still to be had (bits) in the
     * states with i deals made and the deck's next index pos, walked in the order of pos (every step raises it) */
    int corner_home = 0, nxt[FC_CARDS];
    for (int p = 0; p < g->n; p++)
        if (g->role[p] == FC_TABLEAU && is_corner(g, p)) corner_home += fc_len(s, p) - 1 - top[p];
    if (corner_home > 63) return 0;
    for (int i = 0; i < n; i++) nxt[i] = fc_at(s, g->stock, n - 1 - i);
    static _Thread_local uint64_t reach[ENDS_MAX_DEALS + 1][FC_CARDS + 1], dealt[ENDS_MAX_DEALS][FC_MAXC];
    uint64_t refilled = 0;  /* the cards a refill may put on a corner */
    for (int i = 0; i <= deals_left; i++) memset(reach[i], 0, (size_t)(n + 1) * sizeof(uint64_t));
    for (int i = 0; i < deals_left; i++) memset(dealt[i], 0, (size_t)g->n * sizeof(uint64_t));
    reach[0][0] = 1ull << corner_home;
    for (int pos = 0; pos < n; pos++)
        for (int i = 0; i < deals_left; i++) {
            uint64_t m = reach[i][pos];
            if (!m) continue;
            int step = n - pos < nl ? n - pos : nl;
            for (int k = 0; k < step; k++) dealt[i][later_deal(g)[k]] |= 1ull << nxt[pos + k];
            reach[i + 1][pos + step] |= m;
            uint64_t more = m & ~1ull;  /* a refill, where a move off a corner is to be had */
            if (more) {
                refilled |= 1ull << nxt[pos];
                reach[i][pos + 1] |= stock_card_home(g, s, got, nxt[pos]) ? more : more >> 1;
            }
        }
    uint64_t takes[FC_MAXC], well[32];  /* per foundation (its place k): the cards it may still take (still_takes) */
    for (int k = 0; k < g->nfound; k++) {
        int f = g->found[k], ftop = fc_top(s, f);
        takes[k] = 0;
        for (int c = 0; c < 52; c++)
            if (s->fsuit[f] == fc_suit(c) && (ftop < 0 || (fc_rank(c) - fc_rank(ftop)) * g->fdir[f] > 0))
                takes[k] |= 1ull << c;
    }
    for (int j = 0; j < nfirst; j++) {
        well[j] = is_corner(g, first[j]) ? ~0ull : 0;
        for (int k = 0; k < g->nfound && !is_corner(g, first[j]); k++)
            if ((flags(g)[first[j]] >> (1 + k)) & 1) well[j] |= takes[k];
    }
    const int32_t *order = gather_order(g);
    uint64_t places = 1, past = ~((1ull << nfirst) - 1);  /* past: the places after the first deal */
    for (int x = 0; x < n_gather(g); x++) {
        int p = order[x], len = fc_len(s, p), least = top[p] + 1;
        uint64_t after = 0, fits[ENDS_MAX_DEALS], refill_fits = 0;  /* the places where some card of each fits */
        for (int i = 0; i < deals_left; i++) {
            fits[i] = 0;
            for (int e = 0; e < nfirst && dealt[i][p]; e++)
                if (dealt[i][p] & well[e]) fits[i] |= 1ull << e;
        }
        for (int e = 0; e < nfirst && is_corner(g, p); e++)
            if (refilled & well[e]) refill_fits |= 1ull << e;
        for (int pre = 0; pre < nfirst; pre++) {
            if (!(places >> pre & 1)) continue;
            int good = 0;
            while (good < len && (pre + good >= nfirst || (well[pre + good] >> fc_at(s, p, good) & 1))) good++;
            for (int m = least; m <= good; m++) {
                if (pre + m >= nfirst) return 0;  /* the pile's own cards reach past the first deal */
                uint64_t ends = 1ull << (pre + m);
                for (int i = 0; i < deals_left; i++)  /* from each deal to come, nothing or one of its cards */
                    if (dealt[i][p]) ends |= (ends & (fits[i] | past)) << 1;
                if (refill_fits >> (pre + m) & 1)
                    ends |= 1ull << (pre + m + 1);  /* or, on a corner, one card a refill put there */
                if (ends >> nfirst) return 0;
                after |= ends;
            }
        }
        places = after;
        if (!places) return 1;
    }
    return 0;
}

/* mirrors SEARCH['dead_ends'], asked at every position: the side cards' proof, then (in the second laying-out,
 * over one fixpoint) the kept cards' proof and the proof of the laying-out's ends; held equal by
 * tests/test_fastcore_printex_frame.py (test_kernel_matches_the_engine_on_random_walks) */
static int lost(const fc_game *g, const fc_state *s) {
    if (side_card_lost(g, s)) return 1;
    if (s->passes != g->opt[O_PASSES] - 1 || !s->rounds || g->opt[O_ANY_PILE] || g->opt[O_CZTERY]) return 0;
    int top[FC_MAXC], got[FC_MAXC];
    if (!rest_of_the_laying_out(g, s, top, got)) return 0;
    return kept_card_lost(g, s, top) || ends_lost(g, s, top, got);
}

const fc_kernel fc_kernel_printex_frame = {"printex-frame", legal, apply, NULL, lost, frees};
