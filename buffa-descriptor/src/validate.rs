//! Checks on single elements that need no name resolution: field numbers,
//! extension and reserved ranges, the shape of map entries, enum values.
//! Each returns what is wrong; the caller says where.

use std::collections::HashSet;
use std::ops::Range;

use buffa_types::google::protobuf::field_descriptor_proto::{Label, Type};
use buffa_types::google::protobuf::{DescriptorProto, EnumDescriptorProto};

/// The largest field number.
pub(crate) const MAX_FIELD_NUMBER: u32 = (1 << 29) - 1;

/// The largest extension number of a `message_set_wire_format` message.
pub(crate) const MAX_MESSAGE_SET_NUMBER: u32 = i32::MAX as u32;

/// Field numbers reserved for the protobuf implementation.
const IMPLEMENTATION_RESERVED: Range<u32> = 19_000..20_000;

/// Whether `number` may number a field: 1 to 2^29 - 1, outside 19000 to
/// 19999.
pub(crate) fn is_field_number(number: i32) -> bool {
    u32::try_from(number)
        .is_ok_and(|n| (1..=MAX_FIELD_NUMBER).contains(&n) && !IMPLEMENTATION_RESERVED.contains(&n))
}

/// Whether `number` may number an extension of a message whose largest
/// number is `max`.
pub(crate) fn is_extension_number(number: u32, max: u32) -> bool {
    (1..=max).contains(&number) && !IMPLEMENTATION_RESERVED.contains(&number)
}

/// A message's extension ranges, checked (within 1 to `max`, not empty,
/// not overlapping) and sorted.
pub(crate) fn extension_ranges(
    message: &DescriptorProto,
    max: u32,
) -> Result<Box<[Range<u32>]>, String> {
    let mut ranges = Vec::with_capacity(message.extension_range.len());
    for range in &message.extension_range {
        let (start, end) = (range.start(), range.end());
        let valid = u32::try_from(start)
            .ok()
            .zip(u32::try_from(end).ok())
            .filter(|&(s, e)| s >= 1 && s < e && e - 1 <= max);
        match valid {
            Some((start, end)) => ranges.push(start..end),
            None => {
                return Err(format!(
                    "invalid extension range {start} to {end} (end exclusive)"
                ));
            }
        }
    }
    ranges.sort_by_key(|r| r.start);
    if let Some(pair) = ranges.windows(2).find(|pair| pair[0].end > pair[1].start) {
        return Err(format!(
            "extension ranges {} to {} and {} to {} overlap",
            pair[0].start,
            pair[0].end - 1,
            pair[1].start,
            pair[1].end - 1
        ));
    }
    Ok(ranges.into())
}

/// Whether `number` is in one of `ranges`, which are sorted and disjoint.
pub(crate) fn in_sorted_ranges(ranges: &[Range<u32>], number: u32) -> bool {
    let after = ranges.partition_point(|r| r.start <= number);
    after > 0 && ranges[after - 1].contains(&number)
}

/// The numbers and names a message or enum reserves, indexed so that
/// checking every field against them stays linear in the input.
pub(crate) struct Reserved<'a> {
    /// Range starts, sorted, with the largest end (exclusive) of the
    /// ranges up to each: the ranges may overlap.
    starts: Vec<i64>,
    max_ends: Vec<i64>,
    names: HashSet<&'a str>,
}

impl<'a> Reserved<'a> {
    /// From `(start, end exclusive)` ranges and names.
    pub fn new(ranges: impl Iterator<Item = (i64, i64)>, names: &'a [String]) -> Reserved<'a> {
        let mut ranges: Vec<(i64, i64)> = ranges.collect();
        ranges.sort_unstable();
        let mut max_end = i64::MIN;
        let max_ends = ranges
            .iter()
            .map(|&(_, end)| {
                max_end = max_end.max(end);
                max_end
            })
            .collect();
        Reserved {
            starts: ranges.iter().map(|&(start, _)| start).collect(),
            max_ends,
            names: names.iter().map(String::as_str).collect(),
        }
    }

    /// The numbers and names `message` reserves.
    pub fn of_message(message: &'a DescriptorProto) -> Reserved<'a> {
        let ranges = message
            .reserved_range
            .iter()
            .map(|r| (i64::from(r.start()), i64::from(r.end())));
        Reserved::new(ranges, &message.reserved_name)
    }

    /// Whether `number` is reserved.
    pub fn has_number(&self, number: i64) -> bool {
        let after = self.starts.partition_point(|&start| start <= number);
        after > 0 && self.max_ends[after - 1] > number
    }

    /// Whether `name` is reserved.
    pub fn has_name(&self, name: &str) -> bool {
        self.names.contains(name)
    }
}

/// Checks that field `name`, numbered `number`, is not in an extension
/// range, nor reserved.
pub(crate) fn field_number_allowed(
    extension_ranges: &[Range<u32>],
    reserved: &Reserved<'_>,
    number: u32,
    name: &str,
) -> Result<(), String> {
    if in_sorted_ranges(extension_ranges, number) {
        return Err(format!("number {number} is in an extension range"));
    }
    if reserved.has_number(i64::from(number)) {
        return Err(format!("number {number} is reserved"));
    }
    if reserved.has_name(name) {
        return Err(format!("name {name} is reserved"));
    }
    Ok(())
}

/// Checks the shape of a map entry message: fields `key = 1` (an integer,
/// `bool` or `string`) and `value = 2` (not a group), both singular, and
/// nothing else.
pub(crate) fn map_entry(message: &DescriptorProto) -> Result<(), String> {
    let [key, value] = message.field.as_slice() else {
        return Err("a map entry must have exactly two fields, key and value".into());
    };
    let singular = |label: Option<Label>| matches!(label, None | Some(Label::Optional));
    if key.name() != "key" || key.number != Some(1) || !singular(key.label) {
        return Err("a map entry's first field must be `optional key = 1`".into());
    }
    if value.name() != "value" || value.number != Some(2) || !singular(value.label) {
        return Err("a map entry's second field must be `optional value = 2`".into());
    }
    let key_type_ok = matches!(
        key.r#type,
        Some(
            Type::Int64
                | Type::Uint64
                | Type::Int32
                | Type::Fixed64
                | Type::Fixed32
                | Type::Bool
                | Type::String
                | Type::Uint32
                | Type::Sfixed32
                | Type::Sfixed64
                | Type::Sint32
                | Type::Sint64
        )
    );
    if !key_type_ok {
        return Err("a map key must be an integer, bool or string".into());
    }
    if value.r#type == Some(Type::Group) {
        return Err("a map value cannot be a group".into());
    }
    if !message.nested_type.is_empty()
        || !message.enum_type.is_empty()
        || !message.extension.is_empty()
        || !message.extension_range.is_empty()
        || !message.oneof_decl.is_empty()
    {
        return Err("a map entry cannot declare types, extensions or oneofs".into());
    }
    Ok(())
}

/// Checks an enum's values: at least one, the first zero if the enum is
/// open, numbers unique unless `allow_alias`, none reserved.
pub(crate) fn enum_values(proto: &EnumDescriptorProto, is_closed: bool) -> Result<(), String> {
    let Some(first) = proto.value.first() else {
        return Err("an enum must have at least one value".into());
    };
    if !is_closed && first.number() != 0 {
        return Err(format!(
            "the first value of an open enum must be zero, not {} ({})",
            first.number(),
            first.name()
        ));
    }
    if !proto.options.allow_alias() {
        let mut numbers: Vec<(i32, &str)> =
            proto.value.iter().map(|v| (v.number(), v.name())).collect();
        numbers.sort_by_key(|&(number, _)| number);
        if let Some(pair) = numbers.windows(2).find(|pair| pair[0].0 == pair[1].0) {
            return Err(format!(
                "values {} and {} both have number {}; aliases need `option allow_alias = true`",
                pair[0].1, pair[1].1, pair[0].0
            ));
        }
    }
    // Enum reserved ranges include their end.
    let ranges = proto
        .reserved_range
        .iter()
        .map(|r| (i64::from(r.start()), i64::from(r.end()) + 1));
    let reserved = Reserved::new(ranges, &proto.reserved_name);
    for value in &proto.value {
        let number = value.number();
        if reserved.has_number(i64::from(number)) {
            return Err(format!(
                "value {} uses reserved number {number}",
                value.name()
            ));
        }
        if reserved.has_name(value.name()) {
            return Err(format!("value name {} is reserved", value.name()));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn field_numbers() {
        assert!(is_field_number(1) && is_field_number(536_870_911) && is_field_number(18_999));
        assert!(!is_field_number(0) && !is_field_number(-1) && !is_field_number(536_870_912));
        assert!(!is_field_number(19_000) && !is_field_number(19_999) && is_field_number(20_000));
        assert!(is_extension_number(i32::MAX as u32, MAX_MESSAGE_SET_NUMBER));
        assert!(!is_extension_number(MAX_FIELD_NUMBER + 1, MAX_FIELD_NUMBER));
    }

    #[test]
    fn overlapping_reserved_ranges() {
        let names = ["x".to_owned()];
        let reserved = Reserved::new([(10, 100), (20, 30), (200, 201)].into_iter(), &names);
        for (number, expected) in [(9, false), (10, true), (25, true), (50, true), (99, true)] {
            assert_eq!(reserved.has_number(number), expected, "{number}");
        }
        assert!(!reserved.has_number(100) && reserved.has_number(200) && !reserved.has_number(201));
        assert!(reserved.has_name("x") && !reserved.has_name("y"));
        assert!(in_sorted_ranges(&[1..5, 10..20], 10) && !in_sorted_ranges(&[1..5, 10..20], 5));
    }
}
