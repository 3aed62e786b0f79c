//! The PROXY protocol (version 1, HAProxy's `send-proxy`): a balancer in front of several
//! servers tells each connection's real address in one line before the bytes it relays,
//! so that every per-address limit counts people, not the balancer.
//!
//! Only connections from the configured balancer's address are read this way; the line
//! must come within a few seconds and at most 107 bytes, as the protocol bounds it.

use std::net::{IpAddr, SocketAddr};
use std::time::Duration;
use tokio::io::AsyncReadExt;

/// The longest line the protocol allows, `\r\n` included.
const MAX_LINE: usize = 107;
/// Time the balancer has to send the line.
const WITHIN: Duration = Duration::from_secs(5);

/// Reads the PROXY line at the start of `stream`; the client's address it names (`None`
/// for `PROXY UNKNOWN`, the balancer's own check, or for a connection of the balancer's
/// host that starts with anything else: an operator's `curl` on the node, say).
pub async fn read_header(stream: &mut tokio::net::TcpStream) -> Result<Option<SocketAddr>, String> {
    const SIGN: &[u8] = b"PROXY ";
    let mut first = [0u8; 6];
    let peeked = async {
        loop {
            let n = stream.peek(&mut first).await.map_err(|e| e.to_string())?;
            if n == 0 {
                return Err("closed before a byte".to_string());
            }
            if first[..n] != SIGN[..n] {
                return Ok(false);
            }
            if n == SIGN.len() {
                return Ok(true);
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    };
    let proxied = tokio::time::timeout(WITHIN, peeked)
        .await
        .map_err(|_| "no PROXY line in time".to_string())??;
    if !proxied {
        return Ok(None);
    }
    let mut line = Vec::with_capacity(MAX_LINE);
    let read = async {
        loop {
            let b = stream.read_u8().await.map_err(|e| e.to_string())?;
            line.push(b);
            if line.ends_with(b"\r\n") {
                return Ok(());
            }
            if line.len() >= MAX_LINE {
                return Err("a PROXY line longer than 107 bytes".to_string());
            }
        }
    };
    tokio::time::timeout(WITHIN, read)
        .await
        .map_err(|_| "no PROXY line in time".to_string())??;
    parse(&line)
}

/// The address a PROXY v1 line names: `PROXY TCP4 src dst sport dport\r\n`.
pub fn parse(line: &[u8]) -> Result<Option<SocketAddr>, String> {
    let text = std::str::from_utf8(line)
        .ok()
        .and_then(|t| t.strip_suffix("\r\n"))
        .ok_or("a PROXY line that is not text ending in CRLF")?;
    let parts: Vec<&str> = text.split(' ').collect();
    match parts.as_slice() {
        ["PROXY", "UNKNOWN", ..] => Ok(None),
        ["PROXY", family @ ("TCP4" | "TCP6"), src, _dst, sport, _dport] => {
            let ip: IpAddr = src
                .parse()
                .map_err(|_| format!("`{src}` is not an address"))?;
            if (*family == "TCP4") != ip.is_ipv4() {
                return Err(format!("`{src}` is not a {family} address"));
            }
            let port: u16 = sport
                .parse()
                .map_err(|_| format!("`{sport}` is not a port"))?;
            Ok(Some(SocketAddr::new(ip, port)))
        }
        _ => Err(format!("`{text}` is not a PROXY line")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_proxy_line_names_the_client() {
        assert_eq!(
            parse(b"PROXY TCP4 192.0.2.7 127.0.0.1 51234 8081\r\n").unwrap(),
            Some("192.0.2.7:51234".parse().unwrap())
        );
        assert_eq!(
            parse(b"PROXY TCP6 2001:db8::1 ::1 4000 8081\r\n").unwrap(),
            Some("[2001:db8::1]:4000".parse().unwrap())
        );
        assert_eq!(parse(b"PROXY UNKNOWN\r\n").unwrap(), None);
    }

    #[test]
    fn anything_else_is_refused() {
        for bad in [
            &b"GET / HTTP/1.1\r\n"[..],
            b"PROXY TCP4 192.0.2.7 127.0.0.1 51234\r\n",
            b"PROXY TCP4 ::1 ::1 1 2\r\n",
            b"PROXY TCP4 192.0.2.7 127.0.0.1 99999 8081\r\n",
            b"PROXY TCP4 192.0.2.7 127.0.0.1 1 2",
        ] {
            assert!(parse(bad).is_err(), "{}", String::from_utf8_lossy(bad));
        }
    }
}
