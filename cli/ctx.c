/* The run's context (ctx.h). */
#include "cli/ctx.h"

#include <stdlib.h>
#include <string.h>

#include "cli/signals.h"

void cli_ctx_init(cli_ctx *c)
{
    memset(c, 0, sizeof *c);
    atomic_init(&c->copying, 0);
    atomic_init(&c->deferred, 0);
    c->copy_pause_ms = -1;
    cli_signals_attach(c);
}

void cli_ctx_free(cli_ctx *c)
{
    ev_budget_destroy(c->budget);
    c->budget = NULL;
    for (size_t i = 0; i < c->num_shown; i++)
        free(c->shown[i].shown);
    free(c->shown);
    for (size_t i = 0; i < c->num_selects; i++)
        ev_select_destroy(c->selects[i]);
    free(c->selects);
    for (size_t i = 0; i < c->num_blocks; i++)
        free(c->blocks[i]);
    free(c->blocks);
    c->shown = NULL;
    c->selects = NULL;
    c->blocks = NULL;
    c->num_shown = c->num_selects = c->num_blocks = 0;
}

void *cli_ctx_keep(cli_ctx *c, void *block)
{
    void **more = block ? realloc(c->blocks, (c->num_blocks + 1) * sizeof *more) : NULL;
    if (!more) {
        free(block);
        return NULL;
    }
    c->blocks = more;
    c->blocks[c->num_blocks++] = block;
    return block;
}

int cli_ctx_keep_select(cli_ctx *c, ev_select *s)
{
    ev_select **more = s ? realloc(c->selects, (c->num_selects + 1) * sizeof *more) : NULL;
    if (!more) {
        ev_select_destroy(s);
        return -1;
    }
    c->selects = more;
    c->selects[c->num_selects++] = s;
    return 0;
}
