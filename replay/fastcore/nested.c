/* The nested searches of replay.solver.nested, over a game's kernel: searches made to find wins, not
 * to prove losses.
 *
 *   NMCS  nested Monte-Carlo search (T. Cazenave, "Nested Monte-Carlo Search", IJCAI 2009): at each
 *         step of a level-L search every move is tried and finished by a level L-1 search (level 0:
 *         one rollout); the best line found so far is kept and its next move is played.
 *   NRPA  nested rollout policy adaptation (C. D. Rosin, IJCAI 2011): rollouts from the root follow a
 *         policy (a weight per move code, a softmax over the legal moves); each level runs the level
 *         below N times and adapts its policy toward its best line.  A foundation move has a prior
 *         weight (the policy's bias, as Cazenave's GNRPA has it).
 *
 * Both name no game: they ask the kernel for legal moves, carry them out and count cards home.  A line
 * never enters a position it has already passed through (the positions from the root to the
 * present one, compared by the depth-first search's keys, keys.c), nor grows past max_len moves, so
 * every rollout ends: a game's reversible moves (a sequence moved back and forth) cannot cycle.
 * When a run ends without a win and the budget is not spent, another runs (the generator goes on).
 *
 * The budget is counted in positions: every move carried out (rollouts' steps, a line's moves played
 * again to adapt a policy, a move that led back onto the line) is one, so figures do not depend on
 * the machine.  Deterministic for a given seed and budget: the generator is splitmix64, the only
 * floating point is NRPA's (exp, sums in a fixed order), and replay.solver.nested's Python search
 * makes the same choices in the same order (tests/test_nested.py holds the two to the same line).
 * It proves nothing: its answer is won (with the line) or unknown (with the line to the position with
 * the most cards home).
 */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include "core.h"

enum { M_NMCS = FC_NMCS, M_NRPA = FC_NRPA };
enum { ST_WON = 0, ST_UNKNOWN = 2 };
enum { STOP_NODES = 1, STOP_MEMORY = 3 };
/* how often (in positions) the clock callback is asked */
#define TICK_EVERY 256
/* the policy: slots of its table, and the most codes it holds (later codes keep weight 0) */
#define POL_SLOTS (1 << 14)
#define POL_MAX (POL_SLOTS / 2)
#define MAX_LEVEL 8
/* the bounds of the parameters (replay.solver.nested.BOUNDS holds the same) */
#define MAX_LINE 100000
#define MAX_ITERATIONS 1000000
#define MAX_WEIGHT 100.0
/* NRPA's weights are exp(x) for x clamped to [-MAX_EXP, MAX_EXP]: a sum of FC_MAXMOVES of them stays finite
 * and above zero */
#define MAX_EXP 700.0


static size_t state_bytes(const fc_state *s) { return offsetof(fc_state, vars) + s->vlen; }
static void copy_state(fc_state *dst, const fc_state *src) { memcpy(dst, src, state_bytes(src)); }

/* ------------------------------------------------------------------ the generator: splitmix64 */

static uint64_t next64(uint64_t *x) {
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}
/* a number in [0, n), n < 2^32 */
static int below(uint64_t *x, int n) { return (int)(((next64(x) >> 32) * (uint64_t)n) >> 32); }
/* a number in [0, 1) */
static double unit(uint64_t *x) { return (double)(next64(x) >> 11) * (1.0 / 9007199254740992.0); }

/* ------------------------------------------------------------------ the line's positions */

/* the keys of the positions from the root to the present one, a stack with a hash index: pushed and
 * popped last-in first-out, so an entry is removed by clearing its slot (nothing later probed past it) */
typedef struct {
    uint8_t *arena;
    size_t used, cap;
    size_t *off;          /* entry i's key is arena[off[i] .. off[i + 1]) */
    uint64_t *hash;
    uint32_t *slot_of;    /* entry i's slot */
    uint32_t *slots;      /* 0 empty, else entry + 1 */
    int n, max;
    uint32_t mask;
} pathset;

static int path_init(pathset *p, int max) {
    uint32_t nslots = 1;
    while (nslots < (uint32_t)max * 2) nslots <<= 1;
    p->cap = 1 << 16; p->used = 0; p->n = 0; p->max = max; p->mask = nslots - 1;
    p->arena = malloc(p->cap);
    p->off = malloc(sizeof(size_t) * (size_t)(max + 1));
    p->hash = malloc(sizeof(uint64_t) * (size_t)max);
    p->slot_of = malloc(sizeof(uint32_t) * (size_t)max);
    p->slots = calloc(nslots, sizeof(uint32_t));
    if (p->off) p->off[0] = 0;
    return p->arena && p->off && p->hash && p->slot_of && p->slots;
}

static void path_free(pathset *p) { free(p->arena); free(p->off); free(p->hash); free(p->slot_of); free(p->slots); }

static size_t path_bytes(int max) {
    uint32_t nslots = 1;
    while (nslots < (uint32_t)max * 2) nslots <<= 1;
    return (size_t)max * (sizeof(size_t) + sizeof(uint64_t) + sizeof(uint32_t)) + nslots * sizeof(uint32_t);
}

/* push key unless it is there: 1 pushed, 0 there already, -1 out of memory (or full) */
static int path_push(pathset *p, const uint8_t *key, size_t len) {
    uint64_t h = fc_hash_bytes(key, len);
    uint32_t i = (uint32_t)h & p->mask;
    while (p->slots[i]) {
        int e = (int)p->slots[i] - 1;
        if (p->hash[e] == h && p->off[e + 1] - p->off[e] == len && memcmp(p->arena + p->off[e], key, len) == 0)
            return 0;
        i = (i + 1) & p->mask;
    }
    if (p->n >= p->max) return -1;
    if (p->used + len > p->cap) {
        size_t cap = p->cap * 2;
        while (cap < p->used + len) cap *= 2;
        uint8_t *a = realloc(p->arena, cap);
        if (!a) return -1;
        p->arena = a; p->cap = cap;
    }
    memcpy(p->arena + p->used, key, len);
    p->used += len;
    p->hash[p->n] = h; p->slot_of[p->n] = i; p->slots[i] = (uint32_t)p->n + 1;
    p->n++;
    p->off[p->n] = p->used;
    return 1;
}

static void path_pop_to(pathset *p, int n) {
    while (p->n > n) {
        p->n--;
        p->slots[p->slot_of[p->n]] = 0;
        p->used = p->off[p->n];
    }
}

/* ------------------------------------------------------------------ the policy (NRPA) */

typedef struct { uint32_t *code; double *w; int n; } policy;

static int pol_init(policy *q) {
    q->code = calloc(POL_SLOTS, sizeof(uint32_t)); q->w = calloc(POL_SLOTS, sizeof(double)); q->n = 0;
    return q->code && q->w;
}
static void pol_free(policy *q) { free(q->code); free(q->w); }
static void pol_clear(policy *q) { memset(q->code, 0, POL_SLOTS * sizeof(uint32_t)); q->n = 0; }
static void pol_copy(policy *dst, const policy *src) {
    memcpy(dst->code, src->code, POL_SLOTS * sizeof(uint32_t));
    memcpy(dst->w, src->w, POL_SLOTS * sizeof(double));
    dst->n = src->n;
}
static uint32_t pol_slot(const policy *q, uint32_t code) {
    uint32_t i = (code * 0x9e3779b1u) >> (32 - 14);
    while (q->code[i] && q->code[i] != code) i = (i + 1) & (POL_SLOTS - 1);
    return i;
}
static double pol_get(const policy *q, uint32_t code) {
    uint32_t i = pol_slot(q, code);
    return q->code[i] ? q->w[i] : 0.0;
}
/* add d to code's weight; a code not held while the policy holds POL_MAX keeps weight 0 */
static void pol_add(policy *q, uint32_t code, double d) {
    uint32_t i = pol_slot(q, code);
    if (!q->code[i]) {
        if (q->n >= POL_MAX) return;
        q->code[i] = code; q->w[i] = 0.0; q->n++;
    }
    q->w[i] += d;
}

/* ------------------------------------------------------------------ the search */

typedef struct {
    const fc_kernel *k;
    const fc_game *g;
    const fc_profile *pr;
    const fc_nested_params *p;
    uint8_t grouped[FC_MAXC];
    int8_t group_of[FC_MAXC];
    uint64_t rng;
    int64_t used, budget;       /* positions made; the most allowed (-1: no limit) */
    fc_tick tick;
    int stop;                   /* 0, else the stopped_by code; -1 won; -2 out of memory */
    fc_move *line;              /* the moves from the root to the present position: line[0 .. depth) */
    int depth;
    pathset path;               /* their positions (root included): path.n == depth + 1 */
    fc_result *res;
    uint8_t key[FC_KEY_MAX];
    fc_move *seq[MAX_LEVEL + 1];  /* each level's best line (NMCS: from its start; NRPA: from the root) */
    int seqlen[MAX_LEVEL + 1];
    fc_state *cur[MAX_LEVEL + 2], *tmp;
    policy pol[MAX_LEVEL + 1], old;
    fc_move moves[MAX_LEVEL + 2][FC_MAXMOVES];
} search;

static int set_line(fc_move **dst, int *ndst, const fc_move *line, int n) {
    free(*dst);
    *dst = malloc(sizeof(fc_move) * (size_t)(n + 1));
    if (!*dst) return 0;
    if (n) memcpy(*dst, line, sizeof(fc_move) * (size_t)n);
    *ndst = n;
    return 1;
}

/* one position made: the budget and the clock; 0 when the search must stop */
static int count(search *c) {
    if (c->stop) return 0;
    if (c->budget >= 0 && c->used >= c->budget) { c->stop = STOP_NODES; return 0; }
    c->used++;
    if (c->tick && c->used % TICK_EVERY == 0) {
        int r = c->tick(c->used, c->res->best_home);
        if (r) c->stop = r;
    }
    return 1;
}

/* carry out m from *from into *to (they may be the same) and enter it: 1 entered (the line and the path
 * grow by one), 0 it is on the line already (nothing changes but the count) or the line is as long
 * as allowed (nothing is made), -1 the search must stop (budget, clock, won, memory) */
static int step(search *c, const fc_state *from, const fc_move *m, fc_state *to) {
    if (c->depth >= c->p->max_len) return 0;
    if (!count(c)) return -1;
    copy_state(c->tmp, from);
    c->k->apply(c->g, c->tmp, m);
    if (c->k->beyond && c->k->beyond(c->g, c->tmp)) { c->stop = -3; return -1; }  /* Python searches it */
    int r = path_push(&c->path, c->key, fc_make_key(c->g, c->pr, c->grouped, c->tmp, c->key));
    if (r < 0) { c->stop = -2; return -1; }
    if (!r) return 0;
    copy_state(to, c->tmp);
    c->line[c->depth++] = *m;
    int home = fc_home(c->g, to);
    if (home > c->res->best_home) {
        c->res->best_home = home;
        if (!set_line(&c->res->best_line, &c->res->nbest, c->line, c->depth)) { c->stop = -2; return -1; }
    }
    if (home == FC_CARDS) {
        if (!set_line(&c->res->line, &c->res->nline, c->line, c->depth)) { c->stop = -2; return -1; }
        c->stop = -1;
        return -1;
    }
    return 1;
}

static void back_to(search *c, int depth) {
    c->depth = depth;
    path_pop_to(&c->path, depth + 1);
}

static int is_found(const fc_game *g, const fc_move *m) {
    return m->dst >= 0 && g->role[m->dst] == FC_FOUNDATION && (m->src < 0 || g->role[m->src] != FC_FOUNDATION);
}

/* the candidate moves of s (the legal moves after the symmetry reduction) into out; *safe: the index of
 * the first safe move (the profile's), -1 for none */
static int candidates(search *c, const fc_state *s, fc_move *out, int *safe) {
    int n = c->k->legal(c->g, s, out);
    n = fc_reduce_moves(c->pr, c->group_of, s, out, n);
    *safe = -1;
    if (c->pr->use_safe)
        for (int i = 0; i < n; i++)
            if (c->k->safe(c->g, s, &out[i])) { *safe = i; break; }
    return n;
}

/* NMCS's rollout from *s (entered, at the present depth): a safe move first, else with chance p_found a
 * foundation move when there is one, else any move, each drawn among those not yet found to lead back
 * onto the line.  It ends when no move is left, at max_len, or when the search stops.  Its moves are
 * c->seq[0]; returns the most cards home along it. */
static int rollout(search *c, fc_state *s) {
    int start = c->depth, best = fc_home(c->g, s);
    fc_move *mv = c->moves[0];
    uint8_t tried[FC_MAXMOVES];
    while (c->depth < c->p->max_len) {
        int safe, n = candidates(c, s, mv, &safe);
        if (!n) break;
        memset(tried, 0, (size_t)n);
        int entered = 0, left = n;
        if (safe >= 0) {
            int r = step(c, s, &mv[safe], s);
            if (r < 0) goto out;
            if (r > 0) entered = 1;
            else { tried[safe] = 1; left--; }
        }
        while (!entered && left > 0) {
            int pool[FC_MAXMOVES], nf = 0, na = 0;
            for (int i = 0; i < n; i++)
                if (!tried[i] && is_found(c->g, &mv[i])) pool[nf++] = i;
            if (nf && (uint32_t)(next64(&c->rng) >> 32) < c->p->p_found) {
                na = nf;
            } else {
                for (int i = 0; i < n; i++)
                    if (!tried[i]) pool[na++] = i;
            }
            int i = pool[below(&c->rng, na)];
            int r = step(c, s, &mv[i], s);
            if (r < 0) goto out;
            if (r > 0) entered = 1;
            else { tried[i] = 1; left--; }
        }
        if (!entered) break;
        int home = fc_home(c->g, s);
        if (home > best) best = home;
    }
out:
    c->seqlen[0] = c->depth - start;
    memcpy(c->seq[0], c->line + start, sizeof(fc_move) * (size_t)c->seqlen[0]);
    if (c->depth > start) {  /* the score counts the position the search stopped in too */
        int home = fc_home(c->g, s);
        if (home > best) best = home;
    }
    return best;
}

/* keep the line *sub (from the child reached by m, at depth played + 1 of level l's line) as level l's best
 * when its score beats *best */
static void better(search *c, int l, int played, const fc_move *m, const fc_move *sub, int got, int score,
                   int *best) {
    if (score <= *best) return;
    *best = score;
    fc_move *q = c->seq[l];
    q[played] = *m;
    memcpy(q + played + 1, sub, sizeof(fc_move) * (size_t)got);
    c->seqlen[l] = played + 1 + got;
}

/* NMCS at level l >= 1 from *s (entered, at the present depth): every candidate (a safe move alone when
 * it can be entered) finished by level l - 1, then the next move of the best line found so far played;
 * until that line ends.  With a width w > 0, a level l >= 2 first finishes every candidate by one
 * rollout, and only the w whose rollouts brought the most cards home (ties: the earlier candidate) by
 * level l - 1: a beam over the children.  Its best line is c->seq[l] (from s); returns the most cards
 * home along it (s's own at least).  Leaves the line as it found it.  s may be c->cur[l] (the level
 * above's child). */
static int nmcs(search *c, int l, const fc_state *s) {
    int start = c->depth, best = -1, played = 0, width = c->p->width;
    fc_state *cur = c->cur[l], *child = c->cur[l - 1];
    fc_move *mv = c->moves[l];
    int rank[FC_MAXMOVES], score0[FC_MAXMOVES];
    c->seqlen[l] = 0;
    if (cur != s) copy_state(cur, s);
    while (!c->stop) {
        int safe, n = candidates(c, cur, mv, &safe);
        int here = c->depth;
        /* one move to weigh and the best line goes on with it: nothing to choose, follow the line */
        int forced = (n == 1 || safe >= 0) && c->seqlen[l] > played;
        int beam = l >= 2 && width > 0 && safe < 0 && !forced, m = 0;
        for (int j = 0; beam && j < n && !c->stop; j++) {  /* the beam: a rollout for every candidate */
            int r = step(c, cur, &mv[j], child);
            if (r < 0) break;
            if (r == 0) continue;
            int score = rollout(c, child);
            back_to(c, here);
            better(c, l, played, &mv[j], c->seq[0], c->seqlen[0], score, &best);
            int k = m++;
            for (; k > 0 && score0[k - 1] < score; k--) { rank[k] = rank[k - 1]; score0[k] = score0[k - 1]; }
            rank[k] = j; score0[k] = score;
        }
        int tries = beam ? (m < width ? m : width) : n;
        for (int j = 0; j < tries && !c->stop && !forced; j++) {
            int i = beam ? rank[j] : safe < 0 ? j : j == 0 ? safe : j <= safe ? j - 1 : j;  /* a safe move first */
            int r = step(c, cur, &mv[i], child);
            if (r < 0) break;
            if (r == 0) continue;
            int score = l == 1 ? rollout(c, child) : nmcs(c, l - 1, child);
            back_to(c, here);
            better(c, l, played, &mv[i], c->seq[l - 1], c->seqlen[l - 1], score, &best);
            if (i == safe) break;  /* a safe move entered: its child alone */
        }
        if (c->stop || c->seqlen[l] <= played) break;
        if (step(c, cur, &c->seq[l][played], cur) <= 0) break;
        played++;
    }
    back_to(c, start);
    return best > fc_home(c->g, s) ? best : fc_home(c->g, s);
}

/* the code of move m from s: its type, source, target and the card it moves (the lowest of a sequence) */
static uint32_t code_of(const fc_state *s, const fc_move *m) {
    int card = 0;
    if (m->src >= 0) {
        int len = fc_len(s, m->src), k = m->count ? m->count : 1;
        if (len >= k) card = fc_at(s, m->src, len - k) + 1;
    }
    return 1u + (uint32_t)m->type + ((uint32_t)(m->src + 1) << 3) + ((uint32_t)(m->dst + 1) << 10) +
           ((uint32_t)card << 17);
}

/* the weights of the candidates of s under q: exp(weight + bias of a foundation move), the exponent clamped
 * to [-MAX_EXP, MAX_EXP] */
static void weights(search *c, const policy *q, const fc_state *s, const fc_move *mv, int n, double *w) {
    for (int i = 0; i < n; i++) {
        double x = pol_get(q, code_of(s, &mv[i])) + (is_found(c->g, &mv[i]) ? c->p->bias : 0.0);
        w[i] = exp(x > MAX_EXP ? MAX_EXP : x < -MAX_EXP ? -MAX_EXP : x);
    }
}

/* NRPA's rollout from the root under q: a safe move first, else a move drawn by the policy's softmax
 * among those not yet found to lead back onto the line.  Its moves are c->seq[0]; returns the most cards
 * home along it.  Leaves the line at the root. */
static int playout(search *c, const policy *q) {
    fc_state *s = c->cur[0];
    copy_state(s, c->cur[MAX_LEVEL + 1]);
    int best = fc_home(c->g, s);
    fc_move *mv = c->moves[0];
    double w[FC_MAXMOVES];
    uint8_t tried[FC_MAXMOVES];
    while (c->depth < c->p->max_len) {
        int safe, n = candidates(c, s, mv, &safe);
        if (!n) break;
        memset(tried, 0, (size_t)n);
        int entered = 0, left = n;
        if (safe >= 0) {
            int r = step(c, s, &mv[safe], s);
            if (r < 0) goto out;
            if (r > 0) entered = 1;
            else { tried[safe] = 1; left--; }
        }
        if (!entered) weights(c, q, s, mv, n, w);
        while (!entered && left > 0) {
            double z = 0.0;
            int last = -1;
            for (int i = 0; i < n; i++)
                if (!tried[i]) { z += w[i]; last = i; }
            double u = unit(&c->rng) * z, acc = 0.0;
            int pick = last;
            for (int i = 0; i < n; i++) {
                if (tried[i]) continue;
                acc += w[i];
                if (acc > u) { pick = i; break; }
            }
            int r = step(c, s, &mv[pick], s);
            if (r < 0) goto out;
            if (r > 0) entered = 1;
            else { tried[pick] = 1; left--; }
        }
        if (!entered) break;
        int home = fc_home(c->g, s);
        if (home > best) best = home;
    }
out:
    c->seqlen[0] = c->depth;
    memcpy(c->seq[0], c->line, sizeof(fc_move) * (size_t)c->depth);
    if (c->depth) {
        int home = fc_home(c->g, s);
        if (home > best) best = home;
    }
    back_to(c, 0);
    return best;
}

/* adapt q toward the line seq (from the root): at each of its moves not forced by a safe move, the
 * move's weight gains alpha and every candidate's loses alpha times its probability under the policy
 * as it was before (c->old).  The line is played again: its positions count. */
static void adapt(search *c, policy *q, const fc_move *seq, int len) {
    pol_copy(&c->old, q);
    fc_state *s = c->cur[0];
    copy_state(s, c->cur[MAX_LEVEL + 1]);
    fc_move *mv = c->moves[0];
    double w[FC_MAXMOVES];
    for (int j = 0; j < len; j++) {
        int safe, n = candidates(c, s, mv, &safe);
        if (safe < 0) {
            weights(c, &c->old, s, mv, n, w);
            double z = 0.0;
            for (int i = 0; i < n; i++) z += w[i];
            pol_add(q, code_of(s, &seq[j]), c->p->alpha);
            for (int i = 0; i < n; i++) pol_add(q, code_of(s, &mv[i]), -c->p->alpha * w[i] / z);
        }
        if (!count(c)) return;
        c->k->apply(c->g, s, &seq[j]);
    }
}

/* NRPA at level l >= 1 under c->pol[l] (set by the caller): its best line is c->seq[l]; returns its
 * cards home at best */
static int nrpa(search *c, int l) {
    int best = -1;
    c->seqlen[l] = 0;
    for (int it = 0; it < c->p->iterations && !c->stop; it++) {
        int score;
        if (l == 1) {
            score = playout(c, &c->pol[1]);
        } else {
            pol_copy(&c->pol[l - 1], &c->pol[l]);
            score = nrpa(c, l - 1);
        }
        if (c->stop) break;
        if (score >= best) {
            best = score;
            c->seqlen[l] = c->seqlen[l - 1];
            memcpy(c->seq[l], c->seq[l - 1], sizeof(fc_move) * (size_t)c->seqlen[l]);
        }
        adapt(c, &c->pol[l], c->seq[l], c->seqlen[l]);
    }
    return best;
}

/* the memory a search with these parameters takes besides its result: lines, positions, policies */
static size_t nested_bytes(const fc_nested_params *p) {
    size_t lines = (size_t)(p->level + 2) * sizeof(fc_move) * (size_t)(p->max_len + 1);
    size_t keys = path_bytes(p->max_len + 1) + (size_t)(p->max_len + 1) * 256;  /* keys of a few hundred bytes */
    size_t pols = p->method == M_NRPA ? (size_t)(p->level + 2) * POL_SLOTS * (sizeof(uint32_t) + sizeof(double)) : 0;
    return lines + keys + pols + (size_t)(MAX_LEVEL + 4) * sizeof(fc_state) + sizeof(search);
}

/* whether every parameter lies in its range (replay.solver.nested.BOUNDS); NaN lies in none */
static int params_ok(const fc_nested_params *p) {
    return (p->method == M_NMCS || p->method == M_NRPA) && p->level >= 1 && p->level <= MAX_LEVEL &&
           p->width >= 0 && p->width <= FC_MAXMOVES &&
           p->iterations >= 1 && p->iterations <= MAX_ITERATIONS && p->max_len >= 1 && p->max_len <= MAX_LINE &&
           p->bias >= -MAX_WEIGHT && p->bias <= MAX_WEIGHT && p->alpha >= 0.0 && p->alpha <= MAX_WEIGHT;
}

/* fc_nested_search: a nested search over kernel k (NULL: error) (p->method) from root, until it wins, spends max_positions (< 0: no limit),
 * or the tick callback (asked every TICK_EVERY positions) asks it to stop.  max_bytes >= 0: stop at once
 * (stopped_by memory) when the search would need more.  res: status won or unknown, positions (= nodes)
 * used, the best cards home and the line to them (the winning line when won).  Returns 0, or -1 (unknown
 * kernel, a profile asking for a missing safe move, bad parameters, out of memory). */
int fc_nested_search(const fc_kernel *k, const fc_game *g, const fc_profile *pr, const fc_state *root,
                     const fc_nested_params *p, int64_t max_positions, int64_t max_bytes, fc_tick tick,
                     fc_result *res) {
    memset(res, 0, sizeof(*res));
    if (!k || (pr->use_safe && !k->safe) || !params_ok(p)) {
        res->error = 1;
        return -1;
    }
    res->best_home = fc_home(g, root);
    res->status = ST_UNKNOWN;
    if (max_bytes >= 0 && (int64_t)nested_bytes(p) > max_bytes) { res->stopped_by = STOP_MEMORY; return 0; }
    search *c = calloc(1, sizeof(search));
    if (!c) { res->error = 2; return -1; }
    c->k = k; c->g = g; c->pr = pr; c->p = p; c->res = res; c->tick = tick;
    c->budget = max_positions; c->rng = p->seed;
    fc_symmetry(pr, c->grouped, c->group_of);
    int ok = path_init(&c->path, p->max_len + 1);
    c->line = malloc(sizeof(fc_move) * (size_t)(p->max_len + 1));
    ok = ok && c->line;
    for (int l = 0; l <= p->level; l++) {
        c->seq[l] = malloc(sizeof(fc_move) * (size_t)(p->max_len + 1));
        ok = ok && c->seq[l];
    }
    for (int l = 0; l <= MAX_LEVEL + 1; l++) {
        c->cur[l] = malloc(sizeof(fc_state));
        ok = ok && c->cur[l];
    }
    c->tmp = malloc(sizeof(fc_state));
    ok = ok && c->tmp;
    if (p->method == M_NRPA) {
        for (int l = 0; l <= p->level; l++) ok = ok && pol_init(&c->pol[l]);
        ok = ok && pol_init(&c->old);
    }
    int rc = -1;
    if (!ok) goto done;
    fc_state *start = c->cur[MAX_LEVEL + 1];  /* the root, kept */
    copy_state(start, root);
    if (path_push(&c->path, c->key, fc_make_key(g, pr, c->grouped, root, c->key)) < 0) goto done;
    while (!c->stop) {
        int64_t before = c->used;
        if (p->method == M_NMCS) {
            nmcs(c, p->level, start);
        } else {
            pol_clear(&c->pol[p->level]);
            nrpa(c, p->level);
        }
        if (c->used == before) break;  /* nothing to play from the root: another run would do the same */
    }
    if (c->stop == -2 || c->stop == -3) goto done;
    res->status = c->stop == -1 ? ST_WON : ST_UNKNOWN;
    res->stopped_by = c->stop > 0 ? c->stop : 0;  /* won: the best line (step's) is the winning line */
    res->nodes = res->positions = c->used;
    rc = 0;
done:
    if (rc) { fc_free_result(res); res->error = c->stop == -3 ? 3 : 2; }
    path_free(&c->path);
    free(c->line);
    for (int l = 0; l <= MAX_LEVEL; l++) free(c->seq[l]);
    for (int l = 0; l <= MAX_LEVEL + 1; l++) free(c->cur[l]);
    free(c->tmp);
    if (p->method == M_NRPA) {
        for (int l = 0; l <= p->level; l++) pol_free(&c->pol[l]);
        pol_free(&c->old);
    }
    free(c);
    return rc;
}

