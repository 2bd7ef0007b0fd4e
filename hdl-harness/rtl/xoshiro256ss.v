// xoshiro256** pseudo-random generator, one 64-bit output per clock.
//
// The hardware twin of jumpnet_core::rng::Rng (docs/topologies.md §0): the same 256-bit state
// and update, so a state loaded from SplitMix64(seed) yields the same stream as
// Rng::new(seed). `out` is the output of the current state (combinational); on a rising
// edge `load` replaces the state with seed_s0..seed_s3, else `advance` steps it.
`timescale 1ns / 1ps
`default_nettype none

module xoshiro256ss (
    input  wire        clk,
    input  wire        load,
    input  wire        advance,
    input  wire [63:0] seed_s0,
    input  wire [63:0] seed_s1,
    input  wire [63:0] seed_s2,
    input  wire [63:0] seed_s3,
    output wire [63:0] out
);
    reg [63:0] s0, s1, s2, s3;

    // out = rotl(s1 * 5, 7) * 9, with the constant products as shift-adds.
    wire [63:0] s1_x5  = (s1 << 2) + s1;
    wire [63:0] rot7   = {s1_x5[56:0], s1_x5[63:57]};
    assign out = (rot7 << 3) + rot7;

    // State update of xoshiro256 (Blackman & Vigna).
    wire [63:0] t      = s1 << 17;
    wire [63:0] s2_a   = s2 ^ s0;
    wire [63:0] s3_a   = s3 ^ s1;
    wire [63:0] s1_n   = s1 ^ s2_a;
    wire [63:0] s0_n   = s0 ^ s3_a;
    wire [63:0] s2_n   = s2_a ^ t;
    wire [63:0] s3_n   = {s3_a[18:0], s3_a[63:19]};   // rotl(s3_a, 45)

    always @(posedge clk) begin
        if (load) begin
            s0 <= seed_s0;
            s1 <= seed_s1;
            s2 <= seed_s2;
            s3 <= seed_s3;
        end else if (advance) begin
            s0 <= s0_n;
            s1 <= s1_n;
            s2 <= s2_n;
            s3 <= s3_n;
        end
    end
endmodule

`default_nettype wire
