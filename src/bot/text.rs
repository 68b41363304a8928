//! Text helpers every front end needs the same way.

/// Splits text into pieces of at most `max` characters, at line breaks
/// where possible.
pub fn chunks(text: &str, max: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    let mut len = 0;
    for line in text.split_inclusive('\n') {
        let line_len = line.chars().count();
        if len + line_len > max && !current.is_empty() {
            out.push(std::mem::take(&mut current));
            len = 0;
        }
        if line_len > max {
            let chars: Vec<char> = line.chars().collect();
            for piece in chars.chunks(max) {
                out.push(piece.iter().collect());
            }
            continue;
        }
        current.push_str(line);
        len += line_len;
    }
    if !current.is_empty() {
        out.push(current);
    }
    out.retain(|c| !c.trim().is_empty());
    if out.is_empty() {
        out.push(String::from("…"));
    }
    out
}
