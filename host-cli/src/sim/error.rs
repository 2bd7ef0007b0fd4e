//! The simulator's error type, shared by the engine and the routers.

/// Error that stops a simulation before it starts or in the middle.
#[derive(Debug)]
pub enum SimError {
    /// Configuration does not fit the network or routing.
    Config(String),
    /// The routing failed for a packet.
    Routing(String),
}

impl std::fmt::Display for SimError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SimError::Config(s) => write!(f, "sim config: {s}"),
            SimError::Routing(s) => write!(f, "sim routing: {s}"),
        }
    }
}

impl std::error::Error for SimError {}
