//! Hosts: each agent's hook protocol, and the exit-code protocol for plugin callers.

pub mod exit;
