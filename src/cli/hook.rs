//! `polc hook`: the permission hook (see `src/host/README.md`).

use crate::host::config;
use crate::host::hook::{self, HookArgs};
use crate::host::input::Event;
use crate::host::{Host, HOOK_HOSTS};
use std::path::PathBuf;

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventArg {
    PreToolUse,
    PermissionRequest,
}

pub fn hook(
    host: String,
    event: Option<EventArg>,
    table: Option<PathBuf>,
    print_config: bool,
) -> i32 {
    if print_config {
        let Some(h) = Host::parse_hook(&host) else {
            eprintln!(
                "polc: no hook snippet for `{host}` (hook hosts: {}); plugin callers (openclaw, pi, hermes, opencode) run `polc decide`, see src/host/README.md",
                HOOK_HOSTS.join(", ")
            );
            return 2;
        };
        let exe = std::env::current_exe()
            .and_then(|p| p.canonicalize())
            .map(|p| p.display().to_string())
            .unwrap_or_else(|_| "polc".into());
        let Some((file, json)) = config::snippet(h, &exe) else {
            return 2;
        };
        eprintln!("polc: merge this into {file}");
        println!("{json}");
        return 0;
    }
    hook::run(HookArgs {
        host,
        event: event.map(|e| match e {
            EventArg::PreToolUse => Event::PreToolUse,
            EventArg::PermissionRequest => Event::PermissionRequest,
        }),
        table,
    })
}
