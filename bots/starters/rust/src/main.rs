//! Monsoon starter bot in Rust, standard library only.
//!
//! Speaks the JSON-lines bot protocol (docs/bot-protocol.md): one JSON object per line on
//! stdin, one answer per line on stdout. Diagnostics go to stderr, never stdout. It plays any of
//! the four games: each request lists the legal actions, and the bot picks one uniformly at
//! random. Replace `choose_action` with your own strategy.
//!
//! There is no JSON crate here (crates.io may be out of reach): a small scanner finds the
//! top-level fields the bot needs and keeps every value as its raw JSON text, so an action is
//! sent back exactly as it arrived.
//!
//! Build: cargo build --release && cp target/release/mybot mybot

use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};
use std::io::{self, BufRead, Write};

mod json {
    /// The index of the first non-blank byte at or after `at`.
    pub fn skip_space(text: &[u8], mut at: usize) -> usize {
        while at < text.len() && matches!(text[at], b' ' | b'\t' | b'\n' | b'\r') {
            at += 1;
        }
        at
    }

    /// The index just past the JSON value starting at `at` (any value, nested to any depth).
    pub fn skip_value(text: &[u8], at: usize) -> Result<usize, String> {
        let mut at = skip_space(text, at);
        let first = *text.get(at).ok_or("unexpected end of JSON")?;
        match first {
            b'"' => {
                at += 1;
                while at < text.len() {
                    match text[at] {
                        b'\\' => at += 2, // the escaped character (\uXXXX needs nothing more)
                        b'"' => return Ok(at + 1),
                        _ => at += 1,
                    }
                }
                Err("unterminated JSON string".into())
            }
            b'[' | b'{' => {
                let close = if first == b'[' { b']' } else { b'}' };
                at = skip_space(text, at + 1);
                if text.get(at) == Some(&close) {
                    return Ok(at + 1);
                }
                loop {
                    if first == b'{' {
                        at = skip_space(text, skip_value(text, at)?);
                        if text.get(at) != Some(&b':') {
                            return Err("expected ':' in JSON".into());
                        }
                        at += 1;
                    }
                    at = skip_space(text, skip_value(text, at)?);
                    match text.get(at) {
                        Some(&c) if c == close => return Ok(at + 1),
                        Some(b',') => at += 1,
                        _ => return Err("expected ',' in JSON".into()),
                    }
                }
            }
            _ => {
                let start = at;
                while at < text.len()
                    && !matches!(text[at], b',' | b'}' | b']' | b' ' | b'\t' | b'\r' | b'\n')
                {
                    at += 1;
                }
                if at == start {
                    Err("expected a JSON value".into())
                } else {
                    Ok(at)
                }
            }
        }
    }

    /// The raw JSON text of the top-level field `key` of an object, None when it is absent.
    /// Keys are compared as written: the protocol's keys contain no escapes.
    pub fn field<'a>(object: &'a str, key: &str) -> Result<Option<&'a str>, String> {
        let text = object.as_bytes();
        let quoted = format!("\"{key}\"");
        let mut at = skip_space(text, 0);
        if text.get(at) != Some(&b'{') {
            return Err("expected a JSON object".into());
        }
        at = skip_space(text, at + 1);
        if text.get(at) == Some(&b'}') {
            return Ok(None);
        }
        loop {
            let key_end = skip_value(text, at)?;
            let wanted = &object[at..key_end] == quoted;
            at = skip_space(text, key_end);
            if text.get(at) != Some(&b':') {
                return Err("expected ':' in JSON".into());
            }
            let value_start = skip_space(text, at + 1);
            let value_end = skip_value(text, value_start)?;
            if wanted {
                return Ok(Some(&object[value_start..value_end]));
            }
            at = skip_space(text, value_end);
            if text.get(at) != Some(&b',') {
                return Ok(None);
            }
            at = skip_space(text, at + 1);
        }
    }

    /// The raw JSON text of each element of an array.
    pub fn items(array: &str) -> Result<Vec<&str>, String> {
        let text = array.as_bytes();
        let mut result = Vec::new();
        let mut at = skip_space(text, 0);
        if text.get(at) != Some(&b'[') {
            return Err("expected a JSON array".into());
        }
        at = skip_space(text, at + 1);
        if text.get(at) == Some(&b']') {
            return Ok(result);
        }
        loop {
            let end = skip_value(text, at)?;
            result.push(&array[at..end]);
            at = skip_space(text, end);
            if text.get(at) != Some(&b',') {
                return Ok(result);
            }
            at = skip_space(text, at + 1);
        }
    }
}

/// xorshift64*: std has no random numbers; the seed comes from the OS through `RandomState`.
struct Rng(u64);

impl Rng {
    fn from_os() -> Rng {
        let mut hasher = RandomState::new().build_hasher();
        hasher.write_u64(std::process::id() as u64);
        Rng(hasher.finish() | 1)
    }

    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) % n as u64) as usize
    }
}

/// `observation`: the raw JSON of what your seat may know (docs/games/*.md); `legal_actions`:
/// the raw JSON of each legal action (never empty). Return one of them unchanged.
fn choose_action<'a>(rng: &mut Rng, _observation: &str, legal_actions: &[&'a str]) -> &'a str {
    legal_actions[rng.below(legal_actions.len())]
}

fn main() -> Result<(), String> {
    let mut rng = Rng::from_os();
    let stdin = io::stdin();
    let mut stdout = io::stdout().lock();
    for line in stdin.lock().lines() {
        let line = line.map_err(|e| e.to_string())?;
        if line.trim().is_empty() {
            continue;
        }
        match json::field(&line, "type")? {
            Some("\"start\"") => {
                let protocol = json::field(&line, "protocol")?;
                if protocol != Some("1") {
                    eprintln!("this bot speaks protocol 1, the runner {protocol:?}");
                }
                writeln!(stdout, "{{\"ready\": true}}").map_err(|e| e.to_string())?;
            }
            Some("\"request\"") => {
                let legal = json::items(json::field(&line, "legal_actions")?.unwrap_or("[]"))?;
                if legal.is_empty() {
                    return Err("a request without legal actions".into());
                }
                let observation = json::field(&line, "observation")?.unwrap_or("{}");
                let action = choose_action(&mut rng, observation, &legal);
                writeln!(stdout, "{{\"action\": {action}}}").map_err(|e| e.to_string())?;
            }
            Some("\"end\"") => {
                eprintln!("result: ranking {}", json::field(&line, "ranking")?.unwrap_or("?"));
                if json::field(&line, "next")? != Some("true") {
                    break;
                }
                // The worker keeps this process for another match ("matches": "many" in
                // monsoon.json): say so, then write nothing until the next "start" arrives.
                writeln!(stdout, "{{\"done\": true}}").map_err(|e| e.to_string())?;
            }
            _ => continue, // unknown types are ignored (version 1 may add optional ones)
        }
        // Flush every answer: stdout is a pipe, and a buffered answer never reaches the runner.
        stdout.flush().map_err(|e| e.to_string())?;
    }
    Ok(())
}
