//! Drawing one frame: scoreboard on top, the table (partner above, opponents left and
//! right, you below with your cards), the log or the showdown on the right, and the
//! message, input and keys lines at the bottom. Fits 80×24 and grows with the terminal.

use super::state::App;
use crate::command::help_lines;
use crate::status::{
    bet_text, declarations_text, end_lines, pair_name, phase_text, relation, senas_text,
};
use ratatui::layout::{Constraint, Flex, Layout, Rect};
use ratatui::style::{Color, Modifier, Style, Stylize};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Borders, Clear, Paragraph, Wrap};
use ratatui::Frame;
use tapete_cards::{Card, Suit};
use tapete_mus::narrate::{cards_text, hand_summary, jugada_of, position_name};
use tapete_mus::view::Phase;
use tapete_mus::MusView;
use tapete_table::Seat;

const OURS: Color = Color::Cyan;
const THEIRS: Color = Color::Magenta;
const TURN: Color = Color::Yellow;

pub(crate) fn draw(f: &mut Frame, app: &App) {
    let view = app.session.view();
    let [top, main, bottom] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(14),
        Constraint::Length(3),
    ])
    .areas(f.area());
    scoreboard(f, top, &view);
    let side = (main.width * 7 / 20).clamp(26, 60);
    let [table, right] =
        Layout::horizontal([Constraint::Min(50), Constraint::Length(side)]).areas(main);
    draw_table(f, table, app, &view);
    if app.help {
        help(f, right);
    } else if app.paused && app.shown.is_some() {
        showdown(f, right, app, &view);
    } else {
        log(f, right, app);
    }
    footer(f, bottom, app, &view);
}

fn pair_style(view: &MusView, pair: usize) -> Style {
    let ours = view.seat.map(|s| s % 2) == Some(pair % 2);
    Style::new().fg(if ours { OURS } else { THEIRS }).bold()
}

/// The header: the game's name, hand, game and target, then each pair's score in pair
/// order (pair 0–2 first, as the view's scores and the outcome name them). The widest
/// form that fits the width is drawn, so no part is ever cut.
fn scoreboard(f: &mut Frame, area: Rect, view: &MusView) {
    let width = usize::from(area.width);
    let last = HEADER_FORMS[HEADER_FORMS.len() - 1];
    let line = HEADER_FORMS
        .iter()
        .map(|&form| header_line(view, form))
        .find(|l| l.width() <= width)
        .unwrap_or_else(|| header_line(view, last));
    f.render_widget(Paragraph::new(line), area);
}

/// One way of writing the header.
#[derive(Clone, Copy)]
struct HeaderForm {
    /// The reversed " tapete · mus " title.
    title: bool,
    /// Pairs named with their seats: "nosotros 0–2".
    seats: bool,
    /// Scores in words ("12 piedras 1 juego 0 vacas") rather than "12p 1j 0v".
    words: bool,
    /// "hand 3 · game 1 · to 40" rather than "h3 g1 to 40".
    long_info: bool,
}

/// The header's forms, widest first. Any real score fits 110 columns in words.
const HEADER_FORMS: [HeaderForm; 5] = [
    HeaderForm {
        title: true,
        seats: true,
        words: true,
        long_info: true,
    },
    HeaderForm {
        title: false,
        seats: true,
        words: true,
        long_info: true,
    },
    HeaderForm {
        title: false,
        seats: false,
        words: true,
        long_info: true,
    },
    HeaderForm {
        title: true,
        seats: true,
        words: false,
        long_info: true,
    },
    HeaderForm {
        title: false,
        seats: false,
        words: false,
        long_info: false,
    },
];

/// The header in one form.
fn header_line(view: &MusView, form: HeaderForm) -> Line<'static> {
    let s = view.scores;
    let count = |n: u8, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    let mut spans = Vec::new();
    if form.title {
        spans.push(Span::styled(
            " tapete · mus ",
            Style::new().bold().reversed(),
        ));
        spans.push(Span::raw("  "));
    }
    let (hand, game, target) = (view.hand_number, view.game_number, view.rules.target);
    spans.push(Span::raw(if form.long_info {
        format!("hand {hand} · game {game} · to {target}   ")
    } else {
        format!("h{hand} g{game} to {target}  ")
    }));
    for pair in [0, 1] {
        let name = if form.seats {
            format!("{} {}–{}", pair_name(view, pair), pair, pair + 2)
        } else {
            pair_name(view, pair).to_string()
        };
        spans.push(Span::styled(name, pair_style(view, pair)));
        spans.push(Span::raw(if form.words {
            format!(
                ": {} {} {}",
                count(s.piedras[pair], "piedra", "piedras"),
                count(s.games[pair], "juego", "juegos"),
                count(s.vacas[pair], "vaca", "vacas")
            )
        } else {
            format!(
                " {}p {}j {}v",
                s.piedras[pair], s.games[pair], s.vacas[pair]
            )
        }));
        if pair == 0 {
            spans.push(Span::raw("   "));
        }
    }
    Line::from(spans)
}

fn draw_table(f: &mut Frame, area: Rect, app: &App, view: &MusView) {
    let me = view.seat.unwrap_or(0);
    // On tall screens the table keeps its shape, centred, instead of stretching.
    let middle_height = area.height.saturating_sub(13).clamp(7, 11);
    let [partner, middle, you] = Layout::vertical([
        Constraint::Length(4),
        Constraint::Length(middle_height),
        Constraint::Length(9),
    ])
    .flex(Flex::Center)
    .areas(area);
    let side = (area.width / 4).clamp(17, 26);
    let [left, center, right] = Layout::horizontal([
        Constraint::Length(side),
        Constraint::Min(18),
        Constraint::Length(side),
    ])
    .areas(middle);
    seat_box(f, partner, app, view, (me + 2) % 4, true);
    seat_box(f, left, app, view, (me + 3) % 4, false);
    seat_box(f, right, app, view, (me + 1) % 4, false);
    center_box(f, center, app, view);
    your_box(f, you, app, view);
}

fn seat_block(view: &MusView, seat: Seat, who: &str, full: bool) -> Block<'static> {
    let to_act = view.to_act.contains(&seat);
    let pos = position_name(view.position_of(seat));
    let mut title = vec![Span::styled(format!(" {who} "), pair_style(view, seat % 2))];
    if full {
        title.push(Span::raw(format!("· seat {seat} · {pos} ")));
    }
    let title = Line::from(title);
    let mut b = Block::new()
        .borders(Borders::ALL)
        .border_type(BorderType::Rounded)
        .title(title);
    if to_act {
        b = b
            .border_style(Style::new().fg(TURN).bold())
            .title_bottom(Line::from(" to act ").right_aligned());
    }
    b
}

/// What a seat has shown of itself this hand: discards, declarations, its last call.
fn seat_facts(app: &App, view: &MusView, seat: Seat) -> Vec<String> {
    let mut facts = Vec::new();
    if let Some(n) = app.discarded[seat] {
        facts.push(format!("discarded {n}"));
    } else if view.phase == Phase::Discard && view.discarded[seat] {
        facts.push("discarded".into());
    }
    let decl: Vec<String> = [("pares", view.pares[seat]), ("juego", view.juego[seat])]
        .iter()
        .filter_map(|(name, d)| d.map(|has| format!("{name} {}", if has { "sí" } else { "no" })))
        .collect();
    if !decl.is_empty() {
        facts.push(decl.join(" · "));
    }
    if let Some(call) = &app.last_call[seat] {
        facts.push(format!("» {call}"));
    }
    facts
}

/// The cards a seat showed at the last showdown, while that showdown is on screen.
fn shown_cards(app: &App, seat: Seat, mode: tapete_mus::Mode) -> Option<String> {
    let s = app.shown.as_ref().filter(|_| app.paused)?;
    let cards = s.cards[seat].to_vec();
    let j = jugada_of(&cards, mode)
        .map(|j| j.to_string())
        .unwrap_or_default();
    Some(format!("{}  {j}", cards_text(&cards)))
}

fn seat_box(f: &mut Frame, area: Rect, app: &App, view: &MusView, seat: Seat, wide: bool) {
    let me = view.seat.unwrap_or(0);
    let block = seat_block(view, seat, relation(me, seat), wide);
    let mut lines: Vec<Line> = Vec::new();
    if !wide {
        let pos = position_name(view.position_of(seat));
        lines.push(Line::from(format!("seat {seat} · {pos}")).bold());
    }
    if let Some(shown) = shown_cards(app, seat, view.rules.mode) {
        lines.push(Line::from(Span::styled(shown, Style::new().bold())));
    }
    let facts = seat_facts(app, view, seat);
    if wide {
        lines.push(Line::from(facts.join("   ")));
    } else {
        lines.extend(facts.into_iter().map(Line::from));
    }
    f.render_widget(
        Paragraph::new(lines).block(block).wrap(Wrap { trim: true }),
        area,
    );
}

fn center_box(f: &mut Frame, area: Rect, app: &App, view: &MusView) {
    let title = match view.phase {
        Phase::Bet { lance } | Phase::Declare { lance } => format!(" {lance} "),
        Phase::Mus | Phase::Discard => " mus ".to_string(),
        Phase::Senas => " señas ".to_string(),
        Phase::Over => " the end ".to_string(),
    };
    let block = Block::new()
        .borders(Borders::ALL)
        .border_type(BorderType::Plain)
        .border_style(Style::new().fg(Color::DarkGray))
        .title(Line::from(title).centered().bold());
    if view.phase == Phase::Over {
        // The end: who won and the final score, nothing of the last hand.
        let mut lines: Vec<Line> = end_lines(view)
            .into_iter()
            .enumerate()
            .map(|(i, l)| {
                if i == 0 {
                    Line::from(l).bold()
                } else {
                    Line::from(l)
                }
            })
            .collect();
        lines.push(Line::from("press q twice to leave").fg(TURN));
        f.render_widget(
            Paragraph::new(lines)
                .block(block)
                .centered()
                .wrap(Wrap { trim: true }),
            area,
        );
        return;
    }
    let me = view.seat.unwrap_or(0);
    let now = match view.phase {
        Phase::Bet { .. } => bet_text(view),
        _ => phase_text(view),
    };
    let mut lines = vec![Line::from(now.bold())];
    if let Some(d) = declarations_text(view) {
        lines.push(Line::from(d).fg(Color::Gray));
    }
    if let Some(t) = senas_text(view) {
        lines.push(Line::from(t).fg(Color::Magenta));
    }
    let turn: Vec<&str> = view.to_act.iter().map(|&s| relation(me, s)).collect();
    if app.paused {
        lines.push(Line::from("hand over: any key goes on").fg(TURN));
    } else if !turn.is_empty() {
        let text = if turn == ["you"] {
            "your turn".to_string()
        } else {
            format!("to act: {}", turn.join(", "))
        };
        lines.push(Line::from(text).fg(TURN));
    }
    let lances: Vec<String> = view
        .lances
        .iter()
        .map(|(l, s)| format!("{l}: {}", short_status(view, s)))
        .collect();
    if !lances.is_empty() {
        lines.push(Line::from(lances.join(" · ")).fg(Color::Gray));
    }
    f.render_widget(
        Paragraph::new(lines)
            .block(block)
            .centered()
            .wrap(Wrap { trim: true }),
        area,
    );
}

fn short_status(view: &MusView, s: &tapete_mus::LanceStatus) -> String {
    use tapete_mus::LanceStatus as S;
    match s {
        S::EnPaso => "en paso".into(),
        S::Accepted { piedras } => format!("{piedras} querido"),
        S::OrdagoAccepted => "órdago".into(),
        S::Declined { pair, piedras } => format!("{piedras} to {}", pair_name(view, *pair)),
        S::Unbet { pair } => format!("{} only", pair_name(view, *pair)),
        S::Void => "nobody".into(),
    }
}

fn suit_color(suit: Suit) -> Color {
    match suit {
        Suit::Oros => Color::Yellow,
        Suit::Copas => Color::Red,
        Suit::Espadas => Color::Blue,
        Suit::Bastos => Color::Green,
    }
}

fn figure(card: Card, mode: tapete_mus::Mode) -> &'static str {
    let ocho = mode == tapete_mus::Mode::OchoReyes;
    match card.number() {
        1 => "as",
        2 if ocho => "(as)",
        3 if ocho => "(rey)",
        10 => "sota",
        11 => "caba",
        12 => "rey",
        _ => "",
    }
}

fn your_box(f: &mut Frame, area: Rect, app: &App, view: &MusView) {
    let me = view.seat.unwrap_or(0);
    let block = seat_block(view, me, "you", true);
    let inner = block.inner(area);
    f.render_widget(block, area);
    let cards_width = 4 * 8 + 1;
    let [cards_area, info_area] =
        Layout::horizontal([Constraint::Length(cards_width), Constraint::Min(10)]).areas(inner);
    let selecting = view.phase == Phase::Discard && view.my_discard.is_none();
    for (i, &card) in view.cards.iter().enumerate().take(4) {
        let x = cards_area.x + (i as u16) * 8;
        if x + 8 > cards_area.right() {
            break;
        }
        let raised = app.selected[i];
        let top = cards_area.y + if raised { 0 } else { 1 };
        let rect = Rect::new(x, top, 8, 5).intersection(cards_area);
        let color = suit_color(card.suit());
        let mut border = Style::new().fg(color);
        if raised {
            border = border.add_modifier(Modifier::BOLD | Modifier::REVERSED);
        }
        let body = vec![
            Line::from(Span::styled(
                format!("{:<6}", card.number()),
                Style::new().fg(color).bold(),
            )),
            Line::from(figure(card, view.rules.mode)).centered(),
            Line::from(Span::styled(card.suit().name(), Style::new().fg(color))).centered(),
        ];
        f.render_widget(Clear, rect);
        f.render_widget(
            Paragraph::new(body).block(
                Block::new()
                    .borders(Borders::ALL)
                    .border_type(BorderType::Rounded)
                    .border_style(border),
            ),
            rect,
        );
        if selecting && cards_area.height > 6 {
            let label = Rect::new(x, cards_area.y + 6, 8, 1);
            let text = if raised {
                "[x]"
            } else {
                &format!("[{}]", i + 1)
            };
            f.render_widget(Paragraph::new(text.to_string()).centered(), label);
        }
    }
    let mut info: Vec<Line> = Vec::new();
    if let Some(j) = jugada_of(&view.cards, view.rules.mode) {
        info.push(Line::from(j.to_string()).bold());
        info.push(Line::from(hand_summary(j)));
    } else if let Some(d) = view.my_discard {
        info.push(Line::from(format!("discarded {d}")));
        info.push(Line::from("waiting for the others"));
    }
    for fact in seat_facts(app, view, me) {
        info.push(Line::from(fact).fg(Color::Gray));
    }
    if let Some(shown) = shown_cards(app, me, view.rules.mode) {
        info.push(Line::from(format!("last hand: {shown}")).fg(Color::Gray));
    }
    f.render_widget(Paragraph::new(info).wrap(Wrap { trim: true }), info_area);
}

/// Word-wraps `text` to `width` columns, continuation lines indented by two.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let width = width.max(8);
    let mut out = Vec::new();
    let mut line = String::new();
    let mut fresh = true;
    for word in text.split(' ') {
        if !fresh && line.chars().count() + 1 + word.chars().count() > width {
            out.push(std::mem::take(&mut line));
            line.push_str("  ");
            fresh = true;
        }
        if !fresh {
            line.push(' ');
        }
        line.push_str(word);
        fresh = false;
    }
    out.push(line);
    out
}

fn log(f: &mut Frame, area: Rect, app: &App) {
    let block = Block::new()
        .borders(Borders::ALL)
        .border_type(BorderType::Rounded)
        .title(" table log ")
        .title_bottom(Line::from(" PgUp/PgDn ").right_aligned());
    let inner = block.inner(area);
    let width = inner.width as usize;
    let lines: Vec<String> = app.log.iter().flat_map(|l| wrap(l, width)).collect();
    let height = inner.height as usize;
    let end = lines.len().saturating_sub(app.log_scroll.min(lines.len()));
    let start = end.saturating_sub(height);
    let shown: Vec<Line> = lines[start..end]
        .iter()
        .map(|l| {
            let style = if l.starts_with("you") {
                Style::new().fg(OURS)
            } else if l.contains("scores") || l.contains(" win") {
                Style::new().bold()
            } else if l.contains(": betting starts") || l.starts_with("hand ") {
                Style::new().fg(Color::DarkGray)
            } else {
                Style::new()
            };
            Line::from(Span::styled(l.clone(), style))
        })
        .collect();
    f.render_widget(Paragraph::new(shown).block(block), area);
}

fn showdown(f: &mut Frame, area: Rect, app: &App, view: &MusView) {
    let Some(s) = &app.shown else { return };
    let me = view.seat.unwrap_or(0);
    let block = Block::new()
        .borders(Borders::ALL)
        .border_type(BorderType::Double)
        .border_style(Style::new().fg(TURN))
        .title(" la cuenta: the hands ")
        .title_bottom(Line::from(" any key goes on ").right_aligned());
    let inner = block.inner(area);
    // Narrow panels leave the cards to the seats' boxes and show the jugadas only.
    let with_cards = inner.width >= 34;
    let mut lines: Vec<Line> = Vec::new();
    for p in 0..4 {
        let seat = (s.mano + p) % 4;
        let cards = s.cards[seat].to_vec();
        let j = jugada_of(&cards, view.rules.mode)
            .map(|j| j.to_string())
            .unwrap_or_default();
        let mut spans = vec![
            Span::styled(
                format!("{:<8}", relation(me, seat)),
                pair_style(view, seat % 2),
            ),
            Span::styled(format!("{j:<6}"), Style::new().bold()),
        ];
        if with_cards {
            spans.push(Span::raw(format!("{:<16}", cards_text(&cards))));
        }
        spans.push(Span::styled(
            position_name(p),
            Style::new().fg(Color::DarkGray),
        ));
        lines.push(Line::from(spans));
    }
    lines.push(Line::from(""));
    for w in &s.winners {
        let who = match w.seat {
            Some(seat) => Span::styled(relation(me, seat), pair_style(view, seat % 2)),
            None => Span::raw("—"),
        };
        lines.push(Line::from(vec![
            Span::styled(format!("{:<7}", w.lance.to_string()), Style::new().bold()),
            who,
        ]));
        for part in wrap(&format!("  {}", w.reason), inner.width as usize) {
            lines.push(Line::from(part).fg(Color::Gray));
        }
    }
    f.render_widget(Paragraph::new(lines).block(block), area);
}

fn help(f: &mut Frame, area: Rect) {
    let block = Block::new()
        .borders(Borders::ALL)
        .border_type(BorderType::Rounded)
        .title(" help (? closes) ");
    let mut lines: Vec<Line> = vec![
        Line::from("keys").bold(),
        Line::from("m mus · n no hay mus / no quiero"),
        Line::from("p paso · e envido (amount on the input line)"),
        Line::from("s quiero · o órdago"),
        Line::from("1–4 pick cards, Enter discards them"),
        Line::from(": or any other letter: type a command"),
        Line::from("Esc clears the input line"),
        Line::from("PgUp/PgDn scroll the log · q twice quits"),
        Line::from(""),
        Line::from("commands").bold(),
    ];
    lines.extend(help_lines().into_iter().map(Line::from));
    f.render_widget(
        Paragraph::new(lines)
            .block(block)
            .wrap(Wrap { trim: false }),
        area,
    );
}

fn footer(f: &mut Frame, area: Rect, app: &App, view: &MusView) {
    let [msg, input, keys] = Layout::vertical([Constraint::Length(1); 3]).areas(area);
    let message = if !app.message.text.is_empty() {
        let style = if app.message.error {
            Style::new().fg(Color::Red).bold()
        } else {
            Style::new().fg(TURN)
        };
        Line::from(Span::styled(
            format!(
                "{}{}",
                if app.message.error { "error: " } else { "" },
                app.message.text
            ),
            style,
        ))
    } else if app.prompt().is_some() {
        Line::from("your turn").fg(TURN).bold()
    } else if view.phase == Phase::Over {
        Line::from("the match is over: press q twice to leave")
    } else {
        Line::from("waiting for the others…").fg(Color::DarkGray)
    };
    f.render_widget(Paragraph::new(message), msg);
    let prompt = if app.typing {
        Line::from(vec![
            Span::styled("> ", Style::new().bold()),
            Span::raw(app.input.clone()),
            Span::styled("█", Style::new().fg(Color::Gray)),
        ])
    } else {
        let hint = match app.prompt() {
            Some(p) => Span::styled(format!("your turn: {p}"), Style::new().fg(TURN)),
            None => Span::styled(
                "type a command, or use the keys below",
                Style::new().fg(Color::DarkGray),
            ),
        };
        Line::from(vec![Span::styled("> ", Style::new().bold()), hint])
    };
    f.render_widget(Paragraph::new(prompt), input);
    let k = |key: &'static str, what: &'static str| {
        vec![
            Span::styled(key, Style::new().bold().reversed()),
            Span::raw(format!(" {what} ")),
        ]
    };
    let spans: Vec<Span> = [
        k("m", "mus"),
        k("n", "no"),
        k("p", "paso"),
        k("e", "envido"),
        k("s", "quiero"),
        k("o", "órdago"),
        k("1-4", "pick"),
        k("?", "help"),
        k("q q", "quit"),
    ]
    .into_iter()
    .flatten()
    .collect();
    f.render_widget(Paragraph::new(Line::from(spans)), keys);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::PlayOptions;
    use ratatui::backend::TestBackend;
    use ratatui::Terminal;

    /// The first row of `view`'s header drawn `width` columns wide, and the second row
    /// (which must stay empty: the header never wraps).
    fn header_rows(view: &MusView, width: u16) -> (String, String) {
        let mut t = Terminal::new(TestBackend::new(width, 2)).expect("test terminal");
        t.draw(|f| {
            let area = Rect::new(0, 0, width, 1);
            scoreboard(f, area, view)
        })
        .expect("draws");
        let buf = t.backend().buffer().clone();
        let row = |y: u16| -> String { (0..width).map(|x| buf[(x, y)].symbol()).collect() };
        (row(0), row(1))
    }

    /// A view late in a long match: three-digit hand, two-digit piedras, several vacas.
    fn late_view(seat: usize) -> MusView {
        let opts = PlayOptions {
            human: seat,
            ..PlayOptions::default()
        };
        let app = App::new(&opts).expect("app");
        let mut view = app.session.view();
        view.hand_number = 123;
        view.game_number = 3;
        view.scores.piedras = [39, 38];
        view.scores.games = [2, 1];
        view.scores.vacas = [4, 3];
        view
    }

    #[test]
    fn the_header_fits_110_columns_in_words_and_pair_order() {
        for seat in [0, 1] {
            let view = late_view(seat);
            let (ours, theirs) = if seat == 0 {
                ("nosotros", "ellos")
            } else {
                ("ellos", "nosotros")
            };
            let (row, below) = header_rows(&view, 110);
            let expected = [
                "hand 123 · game 3 · to 40".to_string(),
                format!("{ours} 0–2: 39 piedras 2 juegos 4 vacas"),
                format!("{theirs} 1–3: 38 piedras 1 juego 3 vacas"),
            ];
            for part in &expected {
                assert!(row.contains(part.as_str()), "`{part}` cut at 110:\n{row}");
            }
            assert!(
                row.find(expected[1].as_str()) < row.find(expected[2].as_str()),
                "pair 0–2 first:\n{row}"
            );
            assert!(row.ends_with(' '), "the last column is free:\n{row}");
            assert!(below.trim().is_empty(), "nothing wraps:\n{below}");
        }
    }

    #[test]
    fn the_header_is_never_cut_at_any_width() {
        let view = late_view(0);
        for width in [200, 140, 120, 100, 90, 80, 60] {
            let (row, _) = header_rows(&view, width);
            let text = row.trim_end();
            // Every number is there, whatever the form.
            for part in ["123", "39", "38", "ellos"] {
                assert!(text.contains(part), "{part} missing at {width}:\n{row}");
            }
            assert!(
                text.ends_with('v') || text.ends_with("vacas"),
                "cut at {width}:\n{row}"
            );
        }
        let (wide, _) = header_rows(&view, 140);
        assert!(
            wide.contains(" tapete · mus "),
            "the title when there is room:\n{wide}"
        );
    }

    #[test]
    fn the_end_screen_names_the_score_in_pair_order() {
        let mut view = late_view(1);
        view.phase = Phase::Over;
        view.winner = Some(1);
        view.scores.piedras = [12, 40];
        let lines = end_lines(&view);
        assert_eq!(lines[0], "nosotros win the match");
        assert_eq!(lines[1], "pair 0–2 against pair 1–3:");
        assert_eq!(lines[2], "vacas 4–3 · juegos 2–1");
        assert_eq!(lines[3], "piedras 12–40");
    }
}
