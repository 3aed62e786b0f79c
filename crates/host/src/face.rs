//! A game's terminal face: what one seat's view looks like at a text table, as plain data.
//!
//! The terminal (`tapete-term`) knows no game. It asks the game's [`Face`] for a [`Scene`]
//! (a header, a block per seat, the centre of the table, the player's own hand, the cards
//! shown after a hand, the end of the game) and lays it out for any seat count; it asks the
//! face to understand what the player types ([`Face::parse_command`]), which keys do what,
//! which actions need no asking ([`Face::forced`]) and what the prompt says. Nothing here
//! names a terminal library, so a game never depends on one: texts carry a [`Tone`] (what
//! they mean: the player's side, a rival, a turn…) and the terminal picks the colours.
//!
//! ```
//! use tapete_host::face::{Face, Vantage};
//! use tapete_host::test_race::RaceHost;
//!
//! let at = Vantage { me: 1, seats: 2, to_act: &[1], held: false };
//! let notes = RaceHost::notes(&3);
//! let scene = RaceHost::scene(&3, &notes, &at);
//! assert_eq!(scene.seats.len(), 2);
//! assert_eq!(scene.seats[1].label.text, "you");
//! assert_eq!(RaceHost::parse_command("2", &3), Ok(2));
//! assert!(RaceHost::parse_command("3", &3).is_err());
//! ```

use crate::Host;
use tapete_table::{Game, Outcome, Seat};

/// A number of points as the faces print it: "1 pt", "0 pts", "-1 pt", "12 pts".
///
/// ```
/// use tapete_host::face::pts;
/// assert_eq!([pts(1), pts(0), pts(-1), pts(12)], ["1 pt", "0 pts", "-1 pt", "12 pts"]);
/// ```
pub fn pts(n: i64) -> String {
    if n.abs() == 1 {
        format!("{n} pt")
    } else {
        format!("{n} pts")
    }
}

/// A seat as one player names it: "you" for the player's own, "seat N" for any other (and
/// for every seat when `me` is `None`, a spectator).
///
/// ```
/// use tapete_host::face::who;
/// assert_eq!([who(Some(1), 1), who(Some(1), 2), who(None, 1)], ["you", "seat 2", "seat 1"]);
/// ```
pub fn who(me: Option<Seat>, seat: Seat) -> String {
    if me == Some(seat) {
        "you".into()
    } else {
        format!("seat {seat}")
    }
}

/// Every seat's points in seat order, named for the player, each followed by its `mark`
/// (`""` for none): "you 12 · seat 1 45 (out) · seat 2 8".
///
/// ```
/// use tapete_host::face::scores_text;
/// let out = |s: usize| if s == 1 { " (out)" } else { "" };
/// assert_eq!(scores_text(Some(0), &[12, 45, 8], out), "you 12 · seat 1 45 (out) · seat 2 8");
/// ```
pub fn scores_text<T: std::fmt::Display>(
    me: Option<Seat>,
    scores: &[T],
    mark: impl Fn(Seat) -> &'static str,
) -> String {
    scores
        .iter()
        .enumerate()
        .map(|(s, points)| format!("{} {points}{}", who(me, s), mark(s)))
        .collect::<Vec<_>>()
        .join(" · ")
}

/// A seat block's detail: its number, its roles this hand and its points ("seat 2 ·
/// dealer, mano · 12 pts"; "seat 2 · 12 pts" with no role).
///
/// ```
/// use tapete_host::face::seat_detail;
/// assert_eq!(seat_detail(2, &["dealer", "mano"], 12), "seat 2 · dealer, mano · 12 pts");
/// assert_eq!(seat_detail(0, &[], 1), "seat 0 · 1 pt");
/// ```
pub fn seat_detail(seat: Seat, roles: &[&str], points: i64) -> String {
    if roles.is_empty() {
        format!("seat {seat} · {}", pts(points))
    } else {
        format!("seat {seat} · {} · {}", roles.join(", "), pts(points))
    }
}

/// The first words at a table where every seat plays for itself: the game, the player's
/// seat, the game's own `terms` (its length, its variant), and who plays the other seats
/// (the level once when every bot is the same, else each seat's).
///
/// ```
/// use tapete_host::face::{intro_line, Vantage};
/// let at = Vantage { me: 0, seats: 3, to_act: &[], held: false };
/// let same = [None, Some("basico".to_string()), Some("basico".to_string())];
/// assert_eq!(
///     intro_line("tikki", &at, "to 30 points", &same),
///     "tapete · tikki — you are seat 0 of 3, to 30 points; bots: basico"
/// );
/// let mixed = [None, Some("basico".to_string()), Some("experto".to_string())];
/// assert!(intro_line("tikki", &at, "3 rounds", &mixed)
///     .ends_with("bots: seat 1 basico, seat 2 experto"));
/// ```
pub fn intro_line(game: &str, at: &Vantage, terms: &str, bots: &[Option<String>]) -> String {
    let names: Vec<&str> = bots.iter().flatten().map(String::as_str).collect();
    let same = names.windows(2).all(|w| w[0] == w[1]);
    let who_plays = if same {
        names.first().copied().unwrap_or("").to_string()
    } else {
        (0..bots.len())
            .filter_map(|s| bots[s].as_ref().map(|b| format!("seat {s} {b}")))
            .collect::<Vec<_>>()
            .join(", ")
    };
    format!(
        "tapete · {game} — you are seat {} of {}, {terms}; bots: {who_plays}",
        at.me, at.seats
    )
}

/// A hand for line mode, each card after its place as the scene numbers them ("1:7o 2:5c"),
/// a card of a group (a meld, the best combination) followed by what `mark` writes for its
/// group ("[1]", "*").
///
/// ```
/// use tapete_host::face::places_text;
/// let hand = [("7o", Some(0)), ("5c", None)];
/// assert_eq!(places_text(&hand, |g| format!("[{}]", g + 1)), "1:7o[1] 2:5c");
/// ```
pub fn places_text<C: std::fmt::Display>(
    hand: &[(C, Option<u8>)],
    mark: impl Fn(u8) -> String,
) -> String {
    hand.iter()
        .enumerate()
        .map(|(i, (c, g))| match g {
            Some(g) => format!("{}:{c}{}", i + 1, mark(*g)),
            None => format!("{}:{c}", i + 1),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The card at `place` of `hand` (1-based, as a scene's hand numbers them), or why there
/// is none.
///
/// ```
/// use tapete_host::face::at_place;
/// assert_eq!(at_place(&['a', 'b'], 2), Ok('b'));
/// assert_eq!(at_place(&['a', 'b'], 3).unwrap_err(), "`3` is not a place in your hand: use 1–2");
/// ```
pub fn at_place<C: Clone>(hand: &[C], place: usize) -> Result<C, String> {
    place
        .checked_sub(1)
        .and_then(|i| hand.get(i))
        .cloned()
        .ok_or_else(|| {
            format!(
                "`{place}` is not a place in your hand: use 1–{}",
                hand.len()
            )
        })
}

/// The cards at `places` of `hand`, in the order named, or why they are not a choice (a
/// place out of the hand, or one named twice).
///
/// ```
/// use tapete_host::face::at_places;
/// assert_eq!(at_places(&['a', 'b', 'c'], &[3, 1]), Ok(vec!['c', 'a']));
/// assert_eq!(at_places(&['a', 'b'], &[1, 1]).unwrap_err(), "place 1 is named twice");
/// assert!(at_places(&['a', 'b'], &[0]).is_err());
/// ```
pub fn at_places<C: Clone>(hand: &[C], places: &[usize]) -> Result<Vec<C>, String> {
    let mut cards = Vec::with_capacity(places.len());
    for (i, &place) in places.iter().enumerate() {
        let card = at_place(hand, place)?;
        if places[..i].contains(&place) {
            return Err(format!("place {place} is named twice"));
        }
        cards.push(card);
    }
    Ok(cards)
}

/// What a piece of text means to the player; the terminal chooses how it looks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Tone {
    /// Ordinary text.
    #[default]
    Plain,
    /// Stands out: a result, the state of play.
    Strong,
    /// Secondary information.
    Quiet,
    /// Background information, barely there.
    Faint,
    /// The player's own side (the player, a partner).
    Own,
    /// Another side.
    Rival,
    /// Whose turn it is, or what waits for a key.
    Turn,
    /// Known to this seat alone (what a partner signalled).
    Secret,
    /// The game's title.
    Title,
    /// A colour of its own (a suit's).
    Ink(Ink),
}

/// The colours cards are printed in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ink {
    Yellow,
    Red,
    Blue,
    Green,
    Cyan,
    Magenta,
    White,
}

/// A piece of text in one tone.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Span {
    pub text: String,
    pub tone: Tone,
}

impl Span {
    /// `text` in `tone`.
    pub fn new(text: impl Into<String>, tone: Tone) -> Span {
        Span {
            text: text.into(),
            tone,
        }
    }

    /// `text` in the plain tone.
    pub fn plain(text: impl Into<String>) -> Span {
        Span::new(text, Tone::Plain)
    }
}

/// One line of text. A line marked `wrap` may be broken over several rows (continuation
/// rows indented by two); the others are drawn as they are and cut if too wide.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Line {
    pub spans: Vec<Span>,
    pub wrap: bool,
}

impl Line {
    /// A line of these spans.
    pub fn new(spans: Vec<Span>) -> Line {
        Line { spans, wrap: false }
    }

    /// A line of one text in one tone.
    pub fn of(text: impl Into<String>, tone: Tone) -> Line {
        Line::new(vec![Span::new(text, tone)])
    }

    /// The same line, allowed to wrap.
    pub fn wrapped(mut self) -> Line {
        self.wrap = true;
        self
    }

    /// The text without tones.
    pub fn text(&self) -> String {
        self.spans.iter().map(|s| s.text.as_str()).collect()
    }

    /// How many columns the line takes (one per character).
    pub fn width(&self) -> usize {
        self.spans.iter().map(|s| s.text.chars().count()).sum()
    }
}

impl From<&str> for Line {
    fn from(text: &str) -> Line {
        Line::of(text, Tone::Plain)
    }
}

impl From<String> for Line {
    fn from(text: String) -> Line {
        Line::of(text, Tone::Plain)
    }
}

/// One card as the terminal draws it: a small box (corner, middle, bottom) in the hand, or
/// its short text elsewhere; face down it is a back with nothing on it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CardFace {
    /// As players write it ("12o"), for one-line places.
    pub text: String,
    /// The top-left corner of a drawn card ("12").
    pub corner: String,
    /// The middle of a drawn card ("rey"); may be empty.
    pub middle: String,
    /// The bottom of a drawn card ("oros").
    pub bottom: String,
    /// The card's colour.
    pub ink: Ink,
    /// Whether the face is shown.
    pub up: bool,
    /// A highlight group (a meld): cards of one group are marked alike, and unlike
    /// other groups' cards.
    pub group: Option<u8>,
}

impl CardFace {
    /// A card face down: only its back.
    pub fn down() -> CardFace {
        CardFace {
            text: "▒▒".into(),
            corner: String::new(),
            middle: String::new(),
            bottom: String::new(),
            ink: Ink::White,
            up: false,
            group: None,
        }
    }
}

/// One seat as the player sees it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SeatScene {
    /// Who sits there for this player ("you", "partner", "left"), the seat's title.
    pub label: Span,
    /// More about the seat ("seat 2 · 3rd"): beside the title when there is room, else
    /// the block's first line.
    pub detail: String,
    /// Cards the seat has in view: shown face up after a hand, laid face down on the
    /// table (the terminal writes them on one line, followed by `cards_note`).
    pub cards: Vec<CardFace>,
    /// Words after the cards ("RRCA", "3 laid").
    pub cards_note: String,
    /// Short facts about the seat this hand ("discarded 2", "» grande: envido 5").
    pub facts: Vec<String>,
}

/// The middle of the table: what is being played for, piles, bets.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Centre {
    /// A word or two over it (" grande ", " the end ").
    pub title: String,
    /// Centred lines, wrapped to the space there is.
    pub lines: Vec<Line>,
    /// Cards in the middle (a discard pile's top, a trick), drawn on one line after the
    /// lines.
    pub cards: Vec<CardFace>,
}

/// The player's own hand.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HandScene {
    /// The cards in the order their places are numbered (place 1 first), as
    /// [`Face::picked`] reads them.
    pub cards: Vec<CardFace>,
    /// What the hand holds and the seat's facts, beside the cards.
    pub info: Vec<Line>,
}

/// A panel beside the table (the hands shown after a hand).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Panel {
    pub title: String,
    /// The panel's content in several forms, widest first: the terminal draws the first
    /// whose unwrapped lines fit, the last when none does.
    pub forms: Vec<Vec<Line>>,
}

/// Everything one seat sees of the table at one moment.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Scene {
    /// The header row in several forms, widest first: the terminal draws the first that
    /// fits its width, so no part is cut (the last one when none fits).
    pub header: Vec<Line>,
    /// Every seat, by seat number, the player's own included (its label and detail title
    /// the hand).
    pub seats: Vec<SeatScene>,
    pub centre: Centre,
    pub hand: HandScene,
    /// What is shown beside the table while it is held after a hand (everybody's cards and
    /// who won what).
    pub reveal: Option<Panel>,
    /// Once the game is over: who won and the final score, in place of the centre's lines.
    pub end: Option<Vec<String>>,
}

/// Where and when the scene is seen from: the player's seat, how many seats there are,
/// who is to act, and whether the table is held after a hand until the player goes on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Vantage<'a> {
    pub me: Seat,
    pub seats: usize,
    pub to_act: &'a [Seat],
    pub held: bool,
}

impl Vantage<'_> {
    /// The tone of a seat's name at this table: whose turn it is, the player's own, or a
    /// rival's.
    ///
    /// ```
    /// use tapete_host::face::{Tone, Vantage};
    /// let at = Vantage { me: 1, seats: 3, to_act: &[2], held: false };
    /// let tones = [at.tone_of(0), at.tone_of(1), at.tone_of(2)];
    /// assert_eq!(tones, [Tone::Rival, Tone::Own, Tone::Turn]);
    /// assert_eq!((at.label(1).text, at.label(2).tone), ("you".to_string(), Tone::Turn));
    /// ```
    pub fn tone_of(&self, seat: Seat) -> Tone {
        if self.to_act.contains(&seat) {
            Tone::Turn
        } else if seat == self.me {
            Tone::Own
        } else {
            Tone::Rival
        }
    }

    /// A seat block's title where every seat plays for itself: "you" or "seat N", in the
    /// seat's tone.
    pub fn label(&self, seat: Seat) -> Span {
        Span::new(who(Some(self.me), seat), self.tone_of(seat))
    }
}

/// What a game's short form (a one-character line run with Enter) does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Shortcut<A> {
    /// The first of these actions that is legal now (the first one's refusal is shown
    /// when none is).
    First(Vec<A>),
    /// Puts `text` on the input line to be completed or changed (an amount), with a hint.
    Type { text: String, hint: String },
}

/// How cards of the hand are picked by place (typed as `1 3`) for an action taken with Enter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pick {
    /// Places that may be picked: 1 to this.
    pub places: usize,
    /// Shown once a card is picked ("Enter discards the selected cards").
    pub hint: String,
}

/// The view one seat gets.
pub type ViewOf<H> = <<H as Host>::G as Game>::View;
/// An action of the game.
pub type ActionOf<H> = <<H as Host>::G as Game>::Action;
/// An event of the game.
pub type EventOf<H> = <<H as Host>::G as Game>::Event;

/// A game as a text table shows it to one player. Everything is worked out from the
/// player's own view (and from the events it saw), never from hidden state.
pub trait Face: Host {
    /// What the table remembers of past events beyond the view (each seat's last call,
    /// the last showdown).
    type Notes: Clone + Send;

    /// The notes of a table starting from `view`.
    fn notes(view: &ViewOf<Self>) -> Self::Notes;
    /// Takes in one event; `true` holds the table (the bots wait) until the player presses
    /// a key, so that the end of a hand can be read.
    fn note(notes: &mut Self::Notes, event: &EventOf<Self>) -> bool;
    /// The scene for the full-screen table.
    fn scene(view: &ViewOf<Self>, notes: &Self::Notes, at: &Vantage) -> Scene;
    /// The first words at the table: the game and who plays where ("tapete · mus — you are
    /// seat 0, your partner seat 2; bots: basico"). `bots` names the player at each seat
    /// (`None` at the player's own).
    fn intro(view: &ViewOf<Self>, at: &Vantage, bots: &[Option<String>]) -> String;
    /// The state of the table as a block of lines, printed before each decision in line
    /// mode.
    fn status(view: &ViewOf<Self>, at: &Vantage) -> Vec<String>;
    /// The kinds of action open now, for the prompt ("paso | envido N (2–40) | órdago").
    fn prompt(view: &ViewOf<Self>, legal: &[ActionOf<Self>]) -> String;
    /// One typed line as an action, or why it is not one. The terminal has already taken
    /// its own words (help, quit). The engine still checks the action.
    fn parse_command(text: &str, _view: &ViewOf<Self>) -> Result<ActionOf<Self>, String> {
        Self::parse_action(text)
    }
    /// The words the player can type, one line each.
    fn help() -> Vec<String>;
    /// The action taken for the player without asking, when `legal` leaves no real choice
    /// (Mus's pares and juego declarations, which are truthful).
    fn forced(_legal: &[ActionOf<Self>]) -> Option<ActionOf<Self>> {
        None
    }
    /// What a line of the one character `key` means when the player runs it with Enter,
    /// if the game makes it a short form (`m` for mus). Every key types on the input line
    /// first, so a short form never cuts a word short; the terminal keeps `q` (leave) and
    /// `?` (help). A line of places (`1 3`) goes to [`Face::parse_command`], and its cards
    /// are marked while it is typed (see [`Face::pick`]).
    fn key(_key: char, _view: &ViewOf<Self>) -> Option<Shortcut<ActionOf<Self>>> {
        None
    }
    /// The game's short forms for the bottom bar: (what to type, what it does).
    fn key_bar() -> Vec<(&'static str, &'static str)> {
        Vec::new()
    }
    /// The game's short forms explained, for the help panel.
    fn key_help() -> Vec<String> {
        Vec::new()
    }
    /// What the player is told on pressing Enter with nothing typed, when it is their turn:
    /// what they are expected to type.
    fn expected(view: &ViewOf<Self>, legal: &[ActionOf<Self>]) -> String {
        format!("type your move, then Enter: {}", Self::prompt(view, legal))
    }
    /// Whether cards of the hand can be picked now by place, or why not.
    fn pick(_view: &ViewOf<Self>) -> Result<Pick, String> {
        Err("cards are not picked in this game".into())
    }
    /// The action that the cards at `places` (1-based, as numbered in the scene's hand)
    /// make, or why they make none.
    fn picked(_view: &ViewOf<Self>, _places: &[usize]) -> Result<ActionOf<Self>, String> {
        Err("cards are not picked in this game".into())
    }
    /// Lines told to the player right after an action of theirs is accepted, before the
    /// narration ("you throw 12o 1b", which the narration tells others as a count).
    fn own_lines(_action: &ActionOf<Self>) -> Vec<String> {
        Vec::new()
    }
    /// Lines for line mode after a step, about what only this seat learned (its new
    /// cards), from its views before and after and the step's events.
    fn news(
        _before: &ViewOf<Self>,
        _after: &ViewOf<Self>,
        _events: &[EventOf<Self>],
    ) -> Vec<String> {
        Vec::new()
    }
    /// How a narrated line is shown in the table's log.
    fn log_tone(_line: &str) -> Tone {
        Tone::Plain
    }
    /// The last lines of line mode, after "── the end ──": the final score and who won
    /// (`outcome` is `None` if the game did not finish).
    fn final_lines(view: &ViewOf<Self>, at: &Vantage, outcome: Option<&Outcome>) -> Vec<String>;
}
