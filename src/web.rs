//! Domain rules for web tools (SPEC §3): the host of a URL after normalisation, matched
//! against `example.com` (that host) or `*.example.com` (any subdomain, any depth, not the
//! apex). Used for `webfetch` calls and for URLs in `curl`/`wget` commands.

/// The normalised host of a URL (or of a bare `host/path`): userinfo and port removed,
/// percent-decoded, full-width and ideographic dots folded, trailing dot removed, IDNA to
/// ASCII, lowercase. None when there is no host.
pub fn url_host(url: &str) -> Option<String> {
    let u = url.trim();
    let rest = match u.find("://") {
        Some(i) => &u[i + 3..],
        None => u.strip_prefix("//").unwrap_or(u),
    };
    let end = rest.find(['/', '?', '#', '\\']).unwrap_or(rest.len());
    let authority = &rest[..end];
    let hostport = authority
        .rsplit_once('@')
        .map(|(_, h)| h)
        .unwrap_or(authority);
    let host = if let Some(v6) = hostport.strip_prefix('[') {
        v6.split(']').next().unwrap_or("")
    } else {
        hostport
            .rsplit_once(':')
            .filter(|(_, p)| p.bytes().all(|b| b.is_ascii_digit()))
            .map(|(h, _)| h)
            .unwrap_or(hostport)
    };
    normalise_host(host)
}

/// Normalise a host name as written in a URL or a rule.
pub fn normalise_host(host: &str) -> Option<String> {
    let decoded = percent_decode(host);
    let folded: String = decoded
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
    // A host polc cannot read as a domain (or an IP literal) is no host: callers treat a
    // deny/ask domain rule as possibly matching it.
    let ascii = idna::domain_to_ascii(trimmed).ok()?.to_ascii_lowercase();
    let valid = ascii
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'_'))
        || (ascii.contains(':')
            && ascii
                .bytes()
                .all(|b| b.is_ascii_hexdigit() || matches!(b, b':' | b'.')));
    valid.then_some(ascii)
}

fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' && i + 2 < b.len() {
            let hex = |c: u8| (c as char).to_digit(16);
            if let (Some(h), Some(l)) = (hex(b[i + 1]), hex(b[i + 2])) {
                out.push((h * 16 + l) as u8);
                i += 3;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Does a domain rule (`example.com`, `*.example.com`, with or without `domain:`) match
/// this normalised host?
pub fn domain_matches(rule: &str, host: &str) -> bool {
    let r = rule.trim().strip_prefix("domain:").unwrap_or(rule.trim());
    if r == "*" {
        return true;
    }
    if let Some(base) = r.strip_prefix("*.") {
        let Some(base) = normalise_host(base) else {
            return false;
        };
        return host.len() > base.len()
            && host.ends_with(&base)
            && host.as_bytes()[host.len() - base.len() - 1] == b'.';
    }
    normalise_host(r).is_some_and(|n| n == host)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_are_normalised() {
        assert_eq!(url_host("https://Docs.RS/x").as_deref(), Some("docs.rs"));
        assert_eq!(
            url_host("https://user:pw@evil.com:8443/p?q").as_deref(),
            Some("evil.com")
        );
        assert_eq!(url_host("http://evil.com./").as_deref(), Some("evil.com"));
        assert_eq!(url_host("http://evil%2ecom/").as_deref(), Some("evil.com"));
        assert_eq!(
            url_host("http://evil\u{FF0E}com/").as_deref(),
            Some("evil.com")
        );
        assert_eq!(
            url_host("http://evil\u{3002}com/").as_deref(),
            Some("evil.com")
        );
        assert_eq!(
            url_host("http://bücher.example/").as_deref(),
            Some("xn--bcher-kva.example")
        );
        assert_eq!(url_host("evil.com/path").as_deref(), Some("evil.com"));
        assert!(url_host("http://[::1]:80/").is_some());
        assert_eq!(url_host("http:///x"), None);
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
    }
}
