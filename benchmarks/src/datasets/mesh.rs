//! The `mesh` dataset: 125,000 triangles of random floats.

use rand::Rng as _;

use super::{Rng, generate_vec};

/// A point or direction in 3D space.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Vector3 {
    /// X coordinate.
    pub x: f32,
    /// Y coordinate.
    pub y: f32,
    /// Z coordinate.
    pub z: f32,
}

/// A triangle with a (random, not computed) normal.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Triangle {
    /// First vertex.
    pub v0: Vector3,
    /// Second vertex.
    pub v1: Vector3,
    /// Third vertex.
    pub v2: Vector3,
    /// Normal.
    pub normal: Vector3,
}

/// The top-level `mesh` dataset.
#[derive(Clone, Debug, PartialEq)]
pub struct Mesh {
    /// The triangles.
    pub triangles: Vec<Triangle>,
}

/// Number of triangles.
pub const COUNT: usize = 125_000;

impl Vector3 {
    /// Draws x, y, z, each `gen::<f32>()`.
    pub fn generate(rng: &mut Rng) -> Self {
        Self {
            x: rng.r#gen(),
            y: rng.r#gen(),
            z: rng.r#gen(),
        }
    }
}

impl Triangle {
    /// Draws v0, v1, v2 and normal in that order.
    pub fn generate(rng: &mut Rng) -> Self {
        Self {
            v0: Vector3::generate(rng),
            v1: Vector3::generate(rng),
            v2: Vector3::generate(rng),
            normal: Vector3::generate(rng),
        }
    }
}

/// Generates the whole dataset from a fresh RNG.
pub fn generate() -> Mesh {
    let mut rng = super::rng();
    Mesh {
        triangles: generate_vec(&mut rng, COUNT..COUNT + 1, Triangle::generate),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_triangle() {
        let mesh = generate();
        assert_eq!(mesh.triangles.len(), COUNT);
        let t = mesh.triangles[0];
        let v = |v: Vector3| format!("({:?}, {:?}, {:?})", v.x, v.y, v.z);
        assert_eq!(v(t.v0), "(0.57927126, 0.16822743, 0.1183368)");
        assert_eq!(v(t.v1), "(0.56970674, 0.9472702, 0.31405813)");
        assert_eq!(v(t.v2), "(0.1380648, 0.3333354, 0.27948457)");
        assert_eq!(v(t.normal), "(0.83664024, 0.9284063, 0.2542084)");
    }
}
