// Collective schedule engine: runs one rank's program of fixed-width op
// words (jumpnet_core::exec::rtl_program) with core::exec::Executor semantics, held cycle by
// cycle to the timing contract of jumpnet_core::exec::timing:
//   - outputs depend on the state at the start of the cycle only; at most one action per
//     cycle, the lowest-index ready op (send descriptor, delivery with reduce flag, permute);
//     the op is done from the next cycle;
//   - at most one arrival per cycle, matched at the clock edge to the first pending receive
//     from that peer with the same blocks word (early arrival: ready or not);
//   - errors are sticky: 1 invalid dependency (from cycle 0), 2 unexpected message,
//     3 blocks mismatch (from the cycle after the arrival); no action after an error.
// Program memory: 2^ADDR_W op words written through the load port while not running;
// `start` (with `start_len`) clears the status and begins at cycle 0 in the next cycle.
// Synthesizable Verilog-2005. Define JN_MUTANT_DEP_OFF_BY_ONE to build a deliberately wrong
// engine (the `Dep::Earlier` check ignores the op just before), used by the tests.
module sched_engine #(
    parameter ADDR_W = 6
) (
    input  wire              clk,
    input  wire              rst,
    // program load port (one op word per cycle)
    input  wire              load_we,
    input  wire [ADDR_W-1:0] load_addr,
    /* verilator lint_off UNUSEDSIGNAL */
    input  wire [63:0]       load_ctrl,   // bits [7:5] are reserved (0)
    /* verilator lint_on UNUSEDSIGNAL */
    input  wire [63:0]       load_blocks,
    // start: program length, clears every op's status
    input  wire              start,
    input  wire [ADDR_W:0]   start_len,
    // arrivals (at most one per cycle)
    input  wire              arr_valid,
    input  wire [31:0]       arr_peer,
    input  wire [63:0]       arr_blocks,
    // the action of this cycle: kind 0 send, 1 deliver, 2 permute
    output reg               act_valid,
    output reg  [1:0]        act_kind,
    output reg  [ADDR_W-1:0] act_op,
    output reg  [31:0]       act_peer,    // peer, or shift of a permutation
    output reg  [63:0]       act_blocks,
    output reg               act_reduce,
    output reg               act_reflect,
    // status
    output wire              done,
    output wire [2:0]        err_code,
    output wire [ADDR_W-1:0] err_op
);
    localparam N = 1 << ADDR_W;

    // program memory (the fields the engine needs, taken from the 128-bit op word)
    reg [1:0]        kind    [0:N-1];
    reg              reflect [0:N-1];
    reg [1:0]        dkind   [0:N-1];
    reg [ADDR_W-1:0] didx    [0:N-1];
    reg              dhigh   [0:N-1];  // dependency index bits above ADDR_W are set
    reg [31:0]       peer    [0:N-1];
    reg [63:0]       blk     [0:N-1];

    // status
    reg [N-1:0]      done_r;     // op done (ops at or beyond the length count as done)
    reg [N-1:0]      arrived_r;  // receive whose message arrived
    reg [N-1:0]      depok_r;    // Dep::Op(j) satisfied: op j completed
    reg              running;
    reg [2:0]        err_r;
    reg [ADDR_W-1:0] err_op_r;
    reg [ADDR_W:0]   len_r;

    integer i;

    always @(posedge clk) begin
        if (load_we) begin
            kind[load_addr]    <= load_ctrl[1:0];
            reflect[load_addr] <= load_ctrl[2];
            dkind[load_addr]   <= load_ctrl[4:3];
            didx[load_addr]    <= load_ctrl[8 +: ADDR_W];
            dhigh[load_addr]   <= |load_ctrl[31:8+ADDR_W];
            peer[load_addr]    <= load_ctrl[63:32];
            blk[load_addr]     <= load_blocks;
        end
    end

    // ---- invalid dependencies (Executor::new): Dep::Op(j) with j >= i, or a bad kind
    reg              bad_found;
    reg [ADDR_W-1:0] bad_op;
    always @(*) begin
        bad_found = 1'b0;
        bad_op    = {ADDR_W{1'b0}};
        for (i = 0; i < N; i = i + 1) begin
            if (!bad_found && i < len_r &&
                (dkind[i] == 2'd3 ||
                 (dkind[i] == 2'd1 && (dhigh[i] || didx[i] >= i[ADDR_W-1:0])))) begin
                bad_found = 1'b1;
                bad_op    = i[ADDR_W-1:0];
            end
        end
    end

    wire   halted = bad_found || err_r != 3'd0;
    assign err_code = !running ? 3'd0 : bad_found ? 3'd1 : err_r;
    assign err_op   = !running ? {ADDR_W{1'b0}} : bad_found ? bad_op : err_op_r;
    assign done     = running && !halted && (&done_r);

    // ---- readiness and the lowest-index ready op (Executor::poll)
    reg [N-1:0] prefix_done;  // prefix_done[i]: every op below i is done
    reg [N-1:0] ready;
    always @(*) begin
        prefix_done[0] = 1'b1;
        for (i = 1; i < N; i = i + 1)
            prefix_done[i] = prefix_done[i-1] & done_r[i-1];
        for (i = 0; i < N; i = i + 1) begin
            ready[i] = running && !halted && !done_r[i] &&
                       (kind[i] == 2'd0 || kind[i] == 2'd3 || arrived_r[i]) &&
                       (dkind[i] == 2'd0 ||
                        (dkind[i] == 2'd1 && depok_r[i]) ||
`ifdef JN_MUTANT_DEP_OFF_BY_ONE
                        (dkind[i] == 2'd2 && (i == 0 || prefix_done[i-1])));
`else
                        (dkind[i] == 2'd2 && prefix_done[i]));
`endif
        end
    end

    always @(*) begin
        act_valid   = 1'b0;
        act_op      = {ADDR_W{1'b0}};
        for (i = N - 1; i >= 0; i = i - 1) begin
            if (ready[i]) begin
                act_valid = 1'b1;
                act_op    = i[ADDR_W-1:0];
            end
        end
        act_kind    = kind[act_op] == 2'd0 ? 2'd0 : kind[act_op] == 2'd3 ? 2'd2 : 2'd1;
        act_peer    = peer[act_op];
        act_blocks  = kind[act_op] == 2'd3 ? 64'd0 : blk[act_op];
        act_reduce  = kind[act_op] == 2'd2;
        act_reflect = kind[act_op] == 2'd3 && reflect[act_op];
    end

    // ---- arrival matching (Executor::on_receive)
    reg              mx_found, mp_found;
    reg [ADDR_W-1:0] mx_op, mp_op;
    always @(*) begin
        mx_found = 1'b0;
        mp_found = 1'b0;
        mx_op    = {ADDR_W{1'b0}};
        mp_op    = {ADDR_W{1'b0}};
        for (i = N - 1; i >= 0; i = i - 1) begin
            if (!done_r[i] && !arrived_r[i] && (kind[i] == 2'd1 || kind[i] == 2'd2) &&
                peer[i] == arr_peer) begin
                mp_found = 1'b1;
                mp_op    = i[ADDR_W-1:0];
                if (blk[i] == arr_blocks) begin
                    mx_found = 1'b1;
                    mx_op    = i[ADDR_W-1:0];
                end
            end
        end
    end

    always @(posedge clk) begin
        if (rst) begin
            running   <= 1'b0;
            done_r    <= {N{1'b1}};
            arrived_r <= {N{1'b0}};
            depok_r   <= {N{1'b0}};
            err_r     <= 3'd0;
            err_op_r  <= {ADDR_W{1'b0}};
            len_r     <= {(ADDR_W+1){1'b0}};
        end else if (start) begin
            running   <= 1'b1;
            for (i = 0; i < N; i = i + 1)
                done_r[i] <= i >= start_len;
            arrived_r <= {N{1'b0}};
            depok_r   <= {N{1'b0}};
            err_r     <= 3'd0;
            err_op_r  <= {ADDR_W{1'b0}};
            len_r     <= start_len;
        end else if (running && !halted) begin
            if (act_valid) begin
                done_r[act_op] <= 1'b1;
                for (i = 0; i < N; i = i + 1)
                    if (dkind[i] == 2'd1 && didx[i] == act_op)
                        depok_r[i] <= 1'b1;
            end
            if (arr_valid) begin
                if (mx_found) begin
                    arrived_r[mx_op] <= 1'b1;
                end else if (mp_found) begin
                    err_r    <= 3'd3;
                    err_op_r <= mp_op;
                end else begin
                    err_r    <= 3'd2;
                    err_op_r <= {ADDR_W{1'b0}};
                end
            end
        end
    end
endmodule
