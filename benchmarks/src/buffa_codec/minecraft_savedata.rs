//! `minecraft_savedata` <-> `prost.minecraft_savedata`, for the layout of
//! `super::pb`.

use buffa::EnumValue;

use super::pb::minecraft_savedata as pb;
use crate::datasets::minecraft_savedata as native;

impl From<native::GameType> for pb::GameType {
    fn from(game_type: native::GameType) -> Self {
        match game_type {
            native::GameType::Survival => Self::Survival,
            native::GameType::Creative => Self::Creative,
            native::GameType::Adventure => Self::Adventure,
            native::GameType::Spectator => Self::Spectator,
        }
    }
}

impl From<pb::GameType> for native::GameType {
    fn from(game_type: pb::GameType) -> Self {
        match game_type {
            pb::GameType::Survival => Self::Survival,
            pb::GameType::Creative => Self::Creative,
            pb::GameType::Adventure => Self::Adventure,
            pb::GameType::Spectator => Self::Spectator,
        }
    }
}

fn game_type_from_enum_value(value: EnumValue<pb::GameType>) -> native::GameType {
    value.known().unwrap().into()
}

impl From<&native::Item> for pb::Item {
    fn from(item: &native::Item) -> Self {
        Self {
            count: item.count.into(),
            slot: item.slot.into(),
            id: item.id.clone().into(),
            ..Default::default()
        }
    }
}

impl From<&native::Abilities> for pb::Abilities {
    fn from(a: &native::Abilities) -> Self {
        Self {
            walk_speed: a.walk_speed,
            fly_speed: a.fly_speed,
            may_fly: a.may_fly,
            flying: a.flying,
            invulnerable: a.invulnerable,
            may_build: a.may_build,
            instabuild: a.instabuild,
            ..Default::default()
        }
    }
}

fn vector3d((x, y, z): (f64, f64, f64)) -> pb::Vector3d {
    pb::Vector3d {
        x,
        y,
        z,
        ..Default::default()
    }
}

fn uuid(uuid: &[u32; 4]) -> pb::Uuid {
    pb::Uuid {
        x0: uuid[0],
        x1: uuid[1],
        x2: uuid[2],
        x3: uuid[3],
        ..Default::default()
    }
}

impl From<&native::Entity> for pb::Entity {
    fn from(e: &native::Entity) -> Self {
        Self {
            id: e.id.clone().into(),
            pos: vector3d(e.pos).into(),
            motion: vector3d(e.motion).into(),
            rotation: pb::Vector2f {
                x: e.rotation.0,
                y: e.rotation.1,
                ..Default::default()
            }
            .into(),
            fall_distance: e.fall_distance,
            fire: e.fire.into(),
            air: e.air.into(),
            on_ground: e.on_ground,
            no_gravity: e.no_gravity,
            invulnerable: e.invulnerable,
            portal_cooldown: e.portal_cooldown,
            uuid: uuid(&e.uuid).into(),
            custom_name: e.custom_name.clone().map(Into::into),
            custom_name_visible: e.custom_name_visible,
            silent: e.silent,
            glowing: e.glowing,
            ..Default::default()
        }
    }
}

impl From<&native::RecipeBook> for pb::RecipeBook {
    fn from(r: &native::RecipeBook) -> Self {
        let mut recipes = Vec::new();
        for recipe in &r.recipes {
            recipes.push(recipe.clone().into());
        }
        let mut to_be_displayed = Vec::new();
        for recipe in &r.to_be_displayed {
            to_be_displayed.push(recipe.clone().into());
        }
        Self {
            recipes,
            to_be_displayed,
            is_filtering_craftable: r.is_filtering_craftable,
            is_gui_open: r.is_gui_open,
            is_furnace_filtering_craftable: r.is_furnace_filtering_craftable,
            is_furnace_gui_open: r.is_furnace_gui_open,
            is_blasting_furnace_filtering_craftable: r.is_blasting_furnace_filtering_craftable,
            is_blasting_furnace_gui_open: r.is_blasting_furnace_gui_open,
            is_smoker_filtering_craftable: r.is_smoker_filtering_craftable,
            is_smoker_gui_open: r.is_smoker_gui_open,
            ..Default::default()
        }
    }
}

impl From<&native::Player> for pb::Player {
    fn from(p: &native::Player) -> Self {
        let mut inventory = Vec::new();
        for item in &p.inventory {
            inventory.push(item.into());
        }
        let mut ender_items = Vec::new();
        for item in &p.ender_items {
            ender_items.push(item.into());
        }
        Self {
            game_type: EnumValue::Known(p.game_type.into()),
            previous_game_type: EnumValue::from_i32(p.previous_game_type as i32),
            score: p.score,
            dimension: p.dimension.clone().into(),
            selected_item_slot: p.selected_item_slot,
            selected_item: pb::Item::from(&p.selected_item).into(),
            spawn_dimension: p.spawn_dimension.clone().map(Into::into),
            spawn_x: p.spawn_x,
            spawn_y: p.spawn_y,
            spawn_z: p.spawn_z,
            spawn_forced: p.spawn_forced,
            sleep_timer: p.sleep_timer.into(),
            food_exhaustion_level: p.food_exhaustion_level,
            food_saturation_level: p.food_saturation_level,
            food_tick_timer: p.food_tick_timer,
            xp_level: p.xp_level,
            xp_p: p.xp_p,
            xp_total: p.xp_total,
            xp_seed: p.xp_seed,
            inventory,
            ender_items,
            abilities: pb::Abilities::from(&p.abilities).into(),
            entered_nether_position: p.entered_nether_position.map(vector3d).into(),
            root_vehicle: p
                .root_vehicle
                .as_ref()
                .map(|(id, entity)| pb::Vehicle {
                    uuid: uuid(id).into(),
                    entity: pb::Entity::from(entity).into(),
                    ..Default::default()
                })
                .into(),
            shoulder_entity_left: p.shoulder_entity_left.as_ref().map(pb::Entity::from).into(),
            shoulder_entity_right: p
                .shoulder_entity_right
                .as_ref()
                .map(pb::Entity::from)
                .into(),
            seen_credits: p.seen_credits,
            recipe_book: pb::RecipeBook::from(&p.recipe_book).into(),
            ..Default::default()
        }
    }
}

impl From<&native::Players> for pb::Players {
    fn from(players: &native::Players) -> Self {
        let mut result = Self::default();
        for player in &players.players {
            result.players.push(player.into());
        }
        result
    }
}

impl From<pb::Item> for native::Item {
    fn from(item: pb::Item) -> Self {
        Self {
            count: item.count.try_into().unwrap(),
            slot: item.slot.try_into().unwrap(),
            id: item.id.into(),
        }
    }
}

impl From<pb::Abilities> for native::Abilities {
    fn from(a: pb::Abilities) -> Self {
        Self {
            walk_speed: a.walk_speed,
            fly_speed: a.fly_speed,
            may_fly: a.may_fly,
            flying: a.flying,
            invulnerable: a.invulnerable,
            may_build: a.may_build,
            instabuild: a.instabuild,
        }
    }
}

fn from_vector3d(v: pb::Vector3d) -> (f64, f64, f64) {
    (v.x, v.y, v.z)
}

fn from_uuid(uuid: pb::Uuid) -> [u32; 4] {
    [uuid.x0, uuid.x1, uuid.x2, uuid.x3]
}

impl From<pb::Entity> for native::Entity {
    fn from(e: pb::Entity) -> Self {
        let rotation = e.rotation.into_option().unwrap();
        Self {
            id: e.id.into(),
            pos: from_vector3d(e.pos.into_option().unwrap()),
            motion: from_vector3d(e.motion.into_option().unwrap()),
            rotation: (rotation.x, rotation.y),
            fall_distance: e.fall_distance,
            fire: e.fire.try_into().unwrap(),
            air: e.air.try_into().unwrap(),
            on_ground: e.on_ground,
            no_gravity: e.no_gravity,
            invulnerable: e.invulnerable,
            portal_cooldown: e.portal_cooldown,
            uuid: from_uuid(e.uuid.into_option().unwrap()),
            custom_name: e.custom_name.map(Into::into),
            custom_name_visible: e.custom_name_visible,
            silent: e.silent,
            glowing: e.glowing,
        }
    }
}

impl From<pb::RecipeBook> for native::RecipeBook {
    fn from(r: pb::RecipeBook) -> Self {
        Self {
            recipes: r.recipes.into_iter().map(Into::into).collect(),
            to_be_displayed: r.to_be_displayed.into_iter().map(Into::into).collect(),
            is_filtering_craftable: r.is_filtering_craftable,
            is_gui_open: r.is_gui_open,
            is_furnace_filtering_craftable: r.is_furnace_filtering_craftable,
            is_furnace_gui_open: r.is_furnace_gui_open,
            is_blasting_furnace_filtering_craftable: r.is_blasting_furnace_filtering_craftable,
            is_blasting_furnace_gui_open: r.is_blasting_furnace_gui_open,
            is_smoker_filtering_craftable: r.is_smoker_filtering_craftable,
            is_smoker_gui_open: r.is_smoker_gui_open,
        }
    }
}

impl From<pb::Player> for native::Player {
    fn from(p: pb::Player) -> Self {
        Self {
            game_type: game_type_from_enum_value(p.game_type),
            previous_game_type: game_type_from_enum_value(p.previous_game_type),
            score: p.score,
            dimension: p.dimension.into(),
            selected_item_slot: p.selected_item_slot,
            selected_item: p.selected_item.into_option().unwrap().into(),
            spawn_dimension: p.spawn_dimension.map(Into::into),
            spawn_x: p.spawn_x,
            spawn_y: p.spawn_y,
            spawn_z: p.spawn_z,
            spawn_forced: p.spawn_forced,
            sleep_timer: p.sleep_timer.try_into().unwrap(),
            food_exhaustion_level: p.food_exhaustion_level,
            food_saturation_level: p.food_saturation_level,
            food_tick_timer: p.food_tick_timer,
            xp_level: p.xp_level,
            xp_p: p.xp_p,
            xp_total: p.xp_total,
            xp_seed: p.xp_seed,
            inventory: p.inventory.into_iter().map(Into::into).collect(),
            ender_items: p.ender_items.into_iter().map(Into::into).collect(),
            abilities: p.abilities.into_option().unwrap().into(),
            entered_nether_position: p.entered_nether_position.into_option().map(from_vector3d),
            root_vehicle: p.root_vehicle.into_option().map(|v| {
                (
                    from_uuid(v.uuid.into_option().unwrap()),
                    v.entity.into_option().unwrap().into(),
                )
            }),
            shoulder_entity_left: p.shoulder_entity_left.into_option().map(Into::into),
            shoulder_entity_right: p.shoulder_entity_right.into_option().map(Into::into),
            seen_credits: p.seen_credits,
            recipe_book: p.recipe_book.into_option().unwrap().into(),
        }
    }
}

impl From<pb::Players> for native::Players {
    fn from(players: pb::Players) -> Self {
        Self {
            players: players.players.into_iter().map(Into::into).collect(),
        }
    }
}
