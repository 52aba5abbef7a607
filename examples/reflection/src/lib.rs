//! The generated shop types, and a tour of what reflection adds to them:
//! typed extensions, custom options read typed and through the descriptor
//! pool, fields read by descriptor, the text format, and a message built
//! from a descriptor at run time. `cargo run -p reflection` prints it.

#[allow(missing_docs, clippy::all)]
mod generated {
    include!(concat!(env!("OUT_DIR"), "/mod.rs"));
}

pub use generated::example;

use std::error::Error;
use std::fmt::Write as _;

use buffa::{ExtendableMessage, Message};
use buffa_reflect::{DynamicMessage, DynamicOptions, ReflectMessage, Value, ValueRef, text};
use example::{api, shop};

/// Runs the tour and returns what it found, line by line.
pub fn tour() -> Result<String, Box<dyn Error>> {
    let mut out = String::new();

    // 1. Typed extensions: `shop::REASON` is an `Extension<Audit, String>`.
    let mut audit = shop::Audit {
        actor: Some("ana".into()),
        ..Default::default()
    };
    audit.set_extension(&shop::REASON, "refund".to_owned());
    audit.set_extension(&shop::TICKET_IDS, vec![17, 42]);
    let read = shop::Audit::decode_from_slice(&audit.encode_to_vec())?;
    writeln!(out, "reason: {:?}", read.extension(&shop::REASON)?)?;
    writeln!(out, "tickets: {:?}", read.extension(&shop::TICKET_IDS)?)?;

    // 2. Custom options, typed: the generated descriptor pool keeps each
    // method's options as buffa-types' `MethodOptions`, which the
    // generated `api::HTTP` constant reads.
    let pool = shop::descriptor_pool();
    let service = pool
        .get_service_by_name("example.shop.Orders")
        .ok_or("example.shop.Orders is in the pool")?;
    for method in service.methods() {
        let route = method.options().extension(&api::HTTP)?.unwrap_or_default();
        writeln!(
            out,
            "{} -> GET {:?} POST {:?}",
            method.name(),
            route.get,
            route.post
        )?;
    }

    // 3. The same option without generated code: found by name in the
    // pool, read from the options as a dynamic message.
    let http = pool
        .get_extension_by_name("example.api.http")
        .ok_or("example.api.http is in the pool")?;
    let get_order = service.methods().next().ok_or("Orders has methods")?;
    let options = get_order.dynamic_options()?;
    if let Some(ValueRef::Message(rule)) = options.field(&http) {
        let get = rule
            .descriptor()
            .get_field_by_name("get")
            .ok_or("HttpRule has a get field")?;
        if let Some(ValueRef::String(route)) = rule.field(&get) {
            writeln!(out, "dynamic (example.api.http).get: {route}")?;
        }
    }

    // 4. Reflection on a generated message: its set fields by descriptor,
    // and the text format (printed as `protoc --decode` prints).
    let mut order = shop::Order {
        id: Some(7),
        customer: Some("Ana".into()),
        lines: vec![shop::order::Line {
            sku: Some("tea".into()),
            quantity: Some(2),
            ..Default::default()
        }],
        ..Default::default()
    };
    order.labels.insert("gift".into(), "yes".into());
    let set = order.set_fields();
    let names: Vec<&str> = set.iter().map(|(field, _)| field.name()).collect();
    writeln!(out, "set fields: {}", names.join(", "))?;
    write!(out, "{}", text::to_string(&order))?;

    // Text in: merged into the generated message through reflection.
    text::merge(&mut order, r#"lines { sku: "cake" }"#)?;
    writeln!(
        out,
        "after merge: {} lines, second quantity {:?} (default {})",
        order.lines.len(),
        order.lines[1].quantity,
        order.lines[1].quantity()
    )?;

    // 5. A dynamic message of the same type, from the descriptor alone:
    // it reads the generated message's bytes and writes the same ones.
    let descriptor = order.descriptor();
    let dynamic = DynamicMessage::decode(descriptor.clone(), &order.encode_to_vec())?;
    writeln!(
        out,
        "dynamic customer: {:?}, same bytes: {}",
        dynamic.field_by_name("customer"),
        dynamic.encode_to_vec() == order.encode_to_vec()
    )?;
    let mut built = DynamicMessage::new(descriptor);
    built.set_field_by_name("id", Value::I64(8))?;
    writeln!(
        out,
        "built: {}",
        text::to_string_with(&built, &single_line())
    )?;
    Ok(out)
}

fn single_line() -> text::PrintOptions {
    text::PrintOptions::new().with_single_line(true)
}
