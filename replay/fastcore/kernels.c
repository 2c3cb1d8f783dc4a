/* The kernels this library carries, by game ID (the catalogue of the fast core, as
 * replay/games/catalog.py is the engine's): one per games/<game>.c, listed by the build.  It calls
 * nothing; the bridge (bridge.c) looks kernels up here and hands them to the search. */
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
