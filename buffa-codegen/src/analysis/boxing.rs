//! Minimal boxing: a minimum set of fields of the inline message graph to
//! box so that no struct contains itself (exact up to [`EXACT_LIMIT`]
//! candidate fields per component, a heuristic beyond).
//!
//! A struct's size is finite exactly when the [`MessageGraph`] of fields
//! stored inline is acyclic, so some edges of every cycle must be boxed.
//! Each strongly connected component is planned on its own, from its own
//! edges only, so adding messages elsewhere never changes a component's
//! choice:
//!
//! 1. A self-loop (`Node { Node next; }`) is always boxed.
//! 2. A pinned edge (its inline rule names exactly that field, or its
//!    message is extern) is never chosen. Pinned edges on a cycle of pinned
//!    edges alone cannot all be inline: they are boxed, and generating
//!    them reports the error.
//! 3. Of the other edges, a minimum set is boxed whose removal leaves the
//!    component acyclic (a minimum feedback edge set). With at most
//!    [`EXACT_LIMIT`] such edges the search is exact: sets are tried by
//!    increasing size, and of the smallest sets that work the first in
//!    canonical order wins (the sets compared as lists of edges in
//!    canonical order: by message full name, then field number). Beyond
//!    the limit a heuristic decides (see [`heuristic`]).
//!
//! Every edge boxed in step 3 is necessary: inlining it alone again would
//! close a cycle ([`BoxingPlan::cycle`] names it).

use std::collections::HashMap;

use crate::analysis::message_graph::MessageGraph;

/// The largest number of edges of one component, self-loops and pinned
/// edges not counted, for which the minimum set is found by exhaustive
/// search: at most 2^20 (about a million) sets, each checked in time linear
/// in the component. The search abandons a set as soon as the edges it
/// keeps close a cycle, so random components of 20 edges take a few
/// milliseconds in a debug build.
pub const EXACT_LIMIT: usize = 20;

/// Which edges of a [`MessageGraph`] are boxed so that the rest, stored
/// inline, form no cycle.
pub struct BoxingPlan {
    graph: MessageGraph,
    boxed: Vec<bool>,
    by_field: HashMap<String, usize>,
}

impl BoxingPlan {
    /// Plans the boxing of `graph`, one strongly connected component at a
    /// time.
    pub fn new(graph: MessageGraph) -> BoxingPlan {
        let mut boxed = vec![false; graph.edges().len()];
        for component in graph.components() {
            for edge in plan_component(&graph, &component) {
                boxed[edge] = true;
            }
        }
        let by_field = graph
            .edges()
            .iter()
            .enumerate()
            .map(|(i, edge)| (edge.field.clone(), i))
            .collect();
        BoxingPlan {
            graph,
            boxed,
            by_field,
        }
    }

    /// Whether the field `field_path` (`.pkg.Msg.field`) must be boxed
    /// although it would otherwise be inline. `false` for fields that are
    /// no edge of the graph.
    pub fn must_box(&self, field_path: &str) -> bool {
        self.by_field
            .get(field_path)
            .is_some_and(|&edge| self.boxed[edge])
    }

    /// Why `field_path` must be boxed: a cycle it would close if it were
    /// inline, as message names from the field's message back to it
    /// (`[".p.A", ".p.B", ".p.A"]`). For a pinned field, a cycle of pinned
    /// fields. Empty when the field need not be boxed.
    pub fn cycle(&self, field_path: &str) -> Vec<String> {
        let Some(&edge) = self.by_field.get(field_path).filter(|&&e| self.boxed[e]) else {
            return Vec::new();
        };
        let edges = self.graph.edges();
        let reason = if edges[edge].pinned {
            self.graph.cycle(edge, |e| edges[e].pinned)
        } else {
            self.graph.cycle(edge, |e| !self.boxed[e])
        };
        reason
            .or_else(|| self.graph.cycle(edge, |_| true))
            .unwrap_or_default()
    }
}

/// The edges to box in the strongly connected component whose edges are
/// `component`.
fn plan_component(graph: &MessageGraph, component: &[usize]) -> Vec<usize> {
    let mut nodes: Vec<usize> = component
        .iter()
        .flat_map(|&edge| {
            let (from, to) = graph.ends(edge);
            [from, to]
        })
        .collect();
    nodes.sort();
    nodes.dedup();
    let local = |node: usize| nodes.binary_search(&node).unwrap_or_default();

    let mut boxed = Vec::new();
    let mut pinned = Vec::new();
    let mut free = Vec::new();
    for &edge in component {
        let (from, to) = graph.ends(edge);
        let ends = (local(from), local(to));
        if from == to {
            boxed.push(edge);
        } else if graph.edges()[edge].pinned {
            pinned.push((edge, ends));
        } else {
            free.push((edge, ends));
        }
    }

    let mut pinned_graph = Inline::new(nodes.len());
    for &(_, (from, to)) in &pinned {
        pinned_graph.add(from, to);
    }
    let mut fixed = Vec::new();
    for (edge, (from, to)) in pinned {
        if pinned_graph.reaches(to, from) {
            boxed.push(edge);
        } else {
            fixed.push((from, to));
        }
    }

    let ends: Vec<(usize, usize)> = free.iter().map(|&(_, ends)| ends).collect();
    let chosen = if ends.len() <= EXACT_LIMIT {
        exact(nodes.len(), &fixed, &ends)
    } else {
        heuristic(nodes.len(), &fixed, &ends)
    };
    boxed.extend(chosen.into_iter().map(|i| free[i].0));
    boxed
}

/// The first set of `free` edges (indices, ascending) in order of size,
/// then canonical order, whose boxing leaves `fixed` and the rest of
/// `free` acyclic. `fixed` must be acyclic.
fn exact(nodes: usize, fixed: &[(usize, usize)], free: &[(usize, usize)]) -> Vec<usize> {
    let mut inline = Inline::new(nodes);
    for &(from, to) in fixed {
        inline.add(from, to);
    }
    for size in 0..=free.len() {
        let mut chosen = Vec::new();
        if search(&mut inline, free, 0, size, &mut chosen) {
            return chosen;
        }
    }
    // Unreachable: boxing every free edge leaves `fixed`, which is acyclic.
    (0..free.len()).collect()
}

/// Decides edges `free[next..]` depth-first, boxing before keeping so that
/// sets are found in canonical order, with at most `budget` more boxed and
/// no kept edge closing a cycle. Returns whether a complete choice exists;
/// it is then in `chosen`.
fn search(
    inline: &mut Inline,
    free: &[(usize, usize)],
    next: usize,
    budget: usize,
    chosen: &mut Vec<usize>,
) -> bool {
    let Some(&(from, to)) = free.get(next) else {
        return true;
    };
    if budget > 0 {
        chosen.push(next);
        if search(inline, free, next + 1, budget - 1, chosen) {
            return true;
        }
        chosen.pop();
    }
    if inline.reaches(to, from) {
        return false;
    }
    inline.add(from, to);
    let found = search(inline, free, next + 1, budget, chosen);
    inline.remove_last(from);
    found
}

/// The heuristic for components over [`EXACT_LIMIT`]: order the nodes
/// with the greedy rule of Eades, Lin and Smyth and box the `free` edges
/// that point backwards, then unbox again, in canonical order, each boxed
/// edge that no longer closes a cycle.
///
/// The order is built from both ends, one node at a time, among the nodes
/// not yet placed: a sink (no edges to the others) goes to the right end;
/// otherwise a source (no edges from the others) to the left end;
/// otherwise, to the left end, the node with the most outgoing minus
/// incoming edges that no `fixed` edge from the others points at (one
/// exists while `fixed` is acyclic), so `fixed` edges only point forwards.
/// Ties go to the first node by message name.
fn heuristic(nodes: usize, fixed: &[(usize, usize)], free: &[(usize, usize)]) -> Vec<usize> {
    let edges: Vec<(usize, usize, bool)> = fixed
        .iter()
        .map(|&(from, to)| (from, to, true))
        .chain(free.iter().map(|&(from, to)| (from, to, false)))
        .collect();
    let mut placed = vec![false; nodes];
    let (mut left, mut right) = (Vec::new(), Vec::new());
    for _ in 0..nodes {
        // Per node not yet placed: edges to, from, and fixed edges from
        // the others not yet placed.
        let mut degrees = vec![(0i64, 0i64, 0usize); nodes];
        for &(from, to, is_fixed) in &edges {
            if !placed[from] && !placed[to] {
                degrees[from].0 += 1;
                degrees[to].1 += 1;
                degrees[to].2 += usize::from(is_fixed);
            }
        }
        let open = || (0..nodes).filter(|&node| !placed[node]);
        let node = if let Some(sink) = open().find(|&n| degrees[n].0 == 0) {
            right.push(sink);
            sink
        } else {
            let node = open()
                .find(|&n| degrees[n].1 == 0)
                .or_else(|| {
                    // `max_by_key` keeps the last maximum; reversed, the
                    // first.
                    open()
                        .filter(|&n| degrees[n].2 == 0)
                        .rev()
                        .max_by_key(|&n| degrees[n].0 - degrees[n].1)
                })
                // Unreachable while `fixed` is acyclic.
                .or_else(|| open().next())
                .unwrap_or_default();
            left.push(node);
            node
        };
        placed[node] = true;
    }
    let mut position = vec![0; nodes];
    for (i, &node) in left.iter().chain(right.iter().rev()).enumerate() {
        position[node] = i;
    }

    let mut inline = Inline::new(nodes);
    let mut boxed = Vec::new();
    for &(from, to) in fixed {
        inline.add(from, to);
    }
    for (i, &(from, to)) in free.iter().enumerate() {
        if position[from] < position[to] {
            inline.add(from, to);
        } else {
            boxed.push(i);
        }
    }
    boxed.retain(|&i| {
        let (from, to) = free[i];
        let needed = inline.reaches(to, from);
        if !needed {
            inline.add(from, to);
        }
        needed
    });
    boxed
}

/// The edges of one component kept inline so far, as adjacency lists.
struct Inline {
    adjacency: Vec<Vec<usize>>,
}

impl Inline {
    fn new(nodes: usize) -> Inline {
        Inline {
            adjacency: vec![Vec::new(); nodes],
        }
    }

    fn add(&mut self, from: usize, to: usize) {
        self.adjacency[from].push(to);
    }

    /// Removes the edge from `from` added last.
    fn remove_last(&mut self, from: usize) {
        self.adjacency[from].pop();
    }

    /// Whether a path leads from `from` to `to` (always, when they are the
    /// same node).
    fn reaches(&self, from: usize, to: usize) -> bool {
        let mut seen = vec![false; self.adjacency.len()];
        let mut stack = vec![from];
        seen[from] = true;
        while let Some(node) = stack.pop() {
            if node == to {
                return true;
            }
            for &next in &self.adjacency[node] {
                if !std::mem::replace(&mut seen[next], true) {
                    stack.push(next);
                }
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::message_graph::Edge;

    /// An edge from `field`'s message (`.A` for `.A.b`) to `to`, numbered
    /// by position among the edges given; `!` after the field pins it.
    fn edges(list: &[(&str, &str)]) -> Vec<Edge> {
        list.iter()
            .enumerate()
            .map(|(number, &(field, to))| {
                let pinned = field.ends_with('!');
                let field = field.trim_end_matches('!');
                let (from, _) = field.rsplit_once('.').expect("field path");
                Edge {
                    from: from.to_owned(),
                    to: to.to_owned(),
                    field: field.to_owned(),
                    number: number as i32,
                    pinned,
                }
            })
            .collect()
    }

    fn plan(list: &[(&str, &str)]) -> BoxingPlan {
        BoxingPlan::new(MessageGraph::new(edges(list)))
    }

    /// The boxed field paths, sorted.
    fn boxed(plan: &BoxingPlan) -> Vec<&str> {
        let mut boxed: Vec<&str> = plan
            .graph
            .edges()
            .iter()
            .map(|e| e.field.as_str())
            .filter(|f| plan.must_box(f))
            .collect();
        boxed.sort();
        boxed
    }

    /// Whether the edges left inline are acyclic (Kahn's algorithm).
    fn inline_is_acyclic(plan: &BoxingPlan) -> bool {
        let graph = &plan.graph;
        let inline: Vec<(usize, usize)> = (0..graph.edges().len())
            .filter(|&e| !plan.boxed[e])
            .map(|e| graph.ends(e))
            .collect();
        let nodes = inline.iter().map(|&(a, b)| a.max(b) + 1).max().unwrap_or(0);
        let mut incoming = vec![0; nodes];
        for &(_, to) in &inline {
            incoming[to] += 1;
        }
        let mut ready: Vec<usize> = (0..nodes).filter(|&n| incoming[n] == 0).collect();
        let mut done = 0;
        while let Some(node) = ready.pop() {
            done += 1;
            for &(from, to) in &inline {
                if from == node {
                    incoming[to] -= 1;
                    if incoming[to] == 0 {
                        ready.push(to);
                    }
                }
            }
        }
        done == nodes
    }

    #[test]
    fn self_loop_is_boxed() {
        let plan = plan(&[(".Node.next", ".Node"), (".Node.leaf", ".Leaf")]);
        assert_eq!(boxed(&plan), [".Node.next"]);
        assert_eq!(plan.cycle(".Node.next"), [".Node", ".Node"]);
        assert!(plan.cycle(".Node.leaf").is_empty());
    }

    #[test]
    fn pinned_self_loop_is_boxed_anyway() {
        let plan = plan(&[(".Node.next!", ".Node")]);
        assert_eq!(boxed(&plan), [".Node.next"]);
        assert_eq!(plan.cycle(".Node.next"), [".Node", ".Node"]);
    }

    #[test]
    fn two_cycle_boxes_one_edge() {
        let plan = plan(&[(".A.b", ".B"), (".B.a", ".A")]);
        assert_eq!(boxed(&plan), [".A.b"]);
        assert_eq!(plan.cycle(".A.b"), [".A", ".B", ".A"]);
    }

    #[test]
    fn three_cycle_boxes_one_edge() {
        let plan = plan(&[(".A.b", ".B"), (".B.c", ".C"), (".C.a", ".A")]);
        assert_eq!(boxed(&plan), [".A.b"]);
    }

    #[test]
    fn parallel_fields_are_separate_edges() {
        // Two fields of A typed B, one of B typed A: boxing B.a breaks both
        // cycles, boxing A's fields takes two.
        let plan = plan(&[(".A.b1", ".B"), (".A.b2", ".B"), (".B.a", ".A")]);
        assert_eq!(boxed(&plan), [".B.a"]);
    }

    #[test]
    fn cycles_sharing_an_edge_box_only_the_shared_edge() {
        // A -> S -> T -> A and B -> S -> T -> B share S.t, which comes
        // after A.s and B.s in canonical order.
        let plan = plan(&[
            (".A.s", ".S"),
            (".B.s", ".S"),
            (".S.t", ".T"),
            (".T.a", ".A"),
            (".T.b", ".B"),
        ]);
        assert_eq!(boxed(&plan), [".S.t"]);
        assert_eq!(plan.cycle(".S.t"), [".S", ".T", ".A", ".S"]);
    }

    #[test]
    fn cycle_broken_by_an_absent_edge_boxes_nothing() {
        // A.b is boxed by its rule, so it is no edge: B.a is on no cycle.
        let plan = plan(&[(".B.a", ".A"), (".A.leaf", ".Leaf")]);
        assert!(boxed(&plan).is_empty());
    }

    #[test]
    fn pinned_edges_are_avoided() {
        let plan = plan(&[(".A.b!", ".B"), (".B.a", ".A")]);
        assert_eq!(boxed(&plan), [".B.a"]);
        // Against the tie-break and against size: boxing S.t would be one
        // edge, but it is pinned; A.s and B.s break both cycles.
        let plan = self::plan(&[
            (".A.s", ".S"),
            (".B.s", ".S"),
            (".S.t!", ".T"),
            (".T.a", ".A"),
            (".T.b", ".B"),
        ]);
        assert_eq!(boxed(&plan), [".A.s", ".B.s"]);
    }

    #[test]
    fn a_cycle_of_pinned_edges_is_boxed_and_explained() {
        let plan = plan(&[
            (".A.b!", ".B"),
            (".B.a!", ".A"),
            (".B.c", ".C"),
            (".C.b", ".B"),
        ]);
        assert!(plan.must_box(".A.b"));
        assert!(plan.must_box(".B.a"));
        assert_eq!(plan.cycle(".B.a"), [".B", ".A", ".B"]);
        // The rest is planned as usual.
        assert!(plan.must_box(".B.c"));
        assert!(!plan.must_box(".C.b"));
    }

    #[test]
    fn ties_go_to_the_first_set_in_canonical_order() {
        // Four single edges break the cycle; A.b is first. The input order
        // does not matter.
        let cycle = [
            (".C.d", ".D"),
            (".A.b", ".B"),
            (".D.a", ".A"),
            (".B.c", ".C"),
        ];
        assert_eq!(boxed(&plan(&cycle)), [".A.b"]);
        let mut reversed = cycle;
        reversed.reverse();
        assert_eq!(boxed(&plan(&reversed)), [".A.b"]);
    }

    #[test]
    fn unrelated_messages_do_not_change_a_component() {
        let alone = plan(&[(".M.b", ".N"), (".N.c", ".O"), (".O.m", ".M")]);
        // Messages sorting before and after, pointing into the cycle and
        // out of it, and a cycle of their own.
        let crowded = plan(&[
            (".A.m", ".M"),
            (".A.a", ".A"),
            (".M.b", ".N"),
            (".M.z", ".Z"),
            (".N.c", ".O"),
            (".O.m", ".M"),
            (".Z.y", ".Y"),
            (".Y.z", ".Z"),
        ]);
        assert_eq!(boxed(&alone), [".M.b"]);
        let in_cycle: Vec<&str> = boxed(&crowded)
            .into_iter()
            .filter(|f| [".M.", ".N.", ".O."].iter().any(|m| f.starts_with(m)))
            .collect();
        assert_eq!(in_cycle, boxed(&alone));
        assert_eq!(boxed(&crowded), [".A.a", ".M.b", ".Y.z"]);
    }

    #[test]
    fn exact_search_finds_the_minimum_of_a_complete_graph() {
        // Every ordered pair of four messages, 12 edges: the minimum is
        // one edge of each pair, 6.
        let names = [".A", ".B", ".C", ".D"];
        let mut list = Vec::new();
        for from in names {
            for to in names.iter().filter(|&&to| to != from) {
                list.push((format!("{from}.to{}", &to[1..]), *to));
            }
        }
        let list: Vec<(&str, &str)> = list.iter().map(|(f, t)| (f.as_str(), *t)).collect();
        let plan = plan(&list);
        assert_eq!(boxed(&plan).len(), 6);
        assert!(inline_is_acyclic(&plan));
        // The first minimum in canonical order boxes the earliest edges:
        // everything pointing to a later name.
        assert_eq!(
            boxed(&plan),
            [".A.toB", ".A.toC", ".A.toD", ".B.toC", ".B.toD", ".C.toD"]
        );
    }

    /// An expression tree: `Expr` has a oneof of `n` node kinds, each with
    /// two `Expr` children; `3n` edges.
    fn expression_tree(n: usize) -> Vec<(String, String)> {
        let mut list = Vec::new();
        for i in 0..n {
            list.push((format!(".Expr.kind{i:02}"), format!(".Kind{i:02}")));
            list.push((format!(".Kind{i:02}.lhs"), ".Expr".to_owned()));
            list.push((format!(".Kind{i:02}.rhs"), ".Expr".to_owned()));
        }
        list
    }

    fn plan_owned(list: &[(String, String)]) -> BoxingPlan {
        let list: Vec<(&str, &str)> = list.iter().map(|(f, t)| (f.as_str(), t.as_str())).collect();
        plan(&list)
    }

    #[test]
    fn exact_search_below_the_limit() {
        // Six kinds, 18 edges: exact. Boxing the six oneof edges beats
        // boxing the twelve children.
        let plan = plan_owned(&expression_tree(6));
        let boxed = boxed(&plan);
        assert_eq!(boxed.len(), 6);
        assert!(boxed.iter().all(|f| f.starts_with(".Expr.kind")));
    }

    #[test]
    fn heuristic_above_the_limit() {
        // Twenty kinds, 60 edges: the heuristic finds the same shape.
        let plan = plan_owned(&expression_tree(20));
        let boxed = boxed(&plan);
        assert_eq!(boxed.len(), 20);
        assert!(boxed.iter().all(|f| f.starts_with(".Expr.kind")));
        assert!(inline_is_acyclic(&plan));
    }

    #[test]
    fn heuristic_leaves_a_dense_component_acyclic_with_every_box_needed() {
        // 30 messages, 150 edges from a fixed pseudo-random sequence, a
        // ring through all of them making one component, some pinned.
        let mut state: u64 = 0x2545_f491_4f6c_dd1d;
        let mut next = |bound: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % bound
        };
        let name = |i: u64| format!(".M{i:02}");
        let mut list = Vec::new();
        for i in 0..30 {
            list.push((format!("{}.ring", name(i)), name((i + 1) % 30)));
        }
        for i in 0..120 {
            let (from, to) = (next(30), next(30));
            // Pin edges that go forwards (no cycle of them possible).
            let pin = if from < to && next(4) == 0 { "!" } else { "" };
            list.push((format!("{}.f{i:03}{pin}", name(from)), name(to)));
        }
        let plan = plan_owned(&list);
        assert!(inline_is_acyclic(&plan));
        let graph = &plan.graph;
        for (edge, e) in graph.edges().iter().enumerate() {
            if !plan.boxed[edge] {
                continue;
            }
            let (from, to) = graph.ends(edge);
            assert!(
                from == to || !e.pinned,
                "{} is pinned and on no cycle of pinned edges",
                e.field
            );
            assert!(
                graph.cycle(edge, |other| !plan.boxed[other]).is_some(),
                "{} is boxed but closes no cycle of inline edges",
                e.field
            );
        }
        // Deterministic: the same input plans the same.
        assert_eq!(boxed(&plan), boxed(&plan_owned(&list)));
    }

    /// Whether `edges` without those in the bit set `boxed` are acyclic.
    fn acyclic_without(nodes: usize, edges: &[(usize, usize)], boxed: u32) -> bool {
        let mut inline = Inline::new(nodes);
        for (i, &(from, to)) in edges.iter().enumerate() {
            if boxed & (1 << i) == 0 {
                if inline.reaches(to, from) {
                    return false;
                }
                inline.add(from, to);
            }
        }
        true
    }

    #[test]
    fn exact_matches_brute_force_and_heuristic_is_never_better() {
        let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = |bound: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % bound) as usize
        };
        for _ in 0..200 {
            let nodes = 2 + next(4);
            let count = 3 + next(10);
            let edges: Vec<(usize, usize)> = (0..count)
                .map(|_| {
                    let from = next(nodes as u64);
                    (from, (from + 1 + next(nodes as u64 - 1)) % nodes)
                })
                .collect();
            // The minimum size, and the first set of it in canonical
            // order: the one whose lowest differing edge is boxed.
            let best = (0u32..1 << count)
                .filter(|&set| acyclic_without(nodes, &edges, set))
                .min_by_key(|&set| (set.count_ones(), std::cmp::Reverse(set.reverse_bits())))
                .expect("boxing everything is acyclic");
            let exact = exact(nodes, &[], &edges);
            let exact_set = exact.iter().fold(0u32, |set, &i| set | 1 << i);
            assert_eq!(exact_set, best, "{edges:?}");
            let heuristic = heuristic(nodes, &[], &edges);
            let heuristic_set = heuristic.iter().fold(0u32, |set, &i| set | 1 << i);
            assert!(acyclic_without(nodes, &edges, heuristic_set), "{edges:?}");
            assert!(heuristic.len() >= exact.len());
        }
    }
}
