//! `mesh` <-> `prost.mesh`.

use crate::datasets::mesh as native;
use crate::pb_prost::mesh as pb;

impl From<&native::Vector3> for pb::Vector3 {
    fn from(v: &native::Vector3) -> Self {
        Self {
            x: v.x,
            y: v.y,
            z: v.z,
        }
    }
}

impl From<&native::Triangle> for pb::Triangle {
    fn from(t: &native::Triangle) -> Self {
        Self {
            v0: Some((&t.v0).into()),
            v1: Some((&t.v1).into()),
            v2: Some((&t.v2).into()),
            normal: Some((&t.normal).into()),
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
            v0: t.v0.unwrap().into(),
            v1: t.v1.unwrap().into(),
            v2: t.v2.unwrap().into(),
            normal: t.normal.unwrap().into(),
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
