//! `mesh` <-> `prost.mesh`, for the layout of `super::pb`.

use super::pb::mesh as pb;
use crate::datasets::mesh as native;

impl From<&native::Vector3> for pb::Vector3 {
    fn from(v: &native::Vector3) -> Self {
        Self {
            x: v.x,
            y: v.y,
            z: v.z,
            ..Default::default()
        }
    }
}

impl From<&native::Triangle> for pb::Triangle {
    fn from(t: &native::Triangle) -> Self {
        Self {
            v0: pb::Vector3::from(&t.v0).into(),
            v1: pb::Vector3::from(&t.v1).into(),
            v2: pb::Vector3::from(&t.v2).into(),
            normal: pb::Vector3::from(&t.normal).into(),
            ..Default::default()
        }
    }
}

impl From<&native::Mesh> for pb::Mesh {
    fn from(mesh: &native::Mesh) -> Self {
        let mut result = Self::default();
        for triangle in &mesh.triangles {
            result.triangles.push(triangle.into());
        }
        result
    }
}

impl From<pb::Vector3> for native::Vector3 {
    fn from(v: pb::Vector3) -> Self {
        Self {
            x: v.x,
            y: v.y,
            z: v.z,
        }
    }
}

impl From<pb::Triangle> for native::Triangle {
    fn from(t: pb::Triangle) -> Self {
        Self {
            v0: t.v0.into_option().unwrap().into(),
            v1: t.v1.into_option().unwrap().into(),
            v2: t.v2.into_option().unwrap().into(),
            normal: t.normal.into_option().unwrap().into(),
        }
    }
}

impl From<pb::Mesh> for native::Mesh {
    fn from(mesh: pb::Mesh) -> Self {
        Self {
            triangles: mesh.triangles.into_iter().map(Into::into).collect(),
        }
    }
}
