//! Writes an address book to a file, reads it back and prints it.

mod protos {
    include!(concat!(env!("OUT_DIR"), "/protos.rs"));
}

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use buffa::Message;
use buffa_types::Timestamp;
use protos::tutorial::person::{PhoneNumber, PhoneType};
use protos::tutorial::{AddressBook, Person};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let book = AddressBook {
        people: vec![
            Person {
                name: "Ada Lovelace".into(),
                id: 1,
                email: "ada@example.com".into(),
                phones: vec![PhoneNumber {
                    number: "+44 20 7946 0000".into(),
                    r#type: PhoneType::Mobile.into(),
                    ..Default::default()
                }],
                last_updated: Timestamp::try_from(UNIX_EPOCH + Duration::from_secs(1_700_000_000))?
                    .into(),
                ..Default::default()
            },
            Person {
                name: "Alan Turing".into(),
                id: 2,
                phones: vec![
                    PhoneNumber {
                        number: "+44 161 496 0000".into(),
                        r#type: PhoneType::Work.into(),
                        ..Default::default()
                    },
                    PhoneNumber {
                        number: "+44 161 496 0001".into(),
                        r#type: PhoneType::Home.into(),
                        ..Default::default()
                    },
                ],
                ..Default::default()
            },
        ],
        ..Default::default()
    };

    let path = std::env::temp_dir().join("buffa-addressbook.bin");
    std::fs::write(&path, book.encode_to_vec())?;
    println!(
        "wrote {} people ({} bytes) to {}",
        book.people.len(),
        book.encoded_len(),
        path.display()
    );

    let read = AddressBook::decode_from_slice(&std::fs::read(&path)?)?;
    assert_eq!(
        read, book,
        "the address book changed on its way through the file"
    );
    for person in &read.people {
        println!("{} (id {})", person.name, person.id);
        if !person.email.is_empty() {
            println!("  email: {}", person.email);
        }
        for phone in &person.phones {
            println!("  {:?}: {}", phone.r#type, phone.number);
        }
        if person.last_updated.is_set() {
            let updated = SystemTime::try_from(&*person.last_updated)?;
            println!(
                "  last updated: {} s after the epoch",
                updated.duration_since(UNIX_EPOCH)?.as_secs()
            );
        }
    }
    Ok(())
}
