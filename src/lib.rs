//! polc — a declarative policy compiler for AI coding agents' permission hooks.
//!
//! One direction of flow:
//!
//! ```text
//! text (.pol, permcheck.json) ─ syntax (pest) ─▶ AST ─ lower ─▶ ir::Policy ─ compile ─▶ sections
//! sections ─ table (header, bincode meta, raw sections) ─▶ compiled/policy.bin
//! policy.bin ─ table::load (mmap, verify) ─▶ engine ─ decide ─▶ Outcome ─ host ─▶ stdout + exit
//! ```
//!
//! Shared vocabularies every stage reads: `hosts` (what is known about each agent) and
//! `tools` (canonical tool names and every agent's names for them). From tables to a
//! decision there is one entry point, `runtime::entry::decide`.
//!
//! The top-level modules import one another in one direction (no cycle; `sh
//! scripts/module-graph.sh --check` in CI prints the arrows and fails on a cycle).

pub mod claude_validator;
pub mod cli;
#[cfg(feature = "compiler")]
pub mod compile;
pub mod content;
pub mod fileio;
#[cfg(feature = "compiler")]
pub mod fmt;
pub mod host;
pub mod hosts;
#[cfg(feature = "compiler")]
pub mod import;
pub mod ir;
#[cfg(feature = "compiler")]
pub mod lint;
#[cfg(feature = "compiler")]
pub mod lower;
pub mod paths;
pub mod pattern;
pub mod places;
pub mod runtime;
pub mod session;
pub mod shell;
#[cfg(feature = "compiler")]
pub mod syntax;
pub mod table;
pub mod tools;
pub mod web;
