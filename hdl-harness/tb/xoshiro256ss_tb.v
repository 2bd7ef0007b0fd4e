// Icarus Verilog testbench of rtl/xoshiro256ss.v (second simulator next to Verilator).
//
// +vectors=FILE is a $readmemh file: the 256-bit start state as four 64-bit words s0..s3,
// then +count=N expected outputs. Prints "PASS N" or "FAIL ..." lines, then finishes.
`timescale 1ns / 1ps

module xoshiro256ss_tb;
    localparam MAX_WORDS = 8192;

    reg         clk = 1'b0;
    reg         load = 1'b0;
    reg         advance = 1'b0;
    reg  [63:0] seed [0:3];
    wire [63:0] out;
    reg  [63:0] mem [0:MAX_WORDS + 3];
    reg  [8*512-1:0] path;
    integer count, i, errors;

    xoshiro256ss dut (
        .clk(clk), .load(load), .advance(advance),
        .seed_s0(seed[0]), .seed_s1(seed[1]), .seed_s2(seed[2]), .seed_s3(seed[3]),
        .out(out)
    );

    always #5 clk = ~clk;

    initial begin
        if (!$value$plusargs("vectors=%s", path)) begin
            $display("FAIL missing +vectors=FILE");
            $finish;
        end
        if (!$value$plusargs("count=%d", count) || count < 1 || count > MAX_WORDS) begin
            $display("FAIL +count=N must be in 1..%0d", MAX_WORDS);
            $finish;
        end
        $readmemh(path, mem, 0, count + 3);
        for (i = 0; i < 4; i = i + 1) seed[i] = mem[i];
        load = 1'b1;
        @(posedge clk); #1;
        load = 1'b0;
        advance = 1'b1;
        errors = 0;
        for (i = 0; i < count; i = i + 1) begin
            if (out !== mem[4 + i]) begin
                errors = errors + 1;
                if (errors <= 5)
                    $display("FAIL output %0d: got %h, expected %h", i, out, mem[4 + i]);
            end
            @(posedge clk); #1;
        end
        if (errors == 0) $display("PASS %0d", count);
        else $display("FAIL %0d of %0d outputs differ", errors, count);
        $finish;
    end
endmodule
