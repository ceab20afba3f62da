//! The terminal: draws a `Play` with ratatui and feeds it crossterm's keys.
//! Only ASCII on the board and plain colours, so that it reads the same over
//! ssh and in any terminal; the evaluation graph uses Braille dots.

use super::render::{column_header, rows, CellKind};
use super::review::{Review, GRAPH_LIMIT};
use super::session::Play;
use crate::board::{Color as Side, Pos};
use crossterm::event::{self, Event, KeyCode, KeyEventKind, KeyModifiers};
use ratatui::layout::{Constraint, Layout};
use ratatui::style::{Color, Modifier, Style};
use ratatui::symbols::Marker;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Axis, Block, Borders, Chart, Dataset, GraphType, Paragraph, Wrap};
use ratatui::{DefaultTerminal, Frame};
use std::time::Duration;

/// What the terminal keeps besides the game: the cursor and the typed line.
struct Screen {
    cursor: Pos,
    input: String,
}

/// Runs the board until the person quits.
pub fn run(mut play: Play) -> std::io::Result<()> {
    let mut terminal = ratatui::init();
    let result = event_loop(&mut terminal, &mut play);
    ratatui::restore();
    result
}

fn event_loop(terminal: &mut DefaultTerminal, play: &mut Play) -> std::io::Result<()> {
    let board = play.game.board();
    let mut screen = Screen {
        cursor: Pos::new(board.width() / 2, board.height() / 2),
        input: String::new(),
    };
    let mut dirty = true;
    while !play.quit {
        if play.update(false) {
            dirty = true;
        }
        if dirty {
            terminal.draw(|frame| draw(frame, play, &screen))?;
            dirty = false;
        }
        // Short polls: the engine's progress shows while no key comes.
        if !event::poll(Duration::from_millis(50))? {
            continue;
        }
        if let Event::Key(key) = event::read()? {
            if key.kind != KeyEventKind::Press {
                continue;
            }
            dirty = true;
            let control = key.modifiers.contains(KeyModifiers::CONTROL);
            match key.code {
                KeyCode::Char('c' | 'q' | 'd') if control => play.type_line("quit"),
                KeyCode::Char(c) => screen.input.push(c),
                KeyCode::Backspace => {
                    screen.input.pop();
                }
                KeyCode::Esc => screen.input.clear(),
                KeyCode::Enter => {
                    let line = std::mem::take(&mut screen.input);
                    if line.trim().is_empty() {
                        if play.review.is_none() {
                            play.type_line(&screen.cursor.to_string());
                        }
                    } else {
                        play.type_line(&line);
                    }
                }
                KeyCode::Left | KeyCode::Right if play.review.is_some() => {
                    let step = if key.code == KeyCode::Left {
                        "prev"
                    } else {
                        "next"
                    };
                    play.type_line(step);
                }
                KeyCode::Left => move_cursor(&mut screen, play, -1, 0),
                KeyCode::Right => move_cursor(&mut screen, play, 1, 0),
                KeyCode::Up => move_cursor(&mut screen, play, 0, -1),
                KeyCode::Down => move_cursor(&mut screen, play, 0, 1),
                _ => {}
            }
        }
    }
    Ok(())
}

fn move_cursor(screen: &mut Screen, play: &Play, dx: isize, dy: isize) {
    let board = play.game.board();
    let x = (screen.cursor.x() as isize + dx).clamp(0, board.width() as isize - 1);
    let y = (screen.cursor.y() as isize + dy).clamp(0, board.height() as isize - 1);
    screen.cursor = Pos::new(x as usize, y as usize);
}

fn cell_style(kind: CellKind) -> Style {
    match kind {
        CellKind::Stone(Side::Black) => Style::new()
            .fg(Color::LightRed)
            .add_modifier(Modifier::BOLD),
        CellKind::Stone(Side::White) => Style::new()
            .fg(Color::LightCyan)
            .add_modifier(Modifier::BOLD),
        CellKind::LastStone(side) => {
            cell_style(CellKind::Stone(side)).add_modifier(Modifier::REVERSED)
        }
        CellKind::Forbidden => Style::new().fg(Color::Red),
        CellKind::Hint => Style::new()
            .fg(Color::LightGreen)
            .add_modifier(Modifier::BOLD),
        CellKind::Wall => Style::new().fg(Color::DarkGray),
        CellKind::Empty => Style::new().fg(Color::DarkGray),
    }
}

fn board_lines(play: &Play, screen: &Screen) -> Vec<Line<'static>> {
    let board = play.shown_board();
    let marks = play.marks(&board);
    let mut lines = vec![Line::from(column_header(&board))];
    for row in rows(&board, &marks) {
        let mut spans = vec![Span::raw(row.label), Span::raw(" ".repeat(row.indent))];
        for (text, kind, pos) in row.cells {
            let mut style = cell_style(kind);
            if pos == screen.cursor && play.review.is_none() {
                style = style.bg(Color::Blue);
            }
            spans.push(Span::styled(text, style));
        }
        lines.push(Line::from(spans));
    }
    lines
}

fn draw(frame: &mut Frame, play: &Play, screen: &Screen) {
    let [status, middle, message, input] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(10),
        Constraint::Length(5),
        Constraint::Length(1),
    ])
    .areas(frame.area());
    frame.render_widget(
        Paragraph::new(play.status()).style(Style::new().add_modifier(Modifier::BOLD)),
        status,
    );

    let board = play.game.board();
    let indent = match board.geometry() {
        crate::board::Geometry::Hex => board.height() * 3 / 2,
        crate::board::Geometry::Square => 0,
    };
    let board_width = (board.width() * 3 + 5 + indent) as u16;
    let [board_area, side] =
        Layout::horizontal([Constraint::Length(board_width), Constraint::Min(20)]).areas(middle);
    frame.render_widget(Paragraph::new(board_lines(play, screen)), board_area);

    match &play.review {
        Some(review) => draw_review(frame, review, side),
        None => {
            let mut text = vec![Line::from(format!("cursor {}", screen.cursor))];
            if let Some(task) = play.task {
                text.push(Line::from(format!("engine: {task:?}…")));
            }
            if let Some(line) = play.search_line() {
                text.push(Line::from(line));
            }
            if let Some(hint) = play.hint {
                text.push(Line::styled(
                    format!("hint: {hint}"),
                    cell_style(CellKind::Hint),
                ));
            }
            let strength = play.strength;
            text.push(Line::from(match strength.nodes {
                Some(nodes) => format!("engine: {nodes} nodes a move"),
                None => format!(
                    "engine: level {}, {} ms a move",
                    strength.level, strength.time_ms
                ),
            }));
            let block = Block::default().borders(Borders::ALL).title(" wuzi ");
            frame.render_widget(
                Paragraph::new(text).wrap(Wrap { trim: true }).block(block),
                side,
            );
        }
    }
    frame.render_widget(
        Paragraph::new(play.message.as_str()).wrap(Wrap { trim: false }),
        message,
    );
    frame.render_widget(Paragraph::new(format!("> {}", screen.input)), input);
}

fn draw_review(frame: &mut Frame, review: &Review, area: ratatui::layout::Rect) {
    let [graph, list] = Layout::vertical([Constraint::Min(8), Constraint::Length(8)]).areas(area);
    let scores = review.black_scores();
    let points: Vec<(f64, f64)> = scores
        .iter()
        .enumerate()
        .map(|(i, &s)| ((i + 1) as f64, s as f64))
        .collect();
    let blunders: Vec<(f64, f64)> = review
        .reviews
        .iter()
        .zip(&points)
        .filter(|(r, _)| Review::is_blunder(r))
        .map(|(_, &p)| p)
        .collect();
    let here: Vec<(f64, f64)> = points
        .get(review.ply.wrapping_sub(1))
        .copied()
        .into_iter()
        .collect();
    let datasets = vec![
        Dataset::default()
            .name("eval (Black)")
            .marker(Marker::Braille)
            .graph_type(GraphType::Line)
            .style(Style::new().fg(Color::LightCyan))
            .data(&points),
        Dataset::default()
            .name("blunder")
            .marker(Marker::Block)
            .graph_type(GraphType::Scatter)
            .style(Style::new().fg(Color::LightRed))
            .data(&blunders),
        Dataset::default()
            .name("shown")
            .marker(Marker::Block)
            .graph_type(GraphType::Scatter)
            .style(Style::new().fg(Color::Yellow))
            .data(&here),
    ];
    let limit = GRAPH_LIMIT as f64;
    let chart = Chart::new(datasets)
        .block(
            Block::default()
                .borders(Borders::ALL)
                .title(" evaluation over the game "),
        )
        .x_axis(
            Axis::default()
                .bounds([0.0, scores.len().max(1) as f64])
                .labels(vec![Span::raw("1"), Span::raw(scores.len().to_string())]),
        )
        .y_axis(Axis::default().bounds([-limit, limit]).labels(vec![
            Span::raw("White"),
            Span::raw("0"),
            Span::raw("Black"),
        ]));
    frame.render_widget(chart, graph);
    let mut lines = vec![Line::from(review.describe_ply())];
    lines.extend(review.blunder_lines().into_iter().map(Line::from));
    let block = Block::default().borders(Borders::ALL).title(" blunders ");
    frame.render_widget(Paragraph::new(lines).block(block), list);
}
