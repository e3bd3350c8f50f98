/* Cost centres of the profile: the table the tree's nodes name by GHC's
 * id (a snapshot turns ids into table indices), and the map from GHC's id
 * to the table (util/idmap.h: an array while the ids are dense, as GHC
 * numbers them). Cost centres are a few thousand in real logs, millions
 * in hostile ones (the hostile-ccs bench log defines ten million). */
#include "prof/internal.h"

#include <stdlib.h>
#include <string.h>

static const struct { const char *label, *module; } builtins[] = {
    { "GC", "GC" }, { "SYSTEM", "SYSTEM" }, { "IDLE", "IDLE" },
    { "OVERHEAD_of", "PROFILING" }, { "DONT_CARE", "MAIN" },
};

int prof_cc_builtin(const char *label, const char *module, const char *src)
{
    if (strcmp(src, "<built-in>") != 0)
        return 0;
    for (size_t i = 0; i < sizeof builtins / sizeof builtins[0]; i++)
        if (strcmp(label, builtins[i].label) == 0 && strcmp(module, builtins[i].module) == 0)
            return 1;
    return 0;
}

/* A new cost-centre record; NULL when out of memory. */
static prof_cc *add_cc(prof_profile *p, uint32_t id)
{
    if (p->num_ccs == p->cap_ccs) {
        size_t cap = p->cap_ccs ? p->cap_ccs * 2 : 256;
        if (prof_charge(p, (cap - p->cap_ccs) * sizeof(prof_cc)) != 0)
            return NULL;
        prof_cc *n = realloc(p->ccs, cap * sizeof *n);
        if (!n) {
            prof_uncharge(p, (cap - p->cap_ccs) * sizeof *n);
            return NULL;
        }
        p->ccs = n;
        p->cap_ccs = cap;
    }
    if (tx_idmap_put(&p->cc_ids, id, (uint32_t)p->num_ccs, &p->mem) != 0)
        return NULL;
    prof_cc *cc = &p->ccs[p->num_ccs++];
    memset(cc, 0, sizeof *cc);
    cc->id = id;
    return cc;
}

static prof_cc *find_cc(prof_profile *p, uint32_t id)
{
    uint32_t i = prof_ccs_index(p, id);
    return i == TX_IDMAP_NONE ? NULL : &p->ccs[i];
}

int prof_ccs_define(prof_profile *p, const el_event *ev)
{
    prof_cc *cc = find_cc(p, ev->u.cost_centre.id);

    if (!cc && !(cc = add_cc(p, ev->u.cost_centre.id)))
        return -1;
    cc->label = prof_pool_add(p, ev->u.cost_centre.label.ptr, ev->u.cost_centre.label.len);
    cc->module = prof_pool_add(p, ev->u.cost_centre.module.ptr, ev->u.cost_centre.module.len);
    cc->srcloc = prof_pool_add(p, ev->u.cost_centre.srcloc.ptr, ev->u.cost_centre.srcloc.len);
    if (!cc->label || !cc->module || !cc->srcloc)
        return -1;
    cc->is_caf = ev->u.cost_centre.flags & 1;
    cc->defined = 1;
    cc->builtin = (uint8_t)prof_cc_builtin(cc->label, cc->module, cc->srcloc);
    return 0;
}

int prof_ccs_merge(prof_profile *p, const prof_cc *qc)
{
    prof_cc *cc = find_cc(p, qc->id);

    if (!cc && !(cc = add_cc(p, qc->id)))
        return -1;
    cc->label = prof_pool_add(p, qc->label, (uint32_t)strlen(qc->label));
    cc->module = prof_pool_add(p, qc->module, (uint32_t)strlen(qc->module));
    cc->srcloc = prof_pool_add(p, qc->srcloc, (uint32_t)strlen(qc->srcloc));
    if (!cc->label || !cc->module || !cc->srcloc)
        return -1;
    cc->is_caf = qc->is_caf;
    cc->defined = 1;
    cc->builtin = qc->builtin;
    return 0;
}

void prof_ccs_free(prof_profile *p)
{
    tx_idmap_free(&p->cc_ids);
    free(p->ccs);
    p->ccs = NULL;
}
