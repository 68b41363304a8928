//! Test fixtures shared by the core's unit tests (compiled for tests only).

use super::soup::puzzle::Puzzle;

pub const LIGHTHOUSE: &str = r#"
id = "en-test-lighthouse"
title = "The Dark Lighthouse"
language = "en"
difficulty = "medium"
tags = ["sea"]
author = "tests"
license = "CC0"
surface = "A lighthouse keeper switched off his lamp one night. The next morning he read the newspaper and wept."
bottom = "The keeper's brother was sailing home that night on a cargo ship. Because the lamp was dark, the ship struck the rocks and sank. The newspaper listed his brother among the drowned crew."
hints = ["Think about who was at sea that night.", "The keeper had family on the water.", "The lamp was there to warn ships away from danger."]

[[facts]]
id = "f1"
text = "A ship wrecked because the lamp was off."
required = true

[[facts]]
id = "f2"
text = "The keeper's brother was aboard and drowned."
required = true

[[facts]]
id = "f3"
text = "He learned of it from the newspaper."
required = false
"#;

pub fn puzzle() -> Puzzle {
    Puzzle::from_toml(LIGHTHOUSE, Some("en-test-lighthouse"), None).expect("fixture puzzle is valid")
}
