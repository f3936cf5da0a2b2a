//! Domain rules for web tools (docs/contract.md#c-web, issue 8 class 6): the hosts a URL can name, matched
//! against `example.com` (that host) or `*.example.com` (any subdomain, any depth, not the
//! apex). Used for `webfetch` calls and for URLs in `curl`/`wget` commands alike — this file
//! is the one place polc reads URLs.
//!
//! A URL string is read more than one way, because the parsers that will fetch it disagree:
//!
//! 1. **WHATWG** (the `url` crate; browsers, Node's `fetch`, most agents' web tools): tabs and
//!    newlines anywhere are dropped, `\` is a `/` in special schemes, any number of slashes
//!    may follow `https:` (`https:/evil.com`, `https:\\evil.com` name `evil.com`), IPv4 hosts
//!    in hex/octal/short forms (`0x7f.1`) are numbers.
//! 2. **The fetching program's guess** when there is no `://` (curl and wget prepend
//!    `http://`: `evil.com/x`, `evil.com:8080`), read by WHATWG after the prefix.
//! 3. **Split at the authority** as curl, wget and Python's `urllib` do: after the scheme and
//!    its slashes, the authority runs to the first `/`, `?` or `#` (a `\` does not end it),
//!    the host follows the *last* `@` (so `http://ok.com\@evil.com` is `evil.com` here and
//!    `ok.com` in reading 1).
//!
//! [`url_hosts`] returns every reading's normalised host, `None` for a reading with no host
//! polc can read. A deny or ask domain rule matches if any reading names a host it covers
//! (and possibly matches — at least ask — when a reading has no host); an allow needs every
//! reading to name a host it covers.

use url::Host;

/// Every reading of `s` as a URL (see the module docs): the normalised host each names, or
/// None when a reading has no host polc can read. Never empty; duplicates removed.
pub fn url_hosts(s: &str) -> Vec<Option<String>> {
    let mut out: Vec<Option<String>> = Vec::with_capacity(3);
    let mut push = |h: Option<String>| {
        if !out.contains(&h) {
            out.push(h);
        }
    };
    let has_sep = s.contains("://");
    match url::Url::parse(s) {
        Ok(u) => push(host_of(&u)),
        // A relative URL (no scheme) is not a WHATWG reading of its own: the fetcher's guess
        // below is how it is fetched. Any other failure (a bad host) is a reading without
        // a host.
        Err(url::ParseError::RelativeUrlWithoutBase) => {}
        Err(_) => push(None),
    }
    if !has_sep {
        match url::Url::parse(&format!("http://{}", s.trim_start())) {
            Ok(u) => push(host_of(&u)),
            Err(_) => push(None),
        }
    }
    push(split_host(s));
    out
}

/// The normalised host of a parsed URL.
fn host_of(u: &url::Url) -> Option<String> {
    match u.host()? {
        Host::Domain(d) => normalise_host(d),
        Host::Ipv4(a) => Some(a.to_string()),
        Host::Ipv6(a) => Some(ipv6(a)),
    }
}

/// An IPv6 address as text; an IPv4-mapped one (`::ffff:127.0.0.1`) is its IPv4 address,
/// which is where a dual-stack socket connects.
fn ipv6(a: std::net::Ipv6Addr) -> String {
    match a.to_ipv4_mapped() {
        Some(v4) => v4.to_string(),
        None => a.to_string(),
    }
}

/// Reading 3: the authority up to `/`, `?` or `#`, the host after its last `@`.
fn split_host(s: &str) -> Option<String> {
    let u = s.trim_matches(|c: char| c.is_ascii_whitespace() || c.is_ascii_control());
    let rest = match u.find("://") {
        Some(i) => &u[i + 3..],
        None => {
            let scheme_end = u
                .find(':')
                .filter(|&i| {
                    i > 0
                        && u.as_bytes()[0].is_ascii_alphabetic()
                        && u[..i]
                            .bytes()
                            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'))
                        && u[i + 1..].starts_with('/')
                })
                .map(|i| i + 1);
            match scheme_end {
                Some(e) => u[e..].trim_start_matches('/'),
                None => u.strip_prefix("//").unwrap_or(u),
            }
        }
    };
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let authority = &rest[..end];
    let hostport = authority
        .rsplit_once('@')
        .map(|(_, h)| h)
        .unwrap_or(authority);
    let host = if hostport.starts_with('[') {
        match hostport.find(']') {
            Some(i) => &hostport[..=i],
            None => return None,
        }
    } else {
        hostport
            .rsplit_once(':')
            .filter(|(_, p)| p.bytes().all(|b| b.is_ascii_digit()))
            .map(|(h, _)| h)
            .unwrap_or(hostport)
    };
    normalise_host(host)
}

/// Normalise a host name as written in a URL or a rule: WHATWG host parsing (percent-
/// decoding, IDNA/UTS-46 mapping — full-width and ideographic dots, case — to ASCII, IPv4
/// forms to dotted decimal, IPv6 compressed without brackets), trailing dots removed. None
/// when it is not a host polc can read (callers treat a deny/ask domain rule as possibly
/// matching it).
pub fn normalise_host(host: &str) -> Option<String> {
    // U+FF0E, U+3002 and U+FF61 are dots for IDNA; fold them first so a trailing one is
    // trimmed like `.` (the URL parser would otherwise reject `evil.com。` as empty-label).
    let folded: String = host
        .chars()
        .map(|c| match c {
            '\u{FF0E}' | '\u{3002}' | '\u{FF61}' => '.',
            c => c,
        })
        .collect();
    let trimmed = folded.trim_end_matches('.');
    if trimmed.is_empty() {
        return None;
    }
    let h = match Host::parse(trimmed).ok()? {
        Host::Domain(d) => d,
        Host::Ipv4(a) => return Some(a.to_string()),
        Host::Ipv6(a) => return Some(ipv6(a)),
    };
    // Percent-decoding can reveal a trailing dot (`evil.com%2e`).
    let h = h.trim_end_matches('.').to_ascii_lowercase();
    if h.is_empty() {
        return None;
    }
    // After decoding the host may read as an IPv4 address (`0x7f%2e1`).
    if let Ok(Host::Ipv4(a)) = Host::parse(&h) {
        return Some(a.to_string());
    }
    let valid = h
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'_'));
    valid.then_some(h)
}

/// A domain rule, normalised once.
enum RuleHost {
    /// `*`: every host.
    Any,
    /// That host.
    Host(String),
    /// `*.base`: any subdomain of base, not base itself.
    Under(String),
}

/// Read a domain rule (`*`, `host`, `*.host`, optionally after `domain:`); None when it is
/// not one polc can read.
fn rule_host(rule: &str) -> Option<RuleHost> {
    let r = rule.trim().strip_prefix("domain:").unwrap_or(rule.trim());
    // A `/` is a forbidden host code point that no step of `normalise_host` removes (it
    // is no dot, survives percent-decoding and IDNA mapping): a URL written where a domain
    // belongs (`https://x.example/*`) is unreadable without parsing it, once per rule and
    // call (`slash_is_never_a_host` holds the shortcut to the parser's answer).
    if r.contains('/') {
        return None;
    }
    if r == "*" {
        return Some(RuleHost::Any);
    }
    match r.strip_prefix("*.") {
        Some(base) => normalise_host(base).map(RuleHost::Under),
        None => normalise_host(r).map(RuleHost::Host),
    }
}

fn covers(rh: &RuleHost, host: &str) -> bool {
    match rh {
        RuleHost::Any => true,
        RuleHost::Host(h) => h == host,
        RuleHost::Under(base) => {
            host.len() > base.len()
                && host.ends_with(base.as_str())
                && host.as_bytes()[host.len() - base.len() - 1] == b'.'
        }
    }
}

/// Does a domain rule (`example.com`, `*.example.com`, with or without `domain:`) match
/// this normalised host?
pub fn domain_matches(rule: &str, host: &str) -> bool {
    rule_host(rule).is_some_and(|rh| covers(&rh, host))
}

/// Is this a domain rule polc can read (`*`, `host`, `*.host`, optionally after `domain:`)?
pub fn readable_rule(rule: &str) -> bool {
    rule_host(rule).is_some()
}

/// The key a domain rule is filed under in the tool index (issue 16): `=host` for a host,
/// `.base` for `*.base`. None — the rule is tried for every URL — for `*`, a rule polc
/// cannot read as a domain, and any name that is not plain lowercase-able ASCII (letters,
/// digits, `-`, dots between labels; no `xn--` label; the last label starting with a letter,
/// so never an IPv4 form): only for those is the key, computed when the table is built, the
/// very host the deciding polc's URL parser makes of the rule.
pub fn rule_index_key(rule: &str) -> Option<Vec<u8>> {
    let r = rule.trim().strip_prefix("domain:").unwrap_or(rule.trim());
    let (mark, name) = match r.strip_prefix("*.") {
        Some(base) => (b'.', base),
        None => (b'=', r),
    };
    let lower = name.trim_end_matches('.').to_ascii_lowercase();
    let labels_ok = lower.split('.').all(|l| {
        !l.is_empty()
            && !l.starts_with("xn--")
            && l.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
    });
    let last_ok = lower
        .rsplit('.')
        .next()
        .and_then(|l| l.bytes().next())
        .is_some_and(|b| b.is_ascii_alphabetic());
    if !labels_ok || !last_ok || normalise_host(name).as_deref() != Some(lower.as_str()) {
        return None;
    }
    let mut k = vec![mark];
    k.extend_from_slice(lower.as_bytes());
    Some(k)
}

/// The keys a URL's domain rules can be filed under ([`rule_index_key`]): for the host of
/// every reading, `=host` and `.base` for each `base` that follows a dot in it (what a
/// `*.base` rule covers). None when a reading has no host polc can read: then every deny or
/// ask domain rule possibly matches, and all of them are tried.
pub fn url_index_keys(url: &str) -> Option<Vec<Vec<u8>>> {
    let hosts = url_hosts_cached(url);
    let mut out: Vec<Vec<u8>> = Vec::new();
    for h in hosts.iter() {
        let h = h.as_deref()?.as_bytes();
        let mut k = vec![b'='];
        k.extend_from_slice(h);
        out.push(k);
        for (i, &b) in h.iter().enumerate() {
            if b == b'.' {
                let mut k = vec![b'.'];
                k.extend_from_slice(&h[i + 1..]);
                out.push(k);
            }
        }
    }
    out.sort();
    out.dedup();
    Some(out)
}

/// A URL's readings, shared.
type Readings = std::rc::Rc<Vec<Option<String>>>;

thread_local! {
    /// The last URL's readings: a decision asks every domain rule about the same URL.
    static LAST: std::cell::RefCell<Option<(String, Readings)>> =
        const { std::cell::RefCell::new(None) };
}

/// [`url_hosts`], computed once for consecutive questions about the same URL.
fn url_hosts_cached(s: &str) -> Readings {
    LAST.with(|c| {
        if let Some((k, v)) = c.borrow().as_ref() {
            if k == s {
                return v.clone();
            }
        }
        let v = std::rc::Rc::new(url_hosts(s));
        *c.borrow_mut() = Some((s.to_string(), v.clone()));
        v
    })
}

/// How a domain rule meets a URL over all its readings: for deny/ask, `Some(true)` when a
/// reading names a covered host (definite), `Some(false)` when none does but a reading has
/// no readable host (possible), None otherwise; for allow, `Some(true)` only when every
/// reading names a covered host.
///
/// A rule polc cannot read as a domain (`https://evil.com/*`: a URL, not a host) possibly
/// matches every URL for deny/ask and never for allow: dropping a deny would fail open.
pub fn rule_meets_url(rule: &str, url: &str, allow: bool) -> Option<bool> {
    let Some(rh) = rule_host(rule) else {
        return (!allow).then_some(false);
    };
    let hosts = url_hosts_cached(url);
    if allow {
        let all = hosts
            .iter()
            .all(|h| h.as_deref().is_some_and(|h| covers(&rh, h)));
        return all.then_some(true);
    }
    if hosts.iter().flatten().any(|h| covers(&rh, h.as_str())) {
        Some(true)
    } else if hosts.iter().any(Option::is_none) {
        Some(false)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The hosts of every reading, None shown as "-".
    fn hosts(u: &str) -> Vec<String> {
        url_hosts(u)
            .into_iter()
            .map(|h| h.unwrap_or_else(|| "-".into()))
            .collect()
    }

    fn only(u: &str) -> Option<String> {
        let h = url_hosts(u);
        assert_eq!(h.len(), 1, "{u:?} has readings {h:?}");
        h[0].clone()
    }

    #[test]
    fn hosts_are_normalised() {
        assert_eq!(only("https://Docs.RS/x").as_deref(), Some("docs.rs"));
        assert_eq!(
            only("https://user:pw@evil.com:8443/p?q").as_deref(),
            Some("evil.com")
        );
        assert_eq!(only("http://evil.com./").as_deref(), Some("evil.com"));
        assert_eq!(only("http://evil%2ecom/").as_deref(), Some("evil.com"));
        assert_eq!(only("http://evil\u{FF0E}com/").as_deref(), Some("evil.com"));
        assert_eq!(only("http://evil\u{3002}com/").as_deref(), Some("evil.com"));
        assert_eq!(
            only("http://bücher.example/").as_deref(),
            Some("xn--bcher-kva.example")
        );
        assert_eq!(only("evil.com/path").as_deref(), Some("evil.com"));
        assert_eq!(only("http://[::1]:80/").as_deref(), Some("::1"));
        // WHATWG skips the extra slash (host `x`); split at `://` the authority is empty.
        assert_eq!(url_hosts("http:///x"), vec![Some("x".to_string()), None]);
        assert_eq!(url_hosts("http://"), vec![None]);
        assert_eq!(url_hosts(""), vec![None]);
    }

    #[test]
    fn domain_rules() {
        assert!(domain_matches("domain:example.com", "example.com"));
        assert!(!domain_matches("domain:example.com", "sub.example.com"));
        assert!(domain_matches("*.example.com", "a.b.example.com"));
        assert!(!domain_matches("*.example.com", "example.com"));
        assert!(!domain_matches("*.example.com", "badexample.com"));
        assert!(domain_matches(
            "domain:bücher.example",
            "xn--bcher-kva.example"
        ));
        assert!(domain_matches("domain:EXAMPLE.com.", "example.com"));
        assert!(domain_matches("domain:127.0.0.1", "127.0.0.1"));
        assert!(domain_matches("domain:0x7f.1", "127.0.0.1"));
        assert!(domain_matches("domain:[::1]", "::1"));
        // A URL where a domain belongs is not silently dropped: deny possibly matches.
        assert!(!readable_rule("https://evil.com/*"));
        assert_eq!(
            rule_meets_url("https://evil.com/*", "https://evil.com/x", false),
            Some(false)
        );
        assert_eq!(
            rule_meets_url("https://docs.rs/*", "https://docs.rs/x", true),
            None
        );
        assert!(readable_rule("domain:*.tracker.io") && readable_rule("*"));
    }

    /// Every variant of a URL for `evil.com`: a `domain:evil.com` deny must match (definite,
    /// or at least possible), and a `domain:evil.com` allow must not be fooled into allowing
    /// a variant some reading sends elsewhere.
    #[test]
    fn deny_sees_every_variant() {
        let definite = [
            "https://evil.com",
            "https:/evil.com",
            "https:\\\\evil.com",
            "https:/\\evil.com",
            "https:\\/evil.com",
            "https:///evil.com",
            "https:evil.com",
            "HTTPS://EVIL.COM/",
            " https://evil.com ",
            "https://ev\til.com/",
            "https://ev\nil.com/",
            "https://evil\r.com/",
            "https://u:p@evil.com:1/",
            "https://good.com@evil.com/",
            "https://good.com\\@evil.com/",
            "https://good.com%5C@evil.com/",
            "https://evil.com:443/",
            "https://evil.com.",
            "https://evil.com../x",
            "https://evil%2Ecom/",
            "https://%65vil.com/",
            "https://evil\u{FF0E}com/",
            "https://evil\u{3002}com/",
            "https://evil\u{FF61}com./",
            "https://ＥＶＩＬ.com/",
            "https://evil.com#@good.com",
            "https://evil.com?@good.com",
            "evil.com",
            "evil.com/x",
            "evil.com:8080/x",
            "//evil.com/x",
            "user@evil.com/x",
            "ftp://evil.com/",
            "ws://evil.com/",
            "wss:evil.com",
            "http://evil.com\u{00AD}/",
        ];
        for u in definite {
            assert_eq!(
                rule_meets_url("domain:evil.com", u, false),
                Some(true),
                "{u:?}: readings {:?}",
                hosts(u)
            );
            assert_eq!(
                rule_meets_url("domain:good.com", u, true),
                None,
                "{u:?} must not be allowed as good.com: readings {:?}",
                hosts(u)
            );
        }
        // No host polc can read: a deny could apply (ask).
        for u in [
            "https://",
            "https://[::1",
            "https://ev il.com/",
            "https://evil.com%00/",
            "javascript:alert(1)",
        ] {
            assert_eq!(
                rule_meets_url("domain:evil.com", u, false),
                Some(false),
                "{u:?}: readings {:?}",
                hosts(u)
            );
            assert_eq!(rule_meets_url("domain:evil.com", u, true), None, "{u:?}");
        }
    }

    #[test]
    fn ip_forms_are_one_host() {
        for u in [
            "http://127.0.0.1/",
            "http://0x7f.1/",
            "http://0x7f000001/",
            "http://2130706433/",
            "http://0177.0.0.1/",
            "http://127.1/",
            "http://127.0.0.1./",
            "http://0x7f%2e1/",
            "127.1:80",
        ] {
            assert_eq!(
                rule_meets_url("domain:127.0.0.1", u, false),
                Some(true),
                "{u:?}: {:?}",
                hosts(u)
            );
        }
        for u in ["http://[::1]/", "http://[0:0::1]/", "http://[::0001]:8/"] {
            assert_eq!(rule_meets_url("domain:[::1]", u, false), Some(true), "{u}");
        }
        assert_eq!(
            rule_meets_url("domain:[::1]", "http://[::ffff:127.0.0.1]/", false),
            None
        );
        for u in ["http://[::ffff:127.0.0.1]/", "http://[::ffff:7f00:1]:80/"] {
            assert_eq!(
                rule_meets_url("domain:127.0.0.1", u, false),
                Some(true),
                "{u}"
            );
        }
    }

    #[test]
    fn allows_need_every_reading() {
        for u in [
            "https://docs.rs/x",
            "https://DOCS.rs./x",
            "docs.rs/x",
            "https://docs.rs:443/a?b#c",
            "https://u@docs.rs/",
        ] {
            assert_eq!(
                rule_meets_url("domain:docs.rs", u, true),
                Some(true),
                "{u:?}: {:?}",
                hosts(u)
            );
        }
        for u in [
            "https://docs.rs\\@evil.com/",
            "https://evil.com\\@docs.rs/",
            "https:/docs.rs",
            "docs.rs:443",
            "https://docs.rs.evil.com/",
            "https://docs.rs%2F@evil.com/",
        ] {
            assert_eq!(
                rule_meets_url("domain:docs.rs", u, true),
                None,
                "{u:?}: {:?}",
                hosts(u)
            );
        }
        assert_eq!(
            rule_meets_url("*.docs.rs", "https://a.docs.rs/", true),
            Some(true)
        );
    }

    /// A scheme and its separator (every spelling WHATWG accepts for the authority), or a
    /// scheme-less start (`//`, nothing): what comes before the authority.
    fn leads() -> Vec<String> {
        let mut v = vec!["//".to_string(), String::new()];
        for scheme in ["https", "http", "HTTPS", "ftp", "ws", "wss"] {
            for sep in ["://", ":/", ":\\\\", ":/\\", ":\\/", ":", ":///"] {
                v.push(format!("{scheme}{sep}"));
            }
        }
        v
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig { cases: 3000, ..Default::default() })]
        /// URLs built from a scheme, a separator, userinfo, a spelling of the denied host
        /// (or an IPv4 form of a denied address), a port and a path: a deny always matches
        /// (at least possibly), and an allow for the decoy host never does.
        #[test]
        fn every_spelling_of_a_denied_host_is_seen(
            lead in proptest::sample::select(leads()),
            user in proptest::sample::select(vec!["", "u@", "u:p@", "good.com@", "good.com\\@", "good.com%40x@", "@"]),
            host in proptest::sample::select(vec![
                ("evil.com", "evil.com"), ("EVIL.COM", "evil.com"), ("evil.com.", "evil.com"),
                ("evil%2ecom", "evil.com"), ("evil\u{FF0E}com", "evil.com"), ("ev\til.com", "evil.com"),
                ("ev\nil.com", "evil.com"), ("%65vil.com", "evil.com"), ("ＥＶＩＬ.com", "evil.com"),
                ("127.0.0.1", "127.0.0.1"), ("0x7f.1", "127.0.0.1"), ("2130706433", "127.0.0.1"),
                ("0177.0.0.1", "127.0.0.1"), ("127.1", "127.0.0.1"), ("0x7F.0.0.1.", "127.0.0.1"),
                ("[::1]", "[::1]"), ("[0::1]", "[::1]"), ("[::ffff:127.0.0.1]", "127.0.0.1"),
                ("[::FFFF:7f00:1]", "127.0.0.1"),
            ]),
            port in proptest::sample::select(vec!["", ":80", ":0", ":65535"]),
            path in proptest::sample::select(vec!["", "/", "/x?y#z", "\\x", "?@good.com", "#@good.com", "/@good.com"]),
        ) {
            let (spelled, canonical) = host;
            let u = format!("{lead}{user}{spelled}{port}{path}");
            let rule = format!("domain:{canonical}");
            proptest::prop_assert!(
                rule_meets_url(&rule, &u, false).is_some(),
                "{:?} escapes a deny on {}: readings {:?}", u, canonical, url_hosts(&u)
            );
            proptest::prop_assert_eq!(rule_meets_url("domain:good.com", &u, true), None, "{:?}", u);
        }

        /// The `/` shortcut of `rule_host` gives the parser's answer.
        #[test]
        fn slash_is_never_a_host(a in "\\PC{0,12}|[a-z0-9.%:\\[\\]/*-]{0,12}", b in "\\PC{0,12}|[a-z0-9.%/*-]{0,12}") {
            for r in [format!("{a}/{b}"), format!("*.{a}/{b}"), format!("{a}%2F/{b}")] {
                proptest::prop_assert_eq!(normalise_host(&r), None, "{:?}", r);
            }
        }

        /// Any string: readings never empty, never a panic, and an allow implies no deny
        /// reading names another host.
        #[test]
        fn any_string_has_readings(s in "\\PC{0,40}|[a-z:/\\\\@.%0-9\\[\\]]{0,30}") {
            let hosts = url_hosts(&s);
            proptest::prop_assert!(!hosts.is_empty());
            if rule_meets_url("domain:docs.rs", &s, true).is_some() {
                proptest::prop_assert!(hosts.iter().all(|h| h.as_deref() == Some("docs.rs")));
            }
        }
    }
}
