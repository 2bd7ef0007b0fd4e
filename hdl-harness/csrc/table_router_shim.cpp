// C ABI over the Verilator model of rtl/table_router.v (RUN_W = 8, DST_W = 16, IN_W = 2,
// OUT_W = 4, VC_W = 4), used by src/router.rs.
#include <cstdint>

#include "Vtable_router.h"
#include "model.h"

namespace {
using Model = jumpnet_shim::Model<Vtable_router>;
}  // namespace

extern "C" {

// Mirrors `RouterInputs` in src/router.rs (repr(C)).
struct JnRouterIn {
    uint64_t run_word;
    uint64_t in_dst;
    uint32_t run_addr;
    uint32_t cfg_runs;
    uint32_t cfg_dests;
    uint32_t out_ready;
    uint8_t rst;
    uint8_t run_we;
    uint8_t cfg_we;
    uint8_t in_valid;
};

// Mirrors `RouterOutputs` in src/router.rs (repr(C)).
struct JnRouterOut {
    uint64_t out_vc;
    uint32_t out_valid;
    uint32_t out_in;
    uint32_t lk_dst;
    uint32_t lk_port;
    uint8_t in_ready;
    uint8_t drop;
    uint8_t lk_valid;
    uint8_t lk_in;
    uint8_t lk_vc;
};

void* jn_table_router_new() {
    return jumpnet_shim::create<Vtable_router>("table_router", [](auto&) {});
}

void jn_table_router_free(void* p) { jumpnet_shim::destroy<Vtable_router>(p); }

void jn_table_router_set(void* p, const JnRouterIn* in) {
    Model* m = static_cast<Model*>(p);
    m->top.rst = in->rst;
    m->top.run_we = in->run_we;
    m->top.run_addr = in->run_addr;
    m->top.run_word = in->run_word;
    m->top.cfg_we = in->cfg_we;
    m->top.cfg_runs = in->cfg_runs;
    m->top.cfg_dests = in->cfg_dests;
    m->top.in_valid = in->in_valid;
    m->top.in_dst = in->in_dst;
    m->top.out_ready = in->out_ready;
    m->top.eval();
}

void jn_table_router_get(const void* p, JnRouterOut* out) {
    const Model* m = static_cast<const Model*>(p);
    out->in_ready = m->top.in_ready;
    out->drop = m->top.drop;
    out->out_valid = m->top.out_valid;
    out->out_in = m->top.out_in;
    out->out_vc = m->top.out_vc;
    out->lk_valid = m->top.lk_valid;
    out->lk_in = m->top.lk_in;
    out->lk_dst = m->top.lk_dst;
    out->lk_port = m->top.lk_port;
    out->lk_vc = m->top.lk_vc;
}

void jn_table_router_tick(void* p) { jumpnet_shim::tick<Vtable_router>(p); }

}  // extern "C"
