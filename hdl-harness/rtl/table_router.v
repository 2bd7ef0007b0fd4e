// Table router: the forwarding stage of a switch. Destination ->
// (output port, VC) from a run-length route table (jumpnet_core::routing::RunTable in the flat
// form of jumpnet_core::exec::rtl_program: one 64-bit word per run, [31:0] first destination,
// [47:32] port, [55:48] VC), one lookup per cycle, a round-robin arbiter per output and
// valid/ready back-pressure.
//
// Per cycle:
//   - lookup: one input whose head flit (in_valid) has no route yet, chosen round-robin, is
//     looked up (the last run whose first destination is <= dst; NO_PORT when dst >= the
//     destination count); the result is shown on lk_* and latched for that input;
//   - arbitration: each output grants, round-robin after its last grant, one routed input
//     whose port is that output; out_valid is high while some input requests; the flit moves
//     (in_ready of the granted input) when out_ready is high, else it waits (back-pressure);
//   - a routed head whose port is not an output (NO_PORT or >= 2^OUT_W) is dropped (drop).
// Synthesizable Verilog-2005.
module table_router #(
    parameter RUN_W = 6,   // 2^RUN_W runs
    parameter DST_W = 16,  // destination width
    parameter IN_W  = 2,   // 2^IN_W inputs
    parameter OUT_W = 3,   // 2^OUT_W outputs
    parameter VC_W  = 4    // VC bits kept (of the 8 in the run word)
) (
    input  wire                          clk,
    input  wire                          rst,
    // table load port
    input  wire                          run_we,
    input  wire [RUN_W-1:0]              run_addr,
    /* verilator lint_off UNUSEDSIGNAL */
    input  wire [63:0]                   run_word,  // first beyond DST_W bits is 0
    /* verilator lint_on UNUSEDSIGNAL */
    input  wire                          cfg_we,
    input  wire [RUN_W:0]                cfg_runs,   // number of runs
    input  wire [DST_W:0]                cfg_dests,  // number of destinations
    // inputs: head flit per input
    input  wire [(1<<IN_W)-1:0]          in_valid,
    input  wire [(DST_W<<IN_W)-1:0]      in_dst,
    output reg  [(1<<IN_W)-1:0]          in_ready,
    output reg  [(1<<IN_W)-1:0]          drop,
    // outputs
    output reg  [(1<<OUT_W)-1:0]         out_valid,
    input  wire [(1<<OUT_W)-1:0]         out_ready,
    output reg  [(IN_W<<OUT_W)-1:0]      out_in,     // granted input per output
    output reg  [(VC_W<<OUT_W)-1:0]      out_vc,
    // the lookup of this cycle
    output reg                           lk_valid,
    output reg  [IN_W-1:0]               lk_in,
    output reg  [DST_W-1:0]              lk_dst,
    output reg  [15:0]                   lk_port,
    output reg  [7:0]                    lk_vc
);
    localparam NR = 1 << RUN_W;
    localparam NI = 1 << IN_W;
    localparam NO = 1 << OUT_W;

    reg [DST_W-1:0] first [0:NR-1];
    reg [15:0]      rport [0:NR-1];
    reg [7:0]       rvc   [0:NR-1];
    reg [RUN_W:0]   nruns;
    reg [DST_W:0]   ndests;

    always @(posedge clk) begin
        if (run_we) begin
            first[run_addr] <= run_word[DST_W-1:0];
            rport[run_addr] <= run_word[47:32];
            rvc[run_addr]   <= run_word[55:48];
        end
    end

    // per-input route state
    reg [NI-1:0]   routed;
    reg [15:0]     hport [0:NI-1];
    reg [VC_W-1:0] hvc   [0:NI-1];
    reg [IN_W-1:0] lk_ptr;              // round-robin pointer of the lookup stage
    reg [IN_W-1:0] rr    [0:NO-1];      // last grant per output

    integer i, k, o;
    reg [IN_W-1:0] cand_l, cand_a;

    // ---- lookup stage
    always @(*) begin
        lk_valid = 1'b0;
        lk_in    = {IN_W{1'b0}};
        for (i = NI; i >= 1; i = i - 1) begin
            cand_l = lk_ptr + i[IN_W-1:0];
            if (in_valid[cand_l] && !routed[cand_l]) begin
                lk_valid = 1'b1;
                lk_in    = cand_l;
            end
        end
        lk_dst  = in_dst[lk_in*DST_W +: DST_W];
        lk_port = 16'hFFFF;
        lk_vc   = 8'd0;
        if ({1'b0, lk_dst} < ndests) begin
            for (k = 0; k < NR; k = k + 1) begin
                if (k < nruns && first[k] <= lk_dst) begin
                    lk_port = rport[k];
                    lk_vc   = rvc[k];
                end
            end
        end
    end

    // ---- arbitration per output
    reg [NI-1:0] grant_in;
    always @(*) begin
        out_valid = {NO{1'b0}};
        out_in    = {(IN_W<<OUT_W){1'b0}};
        out_vc    = {(VC_W<<OUT_W){1'b0}};
        in_ready  = {NI{1'b0}};
        drop      = {NI{1'b0}};
        grant_in  = {NI{1'b0}};
        for (i = 0; i < NI; i = i + 1)
            if (routed[i] && in_valid[i] && hport[i] >= NO)
                drop[i] = 1'b1;
        for (o = 0; o < NO; o = o + 1) begin
            for (i = NI; i >= 1; i = i - 1) begin
                cand_a = rr[o] + i[IN_W-1:0];
                if (routed[cand_a] && in_valid[cand_a] && {16'd0, hport[cand_a]} == o) begin
                    out_valid[o]                = 1'b1;
                    out_in[o*IN_W +: IN_W]      = cand_a;
                    out_vc[o*VC_W +: VC_W]      = hvc[cand_a];
                end
            end
            if (out_valid[o] && out_ready[o])
                grant_in[out_in[o*IN_W +: IN_W]] = 1'b1;
        end
        in_ready = grant_in | drop;
    end

    always @(posedge clk) begin
        if (rst) begin
            routed <= {NI{1'b0}};
            lk_ptr <= {IN_W{1'b0}};
            nruns  <= {(RUN_W+1){1'b0}};
            ndests <= {(DST_W+1){1'b0}};
            for (o = 0; o < NO; o = o + 1)
                rr[o] <= {IN_W{1'b1}};
        end else begin
            if (cfg_we) begin
                nruns  <= cfg_runs;
                ndests <= cfg_dests;
            end
            for (i = 0; i < NI; i = i + 1)
                if (in_ready[i])
                    routed[i] <= 1'b0;
            if (lk_valid) begin
                routed[lk_in] <= 1'b1;
                hport[lk_in]  <= lk_port;
                hvc[lk_in]    <= lk_vc[VC_W-1:0];
                lk_ptr        <= lk_in;
            end
            for (o = 0; o < NO; o = o + 1)
                if (out_valid[o] && out_ready[o])
                    rr[o] <= out_in[o*IN_W +: IN_W];
        end
    end
endmodule
