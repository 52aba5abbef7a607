//! Code generated with `buffa_path("::buffa_rt")` for a crate that depends
//! on the runtime only as `buffa_rt`; see `build.rs`. The proto2 package
//! `legacy` is tested in `tests/proto2.rs`.

/// The package `renamed` (proto3).
pub mod renamed {
    buffa_rt::include_proto!("renamed");
}

/// The package `legacy` (proto2).
pub mod legacy {
    // `::buffa_rt`, since `buffa_rt` alone now names the module below.
    ::buffa_rt::include_proto!("legacy");

    /// The package `legacy.buffa_rt`, a module named like the runtime crate.
    pub mod buffa_rt {
        ::buffa_rt::include_proto!("legacy.buffa_rt");
    }
}

#[cfg(test)]
mod tests {
    use buffa_rt::bytes::Bytes;
    use buffa_rt::{EnumValue, Message};

    use super::renamed::{Account, Status, account};

    fn profile(city: &str, status: Status) -> account::Profile {
        account::Profile {
            city: city.into(),
            status: EnumValue::Known(status),
            ..Default::default()
        }
    }

    fn account() -> Account {
        Account {
            name: "ann".into(),
            profile: profile("Oslo", Status::Active).into(),
            status: Some(EnumValue::Known(Status::Retired)),
            scores: [("go".to_owned(), 3)].into(),
            contact: Some(account::Contact::Alternate(Box::new(profile(
                "Rome",
                Status::Unspecified,
            )))),
            avatar: Bytes::from_static(&[0xff]),
            ..Default::default()
        }
    }

    /// `account()` encoded by hand, field by field (`protoc --encode`
    /// writes the same bytes).
    const ENCODED: &[u8] = &[
        0x0a, 0x03, b'a', b'n', b'n', // 1: name "ann"
        0x12, 0x08, // 2: profile, 8 bytes
        0x0a, 0x04, b'O', b's', b'l', b'o', // city "Oslo"
        0x10, 0x01, // status ACTIVE
        0x18, 0x02, // 3: status RETIRED
        0x22, 0x06, // 4: scores entry, 6 bytes
        0x0a, 0x02, b'g', b'o', // key "go"
        0x10, 0x03, // value 3
        0x32, 0x06, // 6: alternate, 6 bytes
        0x0a, 0x04, b'R', b'o', b'm', b'e', // city "Rome"
        0x3a, 0x01, 0xff, // 7: avatar
    ];

    #[test]
    fn encodes_to_the_expected_bytes() {
        assert_eq!(account().encode_to_vec(), ENCODED);
    }

    #[test]
    fn decodes_the_expected_bytes() {
        let decoded = Account::decode_from_slice(ENCODED).unwrap();
        assert_eq!(decoded, account());
        assert_eq!(decoded.profile.city, "Oslo");
        assert_eq!(decoded.status(), EnumValue::Known(Status::Retired));
        assert_eq!(decoded.scores["go"], 3);
        // Decoding from `Bytes` shares the input for the `bytes` field and
        // the `BytesStr` one.
        let input = Bytes::from_static(ENCODED);
        let shared = Account::decode(input.clone()).unwrap();
        assert_eq!(shared.avatar.as_ptr(), input[input.len() - 1..].as_ptr());
        let _: &buffa_rt::BytesStr = &shared.profile.city;
        assert_eq!(shared.profile.city.as_ptr(), input[9..].as_ptr());
    }

    #[test]
    fn sub_messages_are_inline() {
        // `unbox_message_fields` made `profile` a `MessageField<_, Inline<_>>`.
        let _: &buffa_rt::MessageField<account::Profile, buffa_rt::Inline<account::Profile>> =
            &account().profile;
    }
}
