//! The table's part in its chat ([`crate::chat`]): messages checked, stored, then sent to
//! the connections that may see them; the recent ones sent once to a connection when it
//! opens; mutes and reports.

use super::*;
use crate::chat::{self, Channel, ChatLine, Room};

/// A table's chat: its recent messages (whom each person mutes is shared by every table,
/// in [`TableEnv::chat_mutes`]).
#[derive(Default)]
pub(super) struct Talk {
    pub(super) room: Room,
    /// Whether the seated have been sent the spectators' channel after the end.
    end_shown: bool,
}

impl Actor {
    /// Whether connection `c` holds a seat.
    fn conn_seated(&self, c: &Conn) -> bool {
        c.player
            .as_ref()
            .is_some_and(|p| self.seat_of(p.id).is_some())
    }

    /// Whom the person on connection `c` mutes.
    fn muted_by(&self, c: &Conn) -> Arc<HashSet<i64>> {
        c.player
            .as_ref()
            .and_then(|p| self.env.chat_mutes.of(p.id))
            .unwrap_or_default()
    }

    fn chat_error(&mut self, conn: u64, code: Code, message: String, wait_s: Option<u64>) {
        let mut m = ErrorMsg::new(code, message);
        m.wait_s = wait_s;
        self.send(conn, ServerMsg::Error(m));
    }

    /// Loads the table's stored messages (when its task starts).
    pub(super) async fn load_chat(&mut self) {
        match self.env.db.chat_lines(self.row.id.clone()).await {
            Ok(lines) => self.talk.room = Room::restore(lines),
            Err(e) => tracing::warn!("chat not loaded: {e}"),
        }
    }

    /// Someone writes: checked (a nickname, the text, their rate), stored, then sent to
    /// whoever may see it.
    pub(super) async fn chat(&mut self, conn: u64, text: String) {
        let Some(p) = self.player_of(conn) else {
            let m = "pick a nickname first to write at the table".to_string();
            return self.chat_error(conn, Code::ChatNoNickname, m, None);
        };
        let text = match chat::clean(&text) {
            Ok(t) => t,
            Err((code, m)) => return self.chat_error(conn, code, m, None),
        };
        // A person suspended from the site writes nowhere.
        match self.env.db.suspension_of(p.id).await {
            Ok(Some(s)) if s.keeps_from(false) => {
                let r = s.refusal();
                return self.chat_error(conn, r.code, r.message, None);
            }
            Ok(_) => {}
            Err(e) => {
                let m = format!("internal error: {e}");
                return self.chat_error(conn, Code::Internal, m, None);
            }
        }
        if let Err(wait) = self.env.chat_rates.messages.take(p.id) {
            let m = format!(
                "too many chat messages: at most {} at once, then {} a minute; wait {wait} s",
                chat::BURST,
                chat::PER_MINUTE
            );
            return self.chat_error(conn, Code::ChatRateLimited, m, Some(wait));
        }
        let channel = if self.seat_of(p.id).is_some() {
            Channel::Players
        } else {
            Channel::Spectators
        };
        let line = self.talk.room.line(channel, p.id, &p.nickname, text);
        if let Err(e) = self
            .env
            .db
            .store_chat_line(self.row.id.clone(), line.clone())
            .await
        {
            let m = format!("could not save the message ({e}); nothing was sent");
            return self.chat_error(conn, Code::NotSaved, m, None);
        }
        self.talk.room.keep(line.clone());
        let finished = self.row.status == TableStatus::Finished;
        let text: Arc<str> = ServerMsg::Chat { line: &line }.text().into();
        let to: Vec<u64> = self
            .conns
            .iter()
            .filter(|(_, c)| {
                chat::sees(line.channel, self.conn_seated(c), finished)
                    && !self.muted_by(c).contains(&line.player)
            })
            .map(|(id, _)| id)
            .collect();
        for id in to {
            self.send_text(id, text.clone());
        }
    }

    /// The recent messages connection `id` may see, and whom its person mutes; with
    /// whether they were chosen for a seated person.
    fn history(&self, id: u64) -> Option<(Arc<str>, bool)> {
        let c = self.conns.get(id)?;
        let finished = self.row.status == TableStatus::Finished;
        let seated = self.conn_seated(c);
        let muted = self.muted_by(c);
        let lines: Vec<&ChatLine> = self.talk.room.visible(seated, finished, &muted).collect();
        let mut muted: Vec<i64> = muted.iter().copied().collect();
        muted.sort_unstable();
        let text = ServerMsg::ChatHistory {
            lines: &lines,
            muted: &muted,
        }
        .text();
        Some((text.into(), seated))
    }

    fn send_history(&mut self, ids: &[u64]) {
        for id in ids {
            if let Some((m, seated)) = self.history(*id) {
                self.conns.set_chat_seated(*id, seated);
                self.send_text(*id, m);
            }
        }
    }

    /// After every change: newcomers get the recent messages once, and so does whoever sat
    /// down or stood up since their last (the channels they may read changed); when the
    /// game has just ended, the seated get both channels.
    pub(super) fn chat_after_change(&mut self, newcomers: &[u64]) {
        self.send_history(newcomers);
        let moved: Vec<u64> = self
            .conns
            .iter()
            .filter(|(id, c)| {
                !newcomers.contains(id)
                    && c.chat_seated.is_some_and(|was| was != self.conn_seated(c))
            })
            .map(|(id, _)| id)
            .collect();
        self.send_history(&moved);
        if self.row.status == TableStatus::Finished && !self.talk.end_shown {
            self.talk.end_shown = true;
            let seated: Vec<u64> = self
                .conns
                .iter()
                .filter(|(id, c)| !newcomers.contains(id) && self.conn_seated(c))
                .map(|(id, _)| id)
                .collect();
            self.send_history(&seated);
        }
    }

    /// The person on `conn` mutes (`on`) or unmutes `other`: stored for them, and every
    /// connection of theirs at this table is sent the messages it now shows.
    pub(super) async fn mute(&mut self, conn: u64, other: i64, on: bool) {
        let Some(p) = self.player_of(conn) else {
            let m = "pick a nickname first to mute someone".to_string();
            return self.chat_error(conn, Code::ChatNoNickname, m, None);
        };
        if other == p.id {
            let m = "you cannot mute yourself".to_string();
            return self.chat_error(conn, Code::ChatMuteSelf, m, None);
        }
        match self.env.db.set_mute(p.id, other, on).await {
            Ok(true) => {}
            Ok(false) => {
                let m = format!(
                    "you already mute {} people: unmute someone first",
                    chat::MAX_MUTES
                );
                return self.chat_error(conn, Code::ChatTooManyMutes, m, None);
            }
            Err(e) => {
                let m = format!("could not save the mute ({e}); nothing changed");
                return self.chat_error(conn, Code::NotSaved, m, None);
            }
        }
        self.env.chat_mutes.set(p.id, other, on);
        let mine: Vec<u64> = self
            .conns
            .iter()
            .filter(|(_, c)| c.player.as_ref().is_some_and(|q| q.id == p.id))
            .map(|(id, _)| id)
            .collect();
        self.send_history(&mine);
    }

    /// The person on `conn` reports message `n` of this table: stored for the operator.
    pub(super) async fn report(&mut self, conn: u64, n: u64) {
        let Some(p) = self.player_of(conn) else {
            let m = "pick a nickname first to report a message".to_string();
            return self.chat_error(conn, Code::ChatNoNickname, m, None);
        };
        let finished = self.row.status == TableStatus::Finished;
        let seated = self.conns.get(conn).is_some_and(|c| self.conn_seated(c));
        // Only a message one may see can be reported (a seated player cannot probe the
        // spectators' channel by number).
        let Some(line) = self
            .talk
            .room
            .find(n)
            .filter(|l| chat::sees(l.channel, seated, finished))
            .cloned()
        else {
            let m = format!("there is no message {n} at this table (or it is too old)");
            return self.chat_error(conn, Code::ChatNoSuchMessage, m, None);
        };
        if let Err(wait) = self.env.chat_rates.reports.take(p.id) {
            let m = format!(
                "too many reports: at most {} at once, then {} an hour; wait {wait} s",
                chat::REPORT_BURST,
                chat::REPORTS_PER_HOUR
            );
            return self.chat_error(conn, Code::ChatReportRateLimited, m, Some(wait));
        }
        if let Err(e) = self
            .env
            .db
            .report_chat_line(self.row.id.clone(), line, p.id)
            .await
        {
            let m = format!("could not save the report ({e}); try again");
            return self.chat_error(conn, Code::NotSaved, m, None);
        }
        self.send(conn, ServerMsg::ChatReported { n });
    }
}
