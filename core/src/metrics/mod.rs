//! Graph metrics — placeholder until implemented.
