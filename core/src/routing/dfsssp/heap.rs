//! Indexed binary min-heap of switches for Dijkstra, ordered by (distance, hops, switch id)
//! so that equal keys pop in a deterministic order (docs/routing.md §6).

/// Position value of a switch never pushed.
pub(crate) const NOT_IN_HEAP: u32 = u32::MAX;
/// Position value of a switch already popped (settled).
pub(crate) const SETTLED: u32 = u32::MAX - 1;

/// Heap over caller arrays `heap` (slots) and `pos` (slot of each switch or a marker).
pub(crate) struct MinHeap<'s> {
    pub heap: &'s mut [u32],
    pub pos: &'s mut [u32],
    pub len: usize,
}

#[inline]
fn key(x: u32, dist: &[u64], hops: &[u32]) -> (u64, u32, u32) {
    (
        dist.get(x as usize).copied().unwrap_or(u64::MAX),
        hops.get(x as usize).copied().unwrap_or(u32::MAX),
        x,
    )
}

impl MinHeap<'_> {
    /// Inserts `x` or restores order after its key decreased.
    pub fn push_or_decrease(&mut self, x: u32, dist: &[u64], hops: &[u32]) {
        let Some(&p) = self.pos.get(x as usize) else {
            return;
        };
        let mut i = match p {
            SETTLED => return,
            NOT_IN_HEAP => {
                if self.len >= self.heap.len() {
                    return;
                }
                self.heap[self.len] = x;
                self.len += 1;
                self.len - 1
            }
            p => p as usize,
        };
        let kx = key(x, dist, hops);
        while i > 0 {
            let parent = (i - 1) / 2;
            let y = self.heap[parent];
            if key(y, dist, hops) <= kx {
                break;
            }
            self.heap[i] = y;
            self.set_pos(y, i);
            i = parent;
        }
        self.heap[i] = x;
        self.set_pos(x, i);
    }

    fn set_pos(&mut self, x: u32, i: usize) {
        if let Some(p) = self.pos.get_mut(x as usize) {
            *p = i as u32;
        }
    }

    /// Removes and returns the smallest switch, marking it settled.
    pub fn pop(&mut self, dist: &[u64], hops: &[u32]) -> Option<u32> {
        if self.len == 0 {
            return None;
        }
        let top = self.heap[0];
        self.len -= 1;
        if let Some(p) = self.pos.get_mut(top as usize) {
            *p = SETTLED;
        }
        if self.len > 0 {
            let x = self.heap[self.len];
            let kx = key(x, dist, hops);
            let mut i = 0;
            loop {
                let l = 2 * i + 1;
                if l >= self.len {
                    break;
                }
                let r = l + 1;
                let c = if r < self.len
                    && key(self.heap[r], dist, hops) < key(self.heap[l], dist, hops)
                {
                    r
                } else {
                    l
                };
                let y = self.heap[c];
                if kx <= key(y, dist, hops) {
                    break;
                }
                self.heap[i] = y;
                self.set_pos(y, i);
                i = c;
            }
            self.heap[i] = x;
            self.set_pos(x, i);
        }
        Some(top)
    }
}
