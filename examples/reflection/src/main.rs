//! Prints the reflection tour: `cargo run -p reflection`.

fn main() -> Result<(), Box<dyn std::error::Error>> {
    print!("{}", reflection::tour()?);
    Ok(())
}
