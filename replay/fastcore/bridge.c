/* The entry points of the Python bridge (replay/fastcore/__init__.py): each takes a kernel by its game
 * ID, finds it in the catalogue (kernels.c) and asks it, or the search (search.c), or frees.c.  Nothing
 * below calls back up here. */
#include "core.h"

int fc_legal_moves(const char *name, const fc_game *g, const fc_state *s, fc_move *out) {
    const fc_kernel *k = fc_kernel_named(name);
    return k ? k->legal(g, s, out) : -1;
}

int fc_apply_move(const char *name, const fc_game *g, fc_state *s, const fc_move *m) {
    const fc_kernel *k = fc_kernel_named(name);
    if (!k) return -1;
    k->apply(g, s, m);
    return 0;
}

int fc_is_safe(const char *name, const fc_game *g, const fc_state *s, const fc_move *m) {
    const fc_kernel *k = fc_kernel_named(name);
    if (!k) return -1;
    return k->safe ? (k->safe(g, s, m) != 0) : 0;
}

int fc_is_lost(const char *name, const fc_game *g, const fc_state *s) {
    const fc_kernel *k = fc_kernel_named(name);
    if (!k) return -1;
    return k->lost ? (k->lost(g, s) != 0) : 0;
}

/* the search's question of the move order (fc_frees_a_card): the kernel's frees, or the scan of its
 * legal moves the search makes without one */
int fc_frees(const char *name, const fc_game *g, const fc_state *s, int src) {
    const fc_kernel *k = fc_kernel_named(name);
    if (!k) return -1;
    fc_move buf[FC_MAXMOVES];
    return fc_frees_a_card(k, g, s, src, buf);
}

int fc_has_frees(const char *name) {
    const fc_kernel *k = fc_kernel_named(name);
    return k && k->frees;
}

int fc_has_kernel(const char *name) { return fc_kernel_named(name) != 0; }

#ifndef FC_SOURCE_HASH
#define FC_SOURCE_HASH "unknown"
#endif
/* the SHA-256 of the sources this library was built from (replay.fastcore.build.source_hash) */
const char *fc_source_hash(void) { return FC_SOURCE_HASH; }

/* replay.solver.search.solve by the kernel named (fc_search); -1 when the library has no such kernel */
int fc_solve(const char *name, const fc_game *g, const fc_profile *pr, const fc_state *root, int64_t max_nodes,
             int64_t max_bytes, fc_tick tick, fc_result *res) {
    return fc_search(fc_kernel_named(name), g, pr, root, max_nodes, max_bytes, tick, res);
}

/* replay.solver.nested's search by the kernel named (fc_nested_search); -1 when the library has no such kernel */
int fc_nested(const char *name, const fc_game *g, const fc_profile *pr, const fc_state *root,
              const fc_nested_params *p, int64_t max_positions, int64_t max_bytes, fc_tick tick, fc_result *res) {
    return fc_nested_search(fc_kernel_named(name), g, pr, root, p, max_positions, max_bytes, tick, res);
}

/* the size of fc_nested_params, which replay/fastcore/nested.py checks its mirror against */
size_t fc_sizeof_nested_params(void) { return sizeof(fc_nested_params); }

/* A move of a recorded log, as the checked replay asks it (replay/log/fast.py packs them): the move
 * (fc_move's fields) and the card the log says moves (-1 when it names none). */
typedef struct {
    uint8_t type;
    int8_t src, dst;
    uint8_t count;
    int16_t card;
} fc_logmove;

/* The checked replay of a recorded line by the kernel named, from s (changed in place): each move must
 * be among the kernel's legal moves of its position (type, source, destination and count equal) and,
 * when it names a card, that card must be the lowest of those it moves (Game.step's card check).  It
 * only ever accepts: the engine words every refusal (replay/log/fast.py replays such a log in Python);
 * tests/test_log_fast.py holds its reports to the engine's on every example and on random logs.
 * Returns how many moves it carried out (n when every one was found; i < n when move i was not, s
 * then the position before it); -1 without such a kernel; -2 when a move made a position the kernel
 * does not mirror (its beyond).  *nlegal: the legal moves of the last position, *home: its cards home. */
int fc_check_line(const char *name, const fc_game *g, fc_state *s, const fc_logmove *moves, int n, int *nlegal,
                  int *home) {
    const fc_kernel *k = fc_kernel_named(name);
    if (!k) return -1;
    fc_move buf[FC_MAXMOVES];
    for (int i = 0; i < n; i++) {
        const fc_logmove *m = &moves[i];
        int nl = k->legal(g, s, buf), found = 0;
        for (int j = 0; j < nl; j++) {
            const fc_move *c = &buf[j];
            if (c->type == m->type && c->src == m->src && c->dst == m->dst && c->count == m->count) {
                found = 1;
                break;
            }
        }
        if (!found) return i;
        if (m->card >= 0 && m->src >= 0) {
            int len = fc_len(s, m->src);
            if (len < m->count || fc_at(s, m->src, len - m->count) != m->card) return i;
        }
        fc_move mv = {m->type, m->src, m->dst, m->count};
        k->apply(g, s, &mv);
        if (k->beyond && k->beyond(g, s)) return -2;
    }
    *nlegal = k->legal(g, s, buf);
    *home = fc_home(g, s);
    return n;
}

/* the size of fc_logmove, which replay/log/fast.py checks its packing against */
size_t fc_sizeof_logmove(void) { return sizeof(fc_logmove); }
