//! Builds a UV sphere as a triangle mesh, encodes it, decodes it and checks
//! that nothing changed on the way.

mod geometry {
    buffa::include_proto!("geometry");
}

use std::f32::consts::PI;

use buffa::Message;
use geometry::{Mesh, Triangle, Vector3};

fn vector(x: f32, y: f32, z: f32) -> Vector3 {
    Vector3 {
        x,
        y,
        z,
        ..Default::default()
    }
}

fn sub(a: &Vector3, b: &Vector3) -> Vector3 {
    vector(a.x - b.x, a.y - b.y, a.z - b.z)
}

fn normal(a: &Vector3, b: &Vector3, c: &Vector3) -> Vector3 {
    let (u, v) = (sub(b, a), sub(c, a));
    let n = vector(
        u.y * v.z - u.z * v.y,
        u.z * v.x - u.x * v.z,
        u.x * v.y - u.y * v.x,
    );
    let len = (n.x * n.x + n.y * n.y + n.z * n.z)
        .sqrt()
        .max(f32::MIN_POSITIVE);
    vector(n.x / len, n.y / len, n.z / len)
}

/// A sphere of radius 1 made of `rings` x `segments` quads, two triangles
/// each.
fn sphere(rings: u32, segments: u32) -> Mesh {
    let point = |ring: u32, segment: u32| {
        let theta = PI * ring as f32 / rings as f32;
        let phi = 2.0 * PI * segment as f32 / segments as f32;
        vector(
            theta.sin() * phi.cos(),
            theta.cos(),
            theta.sin() * phi.sin(),
        )
    };
    let mut triangles = Vec::new();
    for ring in 0..rings {
        for segment in 0..segments {
            let (a, b) = (point(ring, segment), point(ring + 1, segment));
            let (c, d) = (point(ring + 1, segment + 1), point(ring, segment + 1));
            for [v0, v1, v2] in [[a.clone(), b, c.clone()], [a, c, d]] {
                let n = normal(&v0, &v1, &v2);
                triangles.push(Triangle {
                    v0: v0.into(),
                    v1: v1.into(),
                    v2: v2.into(),
                    normal: n.into(),
                    ..Default::default()
                });
            }
        }
    }
    Mesh {
        name: "uv-sphere".into(),
        triangles,
        ..Default::default()
    }
}

fn main() -> Result<(), buffa::DecodeError> {
    let mesh = sphere(64, 128);
    let bytes = mesh.encode_to_vec();
    println!(
        "{}: {} triangles, {} bytes encoded ({:.1} bytes per triangle)",
        mesh.name,
        mesh.triangles.len(),
        bytes.len(),
        bytes.len() as f64 / mesh.triangles.len() as f64
    );
    println!(
        "size_of::<Triangle>() = {} bytes: its four Vector3 fields are stored inline",
        std::mem::size_of::<Triangle>()
    );

    let decoded = Mesh::decode_from_slice(&bytes)?;
    assert_eq!(
        decoded, mesh,
        "the mesh changed in an encode/decode round trip"
    );
    let first = &decoded.triangles[0];
    println!(
        "first triangle: v0 = ({:.3}, {:.3}, {:.3}), normal = ({:.3}, {:.3}, {:.3})",
        first.v0.x, first.v0.y, first.v0.z, first.normal.x, first.normal.y, first.normal.z
    );
    println!("decoded mesh equals the original");
    Ok(())
}
