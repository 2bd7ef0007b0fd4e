// C ABI over the Verilator model of rtl/xoshiro256ss.v, used by src/xoshiro.rs.
// Each model owns its VerilatedContext, so several models can live side by side.
#include <cstdint>

#include "Vxoshiro256ss.h"
#include "model.h"

namespace {
using Model = jumpnet_shim::Model<Vxoshiro256ss>;
}  // namespace

extern "C" {

void* jn_xoshiro256ss_new() {
    return jumpnet_shim::create<Vxoshiro256ss>("xoshiro256ss", [](auto& top) {
        top.load = 0;
        top.advance = 0;
    });
}

void jn_xoshiro256ss_free(void* p) { jumpnet_shim::destroy<Vxoshiro256ss>(p); }

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

void jn_xoshiro256ss_tick(void* p) { jumpnet_shim::tick<Vxoshiro256ss>(p); }

uint64_t jn_xoshiro256ss_out(const void* p) {
    const Model* m = static_cast<const Model*>(p);
    return m->top.out;
}

}  // extern "C"
