/* The fast search core: a position, a move, a game instance's static facts, and the kernel a game
 * supplies (its legal moves in the engine's order and the way a move is carried out).
 *
 * Nothing here names a game.  A kernel (games/<game>.c) mirrors one game module of replay/games:
 * the Python engine stays the authority, and tests/test_fastcore.py holds every kernel to the
 * engine's rule functions on random walks of every reading (the same legal moves, in the same
 * order; the same table after each move) and holds the search to the Python search (the same
 * verdict, nodes, positions and line on the same budget).
 */
#ifndef REPLAY_FASTCORE_H
#define REPLAY_FASTCORE_H

#include <stdint.h>
#include <string.h>

#define FC_MAXC 64        /* containers of a layout, at most */
#define FC_CARDS 104      /* cards on the table, bases included: two packs */
#define FC_VARS 1536      /* bytes of game-specific state (Table.vars), at most */
#define FC_MAXMOVES 1024  /* legal moves of one position, at most */
#define FC_MAXOPT 512     /* game-specific options (ints), at most */

/* move types (Move.type) */
enum { FC_MOVE = 0, FC_DEAL = 1, FC_REDEAL = 2, FC_FILL = 3, FC_TUCK = 4 };
/* container roles (replay.engine.layout) */
enum { FC_TABLEAU = 0, FC_FOUNDATION = 1, FC_STOCK = 2, FC_WASTE = 3, FC_RESERVE = 4 };

/* Move(type, src, dst, count): src/dst are container indices, -1 for none */
typedef struct {
    uint8_t type;
    int8_t src, dst;
    uint8_t count;
} fc_move;

/* A Table: pile i is cards[off[i]] .. cards[off[i+1]-1], bottom card first (the stock's next card is
 * its last, as in Table.piles).  vars[0 .. vlen) is the game's own state, encoded by its kernel so that
 * two positions have equal bytes exactly when Table.vars are equal (it is part of the search key). */
typedef struct {
    uint8_t off[FC_MAXC + 1];
    uint8_t cards[FC_CARDS];
    int8_t fsuit[FC_MAXC];    /* Table.fsuit: suit of each foundation, -1 when not known */
    uint8_t passes, rounds;   /* Table.passes, Table.rounds */
    uint16_t vlen;
    uint8_t vars[FC_VARS];
} fc_state;

/* A game instance's static facts (Game): its layout and the options its module encodes. */
typedef struct {
    int n;                        /* containers */
    int stock;                    /* Game.stock, -1 when none */
    int nfound;
    uint8_t found[FC_MAXC];       /* Game.foundations, in order */
    uint8_t role[FC_MAXC];        /* FC_TABLEAU … */
    int8_t fbase[FC_MAXC];        /* Game.fbase: base rank of a foundation, -1 otherwise */
    int8_t fdir[FC_MAXC];         /* Game.fdir: +1 up, -1 down, 0 otherwise */
    int nopt;
    int32_t opt[FC_MAXOPT];       /* the game's own options: see its kernel and its module's encoder */
} fc_game;

typedef struct {
    const char *name;   /* the game ID */
    /* Game.legal_moves: every legal move, in the engine's order; returns how many */
    int (*legal)(const fc_game *g, const fc_state *s, fc_move *out);
    /* Table.push: carry out a legal move (procedures and effects included); Table.ply is not kept */
    void (*apply)(const fc_game *g, fc_state *s, const fc_move *m);
    /* SEARCH['safe_move'], or NULL */
    int (*safe)(const fc_game *g, const fc_state *s, const fc_move *m);
    /* SEARCH['dead_ends'] asked at every position (when dead_ends_at_nodes), or NULL: nonzero = lost */
    int (*lost)(const fc_game *g, const fc_state *s);
    /* optional, for speed: whether some legal move takes the top card of src to a foundation (what the
     * search's move order asks of every child, frees_a_card); NULL: the search scans legal() */
    int (*frees)(const fc_game *g, const fc_state *s, int src);
    /* optional: nonzero when apply has made a position whose game state does not fit the kernel's vars
     * (it then no longer mirrors the engine): the search gives up (error 3, the solver searches in
     * Python); NULL: every state fits */
    int (*beyond)(const fc_game *g, const fc_state *s);
} fc_kernel;

/* ---- pile helpers (state.c) ---- */
static inline int fc_len(const fc_state *s, int i) { return s->off[i + 1] - s->off[i]; }
static inline int fc_top(const fc_state *s, int i) {
    return s->off[i + 1] > s->off[i] ? s->cards[s->off[i + 1] - 1] : -1;
}
/* the k-th card of pile i from the bottom (0 = bottom) */
static inline int fc_at(const fc_state *s, int i, int k) { return s->cards[s->off[i] + k]; }
static inline const uint8_t *fc_pile(const fc_state *s, int i) { return s->cards + s->off[i]; }
static inline int fc_rank(int card) { return card >> 2; }
static inline int fc_suit(int card) { return card & 3; }

int fc_pop(fc_state *s, int n, int i);                 /* remove and return the top card of pile i */
void fc_push(fc_state *s, int n, int i, int card);     /* put card on top of pile i */
void fc_insert_bottom(fc_state *s, int n, int i, int card);  /* put card under pile i */
/* move the top k cards of pile a onto pile b, keeping their order; a foundation without a suit takes
 * the suit of the first card moved (as engine.game.transfer does) */
void fc_transfer(const fc_game *g, fc_state *s, int a, int b, int k);
/* replace pile i by len cards (bottom first) */
void fc_set_pile(fc_state *s, int n, int i, const uint8_t *cards, int len);
/* mirrors engine.common.fits_foundation: whether card may go onto foundation f now (an empty one takes
 * its base rank, of its suit if it keeps one; then in suit, one step in its direction) */
int fc_fits_foundation(const fc_game *g, const fc_state *s, int f, int card);
/* mirrors engine.common.gather: take up the piles order[0 .. n) into the stock (each pile from its
 * bottom card with bottom_first, else from its top), under what the stock holds; the next pass begins */
void fc_gather(const fc_game *g, fc_state *s, const int32_t *order, int n, int bottom_first);
/* cards on the foundations */
int fc_home(const fc_game *g, const fc_state *s);

/* ---- what a search is told besides the game, and what it answers ---- */
/* the profile (replay.solver.search.Profile) */
typedef struct {
    int nsame_tableau;
    uint8_t same_tableau[FC_MAXC];
    int ngroups;                       /* groups of interchangeable foundations */
    uint8_t group_len[FC_MAXC];
    uint8_t groups[FC_MAXC][FC_MAXC];
    int rounds_cap;                    /* -1: none */
    int use_safe, use_lost;
} fc_profile;

/* the clock callback (nodes, best cards home): 0 go on, else the reason to stop (becomes stopped_by) */
typedef int (*fc_tick)(int64_t nodes, int best);

typedef struct {
    int status, stopped_by, best_home, error;
    int64_t nodes, positions, pruned;
    int nline, nbest;
    fc_move *line, *best_line;         /* malloc'd: fc_free_result */
} fc_result;

void fc_free_result(fc_result *r);

/* ---- keys of positions and the profile's symmetry (keys.c) ---- */
/* the longest key fc_make_key writes */
#define FC_KEY_MAX (FC_CARDS * 3 + FC_MAXC * 3 + FC_VARS + 16)

/* a set of keys: bytes kept in blocks of FC_KEYSET_BLOCK bytes (a key never straddles two; a block is never moved
 * or grown, so what the set holds is what it has allocated, bar the last block's tail), and an open-addressing
 * hash table over them whose one 64-bit slot holds the key's place (block * FC_KEYSET_BLOCK + offset + 1, the low
 * FC_KEYSET_PLACE_BITS bits; 0: empty) and the top bits of its hash as a tag (the rest), so that a probe reads
 * a key's bytes only when the tags agree */
#define FC_KEYSET_BLOCK ((size_t)1 << 24)
#define FC_KEYSET_PLACE_BITS 42
typedef struct {
    uint8_t **blocks;
    size_t nblocks, blocks_cap, used;   /* used: bytes taken in the last block */
    uint64_t *slots;
    size_t nslots, count;
} fc_keyset;

uint64_t fc_hash_bytes(const uint8_t *p, size_t n);
int fc_keyset_init(fc_keyset *k);                      /* 1, or 0 out of memory */
void fc_keyset_free(fc_keyset *k);
/* add key (len bytes); returns 1 when it was new, 0 when it was there, -1 out of memory */
int fc_keyset_add(fc_keyset *k, const uint8_t *key, size_t len);
/* the bytes the set has allocated (its blocks and its table of slots) */
size_t fc_keyset_bytes(const fc_keyset *k);
/* the containers the profile's symmetry groups (grouped[i] = 1), and the group each belongs to
 * (group_of[i], -1 for none: the interchangeable tableau is group 0, then the foundation groups) */
void fc_symmetry(const fc_profile *pr, uint8_t *grouped, int8_t *group_of);
/* the key of s (grouped from fc_symmetry): equal keys exactly when position_key gives equal keys */
size_t fc_make_key(const fc_game *g, const fc_profile *pr, const uint8_t *grouped, const fc_state *s,
                   uint8_t *out);
/* _reduce: drop a move into an empty member of an interchangeable group when an earlier empty member
 * of the same group took the same move (type, source, count); returns how many moves are left */
int fc_reduce_moves(const fc_profile *pr, const int8_t *group_of, const fc_state *s, fc_move *mv, int n);

/* ---- what frees a card (frees.c) ---- */
/* whether some legal move of s takes the top card of src to a foundation: the kernel's frees, else a
 * scan of its legal moves (buf holds FC_MAXMOVES); 0 when src is empty */
int fc_frees_a_card(const fc_kernel *k, const fc_game *g, const fc_state *s, int src, fc_move *buf);

/* ---- the search (search.c) ---- */
/* replay.solver.search.solve over kernel k from root (see search.c); 0, or -1 (no kernel, out of memory …) */
int fc_search(const fc_kernel *k, const fc_game *g, const fc_profile *pr, const fc_state *root, int64_t max_nodes,
              int64_t max_bytes, fc_tick tick, fc_result *res);

/* ---- the nested searches (nested.c) ---- */
/* the method of a nested search (fc_nested_params.method) */
enum { FC_NMCS = 0, FC_NRPA = 1 };
/* the parameters of a nested search (replay.solver.nested.Params mirrors them) */
typedef struct {
    int method;          /* FC_NMCS, FC_NRPA */
    int level;           /* the top level (1 or more) */
    int iterations;      /* NRPA: runs of the level below per level */
    int max_len;         /* the longest line from the root, in moves */
    int width;           /* NMCS: the children a level >= 2 searches by the level below (0: every one) */
    uint32_t p_found;    /* NMCS rollouts: the chance, in 2^-32, of playing a foundation move when one exists */
    double bias;         /* NRPA: the prior weight of a foundation move */
    double alpha;        /* NRPA: the step of adaptation */
    uint64_t seed;
} fc_nested_params;
/* replay.solver.nested's search over kernel k from root (see nested.c); 0, or -1 (no kernel, bad parameters …) */
int fc_nested_search(const fc_kernel *k, const fc_game *g, const fc_profile *pr, const fc_state *root,
                     const fc_nested_params *p, int64_t max_positions, int64_t max_bytes, fc_tick tick,
                     fc_result *res);

/* ---- the kernels (kernels.c): the catalogue, by game ID ---- */
const fc_kernel *fc_kernel_named(const char *name);

#endif
