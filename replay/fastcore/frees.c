/* What frees a card: the question the search's move order asks of every child position, and the
 * bridge's fc_frees (see core.h).  It asks the kernel only; it knows no catalogue and no search. */
#include "core.h"

/* frees_a_card: whether some legal move of s takes the top card of src to a foundation (the kernel's
 * own shortcut when it has one, else a scan of its legal moves; buf holds FC_MAXMOVES) */
int fc_frees_a_card(const fc_kernel *k, const fc_game *g, const fc_state *s, int src, fc_move *buf) {
    if (!fc_len(s, src)) return 0;
    if (k->frees) return k->frees(g, s, src) != 0;
    int n = k->legal(g, s, buf);
    for (int i = 0; i < n; i++)
        if (buf[i].type == FC_MOVE && buf[i].src == src && buf[i].dst >= 0 && g->role[buf[i].dst] == FC_FOUNDATION)
            return 1;
    return 0;
}
