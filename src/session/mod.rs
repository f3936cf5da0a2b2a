//! Session-aware decisions (issue 14): denial limits, sequence rules with an interrupt, and
//! the per-session state they need. See `README.md` here.

pub mod audit;
pub mod check;
#[cfg(feature = "compiler")]
pub mod compile;
#[cfg(feature = "compiler")]
pub mod examples;
pub mod hook;
pub mod policy;
pub mod record;
pub mod remember;
pub mod rewrite;
pub mod store;
