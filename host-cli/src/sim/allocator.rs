//! Switch allocators of the router (issue 9): separable input-first round robin and
//! single-iteration iSLIP. Both work on the request list of one router and cost O(requests);
//! round-robin priority is "distance from the pointer" modulo the port count.

use super::config::Allocator;

/// One request: input port `input` wants output port `output` for its VC `vc`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Request {
    /// Input port.
    pub input: u16,
    /// Input VC.
    pub vc: u8,
    /// Output port.
    pub output: u16,
}

const NONE: u16 = u16::MAX;

/// `(i − ptr) mod n` for `i < n`; pointers are kept below `n`, so a conditional add
/// replaces the two divisions (the remainder is only taken for out-of-range arguments).
#[inline]
fn dist(i: u16, ptr: u16, n: u16) -> u16 {
    if i < n && ptr < n {
        if i >= ptr {
            i - ptr
        } else {
            i + n - ptr
        }
    } else {
        (i + n - ptr % n) % n
    }
}

/// Round-robin pointers and scratch space of one allocator kind for a router of `radix`
/// ports and `vcs` VCs.
#[derive(Debug)]
pub struct Arbiters {
    kind: Allocator,
    radix: u16,
    vcs: u8,
    /// Per router and input port: VC pointer (input-first) / output pointer (iSLIP accept).
    in_ptr: Vec<u16>,
    /// Per router and output port: input pointer.
    out_ptr: Vec<u16>,
    /// Per router and input port: VC pointer for iSLIP's VC choice.
    vc_ptr: Vec<u8>,
    grant: Vec<u16>,
    pick: Vec<u16>,
}

impl Arbiters {
    /// Pointers for `switches` routers.
    pub fn new(kind: Allocator, switches: usize, radix: usize, vcs: u8) -> Self {
        Arbiters {
            kind,
            radix: radix as u16,
            vcs,
            in_ptr: vec![0; switches * radix],
            out_ptr: vec![0; switches * radix],
            vc_ptr: vec![0; switches * radix],
            grant: vec![NONE; radix],
            pick: vec![NONE; radix],
        }
    }

    /// Puts every pointer back where [`Arbiters::new`] starts it (engine reuse).
    pub fn reset(&mut self) {
        self.in_ptr.fill(0);
        self.out_ptr.fill(0);
        self.vc_ptr.fill(0);
        self.grant.fill(NONE);
        self.pick.fill(NONE);
    }

    /// Matches `reqs` of router `s` (every input at most once, every output at most once);
    /// the winners are written to `out`.
    pub fn allocate(&mut self, s: usize, reqs: &[Request], out: &mut Vec<Request>) {
        out.clear();
        if reqs.is_empty() {
            return;
        }
        let r = self.radix;
        let base = s * r as usize;
        let v = u16::from(self.vcs);
        if let [q] = reqs {
            // One request (the common case at low load): granted, pointers as below.
            out.push(*q);
            let i = base + q.input as usize;
            self.out_ptr[base + q.output as usize] = (q.input + 1) % r;
            match self.kind {
                Allocator::SeparableInputFirst => {
                    self.in_ptr[i] = (u16::from(q.vc) + 1) % v;
                }
                Allocator::Islip => {
                    self.in_ptr[i] = (q.output + 1) % r;
                    self.vc_ptr[i] = ((u16::from(q.vc) + 1) % v) as u8;
                }
            }
            return;
        }
        match self.kind {
            Allocator::SeparableInputFirst => {
                // Input stage: each input picks its VC closest to its VC pointer.
                for q in reqs {
                    let i = q.input as usize;
                    let cur = self.pick[i];
                    let d = dist(u16::from(q.vc), self.in_ptr[base + i], v);
                    if cur == NONE || d < dist(cur, self.in_ptr[base + i], v) {
                        self.pick[i] = u16::from(q.vc);
                    }
                }
                // Output stage: each output grants the input closest to its pointer.
                for q in reqs {
                    if self.pick[q.input as usize] != u16::from(q.vc) {
                        continue;
                    }
                    let o = q.output as usize;
                    let cur = self.grant[o];
                    if cur == NONE
                        || dist(q.input, self.out_ptr[base + o], r)
                            < dist(cur, self.out_ptr[base + o], r)
                    {
                        self.grant[o] = q.input;
                    }
                }
                for q in reqs {
                    let o = q.output as usize;
                    if self.grant[o] == q.input && self.pick[q.input as usize] == u16::from(q.vc) {
                        out.push(*q);
                        self.out_ptr[base + o] = (q.input + 1) % r;
                        self.in_ptr[base + q.input as usize] = (u16::from(q.vc) + 1) % v;
                    }
                }
            }
            Allocator::Islip => {
                // Grant: each output grants the requesting input closest to its pointer.
                for q in reqs {
                    let o = q.output as usize;
                    let cur = self.grant[o];
                    if cur == NONE
                        || dist(q.input, self.out_ptr[base + o], r)
                            < dist(cur, self.out_ptr[base + o], r)
                    {
                        self.grant[o] = q.input;
                    }
                }
                // Accept: each input accepts the granting output closest to its pointer.
                for q in reqs {
                    let (i, o) = (q.input as usize, q.output);
                    if self.grant[o as usize] != q.input {
                        continue;
                    }
                    let cur = self.pick[i];
                    if cur == NONE
                        || dist(o, self.in_ptr[base + i], r) < dist(cur, self.in_ptr[base + i], r)
                    {
                        self.pick[i] = o;
                    }
                }
                // VC of the accepted output: closest to the input's VC pointer.
                let first = out.len();
                for q in reqs {
                    let i = q.input as usize;
                    if self.pick[i] != q.output || self.grant[q.output as usize] != q.input {
                        continue;
                    }
                    let p = u16::from(self.vc_ptr[base + i]);
                    match out[first..].iter_mut().find(|w| w.input == q.input) {
                        Some(w) => {
                            if dist(u16::from(q.vc), p, v) < dist(u16::from(w.vc), p, v) {
                                *w = *q;
                            }
                        }
                        None => out.push(*q),
                    }
                }
                for w in out.iter() {
                    let i = w.input as usize;
                    self.out_ptr[base + w.output as usize] = (w.input + 1) % r;
                    self.in_ptr[base + i] = (w.output + 1) % r;
                    self.vc_ptr[base + i] = ((u16::from(w.vc) + 1) % v) as u8;
                }
            }
        }
        for q in reqs {
            self.grant[q.output as usize] = NONE;
            self.pick[q.input as usize] = NONE;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rq(input: u16, vc: u8, output: u16) -> Request {
        Request { input, vc, output }
    }

    #[test]
    fn conflicts_resolve_round_robin() {
        for kind in [Allocator::SeparableInputFirst, Allocator::Islip] {
            let mut a = Arbiters::new(kind, 1, 4, 2);
            let mut out = Vec::new();
            let reqs = [rq(0, 0, 3), rq(1, 0, 3), rq(2, 1, 1)];
            a.allocate(0, &reqs, &mut out);
            assert_eq!(out, [rq(0, 0, 3), rq(2, 1, 1)], "{kind:?}");
            a.allocate(0, &reqs, &mut out);
            assert!(out.contains(&rq(1, 0, 3)), "{kind:?} rotates");
        }
    }

    #[test]
    fn one_grant_per_input_and_output() {
        let mut a = Arbiters::new(Allocator::Islip, 1, 3, 2);
        let mut out = Vec::new();
        let reqs = [rq(0, 0, 1), rq(0, 1, 2), rq(1, 0, 1), rq(2, 0, 2)];
        a.allocate(0, &reqs, &mut out);
        let mut ins: Vec<u16> = out.iter().map(|w| w.input).collect();
        let mut outs: Vec<u16> = out.iter().map(|w| w.output).collect();
        ins.dedup();
        outs.sort_unstable();
        outs.dedup();
        assert_eq!((ins.len(), outs.len()), (out.len(), out.len()));
        // One iSLIP iteration: outputs 1 and 2 both grant input 0, which accepts output 1
        // (closest to its pointer 0); inputs 1 and 2 were not granted.
        assert_eq!(out, [rq(0, 0, 1)]);
        a.allocate(0, &reqs, &mut out);
        // Pointers moved past the match: output 1 → input 1, output 2 still at input 0.
        assert_eq!(out, [rq(0, 1, 2), rq(1, 0, 1)]);
    }
}
