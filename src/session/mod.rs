//! Session-aware decisions (issue 14): denial limits, sequence rules with an interrupt, and
//! the per-session state they need. See `README.md` here.

pub mod audit;
pub mod check;
pub mod record;
pub mod store;
