use super::*;

#[test]
fn leaderboard_lines_rank_rows_and_use_the_front_ends_safe_names() {
    let row =
        |name: &str, points, solves| LeaderRow { player_id: format!("x:{name}"), name: name.into(), points, solves };
    let rows = [row("@everyone", 12, 2), row("bob", 5, 1)];
    let text = leaderboard_lines(&rows, |n| n.replace('@', "@\u{200B}"));
    assert_eq!(text, "1. @\u{200B}everyone · 12 pts · 2 solved\n2. bob · 5 pts · 1 solved\n");
    assert_eq!(leaderboard_lines(&[], str::to_string), "");
}
