//! BookSim2's VC allocator (`super::vc_allocator`) for the heads of one router that route to
//! the same output port, without request lists. A head asks for output VCs of its own port
//! only, so the heads of one port form an allocation of their own: nothing they request is
//! requested by another port's heads, and a match moves only pointers of their input VCs
//! and of the port's output VCs. [`VcAllocator::allocate_port`] runs the iSLIP or
//! separable input-first allocation of such a group over the port's VCs directly; it
//! matches as [`VcAllocator::allocate`] does with the group's requests (a test below checks
//! it against it on random groups).

use crate::sim::config::Allocator;
use crate::sim::router::allocator::{dist, succ};
use crate::sim::router::vc_allocator::VcAllocator;

/// One head of a port group: its input VC (`port · vcs + vc`), the free VCs of the output
/// port it requests (bit `v`: VC `v`; ports of at most 64 VCs) and its priority (BookSim2's
/// "out" priority of its requests, `super::vc_allocator::VcScratch::prio`; 0 without).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PortHead {
    /// Input VC of the router.
    pub input: u16,
    /// The free VCs it requests.
    pub want: u64,
    /// Its priority (higher wins at the output VCs of `select` and separable input-first).
    pub pri: u32,
}

/// Of the VCs `want` of the port whose first output VC is `out`, the one nearest pointer
/// `p` (round robin over the router's output VCs): the lowest at or after `p`, else the
/// lowest (as `VcAllocator::disjoint_pick`).
#[inline]
fn nearest(want: u64, out: u16, p: u16) -> Option<u16> {
    if want == 0 {
        return None;
    }
    let after = match p.checked_sub(out) {
        Some(d) if d < 64 => want & (u64::MAX << d),
        Some(_) => 0,
        None => want,
    };
    let v = if after != 0 { after } else { want }.trailing_zeros();
    Some(out + v as u16)
}

/// The rank of head `h` at an output VC whose pointer is `p` (lower wins): its priority,
/// then its round-robin distance among `ni` input VCs.
#[inline]
fn rank(h: &PortHead, p: u16, ni: u16) -> u64 {
    (u64::from(!h.pri) << 32) | u64::from(dist(h.input, p, ni))
}

impl VcAllocator {
    /// Allocation of `heads` (ascending inputs, all routed to the output port whose first
    /// output VC is `out`) with the router's pointers `ptrs`: `won[h]` is the output VC head
    /// `h` won, if any. iSLIP, `select` and separable input-first only
    /// (`VcAllocator::has_disjoint_pass`; not the wavefront allocator, whose priority
    /// diagonal spans every port, nor PIM and the lonely output allocator); the output VCs
    /// of `select` and separable input-first grant by the heads' priorities first, iSLIP's
    /// ignore them.
    pub fn allocate_port(
        &self,
        ptrs: &mut [u16],
        out: u16,
        heads: &[PortHead],
        won: &mut Vec<Option<u16>>,
    ) {
        won.clear();
        let (ni, no) = (self.ins, self.outs);
        let (in_ptr, out_ptr) = ptrs.split_at_mut(usize::from(ni));
        match self.kind {
            Allocator::Islip | Allocator::Select => {
                // Every requested output grants its requester nearest its pointer (`select`:
                // of the highest priority first); every input accepts, of the outputs that
                // granted it, the one nearest its own pointer.
                let ranked = self.kind == Allocator::Select;
                won.resize(heads.len(), None);
                let mut all = heads.iter().fold(0, |m, h| m | h.want);
                while all != 0 {
                    let v = all.trailing_zeros();
                    all &= all - 1;
                    let o = out + v as u16;
                    let p = out_ptr[usize::from(o)];
                    let mut grant: Option<(usize, u64)> = None;
                    for (g, h) in heads.iter().enumerate() {
                        if h.want >> v & 1 == 1 {
                            let d = if ranked {
                                rank(h, p, ni)
                            } else {
                                u64::from(dist(h.input, p, ni))
                            };
                            if grant.is_none_or(|(_, b)| d < b) {
                                grant = Some((g, d));
                            }
                        }
                    }
                    if let Some((g, _)) = grant {
                        let h = heads[g];
                        // Outputs ascend: the first granted at or after the input's pointer,
                        // else the first granted (`nearest`).
                        let p = in_ptr[usize::from(h.input)];
                        if won[g].is_none_or(|w| w < p && o >= p) {
                            won[g] = Some(o);
                        }
                    }
                }
            }
            Allocator::SeparableInputFirst | Allocator::SeparableVc => {
                // Every input picks its requested output nearest its pointer; every picked
                // output grants the picker nearest its own pointer.
                won.extend(
                    heads
                        .iter()
                        .map(|h| nearest(h.want, out, in_ptr[usize::from(h.input)])),
                );
                for g in 0..heads.len() {
                    let Some(o) = won[g] else { continue };
                    let p = out_ptr[usize::from(o)];
                    let d = rank(&heads[g], p, ni);
                    let beaten =
                        (0..heads.len()).any(|j| won[j] == Some(o) && rank(&heads[j], p, ni) < d);
                    if beaten {
                        won[g] = None;
                    }
                }
            }
            Allocator::Wavefront
            | Allocator::RrWavefront
            | Allocator::Pim
            | Allocator::Loa
            | Allocator::MaxSize => {
                unreachable!("without a one-pass allocation of disjoint requests")
            }
        }
        for (h, w) in heads.iter().zip(won.iter()) {
            if let Some(o) = *w {
                in_ptr[usize::from(h.input)] = succ(o, no);
                out_ptr[usize::from(o)] = succ(h.input, ni);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::router::vc_allocator::{VcRequest, VcScratch};

    #[test]
    fn port_groups_match_as_the_general_allocation_does() {
        // Random routers of 5 ports × 8 VCs: two to eleven heads on distinct input VCs, all
        // routed to port 3, each asking for the free VCs of a range (one of two logical
        // VCs, or every VC as an ejection head), random taken VCs and pointers, random
        // priorities (of which iSLIP takes no notice).
        let a = |kind| VcAllocator {
            kind,
            ins: 40,
            outs: 40,
        };
        let mut x = 987654321u64;
        let mut rnd = |n: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % n
        };
        let out = 24u16;
        for _ in 0..4000 {
            let mut inputs: Vec<u16> = (0..40).collect();
            let busy: Vec<bool> = (0..8).map(|_| rnd(3) == 0).collect();
            let mut heads = Vec::new();
            for _ in 0..rnd(10) + 2 {
                let input = inputs.remove(rnd(inputs.len() as u64) as usize);
                let (start, stride) = match rnd(3) {
                    0 => (0, 1),
                    r => (r as usize - 1, 2),
                };
                let want = (start..8)
                    .step_by(stride)
                    .filter(|&v| !busy[v])
                    .fold(0, |m, v| m | 1 << v);
                let pri = rnd(3) as u32 * (i32::MAX as u32 / 2);
                heads.push(PortHead { input, want, pri });
            }
            heads.sort_by_key(|h| h.input);
            let reqs: Vec<VcRequest> = heads
                .iter()
                .flat_map(|h| {
                    (0..8u16)
                        .filter(|&v| h.want >> v & 1 == 1)
                        .map(|v| VcRequest {
                            input: h.input,
                            output: out + v,
                        })
                })
                .collect();
            let ptrs: Vec<u16> = (0..80).map(|_| rnd(40) as u16).collect();
            let mut prio = vec![0; 40];
            for h in &heads {
                prio[usize::from(h.input)] = h.pri;
            }
            for kind in [
                Allocator::Islip,
                Allocator::SeparableInputFirst,
                Allocator::Select,
            ] {
                let (mut p1, mut p2) = (ptrs.clone(), ptrs.clone());
                let mut wins = Vec::new();
                let mut scratch = VcScratch::new(40, 40);
                scratch.prio.clone_from(&prio);
                a(kind).allocate(&mut p1, &mut scratch, &reqs, &mut wins);
                let mut won = Vec::new();
                a(kind).allocate_port(&mut p2, out, &heads, &mut won);
                let want: Vec<Option<u16>> = heads
                    .iter()
                    .map(|h| wins.iter().find(|w| w.input == h.input).map(|w| w.output))
                    .collect();
                assert_eq!((won, p2), (want, p1), "{kind:?} {heads:?} {busy:?}");
            }
        }
    }
}
