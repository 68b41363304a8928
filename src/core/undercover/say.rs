//! Every fixed sentence of Who is the Undercover, in en and zh. Players
//! read these (and other players' descriptions); a model's words reach
//! them only as an AI seat's description, after the same checks as a
//! human's.

use crate::core::vocab::Language;

use super::{Outcome, Rejection, Role};

pub fn title(lang: Language) -> &'static str {
    lang.pick("🕵️ Who is the Undercover", "🕵️ 谁是卧底")
}

pub fn role(lang: Language, role: Role) -> &'static str {
    match (lang, role) {
        (Language::En, Role::Civilian) => "civilian",
        (Language::En, Role::Undercover) => "undercover",
        (Language::En, Role::Blank) => "blank",
        (Language::Zh, Role::Civilian) => "平民",
        (Language::Zh, Role::Undercover) => "卧底",
        (Language::Zh, Role::Blank) => "白板",
    }
}

pub fn lobby(lang: Language, seats: &[String], max: usize, min: usize) -> String {
    let list = seats.join(", ");
    lang.pick(format!(
            "{} · lobby · {}/{max} seats: {list}.\nJoin with `join`; `add-ai` seats an AI player; the host starts with `begin` ({min} seats at least).",
            title(lang),
            seats.len()
        ),
        format!(
            "{} · 大厅 · {}/{max} 座：{list}。\n用 `join` 入座；`add-ai` 让 AI 入座；房主用 `begin` 开始（至少 {min} 人）。",
            title(lang),
            seats.len()
        ),
    )
}

pub fn begins(lang: Language, seats: usize, undercovers: usize, blank: bool) -> String {
    lang.pick(format!(
            "The game begins: {seats} seats, {undercovers} undercover{}{}. Your word comes to you privately (`word` shows it again).",
            if undercovers == 1 { "" } else { "s" },
            if blank { " and one blank seat" } else { "" }
        ),
        format!(
            "游戏开始：{seats} 人，{undercovers} 个卧底{}。你的词已私下发给你（`word` 可再看一次）。",
            if blank { "，另有一个白板" } else { "" }
        ),
    )
}

pub fn your_word(lang: Language, word: &str) -> String {
    lang.pick(format!("🤫 Your word: **{word}**. Describe it in one short line without saying it."),
        format!("🤫 你的词：**{word}**。用一句话描述它，但不能说出它。"),
    )
}

pub fn you_are_blank(lang: Language) -> String {
    lang.pick("🤫 You are the **blank**: you have no word. Listen to the others, blend in, and don't get caught. If you are voted out you get one guess at the civilians' word.".into(),
        "🤫 你是**白板**：你没有词。听别人描述，混在其中，别被发现。被投出时你有一次猜平民词的机会。".into(),
    )
}

pub fn round_opens(lang: Language, round: u32, order: &str, speaker: &str, seconds: u32) -> String {
    lang.pick(format!("**Round {round}.** Order: {order}.\n{speaker}, describe your word ({seconds} s)."),
        format!("**第 {round} 轮。** 顺序：{order}。\n{speaker}，请描述你的词（{seconds} 秒）。"),
    )
}

pub fn described(lang: Language, who: &str, text: &str) -> String {
    lang.pick(format!("{who}: “{text}”"), format!("{who}：“{text}”"))
}

pub fn next_speaker(lang: Language, speaker: &str, seconds: u32) -> String {
    lang.pick(format!("Next: {speaker} ({seconds} s)."), format!("下一位：{speaker}（{seconds} 秒）。"))
}

pub fn skipped(lang: Language, who: &str) -> String {
    lang.pick(format!("{who} did not describe in time and is skipped this round."),
        format!("{who} 没有按时描述，本轮跳过。"),
    )
}

pub fn vote_opens(lang: Language, runoff: bool, seconds: u32) -> String {
    match runoff {
        false => lang.pick(format!(
                "Everyone has spoken. **Vote now** in secret: who is the undercover? ({seconds} s, `vote <seat number>` or a button)"
            ),
            format!("所有人都已发言。**现在秘密投票**：谁是卧底？（{seconds} 秒，`vote <座位号>` 或按钮）"),
        ),
        true => lang.pick(format!("**Deciding vote** between them only ({seconds} s)."),
            format!("平票者之间**加投一轮**（{seconds} 秒）。"),
        ),
    }
}

pub fn tie(lang: Language, tied: &str) -> String {
    lang.pick(format!("Equal votes for {tied}."), format!("{tied} 票数相同。"))
}

pub fn voted_count(lang: Language, cast: usize, of: usize) -> String {
    lang.pick(format!("🗳️ {cast}/{of} have voted."), format!("🗳️ 已投 {cast}/{of}。"))
}

pub fn vote_in(lang: Language, target: &str) -> String {
    lang.pick(format!("Your vote for {target} is in (you may change it until the vote closes)."),
        format!("你投给了 {target}（投票结束前可以改）。"),
    )
}

pub fn votes_list(lang: Language, lines: &[String], abstained: &[String]) -> String {
    let mut out = lines.join("\n");
    if !abstained.is_empty() {
        let list = abstained.join(", ");
        out.push('\n');
        out.push_str(&lang.pick(format!("Did not vote: {list}."), format!("未投票：{list}。")));
    }
    out
}

pub fn eliminated(lang: Language, who: &str, votes: usize, random: bool, role_name: &str) -> String {
    match random {
        false => lang.pick(format!(
                "**{who} is out** ({votes} vote{}). {who} was a **{role_name}**.",
                if votes == 1 { "" } else { "s" }
            ),
            format!("**{who} 出局**（{votes} 票）。{who} 是**{role_name}**。"),
        ),
        true => lang.pick(format!("Equal again: the recorded seed picks **{who}**, who is out. {who} was a **{role_name}**."),
            format!("再次平票：按记录的随机种子，**{who}** 出局。{who} 是**{role_name}**。"),
        ),
    }
}

pub fn left_game(lang: Language, who: &str) -> String {
    lang.pick(format!("{who} left the game."), format!("{who} 离开了游戏。"))
}

pub fn last_guess_opens(lang: Language, who: &str, seconds: u32) -> String {
    lang.pick(format!("{who} gets one private guess at the civilians' word ({seconds} s)."),
        format!("{who} 有一次私下猜平民词的机会（{seconds} 秒）。"),
    )
}

pub fn guess_prompt(lang: Language) -> String {
    lang.pick("You were voted out as the blank. Guess the civilians' word with `guess <word>`: if you are right, you win alone.".into(),
        "你作为白板被投出。用 `guess <词>` 猜平民的词：猜对则你独赢。".into(),
    )
}

pub fn guess_result(lang: Language, who: &str, right: bool) -> String {
    match right {
        true => lang.pick(format!("{who} guessed the civilians' word!"), format!("{who} 猜中了平民的词！")),
        false => lang.pick(format!("{who} guessed wrong."), format!("{who} 没有猜中。")),
    }
}

pub fn guess_missed(lang: Language, who: &str) -> String {
    lang.pick(format!("{who} made no guess in time."), format!("{who} 没有按时猜词。"))
}

pub fn outcome(lang: Language, outcome: Outcome) -> String {
    let (en, zh) = match outcome {
        Outcome::Civilians => ("🎉 **The civilians win!**", "🎉 **平民获胜！**"),
        Outcome::Undercover => ("🎭 **The undercover wins!**", "🎭 **卧底获胜！**"),
        Outcome::Blank => ("🃏 **The blank wins alone!**", "🃏 **白板独赢！**"),
        Outcome::Ended => ("The game was ended before anyone won.", "游戏在分出胜负前结束了。"),
    };
    lang.pick(en.into(), zh.into())
}

pub fn words_reveal(lang: Language, civilian: &str, undercover: &str) -> String {
    lang.pick(format!("Words: civilians **{civilian}** · undercover **{undercover}**."),
        format!("词：平民 **{civilian}** · 卧底 **{undercover}**。"),
    )
}

pub fn roles_heading(lang: Language) -> &'static str {
    match lang {
        Language::En => "Seats:",
        Language::Zh => "座位：",
    }
}

pub fn votes_heading(lang: Language, round: u32, runoff: bool) -> String {
    match (lang, runoff) {
        (Language::En, false) => format!("Round {round} votes:"),
        (Language::En, true) => format!("Round {round}, deciding vote:"),
        (Language::Zh, false) => format!("第 {round} 轮投票："),
        (Language::Zh, true) => format!("第 {round} 轮加投："),
    }
}

pub fn winner_mark(lang: Language) -> &'static str {
    match lang {
        Language::En => "🏆",
        Language::Zh => "🏆",
    }
}

pub fn status(lang: Language, phase: &str, round: u32, living: &str, waiting: &str) -> String {
    lang.pick(format!("{} · {phase} · round {round}\nIn the game: {living}\n{waiting}", title(lang)),
        format!("{} · {phase} · 第 {round} 轮\n在场：{living}\n{waiting}", title(lang)),
    )
}

pub fn phase(lang: Language, name: &str) -> &'static str {
    match (lang, name) {
        (Language::En, "lobby") => "lobby",
        (Language::En, "describe") => "describing",
        (Language::En, "vote") => "voting",
        (Language::En, "last_guess") => "the blank's guess",
        (Language::En, "guess_ai") => "guess the AI",
        (Language::En, _) => "over",
        (Language::Zh, "lobby") => "大厅",
        (Language::Zh, "describe") => "描述中",
        (Language::Zh, "vote") => "投票中",
        (Language::Zh, "last_guess") => "白板猜词",
        (Language::Zh, "guess_ai") => "猜 AI",
        (Language::Zh, _) => "已结束",
    }
}

pub fn waiting_for(lang: Language, who: &str) -> String {
    lang.pick(format!("Waiting for: {who}"), format!("等待：{who}"))
}

/// A reminder before a deadline: who the phase still waits for.
pub fn reminder(lang: Language, seconds_left: i64, who: &str, phase_name: &str) -> String {
    let doing = match (lang, phase_name) {
        (Language::En, "describe") => "to describe",
        (Language::En, "last_guess") => "to guess",
        (Language::En, "guess_ai") => "to name the AI seats",
        (Language::En, _) => "to vote",
        (Language::Zh, "describe") => "描述",
        (Language::Zh, "last_guess") => "猜词",
        (Language::Zh, "guess_ai") => "指认 AI",
        (Language::Zh, _) => "投票",
    };
    lang.pick(format!("⏳ {seconds_left} s left {doing}. Waiting for: {who}"),
        format!("⏳ 还剩 {seconds_left} 秒{doing}。等待：{who}"),
    )
}

/// Why a moderator's pair was not added.
pub fn pair_refused(lang: Language, problems: &[String]) -> String {
    lang.pick(format!("That pair was not added: {}.", problems.join("; ")),
        format!("这个词对没有加入：{}。", problems.join("；")),
    )
}

pub fn sent_privately(lang: Language) -> String {
    lang.pick("Sent to you privately.".into(), "已私下发给你。".into())
}

/// A refused move, said to whoever made it.
pub fn refusal(lang: Language, r: &Rejection, speaker: &str) -> String {
    use crate::core::game::SeatError as S;
    let (en, zh): (String, String) = match r {
        Rejection::Seat(S::AlreadySeated) => ("You already have a seat.".into(), "你已经入座了。".into()),
        Rejection::Seat(S::NotSeated) => ("You have no seat here.".into(), "你不在这局里。".into()),
        Rejection::Seat(S::Full { max }) => {
            (format!("The table is full ({max} seats)."), format!("座位已满（{max} 座）。"))
        }
        Rejection::Seat(S::NoAiSeats { max_ai }) => {
            (format!("No more AI seats ({max_ai} at most)."), format!("AI 座位已满（最多 {max_ai} 个）。"))
        }
        Rejection::Seat(S::NotHost) => {
            ("Only the host or a moderator may start.".into(), "只有房主或管理员可以开始。".into())
        }
        Rejection::Seat(S::TooFew { min, seated }) => (
            format!("{min} seats are needed to start; {seated} are taken. Invite people or use `add-ai`."),
            format!("至少需要 {min} 人才能开始，现在 {seated} 人。邀请朋友或用 `add-ai`。"),
        ),
        Rejection::Seat(S::Started) | Rejection::NotNow => {
            ("That can't be done at this point of the game.".into(), "现在不能这样做。".into())
        }
        Rejection::NotSeated => ("You have no seat in this game.".into(), "你不在这局游戏里。".into()),
        Rejection::Out => ("You are out of this game; watch the rest!".into(), "你已出局，请继续观战！".into()),
        Rejection::NotYourTurn { .. } => (format!("It's {speaker}'s turn."), format!("现在轮到 {speaker}。")),
        Rejection::NotAnOption => (
            "No such seat on this ballot: vote with a seat number from the list.".into(),
            "这次投票没有这个座位：请用列表里的座位号投票。".into(),
        ),
        Rejection::OwnVote => ("You can't vote for yourself.".into(), "不能投自己。".into()),
        Rejection::TooFewForBlank => (
            format!("A blank seat needs {} seats at least.", super::MIN_SEATS_WITH_BLANK),
            format!("有白板时至少需要 {} 人。", super::MIN_SEATS_WITH_BLANK),
        ),
        Rejection::NotHost => {
            ("Only the host or a moderator may end the game.".into(), "只有房主或管理员可以结束游戏。".into())
        }
        Rejection::StaleTimer => ("That deadline has passed already.".into(), "这个时限已经过了。".into()),
    };
    lang.pick(en, zh)
}

pub fn description_gives_away(lang: Language) -> String {
    lang.pick("That description is too close to a secret word (or a form or translation of one). Describe it another way; nothing was posted.".into(),
        "这句描述离秘密词太近（或是它的变体、翻译）。请换个说法；什么都没有发出。".into(),
    )
}

pub fn description_empty(lang: Language) -> String {
    lang.pick("Describe your word in one short line: `describe <text>`.".into(),
        "请用一句话描述你的词：`describe <内容>`。".into(),
    )
}

pub fn description_too_long(lang: Language, max: usize) -> String {
    lang.pick(format!("Keep it to one short line ({max} characters at most); nothing was posted."),
        format!("请只说一句（最多 {max} 个字符）；什么都没有发出。"),
    )
}

pub fn not_a_verb(lang: Language) -> String {
    lang.pick("Undercover verbs: join, leave, begin, add-ai, describe <text>, vote <seat>, word, guess <word>, status, end."
            .into(),
        "卧底指令：join、leave、begin、add-ai、describe <内容>、vote <座位号>、word、guess <词>、status、end。".into(),
    )
}

pub fn guess_ai_opens(lang: Language, seconds: u32) -> String {
    lang.pick(format!(
            "🤖 **Guess the AI**: some seats were played by AI. Name them with `guess <seat numbers>` (e.g. `guess 2 5`), {seconds} s."
        ),
        format!("🤖 **猜猜谁是 AI**：有些座位由 AI 扮演。用 `guess <座位号>` 指出（例如 `guess 2 5`），{seconds} 秒。"),
    )
}

pub fn ai_guess_in(lang: Language) -> String {
    lang.pick("Your guess is in.".into(), "你的猜测已记录。".into())
}

pub fn ai_guesses_count(lang: Language, guessed: usize, of: usize) -> String {
    lang.pick(format!("🤖 {guessed}/{of} have guessed."), format!("🤖 已猜 {guessed}/{of}。"))
}

pub fn ai_were(lang: Language, seats: &str) -> String {
    lang.pick(format!("🤖 The AI seats were: {seats}."), format!("🤖 AI 座位是：{seats}。"))
}

pub fn ai_score(lang: Language, right: usize, of: usize, wrong: usize) -> String {
    lang.pick(format!("found {right} of {of} AI seats, {wrong} wrongly named"),
        format!("找出 {of} 个 AI 中的 {right} 个，错指 {wrong} 个"),
    )
}

pub fn withheld(lang: Language) -> String {
    lang.pick("(withheld: that would give a secret word away)".into(), "（已拦下：这会泄露秘密词）".into())
}

pub fn ended_idle(lang: Language) -> String {
    lang.pick("The game sat idle too long and was ended.".into(), "游戏闲置太久，已结束。".into())
}

pub fn host_mark(lang: Language) -> &'static str {
    match lang {
        Language::En => "host",
        Language::Zh => "房主",
    }
}

pub fn out_mark(lang: Language) -> &'static str {
    match lang {
        Language::En => "out",
        Language::Zh => "出局",
    }
}

/// Safe descriptions an AI seat falls back to when its own broke a rule.
pub fn stock_descriptions(lang: Language) -> &'static [&'static str] {
    match lang {
        Language::En => &[
            "Most people have come across it at some point.",
            "I'd say it's more common than you'd think.",
            "You can find it in many homes.",
            "Some people like it a lot, others don't care.",
            "It comes in more than one kind.",
            "I've seen it often enough.",
        ],
        Language::Zh => &[
            "大多数人都接触过它。",
            "它比你想的更常见。",
            "很多家里都能找到。",
            "有人很喜欢，有人无所谓。",
            "它不止一种。",
            "我经常见到。",
        ],
    }
}

/// Every fixed sentence players may read in public or in private, with
/// empty or sample fields: a secret word must not be one of their words
/// (the gate would withhold the sentence; `words.rs` checks the pairs).
pub fn fixed_text(lang: Language) -> String {
    let r = Rejection::NotYourTurn { speaker: String::new() };
    let mut out = vec![
        title(lang).to_string(),
        lobby(lang, &[String::new()], 12, 3),
        begins(lang, 6, 1, true),
        begins(lang, 7, 2, false),
        your_word(lang, ""),
        you_are_blank(lang),
        round_opens(lang, 1, "", "", 90),
        described(lang, "", ""),
        next_speaker(lang, "", 90),
        skipped(lang, ""),
        vote_opens(lang, false, 60),
        vote_opens(lang, true, 60),
        tie(lang, ""),
        voted_count(lang, 1, 6),
        vote_in(lang, ""),
        votes_list(lang, &[], &[String::new()]),
        eliminated(lang, "", 1, false, ""),
        eliminated(lang, "", 2, true, ""),
        left_game(lang, ""),
        last_guess_opens(lang, "", 60),
        guess_prompt(lang),
        guess_result(lang, "", true),
        guess_result(lang, "", false),
        guess_missed(lang, ""),
        guess_ai_opens(lang, 60),
        ai_guess_in(lang),
        ai_guesses_count(lang, 1, 2),
        ai_were(lang, ""),
        ai_score(lang, 1, 2, 0),
        words_reveal(lang, "", ""),
        roles_heading(lang).to_string(),
        votes_heading(lang, 1, false),
        votes_heading(lang, 1, true),
        status(lang, "", 1, "", ""),
        waiting_for(lang, ""),
        reminder(lang, 20, "", "describe"),
        reminder(lang, 20, "", "vote"),
        reminder(lang, 20, "", "last_guess"),
        reminder(lang, 20, "", "guess_ai"),
        sent_privately(lang),
        refusal(lang, &r, ""),
        refusal(lang, &Rejection::OwnVote, ""),
        refusal(lang, &Rejection::NotAnOption, ""),
        refusal(lang, &Rejection::Out, ""),
        refusal(lang, &Rejection::NotHost, ""),
        description_gives_away(lang),
        description_empty(lang),
        description_too_long(lang, 200),
        withheld(lang),
        host_mark(lang).to_string(),
        out_mark(lang).to_string(),
    ];
    for outcome in [Outcome::Civilians, Outcome::Undercover, Outcome::Blank, Outcome::Ended] {
        out.push(self::outcome(lang, outcome));
    }
    for r in [Role::Civilian, Role::Undercover, Role::Blank] {
        out.push(role(lang, r).to_string());
    }
    for name in ["lobby", "describe", "vote", "last_guess", "guess_ai", "over"] {
        out.push(phase(lang, name).to_string());
    }
    out.extend(stock_descriptions(lang).iter().map(|s| s.to_string()));
    out.join("\n")
}
