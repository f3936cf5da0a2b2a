//! The session's starting directory, for hosts that do not name the project: the first
//! `cwd` seen for a session id, recorded in `<config dir>/sessions` (one `id<TAB>dir` a
//! line, newest last, capped). The config dir is a protected path, so an agent cannot
//! rewrite where its session started.

use std::io::Write;
use std::path::{Path, PathBuf};

pub const SESSIONS_FILE: &str = "sessions";
const MAX_LINES: usize = 2000;

/// The recorded start of `sid`, recording `cwd` as the start when the session is new.
/// None when nothing can be read or recorded (the caller falls back to `cwd`).
pub fn start_dir(config: &Path, sid: &str, cwd: &Path) -> Option<PathBuf> {
    if sid.is_empty() || sid.len() > 256 || sid.contains(['\t', '\n', '\r']) {
        return None;
    }
    let file = config.join(SESSIONS_FILE);
    let text = std::fs::read_to_string(&file).unwrap_or_default();
    for line in text.lines() {
        if let Some((id, dir)) = line.split_once('\t') {
            if id == sid && Path::new(dir).is_absolute() {
                return Some(PathBuf::from(dir));
            }
        }
    }
    let dir = cwd.to_str().filter(|d| !d.contains(['\n', '\r']))?;
    let mut lines: Vec<&str> = text.lines().collect();
    let line = format!("{sid}\t{dir}");
    lines.push(&line);
    let skip = lines.len().saturating_sub(MAX_LINES);
    std::fs::create_dir_all(config).ok()?;
    let tmp = config.join(format!("{SESSIONS_FILE}.tmp{}", std::process::id()));
    {
        let mut f = std::fs::File::create(&tmp).ok()?;
        for l in &lines[skip..] {
            writeln!(f, "{l}").ok()?;
        }
    }
    std::fs::rename(&tmp, &file).ok()?;
    Some(cwd.to_path_buf())
}
