/* Positions' keys and the profile's symmetry: what the searches over a kernel share (search.c, the
 * depth-first search; nested.c, the nested searches).  See core.h for what each function gives.
 */
#include <stdlib.h>
#include "core.h"

void fc_symmetry(const fc_profile *pr, uint8_t *grouped, int8_t *group_of) {
    memset(grouped, 0, FC_MAXC);
    memset(group_of, -1, FC_MAXC);
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
}

uint64_t fc_hash_bytes(const uint8_t *p, size_t n) {
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

#define PLACE_MASK (((uint64_t)1 << FC_KEYSET_PLACE_BITS) - 1)
#define TAG_OF(h) ((h) & ~PLACE_MASK)

int fc_keyset_init(fc_keyset *k) {
    memset(k, 0, sizeof(*k));
    k->nslots = 1 << 16;
    k->slots = calloc(k->nslots, sizeof(uint64_t));
    return k->slots != 0;
}

void fc_keyset_free(fc_keyset *k) {
    for (size_t b = 0; b < k->nblocks; b++) free(k->blocks[b]);
    free(k->blocks); free(k->slots);
    memset(k, 0, sizeof(*k));
}

size_t fc_keyset_bytes(const fc_keyset *k) {
    return k->nblocks * FC_KEYSET_BLOCK + k->blocks_cap * sizeof(uint8_t *) + k->nslots * sizeof(uint64_t);
}

/* the key a slot's place points at: its length in the first two bytes, then the bytes */
static const uint8_t *key_at(const fc_keyset *k, uint64_t slot) {
    uint64_t place = (slot & PLACE_MASK) - 1;
    return k->blocks[place / FC_KEYSET_BLOCK] + place % FC_KEYSET_BLOCK;
}

static int keyset_grow(fc_keyset *k) {
    size_t n = k->nslots * 2;
    uint64_t *slots = calloc(n, sizeof(uint64_t));
    if (!slots) return 0;
    for (size_t i = 0; i < k->nslots; i++) {
        uint64_t s = k->slots[i];
        if (!s) continue;
        const uint8_t *p = key_at(k, s);
        uint64_t h = fc_hash_bytes(p + 2, (size_t)p[0] | ((size_t)p[1] << 8));  /* the place keeps no hash bits */
        size_t j = h & (n - 1);
        while (slots[j]) j = (j + 1) & (n - 1);
        slots[j] = s;
    }
    free(k->slots);
    k->slots = slots; k->nslots = n;
    return 1;
}

int fc_keyset_add(fc_keyset *k, const uint8_t *key, size_t len) {
    uint64_t h = fc_hash_bytes(key, len), tag = TAG_OF(h);
    size_t mask = k->nslots - 1, i = h & mask;
    while (k->slots[i]) {
        if (TAG_OF(k->slots[i]) == tag) {
            const uint8_t *p = key_at(k, k->slots[i]);
            size_t plen = (size_t)p[0] | ((size_t)p[1] << 8);
            if (plen == len && memcmp(p + 2, key, len) == 0) return 0;
        }
        i = (i + 1) & mask;
    }
    if (!k->nblocks || k->used + len + 2 > FC_KEYSET_BLOCK) {  /* a new block: keys are far shorter than one */
        if (len + 2 > FC_KEYSET_BLOCK || (uint64_t)(k->nblocks + 1) * FC_KEYSET_BLOCK > PLACE_MASK) return -1;
        if (k->nblocks == k->blocks_cap) {
            size_t cap = k->blocks_cap ? k->blocks_cap * 2 : 64;
            uint8_t **b = realloc(k->blocks, cap * sizeof(uint8_t *));
            if (!b) return -1;
            k->blocks = b; k->blocks_cap = cap;
        }
        if (!(k->blocks[k->nblocks] = malloc(FC_KEYSET_BLOCK))) return -1;
        k->nblocks++; k->used = 0;
    }
    uint8_t *p = k->blocks[k->nblocks - 1] + k->used;
    p[0] = (uint8_t)(len & 255); p[1] = (uint8_t)(len >> 8);
    memcpy(p + 2, key, len);
    k->slots[i] = tag | ((uint64_t)(k->nblocks - 1) * FC_KEYSET_BLOCK + k->used + 1);
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

size_t fc_make_key(const fc_game *g, const fc_profile *pr, const uint8_t *grouped, const fc_state *s,
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

int fc_reduce_moves(const fc_profile *pr, const int8_t *group_of, const fc_state *s, fc_move *mv, int n) {
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

/* the lines a search's result holds (either search's: search.c, nested.c) */
void fc_free_result(fc_result *r) {
    free(r->line); free(r->best_line);
    r->line = r->best_line = 0;
}
