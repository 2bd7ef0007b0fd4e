// C ABI over the Verilator model of rtl/sched_engine.v (ADDR_W = 8, verilated with --trace),
// used by src/engine.rs. Each model owns its VerilatedContext, so several models can live side
// by side; each can write a waveform (VCD) of its signals.
#include <cstdint>

#include "Vsched_engine.h"
#include "model.h"

namespace {
using Model = jumpnet_shim::Model<Vsched_engine>;
}  // namespace

extern "C" {

// Mirrors `EngineInputs` in src/engine.rs (repr(C)).
struct JnEngineIn {
    uint64_t load_ctrl;
    uint64_t load_blocks;
    uint64_t arr_blocks;
    uint32_t load_addr;
    uint32_t start_len;
    uint32_t arr_peer;
    uint8_t rst;
    uint8_t load_we;
    uint8_t start;
    uint8_t arr_valid;
};

// Mirrors `EngineOutputs` in src/engine.rs (repr(C)).
struct JnEngineOut {
    uint64_t act_blocks;
    uint32_t act_op;
    uint32_t act_peer;
    uint32_t err_op;
    uint8_t act_valid;
    uint8_t act_kind;
    uint8_t act_reduce;
    uint8_t act_reflect;
    uint8_t done;
    uint8_t err_code;
};

void* jn_sched_engine_new() {
    // Tracing allowed from the start: a waveform can be opened at any cycle.
    return jumpnet_shim::create<Vsched_engine>(
        "sched_engine", [](auto& top) { top.contextp()->traceEverOn(true); });
}

void jn_sched_engine_free(void* p) { jumpnet_shim::destroy<Vsched_engine>(p); }

void jn_sched_engine_set(void* p, const JnEngineIn* in) {
    Model* m = static_cast<Model*>(p);
    m->top.rst = in->rst;
    m->top.load_we = in->load_we;
    m->top.load_addr = in->load_addr;
    m->top.load_ctrl = in->load_ctrl;
    m->top.load_blocks = in->load_blocks;
    m->top.start = in->start;
    m->top.start_len = in->start_len;
    m->top.arr_valid = in->arr_valid;
    m->top.arr_peer = in->arr_peer;
    m->top.arr_blocks = in->arr_blocks;
    m->top.eval();
}

void jn_sched_engine_get(const void* p, JnEngineOut* out) {
    const Model* m = static_cast<const Model*>(p);
    out->act_valid = m->top.act_valid;
    out->act_kind = m->top.act_kind;
    out->act_op = m->top.act_op;
    out->act_peer = m->top.act_peer;
    out->act_blocks = m->top.act_blocks;
    out->act_reduce = m->top.act_reduce;
    out->act_reflect = m->top.act_reflect;
    out->done = m->top.done;
    out->err_code = m->top.err_code;
    out->err_op = m->top.err_op;
}

void jn_sched_engine_tick(void* p) { jumpnet_shim::tick<Vsched_engine>(p); }

void jn_sched_engine_edge(void* p, uint8_t level) {
    jumpnet_shim::edge<Vsched_engine>(p, level != 0);
}

int jn_sched_engine_vcd_open(void* p, const char* path) {
    return jumpnet_shim::vcd_open<Vsched_engine>(p, path);
}

void jn_sched_engine_vcd_dump(void* p, uint64_t time) {
    jumpnet_shim::vcd_dump<Vsched_engine>(p, time);
}

void jn_sched_engine_vcd_close(void* p) { jumpnet_shim::vcd_close<Vsched_engine>(p); }

}  // extern "C"
