/* The generic depth-first search of replay.solver.search.solve, over a game's kernel.
 *
 * It mirrors the Python search step for step (tests/test_fastcore.py holds the two to the same
 * verdict, nodes, positions, pruned positions, best cards home and line): the same transposition
 * table (a key per position with the same equivalences as position_key: interchangeable containers
 * sorted, the round counter capped), the same symmetry reduction (_reduce), the same safe move, the
 * same move order (move_class, stable), the same checks in the same order at every position.
 * The only differences are speed: a position is a flat array of bytes copied in one memcpy, keys are
 * bytes kept in one arena with an open-addressing hash set, and a child position is made again
 * when the search enters it instead of being kept from the ordering.
 */
#include <stddef.h>
#include <stdlib.h>
#include "core.h"

/* search-order classes (replay.solver.search) */
enum { R_FOUNDATION, R_IMPOSED, R_PRODUCTIVE, R_DEAL, R_REDEAL, R_OTHER, R_SHIFT };
enum { ST_WON = 0, ST_UNWINNABLE = 1, ST_UNKNOWN = 2 };
/* stopped_by: 0 none, 1 nodes, 2 what the tick callback asked (seconds, interrupted), 3 memory */
#define STOP_MEMORY 3
#define CHECK_EVERY 16

static size_t state_bytes(const fc_state *s) { return offsetof(fc_state, vars) + s->vlen; }
static void copy_state(fc_state *dst, const fc_state *src) { memcpy(dst, src, state_bytes(src)); }

/* ------------------------------------------------------------------ keys */

typedef struct {
    uint8_t *arena;
    size_t used, cap;
    uint64_t *slots;   /* 0 empty, else (offset + 1) into arena */
    uint64_t *hashes;
    size_t nslots, count;
} keyset;

static uint64_t hash_bytes(const uint8_t *p, size_t n) {
    uint64_t h = 0x9e3779b97f4a7c15ULL ^ n;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, 8);
        h = (h ^ w) * 0xff51afd7ed558ccdULL;
        h ^= h >> 32;
    }
    uint64_t w = 0;
    memcpy(&w, p + i, n - i);
    h = (h ^ w) * 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 29; h *= 0xbf58476d1ce4e5b9ULL; h ^= h >> 32;
    return h;
}

static int keyset_init(keyset *k) {
    k->cap = 1 << 20; k->used = 0; k->arena = malloc(k->cap);
    k->nslots = 1 << 16; k->count = 0;
    k->slots = calloc(k->nslots, sizeof(uint64_t));
    k->hashes = calloc(k->nslots, sizeof(uint64_t));
    return k->arena && k->slots && k->hashes;
}

static void keyset_free(keyset *k) { free(k->arena); free(k->slots); free(k->hashes); }

static int keyset_grow(keyset *k) {
    size_t n = k->nslots * 2;
    uint64_t *slots = calloc(n, sizeof(uint64_t)), *hashes = calloc(n, sizeof(uint64_t));
    if (!slots || !hashes) { free(slots); free(hashes); return 0; }
    for (size_t i = 0; i < k->nslots; i++) {
        if (!k->slots[i]) continue;
        size_t j = k->hashes[i] & (n - 1);
        while (slots[j]) j = (j + 1) & (n - 1);
        slots[j] = k->slots[i]; hashes[j] = k->hashes[i];
    }
    free(k->slots); free(k->hashes);
    k->slots = slots; k->hashes = hashes; k->nslots = n;
    return 1;
}

/* add key (len bytes); returns 1 when it was new, 0 when it was there, -1 out of memory */
static int keyset_add(keyset *k, const uint8_t *key, size_t len) {
    uint64_t h = hash_bytes(key, len);
    size_t mask = k->nslots - 1, i = h & mask;
    while (k->slots[i]) {
        if (k->hashes[i] == h) {
            const uint8_t *p = k->arena + (k->slots[i] - 1);
            size_t plen = (size_t)p[0] | ((size_t)p[1] << 8);
            if (plen == len && memcmp(p + 2, key, len) == 0) return 0;
        }
        i = (i + 1) & mask;
    }
    if (k->used + len + 2 > k->cap) {
        size_t cap = k->cap * 2;
        while (cap < k->used + len + 2) cap *= 2;
        uint8_t *a = realloc(k->arena, cap);
        if (!a) return -1;
        k->arena = a; k->cap = cap;
    }
    uint8_t *p = k->arena + k->used;
    p[0] = (uint8_t)(len & 255); p[1] = (uint8_t)(len >> 8);
    memcpy(p + 2, key, len);
    k->slots[i] = k->used + 1; k->hashes[i] = h;
    k->used += len + 2; k->count++;
    if (k->count * 2 > k->nslots && !keyset_grow(k)) return -1;
    return 1;
}

typedef struct { const uint8_t *p; int len; int suit; } piece;

static int piece_cmp(const piece *x, const piece *y) {
    if (x->suit != y->suit) return x->suit - y->suit;
    int n = x->len < y->len ? x->len : y->len;
    for (int i = 0; i < n; i++)
        if (x->p[i] != y->p[i]) return x->p[i] - y->p[i];
    return x->len - y->len;
}

/* insertion sort: the groups are small (a dozen piles at most), and any fixed total order will do */
static void sort_pieces(piece *ps, int n) {
    for (int i = 1; i < n; i++) {
        piece x = ps[i];
        int j = i - 1;
        while (j >= 0 && piece_cmp(&ps[j], &x) > 0) { ps[j + 1] = ps[j]; j--; }
        ps[j + 1] = x;
    }
}

/* the key of s: equal keys exactly when position_key gives equal keys */
static size_t make_key(const fc_game *g, const fc_profile *pr, const uint8_t *grouped, const fc_state *s,
                       uint8_t *out) {
    size_t at = 0;
    piece ps[FC_MAXC];
    for (int i = 0; i < g->n; i++) {
        if (grouped[i]) continue;
        int len = fc_len(s, i);
        out[at++] = (uint8_t)len;
        memcpy(out + at, fc_pile(s, i), (size_t)len); at += (size_t)len;
    }
    if (pr->nsame_tableau) {
        for (int j = 0; j < pr->nsame_tableau; j++) {
            int i = pr->same_tableau[j];
            ps[j].p = fc_pile(s, i); ps[j].len = fc_len(s, i); ps[j].suit = 0;
        }
        sort_pieces(ps, pr->nsame_tableau);
        for (int j = 0; j < pr->nsame_tableau; j++) {
            out[at++] = (uint8_t)ps[j].len;
            memcpy(out + at, ps[j].p, (size_t)ps[j].len); at += (size_t)ps[j].len;
        }
    }
    for (int gi = 0; gi < pr->ngroups; gi++) {
        int n = pr->group_len[gi];
        for (int j = 0; j < n; j++) {
            int f = pr->groups[gi][j];
            ps[j].p = fc_pile(s, f); ps[j].len = fc_len(s, f); ps[j].suit = s->fsuit[f] + 1;
        }
        sort_pieces(ps, n);
        for (int j = 0; j < n; j++) {
            out[at++] = (uint8_t)ps[j].suit;
            out[at++] = (uint8_t)ps[j].len;
            memcpy(out + at, ps[j].p, (size_t)ps[j].len); at += (size_t)ps[j].len;
        }
    }
    for (int k = 0; k < g->nfound; k++) {
        int f = g->found[k];
        if (!grouped[f]) out[at++] = (uint8_t)(s->fsuit[f] + 1);
    }
    out[at++] = s->passes;
    out[at++] = (uint8_t)(pr->rounds_cap >= 0 && s->rounds > pr->rounds_cap ? pr->rounds_cap : s->rounds);
    memcpy(out + at, s->vars, s->vlen); at += s->vlen;
    return at;
}

/* ------------------------------------------------------------------ ordering */

static int move_class(const fc_kernel *k, const fc_game *g, const fc_move *m, const fc_state *child, fc_move *buf) {
    if (m->type == FC_DEAL) return R_DEAL;
    if (m->type == FC_REDEAL) return R_REDEAL;
    int srcrole = g->role[m->src >= 0 ? m->src : g->n - 1];  /* roles[-1], as Python indexes it */
    if (m->dst >= 0 && g->role[m->dst] == FC_FOUNDATION) return srcrole == FC_FOUNDATION ? R_SHIFT : R_FOUNDATION;
    if (m->type == FC_FILL || m->type == FC_TUCK) return R_IMPOSED;
    if (m->src >= 0 && g->role[m->src] == FC_WASTE) return R_PRODUCTIVE;
    if (m->src >= 0 && g->role[m->src] != FC_STOCK && fc_frees_a_card(k, g, child, m->src, buf)) return R_PRODUCTIVE;
    return R_OTHER;
}

/* _reduce: drop a move into an empty member of an interchangeable group when an earlier empty member
 * of the same group took the same move (type, source, count) */
static int reduce_moves(const fc_profile *pr, const int8_t *group_of, const fc_state *s,
                        fc_move *mv, int n) {
    if (!pr->nsame_tableau && !pr->ngroups) return n;
    int out = 0;
    /* taken signatures: at most n */
    int tg[FC_MAXMOVES]; uint8_t tt[FC_MAXMOVES]; int8_t ts[FC_MAXMOVES]; uint8_t tc[FC_MAXMOVES];
    int nt = 0;
    for (int i = 0; i < n; i++) {
        fc_move m = mv[i];
        int keep = 1;
        if (m.dst >= 0 && !fc_len(s, m.dst) && group_of[m.dst] >= 0) {
            int gi = group_of[m.dst];
            for (int j = 0; j < nt; j++)
                if (tg[j] == gi && tt[j] == m.type && ts[j] == m.src && tc[j] == m.count) { keep = 0; break; }
            if (keep) { tg[nt] = gi; tt[nt] = m.type; ts[nt] = m.src; tc[nt] = m.count; nt++; }
        }
        if (keep) mv[out++] = m;
    }
    return out;
}

typedef struct {
    fc_state *states;   /* one per depth */
    fc_move *moves;     /* the ordered moves of every frame, frame after frame */
    int *first, *count, *next;
    size_t depth_cap, moves_cap, moves_used;
} dfs_stack;

static int ensure_depth(dfs_stack *st, size_t depth) {
    if (depth < st->depth_cap) return 1;
    size_t cap = st->depth_cap ? st->depth_cap * 2 : 256;
    fc_state *s = realloc(st->states, cap * sizeof(fc_state));
    if (!s) return 0;
    st->states = s;
    int *a = realloc(st->first, cap * sizeof(int)); if (!a) return 0; st->first = a;
    a = realloc(st->count, cap * sizeof(int)); if (!a) return 0; st->count = a;
    a = realloc(st->next, cap * sizeof(int)); if (!a) return 0; st->next = a;
    st->depth_cap = cap;
    return 1;
}

static int ensure_moves(dfs_stack *st, size_t more) {
    if (st->moves_used + more <= st->moves_cap) return 1;
    size_t cap = st->moves_cap ? st->moves_cap * 2 : 4096;
    while (cap < st->moves_used + more) cap *= 2;
    fc_move *m = realloc(st->moves, cap * sizeof(fc_move));
    if (!m) return 0;
    st->moves = m; st->moves_cap = cap;
    return 1;
}

/* ordered_moves: the moves of the frame at depth d (its state already in place), appended to the
 * move stack; returns 1, 0 out of memory, -1 when a child is beyond the kernel (its beyond) */
static int order_frame(const fc_kernel *k, const fc_game *g, const fc_profile *pr, const int8_t *group_of,
                       dfs_stack *st, size_t d, fc_move *scratch, fc_move *buf, fc_state *tmp) {
    const fc_state *s = &st->states[d];
    int n = k->legal(g, s, scratch);
    n = reduce_moves(pr, group_of, s, scratch, n);
    if (!ensure_moves(st, (size_t)n + 1)) return 0;
    st->first[d] = (int)st->moves_used;
    st->next[d] = 0;
    fc_move *out = st->moves + st->moves_used;
    if (pr->use_safe) {
        for (int i = 0; i < n; i++) {
            if (k->safe(g, s, &scratch[i])) {
                if (k->beyond) {
                    copy_state(tmp, s);
                    k->apply(g, tmp, &scratch[i]);
                    if (k->beyond(g, tmp)) return -1;
                }
                out[0] = scratch[i];
                st->count[d] = 1; st->moves_used += 1;
                return 1;
            }
        }
    }
    int cls[FC_MAXMOVES];
    int bycls[7] = {0};
    for (int i = 0; i < n; i++) {
        copy_state(tmp, s);
        k->apply(g, tmp, &scratch[i]);
        if (k->beyond && k->beyond(g, tmp)) return -1;
        cls[i] = move_class(k, g, &scratch[i], tmp, buf);
        bycls[cls[i]]++;
    }
    int at = 0;  /* a stable counting sort by class */
    for (int c = 0; c < 7; c++)
        for (int i = 0; i < n && bycls[c]; i++)
            if (cls[i] == c) out[at++] = scratch[i];
    st->count[d] = n; st->moves_used += (size_t)n;
    return 1;
}

void fc_free_result(fc_result *r) {
    free(r->line); free(r->best_line);
    r->line = r->best_line = 0;
}

static int set_line(fc_move **dst, int *ndst, const fc_move *line, int n, const fc_move *last) {
    free(*dst);
    *dst = malloc(sizeof(fc_move) * (size_t)(n + 1));
    if (!*dst) return 0;
    if (n) memcpy(*dst, line, sizeof(fc_move) * (size_t)n);
    (*dst)[n] = *last;
    *ndst = n + 1;
    return 1;
}

/* solve: replay.solver.search.solve from the position root (not won, no proof of loss at the root:
 * the caller asked those).  max_nodes < 0: no node budget.  max_bytes >= 0: stop (stopped_by memory)
 * when the table of positions seen and the stack of the line searched would hold more than that (the Python search has no such bound;
 * it is far beyond the budgets the two are compared on).  tick, when given, is called every
 * CHECK_EVERY positions as the Python search looks at its clock; a nonzero answer stops the search
 * and becomes stopped_by.  Returns 0, or -1 (no kernel, a missing safe/lost, out of memory, a position
 * beyond the kernel: its beyond). */
int fc_search(const fc_kernel *k, const fc_game *g, const fc_profile *pr, const fc_state *root, int64_t max_nodes,
              int64_t max_bytes, fc_tick tick, fc_result *res) {
    memset(res, 0, sizeof(*res));
    if (!k || (pr->use_safe && !k->safe) || (pr->use_lost && !k->lost)) { res->error = 1; return -1; }
    uint8_t grouped[FC_MAXC] = {0};
    int8_t group_of[FC_MAXC];
    memset(group_of, -1, sizeof(group_of));
    int gi = 0;
    if (pr->nsame_tableau) {
        for (int j = 0; j < pr->nsame_tableau; j++) { grouped[pr->same_tableau[j]] = 1; group_of[pr->same_tableau[j]] = 0; }
        gi = 1;
    }
    for (int x = 0; x < pr->ngroups; x++, gi++)
        for (int j = 0; j < pr->group_len[x]; j++) {
            int f = pr->groups[x][j];
            grouped[f] = 1;
            if (group_of[f] < 0) group_of[f] = (int8_t)gi;  /* the first group that holds it, as _reduce */
        }
    keyset seen;
    dfs_stack st = {0};
    fc_move *scratch = malloc(sizeof(fc_move) * FC_MAXMOVES), *buf = malloc(sizeof(fc_move) * FC_MAXMOVES);
    fc_move *line = 0;
    size_t line_cap = 0;
    fc_state *tmp = malloc(sizeof(fc_state));
    uint8_t *key = malloc(FC_CARDS * 3 + FC_MAXC * 3 + FC_VARS + 16);
    int rc = -1, ordered = 1;  /* ordered < 0: a child beyond the kernel */
    if (!keyset_init(&seen) || !scratch || !buf || !tmp || !key || !ensure_depth(&st, 0)) goto done;
    copy_state(&st.states[0], root);
    if (keyset_add(&seen, key, make_key(g, pr, grouped, root, key)) < 0) goto done;
    if ((ordered = order_frame(k, g, pr, group_of, &st, 0, scratch, buf, tmp)) <= 0) goto done;
    size_t depth = 0;   /* the frame on top; line[0 .. depth) leads to it */
    int64_t nodes = 1, pruned = 0;
    int best = fc_home(g, root), stopped = 0;
    for (;;) {
        if (st.next[depth] >= st.count[depth]) {
            st.moves_used = (size_t)st.first[depth];
            if (depth == 0) break;
            depth--;
            continue;
        }
        fc_move m = st.moves[st.first[depth] + st.next[depth]++];
        if (!ensure_depth(&st, depth + 1)) goto done;
        fc_state *child = &st.states[depth + 1];
        copy_state(child, &st.states[depth]);
        k->apply(g, child, &m);
        int added = keyset_add(&seen, key, make_key(g, pr, grouped, child, key));
        if (added < 0) goto done;
        if (!added) continue;
        if (max_bytes >= 0 && (int64_t)(seen.cap + seen.nslots * 2 * sizeof(uint64_t) + st.depth_cap * sizeof(fc_state)
                                        + st.moves_cap * sizeof(fc_move) + line_cap * sizeof(fc_move)) > max_bytes) {
            stopped = STOP_MEMORY;  /* the positions recorded fill the memory allowed: stop, as a budget would */
            break;
        }
        if (depth + 1 > line_cap) {
            size_t cap = line_cap ? line_cap * 2 : 256;
            fc_move *l = realloc(line, cap * sizeof(fc_move));
            if (!l) goto done;
            line = l; line_cap = cap;
        }
        line[depth] = m;
        int home = fc_home(g, child);
        if (home > best) {
            best = home;
            if (!set_line(&res->best_line, &res->nbest, line, (int)depth, &m)) goto done;
        }
        if (home == FC_CARDS) {
            if (!set_line(&res->line, &res->nline, line, (int)depth, &m)) goto done;
            res->status = ST_WON; res->nodes = nodes; res->positions = (int64_t)seen.count;
            res->best_home = best; res->pruned = pruned;
            rc = 0;
            goto done;
        }
        if (pr->use_lost && k->lost(g, child)) { pruned++; continue; }
        if (max_nodes >= 0 && nodes >= max_nodes) { stopped = 1; break; }
        if (tick && nodes % CHECK_EVERY == 0) {
            int r = tick(nodes, best);
            if (r) { stopped = r; break; }
        }
        nodes++;
        depth++;
        if ((ordered = order_frame(k, g, pr, group_of, &st, depth, scratch, buf, tmp)) <= 0) goto done;
    }
    res->status = stopped ? ST_UNKNOWN : ST_UNWINNABLE;
    res->stopped_by = stopped;
    res->nodes = nodes; res->positions = (int64_t)seen.count; res->best_home = best; res->pruned = pruned;
    rc = 0;
done:
    if (rc) { fc_free_result(res); res->error = ordered < 0 ? 3 : 2; }
    keyset_free(&seen);
    free(st.states); free(st.moves); free(st.first); free(st.count); free(st.next);
    free(scratch); free(buf); free(line); free(tmp); free(key);
    return rc;
}

/* the size of the structures, for the bridge to check its ctypes mirror */
size_t fc_sizeof_state(void) { return sizeof(fc_state); }
size_t fc_sizeof_game(void) { return sizeof(fc_game); }
size_t fc_sizeof_profile(void) { return sizeof(fc_profile); }
size_t fc_sizeof_result(void) { return sizeof(fc_result); }
