//! The limits and switches of decoding and encoding.
//!
//! Both directions share one set of limits, so that whatever buffa encodes
//! its own decoder accepts under the same options: a message is at most
//! [`MAX_MESSAGE_LEN`] bytes, and messages nest at most
//! [`DEFAULT_RECURSION_LIMIT`] levels deep unless configured otherwise.

/// The default limit on message nesting, for decoding and encoding alike,
/// as in the C++ implementation.
pub const DEFAULT_RECURSION_LIMIT: u32 = 100;

/// The largest message, in bytes, that buffa decodes or encodes: 2 GiB - 1,
/// the limit every protobuf implementation shares.
pub const MAX_MESSAGE_LEN: usize = i32::MAX as usize;

/// Options that bound decoding: how deeply messages may nest and,
/// optionally, how much memory the decoded message may take.
///
/// ```
/// use buffa::DecodeOptions;
///
/// let options = DecodeOptions::new()
///     .with_recursion_limit(32)
///     .with_allocation_limit(Some(1 << 20));
/// assert_eq!(options.recursion_limit(), 32);
/// assert_eq!(options.allocation_limit(), Some(1 << 20));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DecodeOptions {
    recursion_limit: u32,
    allocation_limit: Option<usize>,
}

impl DecodeOptions {
    /// The defaults: a recursion limit of [`DEFAULT_RECURSION_LIMIT`] and no
    /// allocation limit beyond the input's own length bounding it.
    pub const fn new() -> DecodeOptions {
        DecodeOptions {
            recursion_limit: DEFAULT_RECURSION_LIMIT,
            allocation_limit: None,
        }
    }

    /// Sets how deeply messages (groups and map entries included) may nest
    /// before decoding fails with
    /// [`DecodeErrorKind::RecursionLimitExceeded`](crate::DecodeErrorKind::RecursionLimitExceeded).
    pub const fn with_recursion_limit(mut self, limit: u32) -> DecodeOptions {
        self.recursion_limit = limit;
        self
    }

    /// Sets a budget, in bytes, for the memory a decode may allocate, or
    /// `None` (the default) for no budget.
    ///
    /// Every heap allocation decoding makes for a value is charged: the
    /// bytes of each `string`, `bytes` (unless shared with a
    /// [`Bytes`](bytes::Bytes) input) and unknown field, the size of each
    /// repeated element and map entry, and the size of each singular
    /// sub-message stored behind a pointer that allocates (`Box`, not
    /// [`Inline`](crate::Inline); see
    /// [`ProtoBox::ALLOCATES`](crate::ProtoBox::ALLOCATES)). Container
    /// slack (a `Vec` that grew past its length) is not charged, so the
    /// heap a decode actually uses can exceed the budget by the growth
    /// factor of `Vec` and `HashMap`, at most about twice. When the budget
    /// runs out, decoding fails with
    /// [`DecodeErrorKind::AllocationLimitExceeded`](crate::DecodeErrorKind::AllocationLimitExceeded).
    ///
    /// Without a budget, allocation is still bounded by the input: no
    /// length prefix is trusted beyond the bytes that follow it.
    pub const fn with_allocation_limit(mut self, limit: Option<usize>) -> DecodeOptions {
        self.allocation_limit = limit;
        self
    }

    /// The configured recursion limit.
    pub const fn recursion_limit(&self) -> u32 {
        self.recursion_limit
    }

    /// The configured allocation budget, if any.
    pub const fn allocation_limit(&self) -> Option<usize> {
        self.allocation_limit
    }
}

impl Default for DecodeOptions {
    fn default() -> Self {
        DecodeOptions::new()
    }
}

/// Options for encoding: the recursion limit, and whether the output must
/// be deterministic.
///
/// Encoding checks the same limits decoding does, so a message that
/// encodes successfully decodes under the same limits: an encode fails with
/// an [`EncodeError`](crate::EncodeError) when the message is larger than
/// [`MAX_MESSAGE_LEN`] or nests deeper than the recursion limit, instead of
/// writing bytes no decoder would accept (or overflowing the stack).
///
/// ```
/// use buffa::EncodeOptions;
///
/// let options = EncodeOptions::new().with_deterministic(true);
/// assert!(options.deterministic());
/// assert_eq!(options.recursion_limit(), buffa::DEFAULT_RECURSION_LIMIT);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EncodeOptions {
    recursion_limit: u32,
    deterministic: bool,
}

impl EncodeOptions {
    /// The defaults: a recursion limit of [`DEFAULT_RECURSION_LIMIT`],
    /// non-deterministic map order.
    pub const fn new() -> EncodeOptions {
        EncodeOptions {
            recursion_limit: DEFAULT_RECURSION_LIMIT,
            deterministic: false,
        }
    }

    /// Sets how deeply messages (groups included) may nest before encoding
    /// fails with
    /// [`EncodeErrorKind::RecursionLimitExceeded`](crate::EncodeErrorKind::RecursionLimitExceeded).
    /// The top-level message is depth 0, so a limit of 0 allows no nested
    /// message at all.
    pub const fn with_recursion_limit(mut self, limit: u32) -> EncodeOptions {
        self.recursion_limit = limit;
        self
    }

    /// With `true`, map entries are written in ascending key order, so
    /// equal messages encode to equal bytes whatever order their
    /// `HashMap`s iterate in: for hashing, signing or caching encoded
    /// messages. Costs a sort of each map's keys per encode. `BTreeMap`
    /// fields are in key order either way.
    ///
    /// As in the C++ and Go implementations, this is determinism for one
    /// build of one program, not a canonical form: unknown fields are still
    /// written as they were read, and other implementations may order
    /// fields differently.
    pub const fn with_deterministic(mut self, deterministic: bool) -> EncodeOptions {
        self.deterministic = deterministic;
        self
    }

    /// The configured recursion limit.
    pub const fn recursion_limit(&self) -> u32 {
        self.recursion_limit
    }

    /// Whether map entries are written in key order.
    pub const fn deterministic(&self) -> bool {
        self.deterministic
    }
}

impl Default for EncodeOptions {
    fn default() -> Self {
        EncodeOptions::new()
    }
}
