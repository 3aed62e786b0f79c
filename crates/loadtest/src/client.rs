//! A small blocking HTTP/1.1 client for `tapete loadtest` and the tests: one request per
//! connection (`Connection: close`), plain `http://` only, JSON or text bodies. tapete only
//! ever talks to its own server this way, so a full client library is not worth its build.

use serde_json::Value;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

/// The most an answer may carry; anything longer is refused as an error.
const MAX_ANSWER: u64 = 64 << 20;
/// How long connecting, sending and each read may take.
const TIMEOUT: Duration = Duration::from_secs(30);

/// One answer: its status, headers (names in lower case) and body.
#[derive(Clone, Debug)]
pub struct Response {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Response {
    /// The first header of this name (any case), if any.
    pub fn header(&self, name: &str) -> Option<&str> {
        let name = name.to_ascii_lowercase();
        self.headers
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The body as text (invalid UTF-8 replaced).
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    /// The body as JSON.
    pub fn json(&self) -> Result<Value, String> {
        serde_json::from_slice(&self.body).map_err(|e| format!("the answer is not JSON: {e}"))
    }
}

/// `GET url`.
pub fn get(url: &str) -> Result<Response, String> {
    request("GET", url, &[], None)
}

/// [`request`] as the player whose token is `token`, if any (`Authorization: Bearer …`).
pub fn request_as(
    method: &str,
    url: &str,
    token: Option<&str>,
    body: Option<&Value>,
) -> Result<Response, String> {
    let auth = token.map(|t| format!("Bearer {t}"));
    let headers: Vec<(&str, &str)> = auth.iter().map(|a| ("Authorization", a.as_str())).collect();
    request(method, url, &headers, body)
}

/// Sends one request (with a JSON body if given) and reads the whole answer, whatever its
/// status. An error is a failure to connect, send or read, in words.
pub fn request(
    method: &str,
    url: &str,
    headers: &[(&str, &str)],
    body: Option<&Value>,
) -> Result<Response, String> {
    request_from(None, method, url, headers, body)
}

/// [`request`] as a balancer relays it for the client at `client`: the connection opens
/// with the PROXY protocol's line naming that address (for a server run with `--proxy`
/// naming this host), or with nothing for `None`.
pub fn request_from(
    client: Option<std::net::SocketAddr>,
    method: &str,
    url: &str,
    headers: &[(&str, &str)],
    body: Option<&Value>,
) -> Result<Response, String> {
    let rest = url
        .strip_prefix("http://")
        .ok_or_else(|| format!("{url}: only http:// addresses are supported"))?;
    let (host, path) = match rest.find('/') {
        Some(i) => (&rest[..i], &rest[i..]),
        None => (rest, "/"),
    };
    let addr = std::net::ToSocketAddrs::to_socket_addrs(host)
        .map_err(|e| format!("{url}: {e}"))?
        .next()
        .ok_or_else(|| format!("{url}: no address"))?;
    let mut stream =
        TcpStream::connect_timeout(&addr, TIMEOUT).map_err(|e| format!("{url}: {e}"))?;
    stream.set_read_timeout(Some(TIMEOUT)).ok();
    stream.set_write_timeout(Some(TIMEOUT)).ok();
    let body = body.map(|b| b.to_string().into_bytes());
    let path = encode_path(path);
    let mut head = format!("{method} {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n");
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    if let Some(b) = &body {
        head.push_str(&format!(
            "Content-Type: application/json\r\nContent-Length: {}\r\n",
            b.len()
        ));
    }
    head.push_str("\r\n");
    let mut out = client
        .map(|c| proxy_line(c, addr).into_bytes())
        .unwrap_or_default();
    out.extend(head.into_bytes());
    out.extend(body.unwrap_or_default());
    stream.write_all(&out).map_err(|e| format!("{url}: {e}"))?;
    let mut raw = Vec::new();
    stream
        .take(MAX_ANSWER + 1)
        .read_to_end(&mut raw)
        .map_err(|e| format!("{url}: {e}"))?;
    if raw.len() as u64 > MAX_ANSWER {
        return Err(format!(
            "{url}: the answer is longer than {MAX_ANSWER} bytes"
        ));
    }
    parse(&raw).map_err(|e| format!("{url}: {e}"))
}

/// The PROXY protocol's line (version 1) saying a connection to `server` comes from `client`.
pub fn proxy_line(client: std::net::SocketAddr, server: std::net::SocketAddr) -> String {
    let family = if client.is_ipv4() { "TCP4" } else { "TCP6" };
    format!(
        "PROXY {family} {} {} {} {}\r\n",
        client.ip(),
        server.ip(),
        client.port(),
        server.port()
    )
}

/// `path` with every byte a request line may not carry as it is percent-encoded.
fn encode_path(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for b in path.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:@/?%".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Splits a whole HTTP/1.1 answer into status, headers and (de-chunked) body.
fn parse(raw: &[u8]) -> Result<Response, String> {
    let end = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .ok_or("the answer ended before its headers did")?;
    let head = std::str::from_utf8(&raw[..end]).map_err(|_| "headers are not text")?;
    let mut lines = head.split("\r\n");
    let status_line = lines.next().unwrap_or_default();
    let status = status_line
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| format!("a bad status line: {status_line:?}"))?;
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    let rest = &raw[end + 4..];
    let chunked = headers
        .iter()
        .any(|(n, v)| n == "transfer-encoding" && v.eq_ignore_ascii_case("chunked"));
    let body = if chunked {
        dechunk(rest)?
    } else {
        match headers.iter().find(|(n, _)| n == "content-length") {
            Some((_, v)) => {
                let n: usize = v.parse().map_err(|_| "a bad content-length")?;
                rest.get(..n).ok_or("the answer ended early")?.to_vec()
            }
            None => rest.to_vec(),
        }
    };
    Ok(Response {
        status,
        headers,
        body,
    })
}

/// The body of a chunked answer.
fn dechunk(mut rest: &[u8]) -> Result<Vec<u8>, String> {
    let mut body = Vec::new();
    loop {
        let eol = rest
            .windows(2)
            .position(|w| w == b"\r\n")
            .ok_or("a chunk without its size line")?;
        let size = std::str::from_utf8(&rest[..eol]).map_err(|_| "a bad chunk size")?;
        let size = usize::from_str_radix(size.split(';').next().unwrap_or("").trim(), 16)
            .map_err(|_| format!("a bad chunk size {size:?}"))?;
        rest = &rest[eol + 2..];
        if size == 0 {
            return Ok(body);
        }
        body.extend_from_slice(rest.get(..size).ok_or("the answer ended inside a chunk")?);
        rest = rest
            .get(size + 2..)
            .ok_or("the answer ended after a chunk")?;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_plain_and_chunked_answers() {
        let plain =
            parse(b"HTTP/1.1 404 Not Found\r\nContent-Length: 2\r\nX-A: b\r\n\r\nhi").unwrap();
        assert_eq!((plain.status, plain.text().as_str()), (404, "hi"));
        assert_eq!(plain.header("x-a"), Some("b"));
        let chunked =
            parse(b"HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n")
                .unwrap();
        assert_eq!(chunked.text(), "abcde");
        assert!(parse(b"HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\nabc").is_err());
        assert!(parse(b"HTTP/1.1 200").is_err());
    }

    #[test]
    fn paths_are_sent_percent_encoded() {
        assert_eq!(
            encode_path("/x<script> ñ?a=1"),
            "/x%3Cscript%3E%20%C3%B1?a=1"
        );
    }
}
