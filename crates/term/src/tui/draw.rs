//! Drawing one frame of any game's scene: the header on top, the table (the other seats
//! around it from your right over the top to your left, the centre, you below with your
//! cards), the log or the cards shown after a hand on the right, and the message, input
//! and keys lines at the bottom. Fits 80×24 and grows with the terminal, for 2 to 8 seats.

use super::state::App;
use ratatui::layout::{Constraint, Flex, Layout, Rect};
use ratatui::style::{Color, Modifier, Style, Stylize};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Borders, Clear, Paragraph, Wrap};
use ratatui::Frame;
use tapete_host::face::{self, CardFace, Ink, Panel, Scene, SeatScene, Tone};
use tapete_host::Face;
use tapete_table::Seat;

const OURS: Color = Color::Cyan;
const THEIRS: Color = Color::Magenta;
const TURN: Color = Color::Yellow;

/// The colours of highlight groups (melds), one per group in turn.
const GROUPS: [Color; 4] = [Color::Cyan, Color::Magenta, Color::Yellow, Color::Green];

/// The smallest screen the table is laid out for; below it the screen says so instead.
pub(crate) const MIN_SIZE: (u16, u16) = (80, 24);

pub(crate) fn draw<H: Face>(f: &mut Frame, app: &App<H>) {
    let area = f.area();
    if area.width < MIN_SIZE.0 || area.height < MIN_SIZE.1 {
        too_small(f, area);
        return;
    }
    let scene = app.scene();
    let to_act = app.session.to_act();
    let [top, main, bottom] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(14),
        Constraint::Length(3),
    ])
    .areas(f.area());
    header(f, top, &scene.header);
    let side = (main.width * 7 / 20).clamp(26, 60);
    let [table, right] =
        Layout::horizontal([Constraint::Min(50), Constraint::Length(side)]).areas(main);
    draw_table(f, table, app, &scene, &to_act);
    match &scene.reveal {
        _ if app.help => help::<H>(f, right),
        Some(panel) if app.paused => reveal(f, right, panel),
        _ => log::<H>(f, right, app),
    }
    footer::<H>(f, bottom, app, to_act.is_empty());
}

/// Instead of a table that cannot fit: what size it needs, centred, wrapped if narrow.
fn too_small(f: &mut Frame, area: Rect) {
    let (w, h) = MIN_SIZE;
    let text = vec![
        Line::from(format!("terminal too small (need {w}×{h})")).bold(),
        Line::from(format!(
            "it is {}×{}: make it larger",
            area.width, area.height
        )),
        Line::from("Ctrl-C leaves"),
    ];
    let rows = area.height.min(3);
    let at = Rect::new(
        area.x,
        area.y + area.height.saturating_sub(rows) / 2,
        area.width,
        rows,
    );
    f.render_widget(
        Paragraph::new(text).centered().wrap(Wrap { trim: true }),
        at,
    );
}

/// How a tone looks.
fn style(tone: Tone) -> Style {
    match tone {
        Tone::Plain => Style::new(),
        Tone::Strong => Style::new().bold(),
        Tone::Quiet => Style::new().fg(Color::Gray),
        Tone::Faint => Style::new().fg(Color::DarkGray),
        Tone::Own => Style::new().fg(OURS).bold(),
        Tone::Rival => Style::new().fg(THEIRS).bold(),
        Tone::Turn => Style::new().fg(TURN),
        Tone::Secret => Style::new().fg(Color::Magenta),
        Tone::Title => Style::new().bold().reversed(),
        Tone::Ink(ink) => Style::new().fg(color(ink)),
    }
}

fn color(ink: Ink) -> Color {
    match ink {
        Ink::Yellow => Color::Yellow,
        Ink::Red => Color::Red,
        Ink::Blue => Color::Blue,
        Ink::Green => Color::Green,
        Ink::Cyan => Color::Cyan,
        Ink::Magenta => Color::Magenta,
        Ink::White => Color::White,
    }
}

fn span(s: &face::Span) -> Span<'static> {
    Span::styled(s.text.clone(), style(s.tone))
}

fn line(l: &face::Line) -> Line<'static> {
    Line::from(l.spans.iter().map(span).collect::<Vec<_>>())
}

/// The header: the first of the scene's forms that fits the width, so no part is ever cut.
pub(super) fn header(f: &mut Frame, area: Rect, forms: &[face::Line]) {
    let width = usize::from(area.width);
    let chosen = forms
        .iter()
        .find(|l| l.width() <= width)
        .or_else(|| forms.last());
    if let Some(l) = chosen {
        f.render_widget(Paragraph::new(line(l)), area);
    }
}

/// Where the other seats sit: (right column bottom to top, top row right to left, left
/// column top to bottom), going round the table in seat order from the seat after the
/// player's. One other seat sits across; two sit right and left; more fill the top row,
/// with two on each side from seven seats on.
fn around(me: Seat, seats: usize) -> (Vec<Seat>, Vec<Seat>, Vec<Seat>) {
    let others: Vec<Seat> = (1..seats).map(|k| (me + k) % seats).collect();
    let k = others.len();
    let side = match k {
        0 | 1 => 0,
        2..=5 => 1,
        _ => 2,
    };
    let right = others[..side].to_vec();
    let top = others[side..k - side].to_vec();
    let left = others[k - side..].to_vec();
    (right, top, left)
}

fn draw_table<H: Face>(f: &mut Frame, area: Rect, app: &App<H>, scene: &Scene, to_act: &[Seat]) {
    let me = app.session.human;
    let (right_seats, top_seats, left_seats) = around(me, app.session.seats());
    let wide_top = top_seats.len() == 1;
    let top_height = match top_seats.len() {
        0 => 0,
        1 => 4,
        _ => 6,
    };
    let two_high = right_seats.len().max(left_seats.len()) > 1;
    // Your box comes first: a border, a card raised by one row over its place, the places'
    // labels (9 rows). When that leaves the middle under 7 rows, picked cards are not
    // raised (their label says so) and the top row gives up its last line, so your cards'
    // rank and suit rows are always whole.
    let you_height = if area.height >= top_height + 7 + 9 {
        9
    } else {
        8
    };
    let top_height = top_height.min(area.height.saturating_sub(you_height + 7).max(3));
    // On tall screens the table keeps its shape, centred, instead of stretching.
    let middle_height = area
        .height
        .saturating_sub(top_height + you_height)
        .clamp(5, if two_high { 14 } else { 11 });
    let [top, middle, you] = Layout::vertical([
        Constraint::Length(top_height),
        Constraint::Length(middle_height),
        Constraint::Length(you_height),
    ])
    .flex(Flex::Center)
    .areas(area);
    let side = |seats: &[Seat]| {
        if seats.is_empty() {
            0
        } else {
            (area.width / 4).clamp(17, 26)
        }
    };
    let [left, center, right] = Layout::horizontal([
        Constraint::Length(side(&left_seats)),
        Constraint::Min(18),
        Constraint::Length(side(&right_seats)),
    ])
    .areas(middle);
    // The top row from left to right is the top seats from last to first.
    let top_order: Vec<Seat> = top_seats.iter().rev().copied().collect();
    let right_order: Vec<Seat> = right_seats.iter().rev().copied().collect();
    for (seats, area, horizontal) in [
        (&top_order, top, true),
        (&left_seats, left, false),
        (&right_order, right, false),
    ] {
        if seats.is_empty() {
            continue;
        }
        let n = seats.len() as u32;
        let parts = if horizontal {
            Layout::horizontal(vec![Constraint::Ratio(1, n); seats.len()]).split(area)
        } else {
            Layout::vertical(vec![Constraint::Ratio(1, n); seats.len()]).split(area)
        };
        for (&seat, &part) in seats.iter().zip(parts.iter()) {
            seat_box(f, part, scene, seat, to_act, horizontal && wide_top);
        }
    }
    center_box(f, center, scene);
    your_box(f, you, app, scene, to_act);
}

/// The scene of `seat`, or a plain one if the face left it out.
fn seat_scene(scene: &Scene, seat: Seat) -> SeatScene {
    scene.seats.get(seat).cloned().unwrap_or_else(|| SeatScene {
        label: face::Span::plain(format!("seat {seat}")),
        ..SeatScene::default()
    })
}

fn seat_block(s: &SeatScene, to_act: bool, wide: bool) -> Block<'static> {
    let mut title = vec![Span::styled(
        format!(" {} ", s.label.text),
        style(s.label.tone),
    )];
    if wide && !s.detail.is_empty() {
        title.push(Span::raw(format!("· {} ", s.detail)));
    }
    let mut b = Block::new()
        .borders(Borders::ALL)
        .border_type(BorderType::Rounded)
        .title(Line::from(title));
    if to_act {
        b = b
            .border_style(Style::new().fg(TURN).bold())
            .title_bottom(Line::from(" to act ").right_aligned());
    }
    b
}

/// Cards on one line ("12o 3c 11e 1b"), each in its colour, then the note.
fn cards_line(cards: &[CardFace], note: &str) -> Line<'static> {
    let mut spans = Vec::new();
    for (i, c) in cards.iter().enumerate() {
        if i > 0 {
            spans.push(Span::raw(" "));
        }
        let st = if c.up {
            Style::new().fg(color(c.ink)).bold()
        } else {
            Style::new().fg(Color::DarkGray)
        };
        spans.push(Span::styled(c.text.clone(), st));
    }
    if !note.is_empty() {
        spans.push(Span::styled(format!("  {note}"), Style::new().bold()));
    }
    Line::from(spans)
}

fn seat_box(f: &mut Frame, area: Rect, scene: &Scene, seat: Seat, to_act: &[Seat], wide: bool) {
    let s = seat_scene(scene, seat);
    let block = seat_block(&s, to_act.contains(&seat), wide);
    let mut lines: Vec<Line> = Vec::new();
    if !wide && !s.detail.is_empty() {
        lines.push(Line::from(s.detail.clone()).bold());
    }
    if !s.cards.is_empty() {
        lines.push(cards_line(&s.cards, &s.cards_note));
    }
    if wide {
        lines.push(Line::from(s.facts.join("   ")));
    } else {
        lines.extend(s.facts.iter().cloned().map(Line::from));
    }
    f.render_widget(
        Paragraph::new(lines).block(block).wrap(Wrap { trim: true }),
        area,
    );
}

fn center_box(f: &mut Frame, area: Rect, scene: &Scene) {
    let block = Block::new()
        .borders(Borders::ALL)
        .border_type(BorderType::Plain)
        .border_style(Style::new().fg(Color::DarkGray))
        .title(Line::from(scene.centre.title.clone()).centered().bold());
    let lines: Vec<Line> = match &scene.end {
        // The end: who won and the final score, nothing of the last hand.
        Some(end) => {
            let mut lines: Vec<Line> = end
                .iter()
                .enumerate()
                .map(|(i, l)| {
                    if i == 0 {
                        Line::from(l.clone()).bold()
                    } else {
                        Line::from(l.clone())
                    }
                })
                .collect();
            lines.push(Line::from("q and Enter leave").fg(TURN));
            lines
        }
        None => {
            let mut lines: Vec<Line> = scene.centre.lines.iter().map(line).collect();
            if !scene.centre.cards.is_empty() {
                lines.push(cards_line(&scene.centre.cards, ""));
            }
            lines
        }
    };
    f.render_widget(
        Paragraph::new(lines)
            .block(block)
            .centered()
            .wrap(Wrap { trim: true }),
        area,
    );
}

/// One card drawn in a box `width` columns wide and 5 high.
fn card_box(f: &mut Frame, rect: Rect, card: &CardFace, raised: bool) {
    let (color, body) = if card.up {
        let c = color(card.ink);
        let corner_width = usize::from(rect.width.saturating_sub(2));
        (
            c,
            vec![
                Line::from(Span::styled(
                    format!("{:<corner_width$}", card.corner),
                    Style::new().fg(c).bold(),
                )),
                Line::from(card.middle.clone()).centered(),
                Line::from(Span::styled(card.bottom.clone(), Style::new().fg(c))).centered(),
            ],
        )
    } else {
        let back = "▒".repeat(usize::from(rect.width.saturating_sub(2)));
        (
            Color::DarkGray,
            vec![
                Line::from(back.clone()).fg(Color::DarkGray),
                Line::from(back.clone()).fg(Color::DarkGray),
                Line::from(back).fg(Color::DarkGray),
            ],
        )
    };
    let mut border = Style::new().fg(color);
    if raised {
        border = border.add_modifier(Modifier::BOLD | Modifier::REVERSED);
    }
    let border_type = if card.group.is_some() {
        BorderType::Double
    } else {
        BorderType::Rounded
    };
    f.render_widget(Clear, rect);
    f.render_widget(
        Paragraph::new(body).block(
            Block::new()
                .borders(Borders::ALL)
                .border_type(border_type)
                .border_style(border),
        ),
        rect,
    );
}

/// The mark under a card of a highlight group: its letter, in the group's colour.
fn group_mark(group: u8) -> Span<'static> {
    let letter = char::from(b'A' + group % 26);
    Span::styled(
        format!("─{letter}─"),
        Style::new().fg(GROUPS[usize::from(group) % GROUPS.len()]),
    )
}

fn your_box<H: Face>(f: &mut Frame, area: Rect, app: &App<H>, scene: &Scene, to_act: &[Seat]) {
    let me = app.session.human;
    let s = seat_scene(scene, me);
    let block = seat_block(&s, to_act.contains(&me), true);
    let inner = block.inner(area);
    f.render_widget(block, area);
    let cards = &scene.hand.cards;
    // Room for at least four cards, so the words beside them do not move as cards come
    // and go; narrower cards when many do not fit.
    let slots = cards.len().max(4) as u16;
    let room = inner.width.saturating_sub(11);
    let card_width = if slots * 8 < room {
        8
    } else {
        (room / slots).max(5)
    };
    let cards_width = slots * card_width + 1;
    let [cards_area, info_area] =
        Layout::horizontal([Constraint::Length(cards_width), Constraint::Min(10)]).areas(inner);
    let picking = H::pick(&app.session.view()).is_ok();
    let picked = app.picked_places();
    // A picked card rises by a row when there is one to spare.
    let rise = cards_area.height >= 7;
    let label_row = cards_area.y + if rise { 6 } else { 5 };
    for (i, card) in cards.iter().enumerate() {
        let x = cards_area.x + (i as u16) * card_width;
        if x + card_width > cards_area.right() {
            break;
        }
        let raised = picking && picked.contains(&(i + 1));
        let top = cards_area.y + u16::from(rise && !raised);
        let rect = Rect::new(x, top, card_width, 5).intersection(cards_area);
        card_box(f, rect, card, raised);
        if label_row < cards_area.bottom() {
            let label = Rect::new(x, label_row, card_width, 1);
            let text = if picking {
                Span::raw(if raised {
                    "[x]".to_string()
                } else {
                    format!("[{}]", i + 1)
                })
            } else if let Some(g) = card.group {
                group_mark(g)
            } else {
                continue;
            };
            f.render_widget(Paragraph::new(Line::from(text)).centered(), label);
        }
    }
    let info: Vec<Line> = scene.hand.info.iter().map(line).collect();
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

/// How a log line looks: the tone the face gives it, colour without weight except for
/// what must stand out.
fn log_style(tone: Tone) -> Style {
    match tone {
        Tone::Own => Style::new().fg(OURS),
        Tone::Rival => Style::new().fg(THEIRS),
        other => style(other),
    }
}

fn log<H: Face>(f: &mut Frame, area: Rect, app: &App<H>) {
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
        .map(|l| Line::from(Span::styled(l.clone(), log_style(H::log_tone(l)))))
        .collect();
    f.render_widget(Paragraph::new(shown).block(block), area);
}

/// The panel shown while the table is held after a hand, in its widest form that fits.
fn reveal(f: &mut Frame, area: Rect, panel: &Panel) {
    let block = Block::new()
        .borders(Borders::ALL)
        .border_type(BorderType::Double)
        .border_style(Style::new().fg(TURN))
        .title(panel.title.clone())
        .title_bottom(Line::from(" any key goes on ").right_aligned());
    let inner = block.inner(area);
    let width = usize::from(inner.width);
    let fits = |form: &&Vec<face::Line>| form.iter().all(|l| l.wrap || l.width() <= width);
    let form = panel.forms.iter().find(fits).or_else(|| panel.forms.last());
    let mut lines: Vec<Line> = Vec::new();
    for l in form.into_iter().flatten() {
        if l.wrap {
            let tone = l.spans.first().map(|s| s.tone).unwrap_or_default();
            for part in wrap(&l.text(), width) {
                lines.push(Line::from(Span::styled(part, style(tone))));
            }
        } else {
            lines.push(line(l));
        }
    }
    f.render_widget(Paragraph::new(lines).block(block), area);
}

fn help<H: Face>(f: &mut Frame, area: Rect) {
    let block = Block::new()
        .borders(Borders::ALL)
        .border_type(BorderType::Rounded)
        .title(" help (F1 or Esc closes) ");
    let mut lines: Vec<Line> = vec![
        Line::from("typing").bold(),
        Line::from("every key types on the input line; Enter plays what it says"),
        Line::from("a letter alone and Enter is a short form:"),
    ];
    lines.extend(H::key_help().into_iter().map(Line::from));
    lines.extend([
        Line::from("Backspace and Esc correct or clear the line"),
        Line::from("PgUp/PgDn scroll the log · q and Enter, then Enter again, leave"),
        Line::from(""),
        Line::from("commands").bold(),
    ]);
    lines.extend(H::help().into_iter().map(Line::from));
    f.render_widget(
        Paragraph::new(lines)
            .block(block)
            .wrap(Wrap { trim: false }),
        area,
    );
}

fn footer<H: Face>(f: &mut Frame, area: Rect, app: &App<H>, over: bool) {
    let [msg, input, keys] = Layout::vertical([Constraint::Length(1); 3]).areas(area);
    let prompt = app.prompt();
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
    } else if prompt.is_some() {
        Line::from("your turn").fg(TURN).bold()
    } else if over {
        Line::from(super::state::OVER)
    } else {
        Line::from("waiting for the others…").fg(Color::DarkGray)
    };
    f.render_widget(Paragraph::new(message), msg);
    let input_line = if !app.input.is_empty() {
        Line::from(vec![
            Span::styled("> ", Style::new().bold()),
            Span::raw(app.input.clone()),
            Span::styled("█", Style::new().fg(Color::Gray)),
        ])
    } else {
        let hint = match prompt {
            Some(p) => Span::styled(format!("your turn: {p}"), Style::new().fg(TURN)),
            None => Span::styled(
                "type a command and press Enter",
                Style::new().fg(Color::DarkGray),
            ),
        };
        Line::from(vec![Span::styled("> ", Style::new().bold()), hint])
    };
    f.render_widget(Paragraph::new(input_line), input);
    let mut bar = H::key_bar();
    bar.extend([("F1", "help"), ("q⏎", "quit")]);
    let spans: Vec<Span> = bar
        .into_iter()
        .flat_map(|(key, what)| {
            [
                Span::styled(key, Style::new().bold().reversed()),
                Span::raw(format!(" {what} ")),
            ]
        })
        .collect();
    f.render_widget(Paragraph::new(Line::from(spans)), keys);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_other_seat_has_one_place_around_the_table() {
        for seats in 2..=8 {
            for me in 0..seats {
                let (right, top, left) = around(me, seats);
                let mut all: Vec<Seat> = right.iter().chain(&top).chain(&left).copied().collect();
                assert_eq!(all.len(), seats - 1, "{seats} seats");
                all.sort_unstable();
                all.dedup();
                assert_eq!(all.len(), seats - 1, "a seat placed twice at {seats}");
                assert!(!all.contains(&me), "the player is below, not around");
                assert_eq!(right.len(), left.len(), "{seats} seats: sides balance");
            }
        }
        // Four seats as at a Mus table: the next seat on the right, across, on the left.
        assert_eq!(around(1, 4), (vec![2], vec![3], vec![0]));
        assert_eq!(around(0, 2), (vec![], vec![1], vec![]));
        assert_eq!(around(0, 3), (vec![1], vec![], vec![2]));
    }

    #[test]
    fn the_header_is_the_first_form_that_fits() {
        let forms = vec![
            face::Line::from("a very long header, too long for small screens"),
            face::Line::from("short header"),
            face::Line::from("tiny"),
        ];
        for (width, expected) in [(80u16, 0usize), (20, 1), (12, 1), (11, 2), (3, 2)] {
            let mut t =
                ratatui::Terminal::new(ratatui::backend::TestBackend::new(width, 1)).expect("t");
            t.draw(|f| header(f, Rect::new(0, 0, width, 1), &forms))
                .expect("draws");
            let row: String = (0..width)
                .map(|x| t.backend().buffer()[(x, 0)].symbol().to_string())
                .collect();
            let want = forms[expected].text();
            let shown: String = want.chars().take(usize::from(width)).collect();
            assert!(row.starts_with(&shown), "{width}: `{row}` is not `{want}`");
        }
    }
}
