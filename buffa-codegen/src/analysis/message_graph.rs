//! The inline message graph: which fields would hold their message in
//! place, and so could make a struct contain itself.
//!
//! The graph has one node per message and one edge per field that would be
//! stored inline, so two fields of `A` typed `B` are two edges (a
//! multigraph). Everything else is no edge, because it already breaks any
//! cycle through it: boxed fields and variants, custom pointers (trusted to
//! be indirections), repeated and map fields (their values live in a heap
//! container). A struct's size is finite exactly when this graph is
//! acyclic; [`crate::analysis::boxing`] chooses which edges to box to make it so.
//!
//! Owned messages and views have a graph each ([`MessageGraph::owned`],
//! [`MessageGraph::views`]), because the rules that store a field inline
//! differ.

use std::collections::{HashMap, HashSet, VecDeque};

use buffa_types::google::protobuf::FieldDescriptorProto;
use buffa_types::google::protobuf::field_descriptor_proto::{Label, Type};
use petgraph::algo::tarjan_scc;
use petgraph::graphmap::DiGraphMap;

use crate::analysis::inline_rules;
use crate::input::schema::{MessageType, Schema};
use crate::options::Options;

/// A field that would hold its message in place: one edge of the graph.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edge {
    /// The field's message, fully qualified with a leading dot.
    pub from: String,
    /// The field's message type, fully qualified with a leading dot.
    pub to: String,
    /// The field's path, `.pkg.Msg.field`.
    pub field: String,
    /// The field's number, which orders the edges of one message.
    pub number: i32,
    /// Whether the edge must not be chosen for boxing: its inline rule names
    /// exactly this field, or its message is extern (laid out elsewhere,
    /// so assumed inline).
    pub pinned: bool,
}

/// The inline message graph, its edges in canonical order: by message full
/// name, then field number.
pub struct MessageGraph {
    names: Vec<String>,
    edges: Vec<Edge>,
    /// Node index of each edge's `from` and `to`.
    ends: Vec<(usize, usize)>,
    /// Edge indices leaving each node, in canonical order.
    out: Vec<Vec<usize>>,
}

impl MessageGraph {
    /// The graph of owned messages: singular message fields whose winning
    /// pointer rule is `Inline`, and message-typed oneof variants whose
    /// winning `unboxed_oneofs` rule says inline.
    pub fn owned(schema: &Schema<'_>, options: &Options) -> MessageGraph {
        MessageGraph::from_schema(schema, |path, oneof| {
            let rule = match oneof {
                Some(oneof) => {
                    inline_rules::inline_variant_rule(&options.unboxed_oneofs, &[path, oneof])
                }
                None => inline_rules::inline_field_rule(&options.pointers, path),
            };
            rule.map(|rule| inline_rules::names_exactly(rule, path))
        })
    }

    /// The graph of views: every singular message field that is not lazy,
    /// and every message-typed oneof variant. No rule pins a view's edge.
    pub fn views(schema: &Schema<'_>, options: &Options) -> MessageGraph {
        MessageGraph::from_schema(schema, |path, oneof| {
            let lazy = oneof.is_none() && options.lazy_views.get(path) == Some(&true);
            (!lazy).then_some(false)
        })
    }

    /// The graph of `schema` with an edge for each singular message field
    /// of a generated message for which `inline(field path, path of its
    /// oneof)` returns `Some(pinned)`, and for every singular message field
    /// of an extern message, pinned.
    fn from_schema(
        schema: &Schema<'_>,
        inline: impl Fn(&str, Option<&str>) -> Option<bool>,
    ) -> MessageGraph {
        let mut edges = Vec::new();
        for (name, message) in &schema.messages {
            for field in &message.proto.field {
                let singular = field.label() != Label::Repeated;
                let message_typed = matches!(field.r#type(), Type::Message | Type::Group);
                if !singular || !message_typed || !schema.messages.contains_key(field.type_name()) {
                    continue;
                }
                let path = format!("{name}.{}", field.name());
                let oneof = real_oneof(message, field).map(|oneof| format!("{name}.{oneof}"));
                let pinned = if message.rust.is_local() {
                    inline(&path, oneof.as_deref())
                } else {
                    Some(true)
                };
                if let Some(pinned) = pinned {
                    edges.push(Edge {
                        from: name.clone(),
                        to: field.type_name().to_owned(),
                        field: path,
                        number: field.number(),
                        pinned,
                    });
                }
            }
        }
        MessageGraph::new(edges)
    }

    /// The graph of `edges`, which it puts in canonical order. Its nodes
    /// are the messages the edges name.
    pub fn new(mut edges: Vec<Edge>) -> MessageGraph {
        edges.sort_by(|a, b| (&a.from, a.number).cmp(&(&b.from, b.number)));
        let mut names: Vec<String> = edges
            .iter()
            .flat_map(|e| [e.from.clone(), e.to.clone()])
            .collect();
        names.sort();
        names.dedup();
        let index: HashMap<&str, usize> = names
            .iter()
            .enumerate()
            .map(|(i, n)| (n.as_str(), i))
            .collect();
        let ends: Vec<(usize, usize)> = edges
            .iter()
            .map(|e| (index[e.from.as_str()], index[e.to.as_str()]))
            .collect();
        let mut out = vec![Vec::new(); names.len()];
        for (edge, &(from, _)) in ends.iter().enumerate() {
            out[from].push(edge);
        }
        MessageGraph {
            names,
            edges,
            ends,
            out,
        }
    }

    /// The edges, in canonical order.
    pub fn edges(&self) -> &[Edge] {
        &self.edges
    }

    /// The node indices (`from`, `to`) of edge `edge`; nodes are numbered
    /// in the order of the message names.
    pub fn ends(&self, edge: usize) -> (usize, usize) {
        self.ends[edge]
    }

    /// The edges of each strongly connected component that has any, each
    /// list in canonical order: exactly the edges that lie on a cycle.
    /// Self-loops are components of their own node.
    pub fn components(&self) -> Vec<Vec<usize>> {
        let mut graph = DiGraphMap::<usize, ()>::new();
        for node in 0..self.names.len() {
            graph.add_node(node);
        }
        for &(from, to) in &self.ends {
            graph.add_edge(from, to, ());
        }
        let mut component = vec![0; self.names.len()];
        let sccs = tarjan_scc(&graph);
        for (id, scc) in sccs.iter().enumerate() {
            for &node in scc {
                component[node] = id;
            }
        }
        let mut edges = vec![Vec::new(); sccs.len()];
        for (edge, &(from, to)) in self.ends.iter().enumerate() {
            if component[from] == component[to] {
                edges[component[from]].push(edge);
            }
        }
        edges.retain(|e| !e.is_empty());
        edges.sort();
        edges
    }

    /// A cycle through edge `edge` that uses only edges `usable` accepts
    /// besides it, as message names from the edge's `from` back to it; the
    /// shortest such cycle, found breadth-first in canonical order. `None`
    /// when there is none.
    pub fn cycle(&self, edge: usize, usable: impl Fn(usize) -> bool) -> Option<Vec<String>> {
        let (from, to) = self.ends[edge];
        let mut previous: HashMap<usize, usize> = HashMap::new();
        let mut seen = HashSet::from([to]);
        let mut queue = VecDeque::from([to]);
        while let Some(node) = queue.pop_front() {
            if node == from {
                break;
            }
            for &next_edge in &self.out[node] {
                let next = self.ends[next_edge].1;
                if next_edge != edge && usable(next_edge) && seen.insert(next) {
                    previous.insert(next, node);
                    queue.push_back(next);
                }
            }
        }
        if !seen.contains(&from) {
            return None;
        }
        // Walk back from `from` to `to`, then close the cycle with `from`:
        // reversed, that reads from -> to -> ... -> from.
        let mut path = vec![from];
        let mut node = from;
        while node != to {
            node = previous[&node];
            path.push(node);
        }
        path.push(from);
        path.reverse();
        Some(path.into_iter().map(|i| self.names[i].clone()).collect())
    }
}

/// The name of the oneof `field` belongs to, unless it belongs to none or
/// to proto3 `optional`'s synthetic one.
fn real_oneof<'m>(message: &'m MessageType<'_>, field: &FieldDescriptorProto) -> Option<&'m str> {
    let index = field.oneof_index.filter(|_| !field.proto3_optional())?;
    message
        .proto
        .oneof_decl
        .get(index as usize)
        .map(|oneof| oneof.name())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edge(field: &str, number: i32, to: &str) -> Edge {
        Edge {
            from: field.rsplit_once('.').expect("field path").0.to_owned(),
            to: to.to_owned(),
            field: field.to_owned(),
            number,
            pinned: false,
        }
    }

    #[test]
    fn edges_are_ordered_by_message_then_field_number() {
        let graph = MessageGraph::new(vec![
            edge(".b.M.x", 1, ".a.M"),
            edge(".a.M.z", 2, ".b.M"),
            edge(".a.M.y", 3, ".b.M"),
            edge(".a.M.w", 1, ".a.N"),
        ]);
        let fields: Vec<&str> = graph.edges().iter().map(|e| e.field.as_str()).collect();
        assert_eq!(fields, [".a.M.w", ".a.M.z", ".a.M.y", ".b.M.x"]);
    }

    #[test]
    fn components_hold_the_edges_on_cycles() {
        let graph = MessageGraph::new(vec![
            edge(".A.b", 1, ".B"),
            edge(".B.a", 1, ".A"),
            edge(".B.c", 2, ".C"),
            edge(".C.c", 1, ".C"),
            edge(".D.a", 1, ".A"),
        ]);
        let components: Vec<Vec<&str>> = graph
            .components()
            .iter()
            .map(|edges| {
                edges
                    .iter()
                    .map(|&e| graph.edges()[e].field.as_str())
                    .collect()
            })
            .collect();
        assert_eq!(components, [vec![".A.b", ".B.a"], vec![".C.c"]]);
    }

    #[test]
    fn cycle_is_a_shortest_one_through_the_edge() {
        let graph = MessageGraph::new(vec![
            edge(".A.b", 1, ".B"),
            edge(".B.c", 1, ".C"),
            edge(".B.a", 2, ".A"),
            edge(".C.a", 1, ".A"),
        ]);
        assert_eq!(graph.cycle(0, |_| true).unwrap(), [".A", ".B", ".A"]);
        // Without B.a, the long way round.
        assert_eq!(
            graph.cycle(0, |e| e != 2).unwrap(),
            [".A", ".B", ".C", ".A"]
        );
        assert!(graph.cycle(0, |_| false).is_none());
    }
}
