//! The proto3 JSON of every dataset: that prost + pbjson's JSON (the input
//! of the `json_decode` rows of `compare`) round-trips to the native data
//! (asserted by `PreparedJson::new`), that it is proto3 JSON as the mapping
//! says (lowerCamelCase names, 64-bit integers as strings, enums by name,
//! bytes in base64, default values left out, no nulls) with the native
//! values in it, that printing is deterministic, and that every other
//! library's JSON equals it as proto3 JSON values and parses pbjson's.
//!
//! Run with `cargo test -p benchmarks --release` (debug builds work too, just
//! slower).

use benchmarks::json::{PreparedJson, json_differences};
use benchmarks::{BuffaInline, Dataset, JsonCodec, Logs, Mesh, Players, Prost, Updates};
use serde_json::{Map, Value};

/// pbjson's JSON of `native`, parsed, after checking that it round-trips,
/// that printing twice gives the same bytes, and that every JSON
/// configuration agrees with it ([`libraries_agree`]).
fn pbjson_of<D: Dataset>(native: &D) -> Value
where
    BuffaInline: JsonCodec<D>,
    Prost: JsonCodec<D>,
{
    let pbjson = PreparedJson::<D, Prost>::new(native, None);
    assert!(
        pbjson.encode() == pbjson.json(),
        "{}: printing twice gives different JSON",
        D::NAME,
    );
    let value: Value = serde_json::from_slice(pbjson.json()).expect("valid JSON");
    check_names_and_nulls(&value, D::NAME);
    libraries_agree(native, &pbjson, &value);
    value
}

/// No nulls, and every object key lowerCamelCase (proto3 JSON's `json_name`).
fn check_names_and_nulls(value: &Value, path: &str) {
    match value {
        Value::Null => panic!("{path}: null"),
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                check_names_and_nulls(item, &format!("{path}/{i}"));
            }
        }
        Value::Object(fields) => {
            for (key, item) in fields {
                assert!(
                    key.chars().next().is_some_and(|c| c.is_ascii_lowercase())
                        && key.chars().all(|c| c.is_ascii_alphanumeric()),
                    "{path}: key {key:?} is not lowerCamelCase"
                );
                check_names_and_nulls(item, &format!("{path}/{key}"));
            }
        }
        _ => {}
    }
}

/// The array under `key`, which must hold `len` elements.
fn array<'v>(value: &'v Value, key: &str, len: usize) -> &'v [Value] {
    let items = match value.get(key) {
        Some(Value::Array(items)) => items.as_slice(),
        None => &[],
        Some(other) => panic!("{key}: not an array: {other}"),
    };
    assert_eq!(items.len(), len, "{key}: length");
    items
}

fn object(value: &Value) -> &Map<String, Value> {
    value
        .as_object()
        .unwrap_or_else(|| panic!("not an object: {value}"))
}

/// A 32-bit (or smaller) integer field: a JSON number, absent when 0.
fn check_int(message: &Value, key: &str, expected: i64) {
    match object(message).get(key) {
        None => assert_eq!(expected, 0, "{key}: absent but not 0"),
        Some(value) => {
            assert_ne!(expected, 0, "{key}: a default value printed");
            assert_eq!(value.as_i64(), Some(expected), "{key}: {value}");
        }
    }
}

/// A 64-bit integer field: a JSON string of its decimal digits, absent when
/// 0.
fn check_int64(message: &Value, key: &str, expected: impl ToString + PartialEq + Default) {
    match object(message).get(key) {
        None => assert!(expected == Default::default(), "{key}: absent but not 0"),
        Some(value) => assert_eq!(
            value.as_str(),
            Some(expected.to_string().as_str()),
            "{key}: {value}"
        ),
    }
}

/// A float field: a JSON number that parses back to `expected`, absent when
/// 0.
fn check_f32(message: &Value, key: &str, expected: f32) {
    match object(message).get(key) {
        None => assert_eq!(expected, 0.0, "{key}: absent but not 0"),
        Some(value) => assert_eq!(
            value.as_f64().map(|v| v as f32),
            Some(expected),
            "{key}: {value}"
        ),
    }
}

#[test]
fn log() {
    let native = Logs::generate();
    let json = pbjson_of(&native);
    for (log, value) in native
        .logs
        .iter()
        .zip(array(&json, "logs", native.logs.len()))
    {
        let address = &value["address"];
        for (key, x) in ["x0", "x1", "x2", "x3"].iter().zip([
            log.address.x0,
            log.address.x1,
            log.address.x2,
            log.address.x3,
        ]) {
            check_int(address, key, x.into());
        }
        assert_eq!(value["identity"], log.identity.as_str());
        assert_eq!(value["request"], log.request.as_str());
        check_int(value, "code", log.code.into());
        check_int64(value, "size", log.size);
    }
}

#[test]
fn mesh() {
    let native = Mesh::generate();
    let json = pbjson_of(&native);
    let triangles = array(&json, "triangles", native.triangles.len());
    for (triangle, value) in native.triangles.iter().zip(triangles) {
        for (key, v) in [
            ("v0", triangle.v0),
            ("v1", triangle.v1),
            ("v2", triangle.v2),
            ("normal", triangle.normal),
        ] {
            let vector = &value[key];
            check_f32(vector, "x", v.x);
            check_f32(vector, "y", v.y);
            check_f32(vector, "z", v.z);
        }
    }
}

#[test]
fn minecraft_savedata() {
    let native = Players::generate();
    let json = pbjson_of(&native);
    let players = array(&json, "players", native.players.len());
    let names = ["SURVIVAL", "CREATIVE", "ADVENTURE", "SPECTATOR"];
    for (player, value) in native.players.iter().zip(players) {
        for (key, game_type) in [
            ("gameType", player.game_type),
            ("previousGameType", player.previous_game_type),
        ] {
            let expected = names[game_type as usize];
            match value.get(key) {
                None => assert_eq!(expected, "SURVIVAL", "{key}: absent but not 0"),
                Some(name) => assert_eq!(name, expected, "{key}"),
            }
        }
        check_int64(value, "score", player.score);
        check_int64(value, "spawnX", player.spawn_x);
        check_int64(value, "spawnY", player.spawn_y);
        check_int64(value, "spawnZ", player.spawn_z);
        check_int(value, "xpTotal", player.xp_total.into());
        check_f32(value, "xpP", player.xp_p);
        // Explicit presence: set optional fields are printed even when they
        // hold the default value.
        assert_eq!(
            value.get("spawnForced").and_then(Value::as_bool),
            player.spawn_forced
        );
        assert_eq!(
            value.get("spawnDimension").and_then(Value::as_str),
            player.spawn_dimension.as_deref()
        );
        array(
            &value["recipeBook"],
            "recipes",
            player.recipe_book.recipes.len(),
        );
    }
}

#[test]
fn mk48() {
    let native = Updates::generate();
    let json = pbjson_of(&native);
    let names = [
        "ARLEIGH_BURKE",
        "BISMARCK",
        "CLEMENCEAU",
        "FLETCHER",
        "G5",
        "IOWA",
        "KOLKATA",
        "OSA",
        "YASEN",
        "ZUBR",
    ];
    for (update, value) in native
        .updates
        .iter()
        .zip(array(&json, "updates", native.updates.len()))
    {
        check_int(value, "score", update.score.into());
        check_f32(value, "worldRadius", update.world_radius);
        let contacts = array(value, "contacts", update.contacts.len());
        for (contact, value) in update.contacts.iter().zip(contacts) {
            assert_eq!(
                value.get("entityType").and_then(Value::as_str),
                contact.entity_type.map(|t| names[t as usize]),
            );
            assert_eq!(
                value.get("playerId").and_then(Value::as_u64),
                contact.player_id.map(u64::from),
            );
            array(value, "reloads", contact.reloads.len());
            array(value, "turretAngles", contact.turret_angles.len());
        }
        let terrain = array(value, "terrainUpdates", update.terrain_updates.len());
        for (terrain, value) in update.terrain_updates.iter().zip(terrain) {
            // Standard base64, padded: 4 characters per 3 bytes (the round
            // trip checks the content).
            let data = value.get("data").and_then(Value::as_str).unwrap_or("");
            assert_eq!(data.len(), terrain.data.len().div_ceil(3) * 4, "data");
            assert!(
                data.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"+/=".contains(&b)),
                "data: not standard base64"
            );
        }
    }
}

/// Every JSON configuration prints what pbjson prints and parses pbjson's
/// JSON back to `native`.
fn libraries_agree<D: Dataset>(native: &D, pbjson: &PreparedJson<D, Prost>, value: &Value)
where
    BuffaInline: JsonCodec<D>,
    Prost: JsonCodec<D>,
{
    agrees_with_pbjson::<D, Prost>(native, pbjson, value);
    agrees_with_pbjson::<D, BuffaInline>(native, pbjson, value);
}

/// `C`'s JSON of `native` is pbjson's (`value`, parsed from `pbjson`) as
/// proto3 JSON values (see [`json_differences`] for the tolerated
/// differences), and `C` parses pbjson's JSON back to `native` (asserted by
/// `PreparedJson::new`). Says whether the bytes are identical too.
fn agrees_with_pbjson<D: Dataset, C: JsonCodec<D>>(
    native: &D,
    pbjson: &PreparedJson<D, Prost>,
    value: &Value,
) where
    BuffaInline: JsonCodec<D>,
    Prost: JsonCodec<D>,
{
    let prepared = PreparedJson::<D, C>::new(native, Some(pbjson.json()));
    let own: Value = serde_json::from_slice(prepared.json()).expect("valid JSON");
    let differences = json_differences(&own, value);
    assert!(
        differences.is_empty(),
        "{}/{}: the JSON differs from pbjson's in {} places:\n{}",
        D::NAME,
        C::NAME,
        differences.len(),
        differences[..differences.len().min(20)].join("\n"),
    );
    eprintln!(
        "{}/{}: JSON {} bytes, {} pbjson's",
        D::NAME,
        C::NAME,
        prepared.json().len(),
        if prepared.json() == pbjson.json() {
            "identical to"
        } else {
            "equivalent to"
        }
    );
}

/// [`json_differences`] finds a changed field.
#[test]
fn differences_found() {
    let native = Players::generate();
    let pbjson = PreparedJson::<Players, Prost>::new(&native, None);
    let json: Value = serde_json::from_slice(pbjson.json()).expect("valid JSON");
    let mut changed = json.clone();
    changed["players"][3]["xpSeed"] = Value::Bool(true);
    assert_eq!(json_differences(&json, &changed).len(), 1);
}
