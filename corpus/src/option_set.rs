//! The option sets every package is generated and built with.

use buffa_build::Config;

/// One way a user configures buffa-build.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionSet {
    /// `Config::new()` as it is.
    Default,
    /// Borrowed views and proto3 JSON (`views()`, `json()`).
    ViewsJson,
    /// gRPC services and clients for tonic (`tonic()`).
    Tonic,
    /// Reflection and the embedded descriptor pool (`reflection()`).
    Reflection,
}

impl OptionSet {
    /// Every option set, in report order.
    pub const ALL: [OptionSet; 4] = [
        OptionSet::Default,
        OptionSet::ViewsJson,
        OptionSet::Tonic,
        OptionSet::Reflection,
    ];

    /// The name reports and directories use.
    pub fn name(self) -> &'static str {
        match self {
            OptionSet::Default => "default",
            OptionSet::ViewsJson => "views+json",
            OptionSet::Tonic => "tonic",
            OptionSet::Reflection => "reflection",
        }
    }

    /// The option set called `name`.
    pub fn from_name(name: &str) -> Option<OptionSet> {
        OptionSet::ALL.into_iter().find(|set| set.name() == name)
    }

    /// A configuration with this option set's switches on.
    pub fn config(self) -> Config {
        let mut config = Config::new();
        match self {
            OptionSet::Default => {}
            OptionSet::ViewsJson => {
                config.views().json();
            }
            OptionSet::Tonic => {
                config.tonic();
            }
            OptionSet::Reflection => {
                config.reflection();
            }
        }
        config
    }
}
