//! curl's URL globbing, read as curl reads it (red team 8, C8-curlglob and C8-curlfile).
//!
//! Without `-g`/`--globoff`, curl expands `{a,b,c}` lists and `[a-z]` / `[1-10]` /
//! `[001-100:5]` ranges in each URL into one request per combination, and fills `#1`, `#2`
//! in an `-o` name with the text each glob took. So `curl -o '.claude/#1'
//! 'https://h/{settings.json}'` writes `.claude/settings.json`, and `curl
//! 'file:///p/.en[v-v]'` reads `/p/.env`. polc expands the same way, up to [`MAX_URLS`]
//! combinations; past the bound (or for a glob it cannot read) the text is unknown: a
//! pattern, never a name that is allowed for certain.

/// Combinations expanded at most; past it a glob's text is unknown.
pub const MAX_URLS: usize = 64;

/// One glob of a URL: the texts it takes, or `None` when there are too many to list.
type Glob = Option<Vec<Vec<u8>>>;

/// A URL split at its globs: literal pieces around each glob, in order.
struct Split {
    pieces: Vec<Vec<u8>>,
    globs: Vec<Glob>,
}

/// A `[a-z]`, `[0-9]`, `[001-100:5]` range's texts (zero-padded like its first bound), or
/// `None` past the bound; not a range at all (`[::1]`, an IPv6 host) → `Err`.
fn range(body: &[u8]) -> Result<Glob, ()> {
    let (body, step) = match body.iter().position(|&b| b == b':') {
        Some(i) => {
            let s = std::str::from_utf8(&body[i + 1..]).map_err(|_| ())?;
            (&body[..i], s.parse::<u64>().map_err(|_| ())?.max(1))
        }
        None => (body, 1),
    };
    let dash = body.iter().position(|&b| b == b'-').ok_or(())?;
    let (a, b) = (&body[..dash], &body[dash + 1..]);
    if a.len() == 1 && b.len() == 1 && a[0].is_ascii_alphabetic() && b[0].is_ascii_alphabetic() {
        if a[0] > b[0] {
            return Err(());
        }
        let n = (b[0] - a[0]) as u64 / step + 1;
        if n as usize > MAX_URLS {
            return Ok(None);
        }
        return Ok(Some(
            (a[0]..=b[0])
                .step_by(step as usize)
                .map(|c| vec![c])
                .collect(),
        ));
    }
    if a.is_empty() || !a.iter().chain(b).all(u8::is_ascii_digit) || b.is_empty() {
        return Err(());
    }
    let parse = |t: &[u8]| std::str::from_utf8(t).ok()?.parse::<u64>().ok();
    let (Some(lo), Some(hi)) = (parse(a), parse(b)) else {
        return Ok(None);
    };
    if lo > hi {
        return Err(());
    }
    if (hi - lo) / step + 1 > MAX_URLS as u64 {
        return Ok(None);
    }
    let width = if a.len() > 1 && a[0] == b'0' {
        a.len()
    } else {
        0
    };
    Ok(Some(
        (lo..=hi)
            .step_by(step as usize)
            .map(|v| format!("{v:0width$}").into_bytes())
            .collect(),
    ))
}

/// Splits a URL at its globs (curl's syntax: `\` escapes a glob character).
fn split(url: &[u8]) -> Split {
    let mut out = Split {
        pieces: vec![Vec::new()],
        globs: Vec::new(),
    };
    let mut i = 0;
    while i < url.len() {
        let c = url[i];
        if c == b'\\' && i + 1 < url.len() && matches!(url[i + 1], b'{' | b'}' | b'[' | b']') {
            out.pieces.last_mut().unwrap().push(url[i + 1]);
            i += 2;
            continue;
        }
        let close = match c {
            b'{' => url[i + 1..].iter().position(|&b| b == b'}'),
            b'[' => url[i + 1..].iter().position(|&b| b == b']'),
            _ => None,
        };
        let Some(len) = close else {
            out.pieces.last_mut().unwrap().push(c);
            i += 1;
            continue;
        };
        let body = &url[i + 1..i + 1 + len];
        let glob = if c == b'{' {
            let alts: Vec<Vec<u8>> = body.split(|&b| b == b',').map(<[u8]>::to_vec).collect();
            Ok((alts.len() <= MAX_URLS).then_some(alts))
        } else {
            range(body)
        };
        match glob {
            Ok(g) => {
                out.globs.push(g);
                out.pieces.push(Vec::new());
            }
            // Not a glob (`[::1]`): literal text.
            Err(()) => out
                .pieces
                .last_mut()
                .unwrap()
                .extend_from_slice(&url[i..i + len + 2]),
        }
        i += len + 2;
    }
    out
}

/// The globs of a URL, in order (empty when it has none).
fn globs(url: &[u8]) -> Vec<Glob> {
    split(url).globs
}

/// Every URL curl makes of `url` (itself when it has no glob); `None` past [`MAX_URLS`] or
/// for a glob too large to list.
pub fn expand(url: &[u8]) -> Option<Vec<Vec<u8>>> {
    let s = split(url);
    let mut out: Vec<Vec<u8>> = vec![s.pieces[0].clone()];
    for (g, piece) in s.globs.iter().zip(&s.pieces[1..]) {
        let alts = g.as_ref()?;
        if out.len() * alts.len() > MAX_URLS {
            return None;
        }
        out = out
            .iter()
            .flat_map(|u| {
                alts.iter().map(move |a| {
                    let mut v = u.clone();
                    v.extend_from_slice(a);
                    v.extend_from_slice(piece);
                    v
                })
            })
            .collect();
    }
    Some(out)
}

/// The names an `-o` name with `#N` takes, given the request's URLs: each `#N` filled with
/// every text the N-th glob of any URL takes. An `#N` polc cannot fill (no such glob, a
/// glob too large, past [`MAX_URLS`] names) becomes `unknown` (a byte the caller reads as
/// "any text"). A name without `#N` is returned as is.
pub fn output_names(name: &[u8], urls: &[&[u8]], unknown: u8) -> Vec<Vec<u8>> {
    let all: Vec<Vec<Glob>> = urls.iter().map(|u| globs(u)).collect();
    let texts = |n: usize| -> Glob {
        let mut v: Vec<Vec<u8>> = Vec::new();
        for g in all.iter().filter_map(|gs| gs.get(n.checked_sub(1)?)) {
            for t in g.as_ref()? {
                if !v.contains(t) {
                    v.push(t.clone());
                }
            }
        }
        (!v.is_empty() && v.len() <= MAX_URLS).then_some(v)
    };
    let mut out: Vec<Vec<u8>> = vec![Vec::new()];
    let mut i = 0;
    while i < name.len() {
        let digits = name[i + 1..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count();
        if name[i] != b'#' || digits == 0 {
            out.iter_mut().for_each(|o| o.push(name[i]));
            i += 1;
            continue;
        }
        let n: usize = std::str::from_utf8(&name[i + 1..i + 1 + digits])
            .ok()
            .and_then(|t| t.parse().ok())
            .unwrap_or(0);
        match texts(n).filter(|t| out.len() * t.len() <= MAX_URLS) {
            Some(t) => {
                out = out
                    .iter()
                    .flat_map(|o| {
                        t.iter().map(move |x| {
                            let mut v = o.clone();
                            v.extend_from_slice(x);
                            v
                        })
                    })
                    .collect()
            }
            None => out.iter_mut().for_each(|o| o.push(unknown)),
        }
        i += 1 + digits;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &[Vec<u8>]) -> Vec<String> {
        v.iter()
            .map(|x| String::from_utf8_lossy(x).replace('\u{FFFD}', "*"))
            .collect()
    }

    #[test]
    fn urls_expand_like_curl() {
        let e = |u: &str| expand(u.as_bytes()).map(|v| s(&v));
        assert_eq!(
            e("https://h/{a,b}/x"),
            Some(vec!["https://h/a/x".into(), "https://h/b/x".into()])
        );
        assert_eq!(e("file:///p/.en[v-v]"), Some(vec!["file:///p/.env".into()]));
        assert_eq!(e("file:///p/{.env}"), Some(vec!["file:///p/.env".into()]));
        assert_eq!(
            e("file:///p/.env{,}"),
            Some(vec!["file:///p/.env".into(), "file:///p/.env".into()])
        );
        assert_eq!(
            e("https://{docs.rs,bad.org}/x").unwrap()[1],
            "https://bad.org/x"
        );
        assert_eq!(
            e("http://h/[1-3]").unwrap(),
            ["http://h/1", "http://h/2", "http://h/3"]
        );
        assert_eq!(e("http://h/[001-003]").unwrap()[0], "http://h/001");
        assert_eq!(
            e("http://h/[a-e:2]").unwrap(),
            ["http://h/a", "http://h/c", "http://h/e"]
        );
        // Not globs: an IPv6 host, an escaped brace, no closing bracket.
        assert_eq!(e("http://[::1]:8080/x").unwrap(), ["http://[::1]:8080/x"]);
        assert_eq!(e("http://h/\\{a,b\\}").unwrap(), ["http://h/{a,b}"]);
        assert_eq!(e("http://h/{a").unwrap(), ["http://h/{a"]);
        // Past the bound: not listed.
        assert_eq!(e("http://h/[1-1000]"), None);
        assert_eq!(e("http://h/[a-z][a-z]"), None);
    }

    #[test]
    fn output_names_take_each_globs_text() {
        let o = |n: &str, u: &[&str]| {
            let urls: Vec<&[u8]> = u.iter().map(|x| x.as_bytes()).collect();
            s(&output_names(n.as_bytes(), &urls, 0xFF))
        };
        assert_eq!(
            o(".claude/#1", &["https://x/{settings.json}"]),
            [".claude/settings.json"]
        );
        assert_eq!(
            o(".claude/#1", &["https://x/{settings.json,x}"]),
            [".claude/settings.json", ".claude/x"]
        );
        assert_eq!(
            o(".cl#1/settings.json", &["https://x/{aude}"]),
            [".claude/settings.json"]
        );
        assert_eq!(
            o("#1/#2", &["https://x/{.claude}/{settings.json}"]),
            [".claude/settings.json"]
        );
        assert_eq!(
            o(".claude/#1", &["https://x/[a-c]"]),
            [".claude/a", ".claude/b", ".claude/c"]
        );
        // No such glob, too many: any text.
        assert_eq!(o(".claude/#2", &["https://x/{a}"]), [".claude/*"]);
        assert_eq!(o(".claude/#1", &["https://x/[1-1000]"]), [".claude/*"]);
        assert_eq!(o("plain", &["https://x/{a}"]), ["plain"]);
        assert_eq!(o("a#b", &["https://x/{a}"]), ["a#b"]);
    }
}
