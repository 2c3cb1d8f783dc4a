/* The kernels this library carries, by game ID (the catalogue of the fast core, as
 * replay/games/catalog.py is the engine's): one per games/<game>.c, listed by the build. */
#include "core.h"

/* FC_KERNELS is X(game) for every games/<game>.c, given by the build (replay/fastcore/build.py): each
 * file defines fc_kernel_<game> */
#ifndef FC_KERNELS
#define FC_KERNELS
#endif
#define X(game) extern const fc_kernel fc_kernel_##game;
FC_KERNELS
#undef X

static const fc_kernel *const KERNELS[] = {
#define X(game) &fc_kernel_##game,
    FC_KERNELS
#undef X
    0,
};

const fc_kernel *fc_kernel_named(const char *name) {
    for (int i = 0; KERNELS[i]; i++)
        if (strcmp(KERNELS[i]->name, name) == 0) return KERNELS[i];
    return 0;
}

/* ---- entry points for the Python bridge (replay/fastcore/__init__.py) ---- */

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
