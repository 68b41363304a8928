//! Word lists for span extraction: English stop words (never content),
//! common English words too ordinary to be a leak on their own, and Chinese
//! function characters. The lists hold cleaned lower-case forms, before
//! leetspeak folding.

use std::collections::HashSet;
use std::sync::LazyLock;

/// Function words and game-neutral words: they never make a span distinctive.
const STOP_WORDS: &str = "
a about above after again against all almost along already also although always am among an and
another any anyone anything are around as at away back be became because become been before being
below between both but by came can cannot come could d did do does doing done down during each
either else enough even ever every everyone everything few first for from further get gets getting
give go goes going gone got had has have having he her here hers herself him himself his how however
i if in into is it its itself just last later least less let like ll m made make makes many may me
might more most much must my myself near neither never no nobody none nor not nothing now of off
often on once one only onto or other others our ours out over own per put rather re really s said
same say says see seen shall she should since so some someone something soon still such t take than
that the their theirs them themselves then there these they thing things this those though through
thus till to too took toward towards two under until up upon us ve very via was way we well went
were what when where whether which while who whole whom whose why will with within without would yes
yet you your yours yourself
";

/// Ordinary words long enough to pass the length rule for single-word spans
/// but far too common to count as a leak on their own.
const COMMON_WORDS: &str = "
actually afterwards already although another answer answers anybody anything anywhere because
believe believed between brought certain clearly completely couldn different evening everybody
everything everywhere exactly example explanation finally happened happens herself himself hundred
important instead knowing minutes morning nineteen nothing outside perhaps possible possibly
precisely probably question quickly realised realized recently remember seconds several shouldn
simply solution somebody someone something sometimes somewhere started suddenly themselves thought
thousand through together understand understood usually waited wanted whatever whenever whether
without wouldn
";

/// Chinese characters that carry grammar rather than content; a
/// three-character window made mostly of these is not a span, and they
/// never count as evidence.
const FUNCTION_CHARS: &str = "的了是在一不有和就都也他她它们这那个我你着过被把会要说很对到地得吗呢吧啊又与及或而且但所以为于之其从向给让将还才已经可能些么什怎样里上下中来去没每再更最只";

static STOP: LazyLock<HashSet<&'static str>> = LazyLock::new(|| STOP_WORDS.split_whitespace().collect());
static COMMON: LazyLock<HashSet<&'static str>> = LazyLock::new(|| COMMON_WORDS.split_whitespace().collect());

pub(super) fn is_stop_word(word: &str) -> bool {
    word.chars().all(|c| c.is_ascii_digit()) || STOP.contains(word)
}

pub(super) fn is_common_word(word: &str) -> bool {
    COMMON.contains(word)
}

pub(super) fn is_function_char(c: char) -> bool {
    FUNCTION_CHARS.contains(c)
}
