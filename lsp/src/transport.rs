//! LSP's base protocol over any byte streams (stdio for editors): `Content-Length` framed JSON-RPC.
//!
//! `lsp-server`'s own stdio transport ends the connection at the first malformed message; this one
//! survives garbage. A message that is not JSON-RPC is logged and answered with a JSON-RPC error
//! where it has a request id; a body that is not UTF-8 is decoded lossily (the document then holds
//! U+FFFD, which the lexer reports); a header without a usable length is skipped up to the next
//! blank line; a body longer than [`MAX_MESSAGE_BYTES`] is read, dropped and logged. Only the end of
//! the input (or an I/O error) ends the reader.

use crossbeam_channel::{Receiver, Sender};
use lsp_server::{Message, Notification};
use std::io::{BufRead, Read, Write};

/// The longest message body read (a document of this size is far beyond what the front end is for).
pub const MAX_MESSAGE_BYTES: usize = 256 << 20;

/// The notification the reader sends the server for a request it could not read
/// (`{"id": ..., "message": ...}`): the server answers it with an error.
pub const INVALID_REQUEST: &str = "$/arrayc/invalidRequest";

/// Reads messages from `input` and sends them to `to_server` until the input ends or the server is
/// gone. A request it cannot read becomes an [`INVALID_REQUEST`] notification.
pub fn read_loop(mut input: impl BufRead, to_server: Sender<Message>) {
    loop {
        let mut length: Option<usize> = None;
        let mut header_lines = 0;
        loop {
            let mut line = Vec::new();
            match input.read_until(b'\n', &mut line) {
                Ok(0) | Err(_) => return,
                Ok(_) => {}
            }
            let line = String::from_utf8_lossy(&line);
            let line = line.trim();
            if line.is_empty() {
                if header_lines > 0 {
                    break;
                }
                continue;
            }
            header_lines += 1;
            if let Some((name, value)) = line.split_once(':') {
                if name.trim().eq_ignore_ascii_case("content-length") {
                    length = value.trim().parse().ok();
                }
            }
        }
        let Some(length) = length else {
            crate::log("skipped a message header without a valid Content-Length");
            continue;
        };
        let mut body = vec![0u8; length.min(MAX_MESSAGE_BYTES)];
        if input.read_exact(&mut body).is_err() {
            return;
        }
        if length > MAX_MESSAGE_BYTES {
            let skipped =
                std::io::copy(&mut (&mut input).take((length - MAX_MESSAGE_BYTES) as u64), &mut std::io::sink());
            crate::log(&format!("dropped a message of {length} bytes (the limit is {MAX_MESSAGE_BYTES})"));
            if skipped.is_err() {
                return;
            }
            continue;
        }
        let text = String::from_utf8_lossy(&body);
        match serde_json::from_str::<Message>(&text) {
            Ok(msg) => {
                if to_server.send(msg).is_err() {
                    return;
                }
            }
            Err(e) => {
                crate::log(&format!("ignored a message that is not JSON-RPC ({e})"));
                // A request we cannot read still gets an answer, so the client does not wait forever.
                let id = serde_json::from_str::<serde_json::Value>(&text).ok().and_then(|v| v.get("id").cloned());
                if let Some(id) = id.filter(|id| id.is_string() || id.is_i64()) {
                    let params = serde_json::json!({ "id": id, "message": format!("invalid request: {e}") });
                    if to_server.send(Notification::new(INVALID_REQUEST.into(), params).into()).is_err() {
                        return;
                    }
                }
            }
        }
    }
}

/// Writes every message of `from_server` to `output` until the channel closes, writing fails, or
/// `stop` fires; then the messages already queued are written and the loop returns. (Background
/// work may still hold a sender when the client exits: `stop` ends the loop without waiting for it.)
pub fn write_loop(mut output: impl Write, from_server: Receiver<Message>, stop: Receiver<()>) {
    let mut write = |msg: &Message| msg.write(&mut output).and_then(|()| output.flush()).is_ok();
    loop {
        crossbeam_channel::select! {
            recv(from_server) -> msg => match msg {
                Ok(msg) if write(&msg) => {}
                _ => return,
            },
            recv(stop) -> _ => {
                for msg in from_server.try_iter() {
                    if !write(&msg) {
                        return;
                    }
                }
                return;
            }
        }
    }
}
