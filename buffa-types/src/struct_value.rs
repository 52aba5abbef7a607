//! [`Value`], [`Struct`] and [`ListValue`] (protobuf's JSON-like values)
//! from Rust values.

use crate::value::Kind;
use crate::{ListValue, NullValue, Struct, Value};

impl Value {
    /// The null value (`kind` is [`Kind::NullValue`]).
    pub fn null() -> Value {
        Kind::NullValue(NullValue::NullValue.into()).into()
    }
}

/// A value of this kind.
impl From<Kind> for Value {
    fn from(kind: Kind) -> Value {
        Value {
            kind: Some(kind),
            ..Default::default()
        }
    }
}

/// A number value.
impl From<f64> for Value {
    fn from(number: f64) -> Value {
        Kind::NumberValue(number).into()
    }
}

/// A boolean value.
impl From<bool> for Value {
    fn from(boolean: bool) -> Value {
        Kind::BoolValue(boolean).into()
    }
}

/// A string value.
impl From<String> for Value {
    fn from(string: String) -> Value {
        Kind::StringValue(string).into()
    }
}

/// A string value.
impl From<&str> for Value {
    fn from(string: &str) -> Value {
        Kind::StringValue(string.to_owned()).into()
    }
}

/// A struct value (a JSON object).
impl From<Struct> for Value {
    fn from(object: Struct) -> Value {
        Kind::StructValue(Box::new(object)).into()
    }
}

/// A list value (a JSON array).
impl From<ListValue> for Value {
    fn from(list: ListValue) -> Value {
        Kind::ListValue(Box::new(list)).into()
    }
}

/// A list value (a JSON array) of these values.
impl From<Vec<Value>> for Value {
    fn from(values: Vec<Value>) -> Value {
        ListValue {
            values,
            ..Default::default()
        }
        .into()
    }
}

/// A struct of these fields; of repeated names, the last one wins.
impl<K: Into<String>, V: Into<Value>> FromIterator<(K, V)> for Struct {
    fn from_iter<I: IntoIterator<Item = (K, V)>>(fields: I) -> Struct {
        Struct {
            fields: fields
                .into_iter()
                .map(|(name, value)| (name.into(), value.into()))
                .collect(),
            ..Default::default()
        }
    }
}

/// A list of these values.
impl<V: Into<Value>> FromIterator<V> for ListValue {
    fn from_iter<I: IntoIterator<Item = V>>(values: I) -> ListValue {
        ListValue {
            values: values.into_iter().map(Into::into).collect(),
            ..Default::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(value: &Value) -> &Kind {
        value.kind.as_ref().expect("a kind")
    }

    #[test]
    fn scalars() {
        assert_eq!(
            kind(&Value::null()),
            &Kind::NullValue(NullValue::NullValue.into())
        );
        assert_eq!(kind(&1.5.into()), &Kind::NumberValue(1.5));
        assert_eq!(kind(&true.into()), &Kind::BoolValue(true));
        assert_eq!(kind(&"a".into()), &Kind::StringValue("a".into()));
        assert_eq!(
            kind(&String::from("b").into()),
            &Kind::StringValue("b".into())
        );
        assert_eq!(Value::default().kind, None);
    }

    #[test]
    fn objects_and_lists() {
        let object: Struct = [("n", Value::from(1.0)), ("s", "x".into())]
            .into_iter()
            .collect();
        assert_eq!(object.fields.len(), 2);
        assert_eq!(object.fields["n"], Value::from(1.0));
        assert_eq!(object.fields["s"], Value::from("x"));

        let list: ListValue = [1.0, 2.0].into_iter().collect();
        assert_eq!(list.values, [Value::from(1.0), Value::from(2.0)]);
        assert_eq!(
            Value::from(vec![Value::from(1.0), Value::from(2.0)]),
            Value::from(list.clone())
        );
        assert_eq!(kind(&list.clone().into()), &Kind::ListValue(Box::new(list)));
        assert_eq!(
            kind(&object.clone().into()),
            &Kind::StructValue(Box::new(object))
        );
    }

    #[test]
    fn repeated_names_keep_the_last_value() {
        let object: Struct = [("k", 1.0), ("k", 2.0)].into_iter().collect();
        assert_eq!(object.fields.len(), 1);
        assert_eq!(object.fields["k"], Value::from(2.0));
    }

    #[test]
    fn nested_values_round_trip_the_wire() {
        use buffa::Message;
        let value: Value = Struct::from_iter([
            ("list", Value::from(vec![Value::null(), true.into()])),
            ("name", "buffa".into()),
        ])
        .into();
        assert_eq!(
            Value::decode_from_slice(&value.encode_to_vec()).unwrap(),
            value
        );
    }
}
