//! The `mk48` dataset: 1,000 game state updates of the mk48.io naval game.

use rand::Rng as _;
use rand::distributions::{Distribution as _, WeightedIndex};

use super::{Rng, generate_vec};

/// A ship (or weapon platform) type. The discriminant is both the index used
/// for weighted sampling and the protobuf enum value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum EntityType {
    /// Destroyer.
    ArleighBurke = 0,
    /// Battleship.
    Bismarck = 1,
    /// Carrier.
    Clemenceau = 2,
    /// Destroyer.
    Fletcher = 3,
    /// Torpedo boat.
    G5 = 4,
    /// Battleship.
    Iowa = 5,
    /// Destroyer.
    Kolkata = 6,
    /// Missile boat.
    Osa = 7,
    /// Submarine.
    Yasen = 8,
    /// Hovercraft.
    Zubr = 9,
}

/// Steering input of a contact.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Guidance {
    /// Target direction.
    pub angle: u16,
    /// Whether to submerge.
    pub submerge: bool,
    /// Target velocity.
    pub velocity: i16,
}

/// Position and motion of a contact.
#[derive(Clone, Debug, PartialEq)]
pub struct Transform {
    /// Altitude (negative under water).
    pub altitude: i8,
    /// Heading.
    pub angle: u16,
    /// Position.
    pub position: (f32, f32),
    /// Velocity.
    pub velocity: i16,
}

/// A visible or radar-detected entity.
#[derive(Clone, Debug, PartialEq)]
pub struct Contact {
    /// Damage.
    pub damage: u8,
    /// Entity id.
    pub entity_id: u32,
    /// Type, if visible.
    pub entity_type: Option<EntityType>,
    /// Steering.
    pub guidance: Guidance,
    /// Owning player, if visible.
    pub player_id: Option<u16>,
    /// Reload state of each weapon.
    pub reloads: Vec<bool>,
    /// Position and motion.
    pub transform: Transform,
    /// Turret angles.
    pub turret_angles: Vec<u16>,
}

/// New terrain data for one chunk.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TerrainUpdate {
    /// Chunk coordinates.
    pub chunk_id: (i8, i8),
    /// Compressed terrain bytes.
    pub data: Vec<u8>,
}

/// One update sent to a client.
#[derive(Clone, Debug, PartialEq)]
pub struct Update {
    /// Contacts.
    pub contacts: Vec<Contact>,
    /// The player's score.
    pub score: u32,
    /// Radius of the world.
    pub world_radius: f32,
    /// Terrain updates.
    pub terrain_updates: Vec<TerrainUpdate>,
}

/// The top-level `mk48` dataset.
#[derive(Clone, Debug, PartialEq)]
pub struct Updates {
    /// The updates.
    pub updates: Vec<Update>,
}

/// Number of updates.
pub const COUNT: usize = 1000;

impl EntityType {
    /// All types, in declaration (= index) order.
    pub const ALL: [Self; 10] = [
        Self::ArleighBurke,
        Self::Bismarck,
        Self::Clemenceau,
        Self::Fletcher,
        Self::G5,
        Self::Iowa,
        Self::Kolkata,
        Self::Osa,
        Self::Yasen,
        Self::Zubr,
    ];

    /// Sampling weights, in index order.
    const WEIGHTS: [f32; 10] = [2.14, 0.52, 0.97, 1.46, 13.16, 1.55, 0.83, 7.25, 4.06, 12.92];

    /// The type with the given index (protobuf enum value), if any.
    pub fn from_index(index: i32) -> Option<Self> {
        usize::try_from(index)
            .ok()
            .and_then(|i| Self::ALL.get(i).copied())
    }

    /// Number of turrets.
    pub fn turret_count(self) -> usize {
        [1, 4, 4, 4, 0, 3, 1, 2, 0, 3][self as usize]
    }

    /// Number of weapons.
    pub fn weapon_count(self) -> usize {
        [20, 10, 16, 18, 2, 28, 15, 6, 14, 11][self as usize]
    }

    /// Whether this is a submarine (only Yasen).
    pub fn is_submarine(self) -> bool {
        self == Self::Yasen
    }

    /// Samples a `WeightedIndex` over the weights (constructing it draws nothing).
    pub fn generate(rng: &mut Rng) -> Self {
        let dist = WeightedIndex::new(Self::WEIGHTS).unwrap();
        Self::ALL[dist.sample(rng)]
    }
}

/// `gen_bool(0.9)` for submarines; false without a draw otherwise.
fn generate_submerge(rng: &mut Rng, entity_type: EntityType) -> bool {
    entity_type.is_submarine() && rng.gen_bool(0.9)
}

fn generate_altitude(rng: &mut Rng, entity_type: EntityType) -> i8 {
    if generate_submerge(rng, entity_type) {
        rng.gen_range(-120..-35i8)
    } else {
        0
    }
}

fn generate_velocity(rng: &mut Rng) -> i16 {
    match rng.gen_range(0..100i32) {
        0..80 => rng.gen_range(140..900i16),
        80..90 => 0,
        // -900 / 4 and -140 / 4 in integer arithmetic.
        _ => rng.gen_range(-225..-35i16),
    }
}

impl Contact {
    /// Generates a contact in a world with `player_count` players.
    pub fn generate(rng: &mut Rng, player_count: u16) -> Self {
        let entity_count = player_count as u32 * 20;
        let entity_type = EntityType::generate(rng);
        let is_visible = rng.gen_bool(0.7);
        let damage = if is_visible && rng.gen_bool(0.6) {
            0
        } else {
            rng.gen_range(0..200u8)
        };
        let entity_id = rng.gen_range(0..entity_count);
        let guidance = Guidance {
            angle: rng.r#gen(),
            submerge: generate_submerge(rng, entity_type),
            velocity: generate_velocity(rng),
        };
        let player_id = is_visible.then(|| rng.gen_range(0..player_count));
        let reloads = if is_visible {
            let p = rng.gen_range(0.0..1.0f64);
            (0..entity_type.weapon_count())
                .map(|_| rng.gen_bool(p))
                .collect()
        } else {
            Vec::new()
        };
        let transform = Transform {
            altitude: generate_altitude(rng, entity_type),
            angle: rng.r#gen(),
            position: (
                rng.gen_range(-750.0..750.0f32),
                rng.gen_range(-750.0..750.0f32),
            ),
            velocity: generate_velocity(rng),
        };
        let turret_angles = if is_visible {
            let base: u16 = rng.r#gen();
            (0..entity_type.turret_count())
                .map(|_| {
                    if rng.gen_bool(0.75) {
                        (base as i16).wrapping_add(rng.gen_range(-200..200i16)) as u16
                    } else {
                        rng.r#gen()
                    }
                })
                .collect()
        } else {
            Vec::new()
        };
        Self {
            damage,
            entity_id,
            entity_type: is_visible.then_some(entity_type),
            guidance,
            player_id,
            reloads,
            transform,
            turret_angles,
        }
    }
}

impl TerrainUpdate {
    /// Generates an update of a chunk within `radius` chunks of the center.
    pub fn generate(rng: &mut Rng, radius: i8) -> Self {
        let is_new = rng.gen_bool(0.02);
        let x = rng.gen_range(-radius..radius);
        let y = rng.gen_range(-radius..radius);
        let range = if is_new { 900..1100 } else { 3..9 };
        Self {
            chunk_id: (x, y),
            data: generate_vec(rng, range, |rng| rng.r#gen()),
        }
    }
}

impl Update {
    /// Generates one update.
    pub fn generate(rng: &mut Rng) -> Self {
        let player_count = rng.gen_range(200..400i32) as u16;
        let world_radius = (player_count as f32 * 15000.0).sqrt() + rng.gen_range(-50.0..50.0f32);
        let terrain_radius = (world_radius / 1600.0).ceil() as i8;
        let contact_count = rng.gen_range(20..40i32);
        let contacts = (0..contact_count)
            .map(|_| Contact::generate(rng, player_count))
            .collect();
        let x: f32 = rng.r#gen();
        let score = (x.powi(4) * 5000.0) as u32 + rng.gen_range(0..50u32);
        let terrain_count = rng.gen_range(3..10i32);
        let terrain_updates = (0..terrain_count)
            .map(|_| TerrainUpdate::generate(rng, terrain_radius))
            .collect();
        Self {
            contacts,
            score,
            world_radius,
            terrain_updates,
        }
    }
}

/// Generates the whole dataset from a fresh RNG.
pub fn generate() -> Updates {
    let mut rng = super::rng();
    Updates {
        updates: generate_vec(&mut rng, COUNT..COUNT + 1, Update::generate),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_update_and_totals() {
        let updates = generate().updates;
        assert_eq!(updates.len(), COUNT);
        let u = &updates[0];
        assert_eq!(u.contacts.len(), 31);
        assert_eq!(u.score, 208);
        assert_eq!(format!("{:?}", u.world_radius), "1831.3257");
        assert_eq!(u.terrain_updates.len(), 7);
        let (f, t) = (false, true);
        assert_eq!(
            u.contacts[0],
            Contact {
                damage: 0,
                entity_id: 4326,
                entity_type: Some(EntityType::Zubr),
                guidance: Guidance {
                    angle: 52706,
                    submerge: false,
                    velocity: 0
                },
                player_id: Some(105),
                reloads: vec![f, f, f, f, f, f, t, t, t, f, f],
                transform: Transform {
                    altitude: 0,
                    angle: 46146,
                    position: (-87.15442, 12.448853),
                    velocity: 706
                },
                turret_angles: vec![14156, 13896, 13942],
            }
        );
        assert_eq!(
            u.terrain_updates[0],
            TerrainUpdate {
                chunk_id: (1, 1),
                data: vec![227, 185, 157, 236, 149, 201, 207],
            }
        );
        let contacts: usize = updates.iter().map(|u| u.contacts.len()).sum();
        assert_eq!(contacts, 29655);
        let terrain: Vec<&TerrainUpdate> =
            updates.iter().flat_map(|u| &u.terrain_updates).collect();
        assert_eq!(terrain.len(), 6064);
        assert_eq!(terrain.iter().filter(|t| t.data.len() >= 900).count(), 134);
    }
}
