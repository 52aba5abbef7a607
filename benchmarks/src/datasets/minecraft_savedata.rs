//! The `minecraft_savedata` dataset: 500 player save records.

use rand::Rng as _;

use super::{Rng, generate_option, generate_vec, pick_string};

/// A player's game mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum GameType {
    /// Survival mode.
    Survival = 0,
    /// Creative mode.
    Creative = 1,
    /// Adventure mode.
    Adventure = 2,
    /// Spectator mode.
    Spectator = 3,
}

/// An inventory item.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Item {
    /// Stack size.
    pub count: i8,
    /// Inventory slot.
    pub slot: u8,
    /// Item name.
    pub id: String,
}

/// A player's abilities.
#[derive(Clone, Debug, PartialEq)]
pub struct Abilities {
    /// Walking speed.
    pub walk_speed: f32,
    /// Flying speed.
    pub fly_speed: f32,
    /// Whether the player may fly.
    pub may_fly: bool,
    /// Whether the player is flying.
    pub flying: bool,
    /// Whether the player is invulnerable.
    pub invulnerable: bool,
    /// Whether the player may build.
    pub may_build: bool,
    /// Whether the player builds instantly.
    pub instabuild: bool,
}

/// An entity (a mob or a vehicle).
#[derive(Clone, Debug, PartialEq)]
pub struct Entity {
    /// Entity kind.
    pub id: String,
    /// Position.
    pub pos: (f64, f64, f64),
    /// Motion.
    pub motion: (f64, f64, f64),
    /// Rotation.
    pub rotation: (f32, f32),
    /// Fall distance.
    pub fall_distance: f32,
    /// Fire ticks.
    pub fire: u16,
    /// Air ticks.
    pub air: u16,
    /// Whether the entity is on the ground.
    pub on_ground: bool,
    /// Whether gravity is disabled.
    pub no_gravity: bool,
    /// Whether the entity is invulnerable.
    pub invulnerable: bool,
    /// Portal cooldown ticks.
    pub portal_cooldown: i32,
    /// UUID.
    pub uuid: [u32; 4],
    /// Optional custom name.
    pub custom_name: Option<String>,
    /// Whether the custom name is visible.
    pub custom_name_visible: bool,
    /// Whether the entity is silent.
    pub silent: bool,
    /// Whether the entity glows.
    pub glowing: bool,
}

/// A player's recipe book.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecipeBook {
    /// Known recipes.
    pub recipes: Vec<String>,
    /// Recipes to be displayed.
    pub to_be_displayed: Vec<String>,
    /// Crafting filter flag.
    pub is_filtering_craftable: bool,
    /// Crafting GUI flag.
    pub is_gui_open: bool,
    /// Furnace filter flag.
    pub is_furnace_filtering_craftable: bool,
    /// Furnace GUI flag.
    pub is_furnace_gui_open: bool,
    /// Blasting furnace filter flag.
    pub is_blasting_furnace_filtering_craftable: bool,
    /// Blasting furnace GUI flag.
    pub is_blasting_furnace_gui_open: bool,
    /// Smoker filter flag.
    pub is_smoker_filtering_craftable: bool,
    /// Smoker GUI flag.
    pub is_smoker_gui_open: bool,
}

/// One player's save data.
#[derive(Clone, Debug, PartialEq)]
pub struct Player {
    /// Current game mode.
    pub game_type: GameType,
    /// Previous game mode.
    pub previous_game_type: GameType,
    /// Score.
    pub score: i64,
    /// Current dimension.
    pub dimension: String,
    /// Selected hotbar slot.
    pub selected_item_slot: u32,
    /// Selected item.
    pub selected_item: Item,
    /// Spawn dimension, if set.
    pub spawn_dimension: Option<String>,
    /// Spawn X.
    pub spawn_x: i64,
    /// Spawn Y.
    pub spawn_y: i64,
    /// Spawn Z.
    pub spawn_z: i64,
    /// Whether the spawn is forced, if set.
    pub spawn_forced: Option<bool>,
    /// Sleep timer.
    pub sleep_timer: u16,
    /// Food exhaustion level.
    pub food_exhaustion_level: f32,
    /// Food saturation level.
    pub food_saturation_level: f32,
    /// Food tick timer.
    pub food_tick_timer: u32,
    /// Experience level.
    pub xp_level: u32,
    /// Experience progress.
    pub xp_p: f32,
    /// Total experience.
    pub xp_total: i32,
    /// Experience seed.
    pub xp_seed: i32,
    /// Inventory.
    pub inventory: Vec<Item>,
    /// Ender chest contents.
    pub ender_items: Vec<Item>,
    /// Abilities.
    pub abilities: Abilities,
    /// Position on entering the nether, if any.
    pub entered_nether_position: Option<(f64, f64, f64)>,
    /// Vehicle UUID and entity, if riding.
    pub root_vehicle: Option<([u32; 4], Entity)>,
    /// Entity on the left shoulder.
    pub shoulder_entity_left: Option<Entity>,
    /// Entity on the right shoulder.
    pub shoulder_entity_right: Option<Entity>,
    /// Whether the credits were seen.
    pub seen_credits: bool,
    /// Recipe book.
    pub recipe_book: RecipeBook,
}

/// The top-level `minecraft_savedata` dataset.
#[derive(Clone, Debug, PartialEq)]
pub struct Players {
    /// The players.
    pub players: Vec<Player>,
}

/// Number of players.
pub const COUNT: usize = 500;

const ITEMS: [&str; 8] = [
    "dirt",
    "stone",
    "pickaxe",
    "sand",
    "gravel",
    "shovel",
    "chestplate",
    "steak",
];
const ENTITIES: [&str; 8] = [
    "cow", "sheep", "zombie", "skeleton", "spider", "creeper", "parrot", "bee",
];
const NAMES: [&str; 8] = [
    "rainbow", "princess", "steve", "johnny", "missy", "coward", "fairy", "howard",
];
const RECIPES: [&str; 8] = [
    "pickaxe",
    "torch",
    "bow",
    "crafting table",
    "furnace",
    "shears",
    "arrow",
    "tnt",
];
const DIMENSIONS: [&str; 3] = ["overworld", "nether", "end"];

impl GameType {
    /// Draws `gen_range(0..4)` as i32.
    pub fn generate(rng: &mut Rng) -> Self {
        match rng.gen_range(0..4i32) {
            0 => Self::Survival,
            1 => Self::Creative,
            2 => Self::Adventure,
            _ => Self::Spectator,
        }
    }
}

impl Item {
    /// Draws count, slot, then id.
    pub fn generate(rng: &mut Rng) -> Self {
        Self {
            count: rng.r#gen(),
            slot: rng.r#gen(),
            id: pick_string(rng, &ITEMS),
        }
    }
}

impl Abilities {
    /// Draws the two speeds, then the five flags.
    pub fn generate(rng: &mut Rng) -> Self {
        Self {
            walk_speed: rng.r#gen(),
            fly_speed: rng.r#gen(),
            may_fly: rng.gen_bool(0.5),
            flying: rng.gen_bool(0.5),
            invulnerable: rng.gen_bool(0.5),
            may_build: rng.gen_bool(0.5),
            instabuild: rng.gen_bool(0.5),
        }
    }
}

fn generate_f64x3(rng: &mut Rng) -> (f64, f64, f64) {
    (rng.r#gen(), rng.r#gen(), rng.r#gen())
}

fn generate_uuid(rng: &mut Rng) -> [u32; 4] {
    [rng.r#gen(), rng.r#gen(), rng.r#gen(), rng.r#gen()]
}

impl Entity {
    /// Draws the fields in declaration order.
    pub fn generate(rng: &mut Rng) -> Self {
        Self {
            id: pick_string(rng, &ENTITIES),
            pos: generate_f64x3(rng),
            motion: generate_f64x3(rng),
            rotation: (rng.r#gen(), rng.r#gen()),
            fall_distance: rng.r#gen(),
            fire: rng.r#gen(),
            air: rng.r#gen(),
            on_ground: rng.gen_bool(0.5),
            no_gravity: rng.gen_bool(0.5),
            invulnerable: rng.gen_bool(0.5),
            portal_cooldown: rng.r#gen(),
            uuid: generate_uuid(rng),
            custom_name: generate_option(rng, |rng| pick_string(rng, &NAMES)),
            custom_name_visible: rng.gen_bool(0.5),
            silent: rng.gen_bool(0.5),
            glowing: rng.gen_bool(0.5),
        }
    }
}

/// `generate_vec` of units over `range` (only the length is drawn), then that
/// many picks from the recipe list.
fn generate_recipes(rng: &mut Rng, range: std::ops::Range<usize>) -> Vec<String> {
    let len = generate_vec(rng, range, |_| ()).len();
    (0..len).map(|_| pick_string(rng, &RECIPES)).collect()
}

impl RecipeBook {
    /// Draws both recipe lists, then the eight flags.
    pub fn generate(rng: &mut Rng) -> Self {
        Self {
            recipes: generate_recipes(rng, 0..30),
            to_be_displayed: generate_recipes(rng, 0..10),
            is_filtering_craftable: rng.gen_bool(0.5),
            is_gui_open: rng.gen_bool(0.5),
            is_furnace_filtering_craftable: rng.gen_bool(0.5),
            is_furnace_gui_open: rng.gen_bool(0.5),
            is_blasting_furnace_filtering_craftable: rng.gen_bool(0.5),
            is_blasting_furnace_gui_open: rng.gen_bool(0.5),
            is_smoker_filtering_craftable: rng.gen_bool(0.5),
            is_smoker_gui_open: rng.gen_bool(0.5),
        }
    }
}

impl Player {
    /// Draws the fields in declaration order.
    pub fn generate(rng: &mut Rng) -> Self {
        Self {
            game_type: GameType::generate(rng),
            previous_game_type: GameType::generate(rng),
            score: rng.r#gen(),
            dimension: pick_string(rng, &DIMENSIONS),
            selected_item_slot: rng.r#gen(),
            selected_item: Item::generate(rng),
            spawn_dimension: generate_option(rng, |rng| pick_string(rng, &DIMENSIONS)),
            spawn_x: rng.r#gen(),
            spawn_y: rng.r#gen(),
            spawn_z: rng.r#gen(),
            spawn_forced: generate_option(rng, |rng| rng.gen_bool(0.5)),
            sleep_timer: rng.r#gen(),
            food_exhaustion_level: rng.r#gen(),
            food_saturation_level: rng.r#gen(),
            food_tick_timer: rng.r#gen(),
            xp_level: rng.r#gen(),
            xp_p: rng.r#gen(),
            xp_total: rng.r#gen(),
            xp_seed: rng.r#gen(),
            inventory: generate_vec(rng, 0..40, Item::generate),
            ender_items: generate_vec(rng, 0..27, Item::generate),
            abilities: Abilities::generate(rng),
            entered_nether_position: generate_option(rng, generate_f64x3),
            root_vehicle: generate_option(rng, |rng| {
                let uuid = generate_uuid(rng);
                (uuid, Entity::generate(rng))
            }),
            shoulder_entity_left: generate_option(rng, Entity::generate),
            shoulder_entity_right: generate_option(rng, Entity::generate),
            seen_credits: rng.gen_bool(0.5),
            recipe_book: RecipeBook::generate(rng),
        }
    }
}

/// Generates the whole dataset from a fresh RNG.
pub fn generate() -> Players {
    let mut rng = super::rng();
    Players {
        players: generate_vec(&mut rng, COUNT..COUNT + 1, Player::generate),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_player_and_totals() {
        let players = generate().players;
        assert_eq!(players.len(), COUNT);
        let p = &players[0];
        assert_eq!(p.game_type, GameType::Adventure);
        assert_eq!(p.previous_game_type, GameType::Survival);
        assert_eq!(p.score, -972692674281190006);
        assert_eq!(p.dimension, "overworld");
        assert_eq!(p.selected_item_slot, 1431664644);
        assert_eq!(
            p.selected_item,
            Item {
                count: -8,
                slot: 107,
                id: "pickaxe".to_owned()
            }
        );
        assert_eq!(p.spawn_dimension, None);
        assert_eq!(p.inventory.len(), 18);
        assert_eq!(p.ender_items.len(), 3);
        assert_eq!(p.recipe_book.recipes.len(), 19);
        assert_eq!(p.recipe_book.to_be_displayed.len(), 6);
        let vehicles = players.iter().filter(|p| p.root_vehicle.is_some()).count();
        assert_eq!(vehicles, 246);
        let items: usize = players.iter().map(|p| p.inventory.len()).sum();
        assert_eq!(items, 9370);
    }
}
