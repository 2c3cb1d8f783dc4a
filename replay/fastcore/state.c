/* Pile operations on an fc_state (see core.h). */
#include "core.h"

int fc_pop(fc_state *s, int n, int i) {
    int end = s->off[i + 1] - 1;
    int card = s->cards[end];
    int last = s->off[n];
    memmove(s->cards + end, s->cards + end + 1, (size_t)(last - end - 1));
    for (int j = i + 1; j <= n; j++) s->off[j]--;
    return card;
}

void fc_push(fc_state *s, int n, int i, int card) {
    int at = s->off[i + 1];
    int last = s->off[n];
    memmove(s->cards + at + 1, s->cards + at, (size_t)(last - at));
    s->cards[at] = (uint8_t)card;
    for (int j = i + 1; j <= n; j++) s->off[j]++;
}

void fc_insert_bottom(fc_state *s, int n, int i, int card) {
    int at = s->off[i];
    int last = s->off[n];
    memmove(s->cards + at + 1, s->cards + at, (size_t)(last - at));
    s->cards[at] = (uint8_t)card;
    for (int j = i + 1; j <= n; j++) s->off[j]++;
}

void fc_transfer(const fc_game *g, fc_state *s, int a, int b, int k) {
    uint8_t moved[FC_CARDS];
    int n = g->n;
    int start = s->off[a + 1] - k;
    memcpy(moved, s->cards + start, (size_t)k);
    for (int x = 0; x < k; x++) fc_pop(s, n, a);
    for (int x = 0; x < k; x++) fc_push(s, n, b, moved[x]);
    if (s->fsuit[b] < 0 && g->role[b] == FC_FOUNDATION) s->fsuit[b] = (int8_t)fc_suit(moved[0]);
}

void fc_set_pile(fc_state *s, int n, int i, const uint8_t *cards, int len) {
    uint8_t tmp[FC_CARDS];
    if (len) memcpy(tmp, cards, (size_t)len);  /* cards may point into s */
    int old = fc_len(s, i);
    int a = s->off[i], b = s->off[i + 1], last = s->off[n];
    memmove(s->cards + a + len, s->cards + b, (size_t)(last - b));
    if (len) memcpy(s->cards + a, tmp, (size_t)len);
    for (int j = i + 1; j <= n; j++) s->off[j] = (uint8_t)(s->off[j] + len - old);
}

int fc_home(const fc_game *g, const fc_state *s) {
    int h = 0;
    for (int k = 0; k < g->nfound; k++) h += fc_len(s, g->found[k]);
    return h;
}

int fc_fits_foundation(const fc_game *g, const fc_state *s, int f, int card) {
    int top = fc_top(s, f);
    if (top < 0) {
        if (fc_rank(card) != g->fbase[f]) return 0;
        return s->fsuit[f] < 0 || s->fsuit[f] == fc_suit(card);
    }
    return fc_suit(top) == fc_suit(card) && fc_rank(card) == fc_rank(top) + g->fdir[f];
}

void fc_gather(const fc_game *g, fc_state *s, const int32_t *order, int n, int bottom_first) {
    uint8_t taken[FC_CARDS], stock[FC_CARDS];
    int m = 0;
    for (int k = 0; k < n; k++) {
        int i = order[k], len = fc_len(s, i);
        const uint8_t *p = fc_pile(s, i);
        for (int x = 0; x < len; x++) taken[m + x] = bottom_first ? p[x] : p[len - 1 - x];
        m += len;
        fc_set_pile(s, g->n, i, taken, 0);
    }
    int old = fc_len(s, g->stock);
    for (int k = 0; k < m; k++) stock[k] = taken[m - 1 - k];  /* stock[:0] = reversed(new) */
    memcpy(stock + m, fc_pile(s, g->stock), (size_t)old);
    fc_set_pile(s, g->n, g->stock, stock, m + old);
    s->passes++;
    s->rounds = 0;
}
