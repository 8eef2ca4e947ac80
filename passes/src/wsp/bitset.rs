//! A small fixed-width bitset used for blocks (sets of op indices) and adjacency rows.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Default, PartialOrd, Ord)]
pub struct BitSet {
    w: Vec<u64>,
}

impl BitSet {
    pub fn new(n: usize) -> Self {
        BitSet { w: vec![0; n.div_ceil(64)] }
    }
    pub fn singleton(n: usize, i: usize) -> Self {
        let mut b = Self::new(n);
        b.insert(i);
        b
    }
    pub fn from_iter(n: usize, it: impl IntoIterator<Item = usize>) -> Self {
        let mut b = Self::new(n);
        for i in it {
            b.insert(i);
        }
        b
    }
    #[inline]
    pub fn insert(&mut self, i: usize) {
        self.w[i / 64] |= 1 << (i % 64);
    }
    #[inline]
    pub fn remove(&mut self, i: usize) {
        self.w[i / 64] &= !(1 << (i % 64));
    }
    #[inline]
    pub fn contains(&self, i: usize) -> bool {
        self.w[i / 64] >> (i % 64) & 1 == 1
    }
    /// Removes every element.
    pub fn clear(&mut self) {
        self.w.fill(0);
    }
    pub fn union_with(&mut self, o: &BitSet) {
        for (a, b) in self.w.iter_mut().zip(&o.w) {
            *a |= b;
        }
    }
    pub fn difference_with(&mut self, o: &BitSet) {
        for (a, b) in self.w.iter_mut().zip(&o.w) {
            *a &= !b;
        }
    }
    pub fn union(&self, o: &BitSet) -> BitSet {
        let mut r = self.clone();
        r.union_with(o);
        r
    }
    pub fn intersects(&self, o: &BitSet) -> bool {
        self.w.iter().zip(&o.w).any(|(a, b)| a & b != 0)
    }
    pub fn is_subset(&self, o: &BitSet) -> bool {
        self.w.iter().zip(&o.w).all(|(a, b)| a & !b == 0)
    }
    pub fn is_empty(&self) -> bool {
        self.w.iter().all(|a| *a == 0)
    }
    pub fn count(&self) -> usize {
        self.w.iter().map(|a| a.count_ones() as usize).sum()
    }
    pub fn first(&self) -> Option<usize> {
        self.iter().next()
    }
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.w.iter().enumerate().flat_map(|(k, &word)| {
            let mut x = word;
            std::iter::from_fn(move || {
                if x == 0 {
                    None
                } else {
                    let t = x.trailing_zeros() as usize;
                    x &= x - 1;
                    Some(k * 64 + t)
                }
            })
        })
    }
}
