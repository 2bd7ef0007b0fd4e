// Icarus Verilog testbench of rtl/table_router.v ("Harness": a second simulator
// replaying vector files the host generates from jumpnet_core routing).
//
// +vectors=FILE is a $readmemh file of +words=N 64-bit words:
//   word 0: number of tables T, then T groups:
//     R (runs), D (destinations), C (checks),
//     R run words (jumpnet_core::exec::rtl_program::encode_run),
//     C pairs: destination, expected {vc[23:16], port[15:0]} (port FFFF = no route).
// Every check presents the destination on input 0 and expects, in the lookup cycle, the
// lookup of input 0 with that destination, port and VC; in the next cycle the flit either
// leaves on its port (out_valid, out_in = 0, out_vc) or, for a port that is not an output,
// is dropped. Every 4th check first holds the port's out_ready low for one cycle: the output
// must request without the flit moving (back-pressure).
// Prints "FAIL ..." lines (at most 5) and "PASS n" (checks) or "FAIL n of m checks differ".
`timescale 1ns / 1ps

module table_router_tb;
    localparam RUN_W = 8, DST_W = 16, IN_W = 2, OUT_W = 4, VC_W = 4;
    localparam NO = 1 << OUT_W;
    localparam MAX_WORDS = 1 << 20;

    reg                         clk = 1'b0;
    reg                         rst = 1'b1;
    reg                         run_we = 1'b0;
    reg  [RUN_W-1:0]            run_addr = 0;
    reg  [63:0]                 run_word = 0;
    reg                         cfg_we = 1'b0;
    reg  [RUN_W:0]              cfg_runs = 0;
    reg  [DST_W:0]              cfg_dests = 0;
    reg  [(1<<IN_W)-1:0]        in_valid = 0;
    reg  [(DST_W<<IN_W)-1:0]    in_dst = 0;
    reg  [NO-1:0]               out_ready = {NO{1'b1}};
    wire [(1<<IN_W)-1:0]        in_ready, drop;
    wire [NO-1:0]               out_valid;
    wire [(IN_W<<OUT_W)-1:0]    out_in;
    wire [(VC_W<<OUT_W)-1:0]    out_vc;
    wire                        lk_valid;
    wire [IN_W-1:0]             lk_in;
    wire [DST_W-1:0]            lk_dst;
    wire [15:0]                 lk_port;
    wire [7:0]                  lk_vc;

    table_router #(.RUN_W(RUN_W), .DST_W(DST_W), .IN_W(IN_W), .OUT_W(OUT_W), .VC_W(VC_W)) dut (
        .clk(clk), .rst(rst),
        .run_we(run_we), .run_addr(run_addr), .run_word(run_word),
        .cfg_we(cfg_we), .cfg_runs(cfg_runs), .cfg_dests(cfg_dests),
        .in_valid(in_valid), .in_dst(in_dst), .in_ready(in_ready), .drop(drop),
        .out_valid(out_valid), .out_ready(out_ready), .out_in(out_in), .out_vc(out_vc),
        .lk_valid(lk_valid), .lk_in(lk_in), .lk_dst(lk_dst), .lk_port(lk_port), .lk_vc(lk_vc)
    );

    always #5 clk = ~clk;

    reg  [63:0] mem [0:MAX_WORDS-1];
    reg  [8*512-1:0] path;
    integer words, tables, t, p, runs, dests, checks, i, k, bad, total;
    reg  [15:0] want_port;
    reg  [7:0]  want_vc;
    reg  [DST_W-1:0] dst;
    reg  ok;

    task fail_line(input [8*24-1:0] what);
        begin
            if (bad < 5)
                $display("FAIL table %0d check %0d dst %0d: %0s (lk_valid %b lk_in %0d lk_dst %0d lk_port %h lk_vc %0d in_ready %b drop %b out_valid %h)",
                         t, k, dst, what, lk_valid, lk_in, lk_dst, lk_port, lk_vc, in_ready,
                         drop, out_valid);
        end
    endtask

    initial begin
        if (!$value$plusargs("vectors=%s", path)) begin
            $display("FAIL missing +vectors=FILE");
            $finish;
        end
        if (!$value$plusargs("words=%d", words) || words < 1 || words > MAX_WORDS) begin
            $display("FAIL +words=N must be in 1..%0d", MAX_WORDS);
            $finish;
        end
        $readmemh(path, mem, 0, words - 1);
        bad = 0;
        total = 0;
        tables = mem[0];
        p = 1;
        @(posedge clk); #1;
        rst = 1'b0;
        for (t = 0; t < tables; t = t + 1) begin
            runs = mem[p];
            dests = mem[p + 1];
            checks = mem[p + 2];
            p = p + 3;
            for (i = 0; i < runs; i = i + 1) begin
                run_we = 1'b1;
                run_addr = i;
                run_word = mem[p + i];
                @(posedge clk); #1;
            end
            run_we = 1'b0;
            p = p + runs;
            cfg_we = 1'b1;
            cfg_runs = runs;
            cfg_dests = dests;
            @(posedge clk); #1;
            cfg_we = 1'b0;
            for (k = 0; k < checks; k = k + 1) begin
                dst = mem[p + 2 * k];
                want_port = mem[p + 2 * k + 1];
                want_vc = mem[p + 2 * k + 1] >> 16;
                ok = 1'b1;
                total = total + 1;
                // Lookup cycle.
                in_valid = 1;
                in_dst = dst;
                out_ready = {NO{1'b1}};
                @(negedge clk);
                if (!lk_valid || lk_in != 0 || lk_dst != dst || lk_port != want_port
                    || lk_vc != want_vc) begin
                    fail_line("lookup");
                    ok = 1'b0;
                end
                @(posedge clk); #1;
                // Back-pressure on every 4th check.
                if (k % 4 == 3 && want_port < NO) begin
                    out_ready[want_port] = 1'b0;
                    @(negedge clk);
                    if (!out_valid[want_port] || in_ready[0]) begin
                        fail_line("back-pressure");
                        ok = 1'b0;
                    end
                    @(posedge clk); #1;
                    out_ready = {NO{1'b1}};
                end
                // The flit leaves on its port or is dropped.
                @(negedge clk);
                if (want_port < NO) begin
                    if (!out_valid[want_port] || out_in[want_port*IN_W +: IN_W] != 0
                        || out_vc[want_port*VC_W +: VC_W] != want_vc[VC_W-1:0]
                        || !in_ready[0] || drop[0]) begin
                        fail_line("move");
                        ok = 1'b0;
                    end
                end else if (!drop[0] || !in_ready[0]) begin
                    fail_line("drop");
                    ok = 1'b0;
                end
                @(posedge clk); #1;
                in_valid = 0;
                if (!ok)
                    bad = bad + 1;
            end
            p = p + 2 * checks;
        end
        if (bad == 0)
            $display("PASS %0d", total);
        else
            $display("FAIL %0d of %0d checks differ", bad, total);
        $finish;
    end
endmodule
