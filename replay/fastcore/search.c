/* The generic depth-first search of replay.solver.search.solve, over a game's kernel.
 *
 * It mirrors the Python search step for step (tests/test_fastcore.py holds the two to the same
 * verdict, nodes, positions, pruned positions, best cards home and line): the same transposition
 * table (a key per position with the same equivalences as position_key: interchangeable containers
 * sorted, the round counter capped), the same symmetry reduction (_reduce), the same safe move, the
 * same move order (move_class, stable), the same checks in the same order at every position.
 * The only differences are speed: a position is a flat array of bytes copied in one memcpy, keys are
 * bytes kept in blocks with an open-addressing hash set (keys.c), and a child position is made again
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
    n = fc_reduce_moves(pr, group_of, s, scratch, n);
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
    uint8_t grouped[FC_MAXC];
    int8_t group_of[FC_MAXC];
    fc_symmetry(pr, grouped, group_of);
    fc_keyset seen;
    dfs_stack st = {0};
    fc_move *scratch = malloc(sizeof(fc_move) * FC_MAXMOVES), *buf = malloc(sizeof(fc_move) * FC_MAXMOVES);
    fc_move *line = 0;
    size_t line_cap = 0;
    fc_state *tmp = malloc(sizeof(fc_state));
    uint8_t *key = malloc(FC_KEY_MAX);
    int rc = -1, ordered = 1;  /* ordered < 0: a child beyond the kernel */
    if (!fc_keyset_init(&seen) || !scratch || !buf || !tmp || !key || !ensure_depth(&st, 0)) goto done;
    copy_state(&st.states[0], root);
    if (fc_keyset_add(&seen, key, fc_make_key(g, pr, grouped, root, key)) < 0) goto done;
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
        int added = fc_keyset_add(&seen, key, fc_make_key(g, pr, grouped, child, key));
        if (added < 0) goto done;
        if (!added) continue;
        if (max_bytes >= 0 && (int64_t)(fc_keyset_bytes(&seen) + st.depth_cap * sizeof(fc_state)
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
    fc_keyset_free(&seen);
    free(st.states); free(st.moves); free(st.first); free(st.count); free(st.next);
    free(scratch); free(buf); free(line); free(tmp); free(key);
    return rc;
}

/* the size of the structures, for the bridge to check its ctypes mirror */
size_t fc_sizeof_state(void) { return sizeof(fc_state); }
size_t fc_sizeof_game(void) { return sizeof(fc_game); }
size_t fc_sizeof_profile(void) { return sizeof(fc_profile); }
size_t fc_sizeof_result(void) { return sizeof(fc_result); }
