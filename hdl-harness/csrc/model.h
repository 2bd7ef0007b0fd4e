// What every shim shares: a Verilator model that owns its VerilatedContext (so several
// models live side by side), created with the clock low, finalised on free, and clocked one
// full period (falling then rising edge) per tick. A shim adds only its own input/output
// copying.
#pragma once

#include <new>

#include "verilated.h"

namespace jumpnet_shim {

template <typename Top>
struct Model {
    VerilatedContext ctx;
    Top top;
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

template <typename Top>
void tick(void* p) {
    Model<Top>* m = of<Top>(p);
    m->top.clk = 0;
    m->top.eval();
    m->ctx.timeInc(1);
    m->top.clk = 1;
    m->top.eval();
    m->ctx.timeInc(1);
}

}  // namespace jumpnet_shim
