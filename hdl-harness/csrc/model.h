// What every shim shares: a Verilator model that owns its VerilatedContext (so several
// models live side by side), created with the clock low, finalised on free, and clocked one
// full period (falling then rising edge) per tick. A shim adds only its own input/output
// copying. Designs verilated with --trace can also write a waveform (VCD): opened on a
// model, dumped at the times the caller gives, closed (and flushed) on request or on free.
#pragma once

#include <cstdint>
#include <memory>
#include <new>

#include "verilated.h"
#include "verilated_vcd_c.h"

namespace jumpnet_shim {

template <typename Top>
struct Model {
    VerilatedContext ctx;
    Top top;
    // The open waveform, if any (destroyed, and so closed, before the model).
    std::unique_ptr<VerilatedVcdC> vcd;
    explicit Model(const char* name) : ctx(), top(&ctx, name) {}
};

template <typename Top>
Model<Top>* of(void* p) {
    return static_cast<Model<Top>*>(p);
}

template <typename Top>
const Model<Top>* of(const void* p) {
    return static_cast<const Model<Top>*>(p);
}

// A new model with every input that `init` sets (the clock is set low first), evaluated;
// nullptr when allocation fails.
template <typename Top, typename Init>
void* create(const char* name, Init init) {
    try {
        Model<Top>* m = new Model<Top>(name);
        m->top.clk = 0;
        init(m->top);
        m->top.eval();
        return m;
    } catch (...) {
        return nullptr;
    }
}

template <typename Top>
void destroy(void* p) {
    Model<Top>* m = of<Top>(p);
    if (m) {
        m->top.final();
        delete m;
    }
}

// Half a clock period: the clock set to `level` and evaluated.
template <typename Top>
void edge(void* p, bool level) {
    Model<Top>* m = of<Top>(p);
    m->top.clk = level;
    m->top.eval();
    m->ctx.timeInc(1);
}

template <typename Top>
void tick(void* p) {
    edge<Top>(p, false);
    edge<Top>(p, true);
}

// Waveforms (designs verilated with --trace whose context has traceEverOn set before the
// first eval). Opens a VCD file of every signal of the model at `path`, timescale 1 ps;
// nothing is dumped until vcd_dump. Returns 0 when open, 1 when a waveform is already open,
// 2 when the file cannot be opened for writing, 3 when Verilator throws.
template <typename Top>
int vcd_open(void* p, const char* path) {
    Model<Top>* m = of<Top>(p);
    if (m->vcd) return 1;
    try {
        // The trace writer reads the thread's context when it is built: make it this
        // model's (the thread's last one may be gone with its model).
        Verilated::threadContextp(&m->ctx);
        std::unique_ptr<VerilatedVcdC> vcd(new VerilatedVcdC);
        m->top.trace(vcd.get(), 99);
        vcd->set_time_unit("1ps");
        vcd->set_time_resolution("1ps");
        vcd->open(path);
        if (!vcd->isOpen()) return 2;
        m->vcd = std::move(vcd);
        return 0;
    } catch (...) {
        return 3;
    }
}

// Dumps the signals' current values at `time` (in ps, increasing from call to call); the
// first dump writes every value, later ones the changes. No-op without an open waveform.
template <typename Top>
void vcd_dump(void* p, uint64_t time) {
    Model<Top>* m = of<Top>(p);
    if (m->vcd) m->vcd->dump(time);
}

// Flushes and closes the waveform (no-op without one).
template <typename Top>
void vcd_close(void* p) {
    Model<Top>* m = of<Top>(p);
    if (m->vcd) {
        m->vcd->close();
        m->vcd.reset();
    }
}

}  // namespace jumpnet_shim
