//! `mk48` <-> `prost.mk48`, for the layout of `super::pb`.

use buffa::EnumValue;

use super::pb::mk48 as pb;
use crate::datasets::mk48 as native;

impl From<&native::Transform> for pb::Transform {
    fn from(t: &native::Transform) -> Self {
        Self {
            altitude: t.altitude.into(),
            angle: t.angle.into(),
            position: pb::Vector2f {
                x: t.position.0,
                y: t.position.1,
                ..Default::default()
            }
            .into(),
            velocity: t.velocity.into(),
            ..Default::default()
        }
    }
}

impl From<&native::Guidance> for pb::Guidance {
    fn from(g: &native::Guidance) -> Self {
        Self {
            angle: g.angle.into(),
            submerge: g.submerge,
            velocity: g.velocity.into(),
            ..Default::default()
        }
    }
}

impl From<&native::Contact> for pb::Contact {
    fn from(c: &native::Contact) -> Self {
        let mut reloads = Vec::new();
        for &reload in &c.reloads {
            reloads.push(reload);
        }
        let mut turret_angles = Vec::new();
        for &angle in &c.turret_angles {
            turret_angles.push(angle.into());
        }
        Self {
            damage: c.damage.into(),
            entity_id: c.entity_id,
            entity_type: c.entity_type.map(|t| EnumValue::from_i32(t as i32)),
            guidance: pb::Guidance::from(&c.guidance).into(),
            player_id: c.player_id.map(Into::into),
            reloads,
            transform: pb::Transform::from(&c.transform).into(),
            turret_angles,
            ..Default::default()
        }
    }
}

impl From<&native::TerrainUpdate> for pb::TerrainUpdate {
    fn from(t: &native::TerrainUpdate) -> Self {
        Self {
            chunk_id: pb::ChunkId {
                x: t.chunk_id.0.into(),
                y: t.chunk_id.1.into(),
                ..Default::default()
            }
            .into(),
            data: t.data.clone().into(),
            ..Default::default()
        }
    }
}

impl From<&native::Update> for pb::Update {
    fn from(u: &native::Update) -> Self {
        let mut contacts = Vec::new();
        for contact in &u.contacts {
            contacts.push(contact.into());
        }
        let mut terrain_updates = Vec::new();
        for terrain_update in &u.terrain_updates {
            terrain_updates.push(terrain_update.into());
        }
        Self {
            contacts,
            score: u.score,
            world_radius: u.world_radius,
            terrain_updates,
            ..Default::default()
        }
    }
}

impl From<&native::Updates> for pb::Updates {
    fn from(updates: &native::Updates) -> Self {
        let mut result = Self::default();
        for update in &updates.updates {
            result.updates.push(update.into());
        }
        result
    }
}

impl From<pb::Transform> for native::Transform {
    fn from(t: pb::Transform) -> Self {
        let position = t.position.into_option().unwrap();
        Self {
            altitude: t.altitude.try_into().unwrap(),
            angle: t.angle.try_into().unwrap(),
            position: (position.x, position.y),
            velocity: t.velocity.try_into().unwrap(),
        }
    }
}

impl From<pb::Guidance> for native::Guidance {
    fn from(g: pb::Guidance) -> Self {
        Self {
            angle: g.angle.try_into().unwrap(),
            submerge: g.submerge,
            velocity: g.velocity.try_into().unwrap(),
        }
    }
}

impl From<pb::Contact> for native::Contact {
    fn from(c: pb::Contact) -> Self {
        Self {
            damage: c.damage.try_into().unwrap(),
            entity_id: c.entity_id,
            entity_type: c
                .entity_type
                .map(|t| native::EntityType::from_index(t.to_i32()).unwrap()),
            guidance: c.guidance.into_option().unwrap().into(),
            player_id: c.player_id.map(|id| id.try_into().unwrap()),
            reloads: c.reloads,
            transform: c.transform.into_option().unwrap().into(),
            turret_angles: c
                .turret_angles
                .into_iter()
                .map(|angle| angle.try_into().unwrap())
                .collect(),
        }
    }
}

impl From<pb::TerrainUpdate> for native::TerrainUpdate {
    fn from(t: pb::TerrainUpdate) -> Self {
        let chunk_id = t.chunk_id.into_option().unwrap();
        Self {
            chunk_id: (
                chunk_id.x.try_into().unwrap(),
                chunk_id.y.try_into().unwrap(),
            ),
            data: t.data.into(),
        }
    }
}

impl From<pb::Update> for native::Update {
    fn from(u: pb::Update) -> Self {
        Self {
            contacts: u.contacts.into_iter().map(Into::into).collect(),
            score: u.score,
            world_radius: u.world_radius,
            terrain_updates: u.terrain_updates.into_iter().map(Into::into).collect(),
        }
    }
}

impl From<pb::Updates> for native::Updates {
    fn from(updates: pb::Updates) -> Self {
        Self {
            updates: updates.updates.into_iter().map(Into::into).collect(),
        }
    }
}
