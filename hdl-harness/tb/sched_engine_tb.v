// Icarus Verilog testbench of rtl/sched_engine.v ("Harness": a second simulator
// replaying vector files the host generates from jumpnet_core::exec::timing::TimedExecutor).
//
// +vectors=FILE is a $readmemh file of +words=N 64-bit words:
//   word 0: program length L, word 1: cycle count C,
//   then L pairs (ctrl, blocks): the rtl_program op words,
//   then C groups of 6 words, one per cycle:
//     {arr_valid at bit 32, arr_peer[31:0]}, arr_blocks,
//     expected flags {err_code[8:6], done[5], reflect[4], reduce[3], kind[2:1], act_valid[0]},
//     expected {err_op[63:32], act_op[31:0]}, expected act_peer, expected act_blocks.
// The action fields are compared when an action is expected, err_op when an error is.
// Prints "FAIL cycle ..." lines (at most 5) and "PASS C" or "FAIL n of C cycles differ".
// Compile with -DJN_MUTANT_DEP_OFF_BY_ONE to run the deliberately wrong engine.
`timescale 1ns / 1ps

module sched_engine_tb;
    localparam ADDR_W = 8;
    localparam MAX_WORDS = 65536;

    reg               clk = 1'b0;
    reg               rst = 1'b1;
    reg               load_we = 1'b0;
    reg  [ADDR_W-1:0] load_addr = 0;
    reg  [63:0]       load_ctrl = 0;
    reg  [63:0]       load_blocks = 0;
    reg               start = 1'b0;
    reg  [ADDR_W:0]   start_len = 0;
    reg               arr_valid = 1'b0;
    reg  [31:0]       arr_peer = 0;
    reg  [63:0]       arr_blocks = 0;
    wire              act_valid, act_reduce, act_reflect, done;
    wire [1:0]        act_kind;
    wire [ADDR_W-1:0] act_op, err_op;
    wire [31:0]       act_peer;
    wire [63:0]       act_blocks;
    wire [2:0]        err_code;

    reg  [63:0] mem [0:MAX_WORDS-1];
    reg  [8*512-1:0] path;
    reg  [63:0] flags, ids;
    integer words, len, cycles, i, base, errors, bad;

    sched_engine #(.ADDR_W(ADDR_W)) dut (
        .clk(clk), .rst(rst),
        .load_we(load_we), .load_addr(load_addr), .load_ctrl(load_ctrl),
        .load_blocks(load_blocks), .start(start), .start_len(start_len),
        .arr_valid(arr_valid), .arr_peer(arr_peer), .arr_blocks(arr_blocks),
        .act_valid(act_valid), .act_kind(act_kind), .act_op(act_op), .act_peer(act_peer),
        .act_blocks(act_blocks), .act_reduce(act_reduce), .act_reflect(act_reflect),
        .done(done), .err_code(err_code), .err_op(err_op)
    );

    always #5 clk = ~clk;

    initial begin
        if (!$value$plusargs("vectors=%s", path)) begin
            $display("FAIL missing +vectors=FILE");
            $finish;
        end
        if (!$value$plusargs("words=%d", words) || words < 2 || words > MAX_WORDS) begin
            $display("FAIL +words=N must be in 2..%0d", MAX_WORDS);
            $finish;
        end
        $readmemh(path, mem, 0, words - 1);
        len = mem[0];
        cycles = mem[1];
        @(posedge clk); #1;
        rst = 1'b0;
        for (i = 0; i < len; i = i + 1) begin
            load_we = 1'b1;
            load_addr = i;
            load_ctrl = mem[2 + 2 * i];
            load_blocks = mem[3 + 2 * i];
            @(posedge clk); #1;
        end
        load_we = 1'b0;
        start = 1'b1;
        start_len = len;
        @(posedge clk); #1;
        start = 1'b0;
        errors = 0;
        for (i = 0; i < cycles; i = i + 1) begin
            base = 2 + 2 * len + 6 * i;
            arr_valid = mem[base][32];
            arr_peer = mem[base][31:0];
            arr_blocks = mem[base + 1];
            flags = mem[base + 2];
            ids = mem[base + 3];
            #1;
            bad = act_valid !== flags[0] || done !== flags[5] || err_code !== flags[8:6];
            if (flags[0] && (act_kind !== flags[2:1] || act_reduce !== flags[3] ||
                             act_reflect !== flags[4] || act_op !== ids[ADDR_W-1:0] ||
                             act_peer !== mem[base + 4][31:0] || act_blocks !== mem[base + 5]))
                bad = 1;
            if (flags[8:6] != 0 && err_op !== ids[32 +: ADDR_W])
                bad = 1;
            if (bad) begin
                errors = errors + 1;
                if (errors <= 5)
                    $display("FAIL cycle %0d: got valid=%b kind=%0d op=%0d peer=%0d done=%b err=%0d, expected valid=%b kind=%0d op=%0d peer=%0d done=%b err=%0d",
                             i, act_valid, act_kind, act_op, act_peer, done, err_code,
                             flags[0], flags[2:1], ids[31:0], mem[base + 4][31:0], flags[5], flags[8:6]);
            end
            @(posedge clk); #1;
        end
        if (errors == 0) $display("PASS %0d", cycles);
        else $display("FAIL %0d of %0d cycles differ", errors, cycles);
        $finish;
    end
endmodule
