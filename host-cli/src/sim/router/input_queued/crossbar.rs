//! Crossbar input and output speedup (BookSim2 `input_speedup`, `output_speedup`,
//! `iq_router.cpp` `_SWAllocAddReq`; docs/booksim.md §4): the crossbar has `I` inputs per
//! input port and `O` outputs per output port. VC `v` of input port `p` reaches the switch
//! through crossbar input `p·I + v mod I`; a flit from input port `p` enters output port
//! `o` through crossbar output `o·O + i mod O`, `i` BookSim2's number of the input (`p`
//! but on a butterfly, [`input_numbers`]). The switch allocator matches crossbar inputs
//! to crossbar outputs, so an input port moves up to `I` flits per internal step (from VCs
//! of different lanes) and an output port takes up to `O` (from inputs of different lanes);
//! the flits an output takes wait in its output queue, which sends one per cycle, and the
//! credits an input port frees in one step travel upstream together, as BookSim2's one
//! credit per input and step. With `I = O = 1` crossbar inputs and outputs are the ports.

use crate::sim::network::Fabric;

/// Where an input VC meets the crossbar.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Lanes {
    /// Crossbar input `p·I + v mod I`.
    pub input: u16,
    /// The VC.
    pub vc: u8,
    /// Lane of every output port's crossbar outputs this input port uses: `i mod O`, `i`
    /// BookSim2's number of the input.
    pub out_lane: u16,
}

impl Lanes {
    /// VC `vc` of input port `port`, BookSim2's input `number` ([`input_numbers`]), with
    /// input speedup `is` and output speedup `os`.
    pub fn of(port: usize, vc: usize, is: usize, os: usize, number: u16) -> Self {
        Lanes {
            input: (port * is + vc % is) as u16,
            vc: vc as u8,
            out_lane: (usize::from(number) % os) as u16,
        }
    }

    /// The crossbar output toward output port `port` with output speedup `os`.
    #[inline]
    pub fn output(self, port: u16, os: usize) -> u16 {
        port * os as u16 + self.out_lane
    }
}

/// Per port of a router, BookSim2's number of the input it is, whose remainder by the output
/// speedup picks the crossbar output it uses (`iq_router.cpp`: input `i` enters output `o`
/// through `o·O + i mod O`): the port itself wherever every port is an input, and on a
/// butterfly, whose inputs BookSim2 numbers apart from its outputs (`router::alloc_ports`),
/// the port's place among its router's inputs — the nodes' injection ports of a first-stage
/// router are its inputs `0..k`, not ports `2k..3k`. A port that is an input at no router, or
/// whose number differs between routers, keeps its own.
pub(crate) fn input_numbers(fabric: &Fabric) -> Vec<u16> {
    let radix = fabric.radix;
    let mut number: Vec<Option<u16>> = vec![None; radix];
    let mut same = vec![true; radix];
    for uses in fabric.port_use.chunks_exact(radix) {
        let mut next = 0u16;
        for (p, u) in uses.iter().enumerate() {
            if !u.is_input() {
                continue;
            }
            match number[p] {
                None => number[p] = Some(next),
                Some(n) if n != next => same[p] = false,
                Some(_) => {}
            }
            next += 1;
        }
    }
    (0..radix)
        .map(|p| match number[p] {
            Some(n) if same[p] => n,
            _ => p as u16,
        })
        .collect()
}

/// The input port of crossbar input `input` with input speedup `is`.
#[inline]
pub(crate) fn input_port(input: u16, is: usize) -> usize {
    if is == 1 {
        usize::from(input)
    } else {
        usize::from(input) / is
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lanes_interleave_vcs_and_inputs() {
        // Input speedup 2: VCs 0, 2, 4 of port 3 share crossbar input 6, VCs 1, 3 input 7.
        assert_eq!(Lanes::of(3, 4, 2, 1, 3).input, 6);
        assert_eq!(Lanes::of(3, 3, 2, 1, 3).input, 7);
        assert_eq!(input_port(7, 2), 3);
        // Output speedup 2: port 3 enters output 5 through crossbar output 5·2 + 1.
        assert_eq!(Lanes::of(3, 0, 1, 2, 3).output(5, 2), 11);
        assert_eq!(Lanes::of(4, 0, 1, 2, 4).output(5, 2), 10);
        // No speedup: the ports themselves.
        let l = Lanes::of(3, 5, 1, 1, 3);
        assert_eq!(
            (l.input, l.vc, l.output(5, 1), input_port(3, 1)),
            (3, 5, 5, 3)
        );
    }
}
