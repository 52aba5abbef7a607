//! Recursion analysis: which singular message fields lie on a cycle of the
//! message graph and must therefore stay on the heap.
//!
//! The graph has one node per message and one edge per singular
//! message-typed field, oneof variants included. Repeated and map fields
//! are left out: their values already live in a heap container, which
//! breaks any cycle through them. A field can be stored inline exactly when
//! its edge does not lie inside a strongly connected component, since only
//! then is the containing struct's size finite.

use std::collections::{HashMap, HashSet, VecDeque};

use petgraph::algo::tarjan_scc;
use petgraph::graphmap::DiGraphMap;
use prost_types::field_descriptor_proto::{Label, Type};

use crate::schema::Schema;

/// The message graph and its strongly connected components.
pub struct MessageGraph {
    names: Vec<String>,
    index: HashMap<String, usize>,
    graph: DiGraphMap<usize, ()>,
    component: Vec<usize>,
}

impl MessageGraph {
    /// Builds the graph of every message in `schema`.
    pub fn new(schema: &Schema<'_>) -> MessageGraph {
        let mut names: Vec<String> = schema.messages.keys().cloned().collect();
        names.sort();
        let index: HashMap<String, usize> = names
            .iter()
            .enumerate()
            .map(|(i, n)| (n.clone(), i))
            .collect();
        let mut graph = DiGraphMap::new();
        for (i, name) in names.iter().enumerate() {
            graph.add_node(i);
            for field in &schema.messages[name].proto.field {
                let singular = field.label() != Label::Repeated;
                let message_typed = matches!(field.r#type(), Type::Message | Type::Group);
                if singular
                    && message_typed
                    && let Some(&target) = index.get(field.type_name())
                {
                    graph.add_edge(i, target, ());
                }
            }
        }
        let mut component = vec![0; names.len()];
        for (id, scc) in tarjan_scc(&graph).into_iter().enumerate() {
            for node in scc {
                component[node] = id;
            }
        }
        MessageGraph {
            names,
            index,
            graph,
            component,
        }
    }

    /// Whether a singular field of message `from` typed `to` lies on a
    /// cycle (both names fully qualified with a leading dot).
    pub fn is_recursive(&self, from: &str, to: &str) -> bool {
        match (self.index.get(from), self.index.get(to)) {
            (Some(&from), Some(&to)) => self.component[from] == self.component[to],
            _ => false,
        }
    }

    /// A cycle through the edge `from -> to`, as message names starting and
    /// ending with `from`; empty when the edge is not recursive.
    pub fn cycle(&self, from: &str, to: &str) -> Vec<String> {
        if !self.is_recursive(from, to) {
            return Vec::new();
        }
        let (from, to) = (self.index[from], self.index[to]);
        // Breadth-first search from `to` back to `from` inside the component.
        let mut previous: HashMap<usize, usize> = HashMap::new();
        let mut seen = HashSet::from([to]);
        let mut queue = VecDeque::from([to]);
        while let Some(node) = queue.pop_front() {
            if node == from {
                break;
            }
            for next in self.graph.neighbors(node) {
                if self.component[next] == self.component[from] && seen.insert(next) {
                    previous.insert(next, node);
                    queue.push_back(next);
                }
            }
        }
        let mut path = vec![from];
        let mut node = from;
        while node != to {
            node = previous[&node];
            path.push(node);
        }
        // `path` reads from, ..., to (backwards along the search); closing
        // it with `from` and reversing gives from -> to -> ... -> from.
        path.push(from);
        path.reverse();
        path.into_iter().map(|i| self.names[i].clone()).collect()
    }
}
