#include "pytorch/pyvalue.h"

int pt_pyvalue_int64(const pj_value *v, int64_t *out)
{
    if (v && v->type == PJ_BOOL) {
        *out = v->b;
        return 0;
    }
    if (!v || v->type != PJ_INT || (!v->negative && v->v.u > (uint64_t)INT64_MAX))
        return -1;
    *out = v->negative ? v->v.i : (int64_t)v->v.u;
    return 0;
}

int pt_pyvalue_uint64(const pj_value *v, uint64_t *out)
{
    if (v && v->type == PJ_BOOL) {
        *out = v->b;
        return 0;
    }
    if (!v || v->type != PJ_INT || v->negative)
        return -1;
    *out = v->v.u;
    return 0;
}

int pt_pyvalue_number(const pj_value *v, double *out)
{
    if (!v)
        return -1;
    switch (v->type) {
    case PJ_BOOL:
        *out = v->b;
        return 0;
    case PJ_INT:
        *out = v->negative ? (double)v->v.i : (double)v->v.u;
        return 0;
    case PJ_FLOAT:
        *out = v->v.d;
        return 0;
    default:
        return -1;
    }
}

bool pt_pyvalue_truthy(const pj_value *v)
{
    if (!v)
        return false;
    switch (v->type) {
    case PJ_NULL:
        return false;
    case PJ_BOOL:
        return v->b;
    case PJ_INT:
        return v->v.u != 0;
    case PJ_FLOAT:
        return v->v.d != 0.0; /* NaN is true, as in Python */
    default:
        return v->n > 0;      /* str, list, dict */
    }
}
