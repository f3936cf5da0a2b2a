//! TOML read with positions (toml_edit), for Gemini CLI policies, Codex and Vibe configs.

use super::{Import, Native};
use toml_edit::{Item, TableLike, Value};

/// Parse a native TOML file; a syntax error is reported at its position, in the agent's
/// terms.
pub fn parse(
    n: &Native,
    imp: &mut Import,
    what_agent_does: &str,
) -> Option<toml_edit::Document<String>> {
    match toml_edit::Document::parse(n.src.text.clone()) {
        Ok(d) => Some(d),
        Err(e) => {
            let (s, end) = e.span().map_or((0, 0), |r| (r.start, r.end));
            imp.error(
                n,
                s,
                end.max(s + 1),
                format!("TOML syntax error: {}", e.message().trim()),
                what_agent_does,
            );
            None
        }
    }
}

/// A value of a table-like by key, with the key's start offset.
pub fn field<'a>(t: &'a dyn TableLike, key: &str) -> Option<(&'a Item, usize, usize)> {
    let (k, v) = t.get_key_value(key)?;
    let (s, e) = k
        .span()
        .or_else(|| v.span())
        .map_or((0, 0), |r| (r.start, r.end));
    Some((v, s, e))
}

/// The span of an item (0..0 when unknown).
pub fn span(i: &Item) -> (usize, usize) {
    i.span().map_or((0, 0), |r| (r.start, r.end))
}

pub fn vspan(v: &Value) -> (usize, usize) {
    v.span().map_or((0, 0), |r| (r.start, r.end))
}

/// The tables of an array of tables (`[[rule]]`) or an array of inline tables.
pub fn tables(i: &Item) -> Vec<(&dyn TableLike, usize, usize)> {
    let mut out: Vec<(&dyn TableLike, usize, usize)> = Vec::new();
    if let Some(a) = i.as_array_of_tables() {
        for t in a.iter() {
            let (s, e) = t.span().map_or((0, 0), |r| (r.start, r.end));
            out.push((t as &dyn TableLike, s, e));
        }
    } else if let Some(a) = i.as_array() {
        for v in a.iter() {
            if let Some(t) = v.as_inline_table() {
                let (s, e) = vspan(v);
                out.push((t as &dyn TableLike, s, e));
            }
        }
    }
    out
}

/// A string or an array of strings, with positions; None for another type.
pub fn str_list(i: &Item) -> Option<Vec<(String, usize, usize)>> {
    if let Some(s) = i.as_str() {
        let (a, b) = span(i);
        return Some(vec![(s.to_string(), a, b)]);
    }
    let arr = i.as_array()?;
    let mut out = Vec::new();
    for v in arr.iter() {
        let s = v.as_str()?;
        let (a, b) = vspan(v);
        out.push((s.to_string(), a, b));
    }
    Some(out)
}
