// C ABI over the Verilator model of rtl/xoshiro256ss.v, used by src/xoshiro.rs.
// Each model owns its VerilatedContext, so several models can live side by side.
#include <cstdint>
#include <new>

#include "Vxoshiro256ss.h"
#include "verilated.h"

namespace {
struct Model {
    VerilatedContext ctx;
    Vxoshiro256ss top;
    Model() : ctx(), top(&ctx, "xoshiro256ss") {}
};
}  // namespace

extern "C" {

void* jn_xoshiro256ss_new() {
    try {
        Model* m = new Model();
        m->top.clk = 0;
        m->top.load = 0;
        m->top.advance = 0;
        m->top.eval();
        return m;
    } catch (...) {
        return nullptr;
    }
}

void jn_xoshiro256ss_free(void* p) {
    Model* m = static_cast<Model*>(p);
    if (m) {
        m->top.final();
        delete m;
    }
}

void jn_xoshiro256ss_set_inputs(void* p, uint8_t load, uint8_t advance, uint64_t s0, uint64_t s1,
                                uint64_t s2, uint64_t s3) {
    Model* m = static_cast<Model*>(p);
    m->top.load = load ? 1 : 0;
    m->top.advance = advance ? 1 : 0;
    m->top.seed_s0 = s0;
    m->top.seed_s1 = s1;
    m->top.seed_s2 = s2;
    m->top.seed_s3 = s3;
    m->top.eval();
}

// One full clock period: falling then rising edge.
void jn_xoshiro256ss_tick(void* p) {
    Model* m = static_cast<Model*>(p);
    m->top.clk = 0;
    m->top.eval();
    m->ctx.timeInc(1);
    m->top.clk = 1;
    m->top.eval();
    m->ctx.timeInc(1);
}

uint64_t jn_xoshiro256ss_out(const void* p) {
    const Model* m = static_cast<const Model*>(p);
    return m->top.out;
}

}  // extern "C"
