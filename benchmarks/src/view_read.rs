//! Reading every field of a borrowed view once: the `view+read` operation.
//!
//! Decoding a view does less work than decoding an owned message (no string
//! is copied), but leaves some for later: a view field is read where it lies
//! in the input. To compare fairly with an owned decode, `view+read` decodes
//! the view and then reads every field of every message once, through
//! [`ReadAll`], hand-written per message type:
//!
//! - every scalar is added into a [`Sum`]: integers, booleans and enum
//!   values as `u64` (wrapping), floats as `f64`;
//! - every string and bytes field adds its length;
//! - sub-messages, repeated fields and optional fields are followed
//!   recursively (an unset sub-message or optional field adds nothing, as
//!   its default would).
//!
//! Each impl destructures its view exhaustively (no `..`), so a field added
//! to a schema fails to compile until it is read here, and an unread field
//! is an unused binding, which `-D warnings` rejects. The tests check the
//! sums against the same sums computed, independently, from the native
//! data. The caller black-boxes the final [`Sum`].

use buffa::{Inline, MessageField, MessageView, RepeatedView};

use crate::pb_buffa::buffa_inline as pb;

/// The accumulator of [`ReadAll`]: the sum of every integer-like field and
/// of every float field read.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Sum {
    /// Wrapping sum of the integers (signed ones sign-extended), booleans
    /// (0 or 1), enum values, and string and bytes lengths.
    pub ints: u64,
    /// Sum of the floats, in reading order.
    pub floats: f64,
    /// How many values were added: every scalar, string and bytes field
    /// read (each element of a repeated field counts). The compare
    /// command divides decode times by it (ns per field).
    pub values: u64,
}

impl Sum {
    /// Adds an unsigned integer.
    #[inline]
    pub fn uint(&mut self, value: impl Into<u64>) {
        self.ints = self.ints.wrapping_add(value.into());
        self.values += 1;
    }

    /// Adds a signed integer, sign-extended to 64 bits.
    #[inline]
    pub fn int(&mut self, value: impl Into<i64>) {
        self.uint(value.into() as u64);
    }

    /// Adds a boolean as 0 or 1.
    #[inline]
    pub fn bool(&mut self, value: bool) {
        self.uint(value);
    }

    /// Adds a float.
    #[inline]
    pub fn float(&mut self, value: impl Into<f64>) {
        self.floats += value.into();
        self.values += 1;
    }

    /// Adds the length of a string or bytes field.
    #[inline]
    pub fn len(&mut self, value: &(impl AsRef<[u8]> + ?Sized)) {
        self.uint(value.as_ref().len() as u64);
    }
}

/// Reads every field of a message (view) once into a [`Sum`].
pub trait ReadAll {
    /// Adds every field of `self`, recursively, to `sum`.
    fn read_all(&self, sum: &mut Sum);

    /// The [`Sum`] of `self` alone.
    fn sum(&self) -> Sum {
        let mut sum = Sum::default();
        self.read_all(&mut sum);
        sum
    }
}

/// A sub-message held in place: read if set.
impl<V: ReadAll> ReadAll for MessageField<V, Inline<V>> {
    #[inline]
    fn read_all(&self, sum: &mut Sum) {
        if let Some(view) = self.as_option() {
            view.read_all(sum);
        }
    }
}

/// A repeated message field: every element in order.
impl<'a, V: ReadAll + MessageView<'a>> ReadAll for RepeatedView<'a, V> {
    #[inline]
    fn read_all(&self, sum: &mut Sum) {
        for view in self {
            view.read_all(sum);
        }
    }
}

// `log`

impl ReadAll for pb::log::LogsView<'_> {
    fn read_all(&self, sum: &mut Sum) {
        let Self {
            logs,
            unknown_fields: _,
        } = self;
        logs.read_all(sum);
    }
}

impl ReadAll for pb::log::LogView<'_> {
    #[inline]
    fn read_all(&self, sum: &mut Sum) {
        let Self {
            address,
            identity,
            userid,
            date,
            request,
            code,
            size,
            unknown_fields: _,
        } = self;
        address.read_all(sum);
        sum.len(*identity);
        sum.len(*userid);
        sum.len(*date);
        sum.len(*request);
        sum.uint(*code);
        sum.uint(*size);
    }
}

impl ReadAll for pb::log::AddressView<'_> {
    #[inline]
    fn read_all(&self, sum: &mut Sum) {
        let Self {
            x0,
            x1,
            x2,
            x3,
            unknown_fields: _,
        } = self;
        sum.uint(*x0);
        sum.uint(*x1);
        sum.uint(*x2);
        sum.uint(*x3);
    }
}

// `mesh`

impl ReadAll for pb::mesh::MeshView<'_> {
    fn read_all(&self, sum: &mut Sum) {
        let Self {
            triangles,
            unknown_fields: _,
        } = self;
        triangles.read_all(sum);
    }
}

impl ReadAll for pb::mesh::TriangleView<'_> {
    #[inline]
    fn read_all(&self, sum: &mut Sum) {
        let Self {
            v0,
            v1,
            v2,
            normal,
            unknown_fields: _,
        } = self;
        v0.read_all(sum);
        v1.read_all(sum);
        v2.read_all(sum);
        normal.read_all(sum);
    }
}

impl ReadAll for pb::mesh::Vector3View<'_> {
    #[inline]
    fn read_all(&self, sum: &mut Sum) {
        let Self {
            x,
            y,
            z,
            unknown_fields: _,
        } = self;
        sum.float(*x);
        sum.float(*y);
        sum.float(*z);
    }
}

// `minecraft_savedata`

mod minecraft {
    use super::{ReadAll, Sum, pb};
    use pb::minecraft_savedata::{
        AbilitiesView, EntityView, ItemView, PlayerView, PlayersView, RecipeBookView, UuidView,
        Vector2fView, Vector3dView, VehicleView,
    };

    impl ReadAll for PlayersView<'_> {
        fn read_all(&self, sum: &mut Sum) {
            let Self {
                players,
                unknown_fields: _,
            } = self;
            players.read_all(sum);
        }
    }

    impl ReadAll for PlayerView<'_> {
        fn read_all(&self, sum: &mut Sum) {
            let Self {
                game_type,
                previous_game_type,
                score,
                dimension,
                selected_item_slot,
                selected_item,
                spawn_dimension,
                spawn_x,
                spawn_y,
                spawn_z,
                spawn_forced,
                sleep_timer,
                food_exhaustion_level,
                food_saturation_level,
                food_tick_timer,
                xp_level,
                xp_p,
                xp_total,
                xp_seed,
                inventory,
                ender_items,
                abilities,
                entered_nether_position,
                root_vehicle,
                shoulder_entity_left,
                shoulder_entity_right,
                seen_credits,
                recipe_book,
                unknown_fields: _,
            } = self;
            sum.int(game_type.to_i32());
            sum.int(previous_game_type.to_i32());
            sum.int(*score);
            sum.len(*dimension);
            sum.uint(*selected_item_slot);
            selected_item.read_all(sum);
            if let Some(spawn_dimension) = spawn_dimension {
                sum.len(*spawn_dimension);
            }
            sum.int(*spawn_x);
            sum.int(*spawn_y);
            sum.int(*spawn_z);
            if let Some(spawn_forced) = spawn_forced {
                sum.bool(*spawn_forced);
            }
            sum.uint(*sleep_timer);
            sum.float(*food_exhaustion_level);
            sum.float(*food_saturation_level);
            sum.uint(*food_tick_timer);
            sum.uint(*xp_level);
            sum.float(*xp_p);
            sum.int(*xp_total);
            sum.int(*xp_seed);
            inventory.read_all(sum);
            ender_items.read_all(sum);
            abilities.read_all(sum);
            entered_nether_position.read_all(sum);
            root_vehicle.read_all(sum);
            shoulder_entity_left.read_all(sum);
            shoulder_entity_right.read_all(sum);
            sum.bool(*seen_credits);
            recipe_book.read_all(sum);
        }
    }

    impl ReadAll for ItemView<'_> {
        #[inline]
        fn read_all(&self, sum: &mut Sum) {
            let Self {
                count,
                slot,
                id,
                unknown_fields: _,
            } = self;
            sum.int(*count);
            sum.uint(*slot);
            sum.len(*id);
        }
    }

    impl ReadAll for AbilitiesView<'_> {
        #[inline]
        fn read_all(&self, sum: &mut Sum) {
            let Self {
                walk_speed,
                fly_speed,
                may_fly,
                flying,
                invulnerable,
                may_build,
                instabuild,
                unknown_fields: _,
            } = self;
            sum.float(*walk_speed);
            sum.float(*fly_speed);
            sum.bool(*may_fly);
            sum.bool(*flying);
            sum.bool(*invulnerable);
            sum.bool(*may_build);
            sum.bool(*instabuild);
        }
    }

    impl ReadAll for Vector3dView<'_> {
        #[inline]
        fn read_all(&self, sum: &mut Sum) {
            let Self {
                x,
                y,
                z,
                unknown_fields: _,
            } = self;
            sum.float(*x);
            sum.float(*y);
            sum.float(*z);
        }
    }

    impl ReadAll for Vector2fView<'_> {
        #[inline]
        fn read_all(&self, sum: &mut Sum) {
            let Self {
                x,
                y,
                unknown_fields: _,
            } = self;
            sum.float(*x);
            sum.float(*y);
        }
    }

    impl ReadAll for UuidView<'_> {
        #[inline]
        fn read_all(&self, sum: &mut Sum) {
            let Self {
                x0,
                x1,
                x2,
                x3,
                unknown_fields: _,
            } = self;
            sum.uint(*x0);
            sum.uint(*x1);
            sum.uint(*x2);
            sum.uint(*x3);
        }
    }

    impl ReadAll for EntityView<'_> {
        fn read_all(&self, sum: &mut Sum) {
            let Self {
                id,
                pos,
                motion,
                rotation,
                fall_distance,
                fire,
                air,
                on_ground,
                no_gravity,
                invulnerable,
                portal_cooldown,
                uuid,
                custom_name,
                custom_name_visible,
                silent,
                glowing,
                unknown_fields: _,
            } = self;
            sum.len(*id);
            pos.read_all(sum);
            motion.read_all(sum);
            rotation.read_all(sum);
            sum.float(*fall_distance);
            sum.uint(*fire);
            sum.uint(*air);
            sum.bool(*on_ground);
            sum.bool(*no_gravity);
            sum.bool(*invulnerable);
            sum.int(*portal_cooldown);
            uuid.read_all(sum);
            if let Some(custom_name) = custom_name {
                sum.len(*custom_name);
            }
            sum.bool(*custom_name_visible);
            sum.bool(*silent);
            sum.bool(*glowing);
        }
    }

    impl ReadAll for RecipeBookView<'_> {
        fn read_all(&self, sum: &mut Sum) {
            let Self {
                recipes,
                to_be_displayed,
                is_filtering_craftable,
                is_gui_open,
                is_furnace_filtering_craftable,
                is_furnace_gui_open,
                is_blasting_furnace_filtering_craftable,
                is_blasting_furnace_gui_open,
                is_smoker_filtering_craftable,
                is_smoker_gui_open,
                unknown_fields: _,
            } = self;
            for recipe in recipes {
                sum.len(recipe);
            }
            for recipe in to_be_displayed {
                sum.len(recipe);
            }
            sum.bool(*is_filtering_craftable);
            sum.bool(*is_gui_open);
            sum.bool(*is_furnace_filtering_craftable);
            sum.bool(*is_furnace_gui_open);
            sum.bool(*is_blasting_furnace_filtering_craftable);
            sum.bool(*is_blasting_furnace_gui_open);
            sum.bool(*is_smoker_filtering_craftable);
            sum.bool(*is_smoker_gui_open);
        }
    }

    impl ReadAll for VehicleView<'_> {
        #[inline]
        fn read_all(&self, sum: &mut Sum) {
            let Self {
                uuid,
                entity,
                unknown_fields: _,
            } = self;
            uuid.read_all(sum);
            entity.read_all(sum);
        }
    }
}

// `mk48`

mod mk48 {
    use super::{ReadAll, Sum, pb};
    use pb::mk48::{
        ChunkIdView, ContactView, GuidanceView, TerrainUpdateView, TransformView, UpdateView,
        UpdatesView, Vector2fView,
    };

    impl ReadAll for UpdatesView<'_> {
        fn read_all(&self, sum: &mut Sum) {
            let Self {
                updates,
                unknown_fields: _,
            } = self;
            updates.read_all(sum);
        }
    }

    impl ReadAll for UpdateView<'_> {
        fn read_all(&self, sum: &mut Sum) {
            let Self {
                contacts,
                score,
                world_radius,
                terrain_updates,
                unknown_fields: _,
            } = self;
            contacts.read_all(sum);
            sum.uint(*score);
            sum.float(*world_radius);
            terrain_updates.read_all(sum);
        }
    }

    impl ReadAll for ContactView<'_> {
        #[inline]
        fn read_all(&self, sum: &mut Sum) {
            let Self {
                damage,
                entity_id,
                entity_type,
                guidance,
                player_id,
                reloads,
                transform,
                turret_angles,
                unknown_fields: _,
            } = self;
            sum.uint(*damage);
            sum.uint(*entity_id);
            if let Some(entity_type) = entity_type {
                sum.int(entity_type.to_i32());
            }
            guidance.read_all(sum);
            if let Some(player_id) = player_id {
                sum.uint(*player_id);
            }
            for reload in reloads {
                sum.bool(reload);
            }
            transform.read_all(sum);
            for angle in turret_angles {
                sum.uint(angle);
            }
        }
    }

    impl ReadAll for GuidanceView<'_> {
        #[inline]
        fn read_all(&self, sum: &mut Sum) {
            let Self {
                angle,
                submerge,
                velocity,
                unknown_fields: _,
            } = self;
            sum.uint(*angle);
            sum.bool(*submerge);
            sum.int(*velocity);
        }
    }

    impl ReadAll for TransformView<'_> {
        #[inline]
        fn read_all(&self, sum: &mut Sum) {
            let Self {
                altitude,
                angle,
                position,
                velocity,
                unknown_fields: _,
            } = self;
            sum.int(*altitude);
            sum.uint(*angle);
            position.read_all(sum);
            sum.int(*velocity);
        }
    }

    impl ReadAll for Vector2fView<'_> {
        #[inline]
        fn read_all(&self, sum: &mut Sum) {
            let Self {
                x,
                y,
                unknown_fields: _,
            } = self;
            sum.float(*x);
            sum.float(*y);
        }
    }

    impl ReadAll for TerrainUpdateView<'_> {
        #[inline]
        fn read_all(&self, sum: &mut Sum) {
            let Self {
                chunk_id,
                data,
                unknown_fields: _,
            } = self;
            chunk_id.read_all(sum);
            sum.len(*data);
        }
    }

    impl ReadAll for ChunkIdView<'_> {
        #[inline]
        fn read_all(&self, sum: &mut Sum) {
            let Self {
                x,
                y,
                unknown_fields: _,
            } = self;
            sum.int(*x);
            sum.int(*y);
        }
    }
}

/// The [`Sum`]s of the native data, written independently of the view
/// impls (against the native types, exhaustively destructured too): equal
/// sums mean the view impls read every field the data sets.
#[cfg(test)]
mod tests {
    use super::{ReadAll, Sum};
    use crate::datasets::{log, mesh, minecraft_savedata as mc, mk48};
    use crate::{BuffaInline, Codec, Dataset, ViewCodec};

    fn log_sum(logs: &log::Logs) -> Sum {
        let mut sum = Sum::default();
        for entry in &logs.logs {
            let log::Log {
                address,
                identity,
                userid,
                date,
                request,
                code,
                size,
            } = entry;
            let log::Address { x0, x1, x2, x3 } = address;
            for x in [x0, x1, x2, x3] {
                sum.uint(*x);
            }
            for s in [identity, userid, date, request] {
                sum.len(s);
            }
            sum.uint(*code);
            sum.uint(*size);
        }
        sum
    }

    fn mesh_sum(mesh: &mesh::Mesh) -> Sum {
        let mut sum = Sum::default();
        for triangle in &mesh.triangles {
            let mesh::Triangle { v0, v1, v2, normal } = triangle;
            for mesh::Vector3 { x, y, z } in [v0, v1, v2, normal] {
                sum.float(*x);
                sum.float(*y);
                sum.float(*z);
            }
        }
        sum
    }

    fn item_sum(sum: &mut Sum, item: &mc::Item) {
        let mc::Item { count, slot, id } = item;
        sum.int(*count);
        sum.uint(*slot);
        sum.len(id);
    }

    fn entity_sum(sum: &mut Sum, entity: &mc::Entity) {
        let mc::Entity {
            id,
            pos,
            motion,
            rotation,
            fall_distance,
            fire,
            air,
            on_ground,
            no_gravity,
            invulnerable,
            portal_cooldown,
            uuid,
            custom_name,
            custom_name_visible,
            silent,
            glowing,
        } = entity;
        sum.len(id);
        for (x, y, z) in [pos, motion] {
            sum.float(*x);
            sum.float(*y);
            sum.float(*z);
        }
        sum.float(rotation.0);
        sum.float(rotation.1);
        sum.float(*fall_distance);
        sum.uint(*fire);
        sum.uint(*air);
        sum.bool(*on_ground);
        sum.bool(*no_gravity);
        sum.bool(*invulnerable);
        sum.int(*portal_cooldown);
        for x in uuid {
            sum.uint(*x);
        }
        if let Some(name) = custom_name {
            sum.len(name);
        }
        sum.bool(*custom_name_visible);
        sum.bool(*silent);
        sum.bool(*glowing);
    }

    fn players_sum(players: &mc::Players) -> Sum {
        let mut sum = Sum::default();
        for player in &players.players {
            let mc::Player {
                game_type,
                previous_game_type,
                score,
                dimension,
                selected_item_slot,
                selected_item,
                spawn_dimension,
                spawn_x,
                spawn_y,
                spawn_z,
                spawn_forced,
                sleep_timer,
                food_exhaustion_level,
                food_saturation_level,
                food_tick_timer,
                xp_level,
                xp_p,
                xp_total,
                xp_seed,
                inventory,
                ender_items,
                abilities,
                entered_nether_position,
                root_vehicle,
                shoulder_entity_left,
                shoulder_entity_right,
                seen_credits,
                recipe_book,
            } = player;
            sum.uint(*game_type as u8);
            sum.uint(*previous_game_type as u8);
            sum.int(*score);
            sum.len(dimension);
            sum.uint(*selected_item_slot);
            item_sum(&mut sum, selected_item);
            if let Some(dimension) = spawn_dimension {
                sum.len(dimension);
            }
            sum.int(*spawn_x);
            sum.int(*spawn_y);
            sum.int(*spawn_z);
            if let Some(forced) = spawn_forced {
                sum.bool(*forced);
            }
            sum.uint(*sleep_timer);
            sum.float(*food_exhaustion_level);
            sum.float(*food_saturation_level);
            sum.uint(*food_tick_timer);
            sum.uint(*xp_level);
            sum.float(*xp_p);
            sum.int(*xp_total);
            sum.int(*xp_seed);
            for item in inventory.iter().chain(ender_items) {
                item_sum(&mut sum, item);
            }
            let mc::Abilities {
                walk_speed,
                fly_speed,
                may_fly,
                flying,
                invulnerable,
                may_build,
                instabuild,
            } = abilities;
            sum.float(*walk_speed);
            sum.float(*fly_speed);
            for flag in [may_fly, flying, invulnerable, may_build, instabuild] {
                sum.bool(*flag);
            }
            if let Some((x, y, z)) = entered_nether_position {
                sum.float(*x);
                sum.float(*y);
                sum.float(*z);
            }
            if let Some((uuid, entity)) = root_vehicle {
                for x in uuid {
                    sum.uint(*x);
                }
                entity_sum(&mut sum, entity);
            }
            for entity in [shoulder_entity_left, shoulder_entity_right]
                .into_iter()
                .flatten()
            {
                entity_sum(&mut sum, entity);
            }
            sum.bool(*seen_credits);
            let mc::RecipeBook {
                recipes,
                to_be_displayed,
                is_filtering_craftable,
                is_gui_open,
                is_furnace_filtering_craftable,
                is_furnace_gui_open,
                is_blasting_furnace_filtering_craftable,
                is_blasting_furnace_gui_open,
                is_smoker_filtering_craftable,
                is_smoker_gui_open,
            } = recipe_book;
            for recipe in recipes.iter().chain(to_be_displayed) {
                sum.len(recipe);
            }
            for flag in [
                is_filtering_craftable,
                is_gui_open,
                is_furnace_filtering_craftable,
                is_furnace_gui_open,
                is_blasting_furnace_filtering_craftable,
                is_blasting_furnace_gui_open,
                is_smoker_filtering_craftable,
                is_smoker_gui_open,
            ] {
                sum.bool(*flag);
            }
        }
        sum
    }

    fn updates_sum(updates: &mk48::Updates) -> Sum {
        let mut sum = Sum::default();
        for update in &updates.updates {
            let mk48::Update {
                contacts,
                score,
                world_radius,
                terrain_updates,
            } = update;
            for contact in contacts {
                let mk48::Contact {
                    damage,
                    entity_id,
                    entity_type,
                    guidance,
                    player_id,
                    reloads,
                    transform,
                    turret_angles,
                } = contact;
                sum.uint(*damage);
                sum.uint(*entity_id);
                if let Some(entity_type) = entity_type {
                    sum.uint(*entity_type as u8);
                }
                let mk48::Guidance {
                    angle,
                    submerge,
                    velocity,
                } = guidance;
                sum.uint(*angle);
                sum.bool(*submerge);
                sum.int(*velocity);
                if let Some(player_id) = player_id {
                    sum.uint(*player_id);
                }
                for reload in reloads {
                    sum.bool(*reload);
                }
                let mk48::Transform {
                    altitude,
                    angle,
                    position,
                    velocity,
                } = transform;
                sum.int(*altitude);
                sum.uint(*angle);
                sum.float(position.0);
                sum.float(position.1);
                sum.int(*velocity);
                for angle in turret_angles {
                    sum.uint(*angle);
                }
            }
            sum.uint(*score);
            sum.float(*world_radius);
            for terrain_update in terrain_updates {
                let mk48::TerrainUpdate { chunk_id, data } = terrain_update;
                sum.int(chunk_id.0);
                sum.int(chunk_id.1);
                sum.len(data);
            }
        }
        sum
    }

    /// The view's sum of `native`'s encoding, and the sum of `native`.
    fn check<D: Dataset>(native_sum: fn(&D) -> Sum)
    where
        BuffaInline: ViewCodec<D>,
    {
        let native = D::generate();
        let mut encoded = Vec::new();
        BuffaInline::encode(&BuffaInline::populate(&native), &mut encoded);
        let view = BuffaInline::decode_view(&encoded);
        let expected = native_sum(&native);
        assert_eq!(view.sum(), expected, "{}", D::NAME);
        assert!(expected != Sum::default(), "{}: nothing read", D::NAME);
    }

    #[test]
    fn log_reads_every_field() {
        check(log_sum);
    }

    #[test]
    fn mesh_reads_every_field() {
        check(mesh_sum);
    }

    #[test]
    fn minecraft_savedata_reads_every_field() {
        check(players_sum);
    }

    #[test]
    fn mk48_reads_every_field() {
        check(updates_sum);
    }
}
