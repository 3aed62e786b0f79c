//! Every refusal's machine code: what the API's `{"error": …, "code": …}` and the
//! WebSocket's `{"type": "error", "code": …}` carry.
//!
//! The sentence beside a code is English, for programs and logs; a person reads the
//! catalog's words for the code (`error.<code>` in `assets/i18n/{es,en}.json`), so every
//! code listed here has an entry in every catalog (a test reads [`Code::ALL`] and checks).
//! Codes are stable: a program may branch on them, so one is never renamed.

use serde::{Serialize, Serializer};
use std::fmt;

macro_rules! codes {
    ($( $(#[$doc:meta])* $name:ident = $text:literal, )*) => {
        /// A refusal's machine code (see the module's docs).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Code {
            $( $(#[$doc])* $name, )*
        }

        impl Code {
            /// Every code, in the order they are declared.
            pub const ALL: &'static [Code] = &[$(Code::$name),*];

            /// The code as it is sent: `snake_case` words.
            pub fn as_str(self) -> &'static str {
                match self {
                    $(Code::$name => $text,)*
                }
            }
        }
    };
}

codes! {
    // Whatever request: its form, its size, its time, the server's state.
    /// A request the server cannot read (its body, path or query).
    BadRequest = "bad_request",
    /// A WebSocket message the server cannot read.
    BadMessage = "bad_message",
    /// A request or message larger than the server takes.
    TooLarge = "too_large",
    /// A request that took too long to send or to answer.
    Timeout = "timeout",
    /// No such page or API.
    NotFound = "not_found",
    /// Too many requests from one address or person; `retry_after` says when to ask again.
    RateLimited = "rate_limited",
    /// The server is busy (password checks, calculations, replays): ask again shortly.
    Busy = "busy",
    /// A failure of the server's own; the details are in its log.
    Internal = "internal",
    /// A write that could not be saved (the database is unreachable); nothing changed.
    NotSaved = "not_saved",

    // Who is asking.
    /// The request needs a session and names none.
    NeedsPlayer = "needs_player",
    /// The session's token is not known (ended, or never given).
    UnknownToken = "unknown_token",
    /// The session was ended (logged out) while the connection was open.
    SessionEnded = "session_ended",
    /// A malformed `Authorization` header.
    BadToken = "bad_token",

    // Nicknames, accounts, logins, sessions.
    /// An empty nickname.
    NicknameEmpty = "nickname_empty",
    /// A nickname of more than 24 characters.
    NicknameTooLong = "nickname_too_long",
    /// A nickname with control or invisible characters.
    NicknameInvalid = "nickname_invalid",
    /// The nickname belongs to an account, or looks like one that does.
    NicknameTaken = "nickname_taken",
    /// A password shorter than the least length.
    PasswordTooShort = "password_too_short",
    /// A password longer than the server hashes.
    PasswordTooLong = "password_too_long",
    /// A login with a wrong nickname or password (the answer never tells which).
    WrongLogin = "wrong_login",
    /// Too many failed logins: wait `retry_after` seconds.
    LoginThrottled = "login_throttled",
    /// A password change whose current password is wrong.
    WrongPassword = "wrong_password",
    /// This session already has an account.
    AlreadyAccount = "already_account",
    /// What only accounts do (a password, friends, rated games), asked by a guest.
    AccountOnly = "account_only",
    /// A guest's only session cannot be ended: it could never come back.
    GuestKeepsSession = "guest_keeps_session",
    /// No such session of this account.
    SessionNotFound = "session_not_found",

    // Players, games, bots.
    /// No such player.
    PlayerNotFound = "player_not_found",
    /// No such game.
    UnknownGame = "unknown_game",
    /// No such bot level.
    BotNotFound = "bot_not_found",
    /// No such tool of a game, or odds tool.
    ToolNotFound = "tool_not_found",
    /// A tool's question it cannot answer (cards that are not a possible deal…).
    ToolRefused = "tool_refused",
    /// No such page of a list.
    NoSuchPage = "no_such_page",

    // Tables.
    /// No such table (or a private one the asker may not see).
    TableNotFound = "table_not_found",
    /// Another server runs the table: ask it (`node`).
    TableMoved = "table_moved",
    /// A table's options out of bounds (seats, pace, clocks, the game's own rules).
    BadOptions = "bad_options",
    /// Too many unfinished tables of one person.
    TooManyTables = "too_many_tables",
    /// Too many open tables made from one address (waiting or playing).
    TooManyTablesFromAddress = "too_many_tables_from_address",
    /// The game is not over (replays, reviews, another game).
    NotFinished = "not_finished",
    /// A duplicate round's table whose boards other tables are still playing (replays,
    /// reviews, a seat's view wait for the round's end).
    DealsInPlay = "deals_in_play",
    /// A table's secret is revealed only when its game is over.
    NotRevealed = "not_revealed",
    /// A table made before deals were committed has no secret or contributions to show.
    NoCommitment = "no_commitment",
    /// A contribution to the deal that is not 32 hexadecimal digits.
    BadContribution = "bad_contribution",
    /// No such step of a replay, or moment of a finished game (a seat's view).
    NoSuchStep = "no_such_step",
    /// The game is over.
    GameOver = "game_over",
    /// The game has not started yet.
    NotStarted = "not_started",
    /// The game has started: what was asked is for before the start.
    AlreadyStarted = "already_started",
    /// Only the table's creator does that (start, keep seats).
    NotCreator = "not_creator",
    /// Only the people who played the game ask for another.
    NotAPlayer = "not_a_player",
    /// A table's watchers are as many as it takes.
    TableFull = "table_full",
    /// One person's connections to one table are as many as it takes.
    TooManyConnections = "too_many_connections",

    // Seats and play.
    /// No such seat at this table.
    NoSuchSeat = "no_such_seat",
    /// Someone sits there.
    SeatTaken = "seat_taken",
    /// The seat is kept for someone else.
    SeatKept = "seat_kept",
    /// That person already has a seat at this table.
    AlreadyAtTable = "already_at_table",
    /// Seats are kept for accounts, and no account has that nickname.
    UnknownAccount = "unknown_account",
    /// A spectator without a nickname tried to play or sit.
    PickNickname = "pick_nickname",
    /// The person is not seated.
    NotSeated = "not_seated",
    /// It is another seat's turn.
    NotYourTurn = "not_your_turn",
    /// The action is not legal now.
    IllegalAction = "illegal_action",
    /// Not a refusal but a question: this seat is with the other partnership; ask again
    /// with `confirm` to move.
    SwitchSides = "switch_sides",

    // Rated games.
    /// Rated games are for accounts.
    RatedNeedsAccount = "rated_needs_account",
    /// A rated game plays the game's standard rules.
    RatedRules = "rated_rules",
    /// A rated game always has a turn clock (`turn_s: 0` asked for one).
    RatedNeedsClock = "rated_needs_clock",
    /// A rated game under way seats only its own players, each in their seat.
    RatedInPlay = "rated_in_play",

    // Friends and invitations.
    /// Friends and invitations are for accounts.
    FriendsAccountOnly = "friends_account_only",
    /// No account has that nickname.
    FriendsNoSuchAccount = "friends_no_such_account",
    /// One cannot befriend or invite oneself.
    FriendsSelf = "friends_self",
    /// Too many friends.
    FriendsTooMany = "friends_too_many",
    /// Too many friend requests waiting.
    FriendsTooManyRequests = "friends_too_many_requests",
    /// Too many invitations waiting.
    FriendsTooManyInvitations = "friends_too_many_invitations",
    /// No such friend request.
    FriendsNoRequest = "friends_no_request",
    /// Only friends are invited.
    FriendsNotFriends = "friends_not_friends",
    /// No such invitation.
    FriendsNoInvitation = "friends_no_invitation",

    // Chat.
    /// An empty message.
    ChatEmpty = "chat_empty",
    /// A message longer than the chat takes.
    ChatTooLong = "chat_too_long",
    /// Writing needs a nickname.
    ChatNoNickname = "chat_no_nickname",
    /// Messages too fast: wait `retry_after` seconds.
    ChatRateLimited = "chat_rate_limited",
    /// One cannot mute oneself.
    ChatMuteSelf = "chat_mute_self",
    /// Too many people muted.
    ChatTooManyMutes = "chat_too_many_mutes",
    /// No such message (to report).
    ChatNoSuchMessage = "chat_no_such_message",
    /// Reports too fast: wait `retry_after` seconds.
    ChatReportRateLimited = "chat_report_rate_limited",

    // Reviews.
    /// A review is of one seat: `seat` is missing or not a number.
    ReviewNeedsSeat = "review_needs_seat",
    /// The game has no review.
    ReviewUnsupported = "review_unsupported",
    /// A private table's reviews are for the people who sat there.
    ReviewPlayersOnly = "review_players_only",
    /// Too many new reviews asked for by one person: wait `retry_after` seconds.
    ReviewRateLimited = "review_rate_limited",
    /// As many reviews wait as the server takes: ask again in `retry_after` seconds.
    ReviewQueueFull = "review_queue_full",
    /// The review could not be made (the details are in the server's log).
    ReviewFailed = "review_failed",

    // Cuadrillas.
    /// No such cuadrilla (or one the asker is not a member of and brings no link, or a wrong one, to).
    CuadrillaNotFound = "cuadrilla_not_found",
    /// A cuadrilla's name that is empty, too long or has control or invisible characters.
    CuadrillaName = "cuadrilla_name",
    /// A weekly slot that is not a day and a time of day.
    CuadrillaSlot = "cuadrilla_slot",
    /// One belongs to as many cuadrillas as one may.
    CuadrillaTooMany = "cuadrilla_too_many",
    /// The cuadrilla has as many members as it takes.
    CuadrillaFull = "cuadrilla_full",
    /// Too many new cuadrillas made by one account: wait `retry_after` seconds.
    CuadrillaRateLimited = "cuadrilla_rate_limited",
    /// Only the cuadrilla's owner does that (rename it, move its slot, remove a member).
    CuadrillaOwnerOnly = "cuadrilla_owner_only",
    /// That person is not a member of the cuadrilla.
    CuadrillaNotMember = "cuadrilla_not_member",
    // Tournaments.
    /// No such tournament (or a private one, to whoever lacks its link).
    TournamentNotFound = "tournament_not_found",
    /// Too many tournaments not finished organised by one person.
    TooManyTournaments = "too_many_tournaments",
    /// The tournament has started: entries are closed.
    TournamentStarted = "tournament_started",
    /// The tournament has as many entrants as it takes.
    TournamentFull = "tournament_full",
    /// The tournament is over.
    TournamentOver = "tournament_over",
    /// Somebody named is already in the tournament (one entry each).
    AlreadyEntered = "already_entered",
    /// A pair game's entry names a partner.
    EntryNeedsPartner = "entry_needs_partner",
    /// The game is played alone: an entry names no partner.
    EntryHasNoPartner = "entry_has_no_partner",
    /// The tournament has no such entry.
    NoSuchEntry = "no_such_entry",
    /// Only an entry's people or the organiser may take it out.
    NotYourEntry = "not_your_entry",
    /// Only the organiser may do that.
    NotOrganiser = "not_organiser",
    /// The caller has no match to sit at now.
    NoMatchNow = "no_match_now",
    /// A cuadrilla's tournament is for its members.
    TournamentMembersOnly = "tournament_members_only",

    // Web Push.
    /// A subscription's endpoint that is not an `https://` push service (or is too long).
    PushBadEndpoint = "push_bad_endpoint",
    /// A subscription's keys that are not a P-256 key and a 16-byte secret.
    PushBadKeys = "push_bad_keys",
    /// An account's subscriptions are as many as it may have.
    PushTooManySubscriptions = "push_too_many_subscriptions",

    // The operator and suspensions.
    /// Only the server's operators do that (whatever is asked of the operator's API).
    NotOperator = "not_operator",
    /// The account is suspended (from rated play, or from the whole site): the sentence
    /// carries the reason.
    Suspended = "suspended",
    /// A suspension's reason that is empty, or a reason or note longer than 500 characters.
    OperatorText = "operator_text",
    /// No such flag.
    FlagNotFound = "flag_not_found",
    /// No such suspension in force.
    SuspensionNotFound = "suspension_not_found",
    /// An operator does not suspend themselves.
    OperatorSelf = "operator_self",
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for Code {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// A refusal: its code and its English sentence (for programs and logs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    pub code: Code,
    pub message: String,
}

impl Refusal {
    pub fn new(code: Code, message: impl Into<String>) -> Refusal {
        Refusal {
            code,
            message: message.into(),
        }
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn codes_are_distinct_snake_case_words() {
        let mut seen = HashSet::new();
        for c in Code::ALL {
            let s = c.as_str();
            assert!(seen.insert(s), "{s} twice");
            assert!(
                !s.is_empty() && s.chars().all(|ch| ch.is_ascii_lowercase() || ch == '_'),
                "{s}"
            );
            assert_eq!(serde_json::to_value(c).unwrap(), serde_json::json!(s));
        }
    }

    #[test]
    fn every_code_has_its_words_in_every_catalog() {
        for (lang, text) in [
            ("en", include_str!("../assets/i18n/en.json")),
            ("es", include_str!("../assets/i18n/es.json")),
        ] {
            let catalog: serde_json::Map<String, serde_json::Value> =
                serde_json::from_str(text).unwrap();
            let missing: Vec<&str> = Code::ALL
                .iter()
                .map(|c| c.as_str())
                .filter(|c| {
                    catalog
                        .get(&format!("error.{c}"))
                        .and_then(|v| v.as_str())
                        .is_none_or(|w| w.trim().is_empty())
                })
                .collect();
            assert!(missing.is_empty(), "{lang}.json lacks error.{missing:?}");
        }
    }

    #[test]
    fn docs_list_every_code_and_only_those() {
        let doc = include_str!("../../../docs/server.md");
        let section = doc
            .split("\n## Refusal codes\n")
            .nth(1)
            .and_then(|s| s.split("\n## ").next())
            .expect("docs/server.md has a section `## Refusal codes`");
        let documented: Vec<&str> = section
            .lines()
            .filter_map(|l| l.strip_prefix("| `"))
            .filter_map(|l| l.split('`').next())
            .collect();
        let codes: Vec<&str> = Code::ALL.iter().map(|c| c.as_str()).collect();
        assert_eq!(
            documented, codes,
            "the table in docs/server.md, in the code's order"
        );
    }
}
