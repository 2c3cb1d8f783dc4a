/* The kernels this library carries, by game ID (the catalogue of the fast core, as
 * replay/games/catalog.py is the engine's). */
#include "core.h"

extern const fc_kernel fc_kernel_exiles;
extern const fc_kernel fc_kernel_napoleons_square;
extern const fc_kernel fc_kernel_zwarta_kolumna;

static const fc_kernel *const KERNELS[] = {
#ifdef FC_HAVE_EXILES
    &fc_kernel_exiles,
#endif
#ifdef FC_HAVE_NAPOLEONS_SQUARE
    &fc_kernel_napoleons_square,
#endif
#ifdef FC_HAVE_ZWARTA_KOLUMNA
    &fc_kernel_zwarta_kolumna,
#endif
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

/* the kernel's frees (or, without one, the scan of its legal moves the search makes instead) */
int fc_frees(const char *name, const fc_game *g, const fc_state *s, int src) {
    const fc_kernel *k = fc_kernel_named(name);
    if (!k) return -1;
    if (k->frees) return k->frees(g, s, src) != 0;
    fc_move out[FC_MAXMOVES];
    int n = k->legal(g, s, out);
    for (int i = 0; i < n; i++)
        if (out[i].type == FC_MOVE && out[i].src == src && out[i].dst >= 0 && g->role[out[i].dst] == FC_FOUNDATION)
            return 1;
    return 0;
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
