//! Extension declarations (`extensions 4 to 9 [declaration = {...}]`): a
//! message's ranges may declare the extensions they will hold, and what
//! they declare must be well formed. C++ checks it on every file it
//! builds, from a `.proto` or a descriptor set alike.

use std::collections::HashSet;

use buffa_types::google::protobuf::DescriptorProto;
use buffa_types::google::protobuf::extension_range_options::VerificationState;

/// One problem with the declarations of a message's extension range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeclarationError {
    /// The index of the range in the message's `extension_range`.
    pub range: usize,
    /// Whether the problem is a declaration's number (outside the range,
    /// or declared twice), which protoc locates at the range; it locates
    /// the others nowhere.
    pub about_number: bool,
    /// protoc's message.
    pub message: String,
}

/// The problems with the declarations of `message`'s extension ranges, in
/// protoc's order: each number inside its range and declared once in it,
/// each full name declared once in the message, both a full name and a
/// type unless the declaration is only `reserved`, names fully qualified
/// (a leading dot) and made of identifiers, and no declarations in a range
/// marked `UNVERIFIED` (protoc checks no further range after that one).
///
/// ```
/// use buffa_descriptor::rules::extension_declarations;
/// use buffa_types::google::protobuf::descriptor_proto::ExtensionRange;
/// use buffa_types::google::protobuf::extension_range_options::Declaration;
/// use buffa_types::google::protobuf::{DescriptorProto, ExtensionRangeOptions};
///
/// let declaration = Declaration {
///     number: Some(0),
///     full_name: Some(".p.a".into()),
///     r#type: Some("int32".into()),
///     ..Default::default()
/// };
/// let message = DescriptorProto {
///     extension_range: vec![ExtensionRange {
///         start: Some(100),
///         end: Some(201),
///         options: ExtensionRangeOptions {
///             declaration: vec![declaration],
///             ..Default::default()
///         }
///         .into(),
///         ..Default::default()
///     }],
///     ..Default::default()
/// };
/// let errors = extension_declarations(&message);
/// assert_eq!(
///     errors[0].message,
///     "Extension declaration number 0 is not in the extension range."
/// );
/// assert!(errors[0].about_number);
/// ```
pub fn extension_declarations(message: &DescriptorProto) -> Vec<DeclarationError> {
    let mut errors = Vec::new();
    let mut names: HashSet<&str> = HashSet::new();
    for (i, range) in message.extension_range.iter().enumerate() {
        let Some(options) = range.options.as_option() else {
            continue;
        };
        if options.declaration.is_empty() {
            continue;
        }
        let mut error = |about_number: bool, message: String| {
            errors.push(DeclarationError {
                range: i,
                about_number,
                message,
            });
        };
        if options.verification == Some(VerificationState::Unverified) {
            error(
                false,
                "Cannot mark the extension range as UNVERIFIED when it has extension(s) \
                 declared."
                    .to_owned(),
            );
            break;
        }
        let mut numbers = HashSet::new();
        for declaration in &options.declaration {
            let number = declaration.number();
            if number < range.start() || number >= range.end() {
                error(
                    true,
                    format!("Extension declaration number {number} is not in the extension range."),
                );
            }
            if !numbers.insert(number) {
                error(
                    true,
                    format!("Extension declaration number {number} is declared multiple times."),
                );
            }
            let (Some(full_name), Some(type_name)) = (&declaration.full_name, &declaration.r#type)
            else {
                if declaration.full_name.is_some() != declaration.r#type.is_some()
                    || !declaration.reserved()
                {
                    error(
                        false,
                        format!(
                            "Extension declaration #{number} should have both \"full_name\" \
                             and \"type\" set."
                        ),
                    );
                }
                continue;
            };
            if !names.insert(full_name) {
                error(
                    false,
                    format!("Extension field name \"{full_name}\" is declared multiple times."),
                );
                break;
            }
            if let Some(message) = symbol_error(full_name) {
                error(false, message);
            }
            if !is_scalar_type_name(type_name)
                && let Some(message) = symbol_error(type_name)
            {
                error(false, message);
            }
        }
    }
    errors
}

/// What is wrong with a declared full name or message type: it must be
/// fully qualified (a leading dot) and made of identifiers.
fn symbol_error(symbol: &str) -> Option<String> {
    let Some(rest) = symbol.strip_prefix('.') else {
        return Some(format!(
            "\"{symbol}\" must have a leading dot to indicate the fully-qualified scope."
        ));
    };
    let valid = !rest.is_empty()
        && rest.split('.').all(|part| {
            !part.is_empty() && part.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
        });
    (!valid).then(|| format!("\"{symbol}\" contains invalid identifiers."))
}

/// Whether a declaration's `type` names a scalar type (or any enum, as
/// `enum`) rather than a message or enum by its full name.
pub fn is_scalar_type_name(name: &str) -> bool {
    matches!(
        name,
        "double"
            | "float"
            | "int64"
            | "uint64"
            | "int32"
            | "fixed32"
            | "fixed64"
            | "bool"
            | "string"
            | "bytes"
            | "uint32"
            | "enum"
            | "sfixed32"
            | "sfixed64"
            | "sint32"
            | "sint64"
    )
}
