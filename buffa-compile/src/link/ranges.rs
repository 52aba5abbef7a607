//! Number ranges (reserved and extension ranges) indexed for the checks
//! protoc makes on them, so that a message with many ranges and fields is
//! checked in about `n log n` rather than protoc's `n^2`.

/// Half-open ranges `[start, end)`, sorted by start with the largest end
/// seen so far.
pub(crate) struct RangeIndex<'a> {
    /// The ranges, as declared.
    ranges: &'a [(i32, i32)],
    /// Range indices by start.
    order: Vec<usize>,
    /// The starts, in `order`.
    starts: Vec<i32>,
    /// The largest end of the ranges up to each position of `order`.
    max_end: Vec<i32>,
}

impl<'a> RangeIndex<'a> {
    /// Indexes `ranges`.
    pub(crate) fn new(ranges: &'a [(i32, i32)]) -> RangeIndex<'a> {
        let mut order: Vec<usize> = (0..ranges.len()).collect();
        order.sort_by_key(|&i| ranges[i].0);
        let starts = order.iter().map(|&i| ranges[i].0).collect();
        let mut max_end = Vec::with_capacity(order.len());
        let mut max = i32::MIN;
        for &i in &order {
            max = max.max(ranges[i].1);
            max_end.push(max);
        }
        RangeIndex {
            ranges,
            order,
            starts,
            max_end,
        }
    }

    /// The indices (ascending) of the ranges that overlap `[start, end)`.
    pub(crate) fn overlapping(&self, start: i32, end: i32) -> Vec<usize> {
        let mut found = Vec::new();
        let mut pos = self.starts.partition_point(|&s| s < end);
        while pos > 0 && self.max_end[pos - 1] > start {
            pos -= 1;
            let i = self.order[pos];
            if self.ranges[i].1 > start {
                found.push(i);
            }
        }
        found.sort_unstable();
        found
    }

    /// The indices (ascending) of the ranges that contain `number`.
    pub(crate) fn containing(&self, number: i32) -> Vec<usize> {
        match number.checked_add(1) {
            Some(next) => self.overlapping(number, next),
            None => Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_what_a_scan_finds() {
        let ranges = [(5, 10), (1, 3), (8, 20), (30, 31), (2, 6)];
        let index = RangeIndex::new(&ranges);
        for n in 0..35 {
            let scan: Vec<usize> = (0..ranges.len())
                .filter(|&i| ranges[i].0 <= n && n < ranges[i].1)
                .collect();
            assert_eq!(index.containing(n), scan, "{n}");
        }
        assert_eq!(index.overlapping(9, 30), vec![0, 2]);
        assert_eq!(index.overlapping(3, 5), vec![4]);
        assert_eq!(index.containing(i32::MAX), Vec::<usize>::new());
    }
}
