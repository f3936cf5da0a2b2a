//! Mistral Vibe `pre_tool`: the host owns approval. Deny → `{"decision":"deny","reason":R}`;
//! allow and default → no output (Vibe's own policy runs next). An ask arrives here already
//! turned into a deny (a Vibe hook cannot prompt). The error row is the deny answer, exit 0.

use super::answer::{clip, js, json, silent, Answer, Kind, Rendered};

pub fn render(a: &Answer) -> Rendered {
    match a.kind {
        Kind::Deny | Kind::Ask => json(format!(
            r#"{{"decision":"deny","reason":{}}}"#,
            js(&clip(&a.reason))
        )),
        Kind::Allow | Kind::Default => silent(),
    }
}

pub fn error(reason: &str) -> Rendered {
    let mut r = render(&Answer {
        kind: Kind::Deny,
        reason: reason.into(),
    });
    r.stderr = Some(clip(reason));
    r
}
