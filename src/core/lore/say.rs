//! Every fixed sentence of the Lore RPG, in English and Chinese.

use crate::core::vocab::Language;

use super::Tally;

pub fn title(lang: Language) -> &'static str {
    lang.pick("Lore RPG", "传说角色扮演")
}

pub fn gm(lang: Language) -> &'static str {
    match lang {
        Language::En => "Game master",
        Language::Zh => "主持人",
    }
}

pub fn opening(lang: Language, world: &str, premise: &str, opening: &str, npcs: &str) -> String {
    match lang {
        Language::En => format!(
            "📜 **{world}** · a Lore RPG\n{premise}\n\n{opening}\n\nEvery message in this thread is your action. Stay true to the world: \
             an action the lore forbids loses the turn; catch the game master contradicting the lore and you win it. \
             People you can address: {npcs}."
        ),
        Language::Zh => format!(
            "📜 **{world}** · 传说角色扮演\n{premise}\n\n{opening}\n\n本帖里的每条消息都是你的行动。请遵守这个世界的设定：违背设定的行动会输掉这一回合；\
             抓到主持人说错设定，你就赢下这一回合。可以交谈的人物：{npcs}。"
        ),
    }
}

pub fn step_retrieving(lang: Language) -> String {
    match lang {
        Language::En => "Searching the lore for your action".into(),
        Language::Zh => "正在查阅与你的行动相关的设定".into(),
    }
}

pub fn step_validating(lang: Language) -> String {
    match lang {
        Language::En => "Validating your action against the lore".into(),
        Language::Zh => "正在对照设定核验你的行动".into(),
    }
}

pub fn step_planning(lang: Language) -> String {
    match lang {
        Language::En => "Planning the scene".into(),
        Language::Zh => "正在安排场景".into(),
    }
}

pub fn step_persona(lang: Language, name: &str) -> String {
    match lang {
        Language::En => format!("Extracting persona for {name}"),
        Language::Zh => format!("正在提取{name}的人物设定"),
    }
}

pub fn step_npc(lang: Language, name: &str) -> String {
    match lang {
        Language::En => format!("{name} is answering"),
        Language::Zh => format!("{name}正在回应"),
    }
}

pub fn step_narrating(lang: Language) -> String {
    match lang {
        Language::En => "The game master is narrating the scene".into(),
        Language::Zh => "主持人正在描述场景".into(),
    }
}

pub fn step_disqualifying(lang: Language) -> String {
    match lang {
        Language::En => "Your action breaks the lore: writing the ruling".into(),
        Language::Zh => "你的行动违背了设定：正在写裁定".into(),
    }
}

pub fn step_checking(lang: Language) -> String {
    match lang {
        Language::En => "Checking the reply against the lore".into(),
        Language::Zh => "正在对照设定核查回应".into(),
    }
}

pub fn step_correcting(lang: Language) -> String {
    match lang {
        Language::En => "The reply broke the lore: writing the correction".into(),
        Language::Zh => "回应违背了设定：正在写更正".into(),
    }
}

pub fn step_summary(lang: Language) -> String {
    match lang {
        Language::En => "Writing the story so far".into(),
        Language::Zh => "正在整理前情提要".into(),
    }
}

pub fn sources(lang: Language, titles: &[String]) -> String {
    if titles.is_empty() {
        return String::new();
    }
    match lang {
        Language::En => format!("_Sources: {}_", titles.join(" · ")),
        Language::Zh => format!("_出处：{}_", titles.join(" · ")),
    }
}

pub fn disqualified(lang: Language, player: &str, reason: &str) -> String {
    match lang {
        Language::En => format!("✗ {player} loses this turn: the action breaks the lore ({reason})."),
        Language::Zh => format!("✗ {player} 输掉本回合：行动违背了设定（{reason}）。"),
    }
}

pub fn corrected(lang: Language, player: &str, reason: &str) -> String {
    match lang {
        Language::En => format!("✓ {player} wins this turn: the reply broke the lore ({reason}) and is corrected."),
        Language::Zh => format!("✓ {player} 赢下本回合：回应违背了设定（{reason}），已更正。"),
    }
}

pub fn suggestions(lang: Language, list: &[String]) -> String {
    match lang {
        Language::En => format!("Try instead: {}", list.join(" / ")),
        Language::Zh => format!("不妨试试：{}", list.join(" / ")),
    }
}

pub fn stock_disqualify(lang: Language, reason: &str) -> String {
    match lang {
        Language::En => format!("The world will not bend that way: {reason}"),
        Language::Zh => format!("这个世界不会那样运转：{reason}"),
    }
}

pub fn stock_correction(lang: Language, title: &str, text: &str) -> String {
    let first: String = text.split_inclusive(['.', '。']).next().unwrap_or(text).chars().take(240).collect();
    match lang {
        Language::En => format!("Let the record be straight — {title}: {first}"),
        Language::Zh => format!("更正一下——{title}：{first}"),
    }
}

pub fn quiet_scene(lang: Language) -> String {
    match lang {
        Language::En => "The moment passes; the world waits for what you do next.".into(),
        Language::Zh => "片刻过去，这个世界在等你下一步的行动。".into(),
    }
}

pub fn npc_silent(lang: Language, name: &str) -> String {
    match lang {
        Language::En => format!("{name} looks at you for a long moment and says nothing."),
        Language::Zh => format!("{name}看了你好一会儿，什么也没说。"),
    }
}

pub fn withheld(lang: Language) -> String {
    match lang {
        Language::En => "The game master falls silent: that reply would have given away a secret of this world.".into(),
        Language::Zh => "主持人沉默了：那句回应会泄露这个世界的秘密。".into(),
    }
}

pub fn model_down(lang: Language) -> String {
    match lang {
        Language::En => "The game master could not answer just now; nothing happened. Try your action again.".into(),
        Language::Zh => "主持人暂时无法回应，本回合没有发生。请再试一次你的行动。".into(),
    }
}

pub fn empty(lang: Language) -> String {
    match lang {
        Language::En => "Say what you do (an action, or a line to someone).".into(),
        Language::Zh => "请说出你的行动（做什么，或对谁说什么）。".into(),
    }
}

pub fn too_long(lang: Language, max: usize) -> String {
    match lang {
        Language::En => format!("That is too long for one turn: at most {max} characters."),
        Language::Zh => format!("一回合的行动太长了：最多 {max} 个字。"),
    }
}

pub fn no_such_npc(lang: Language, name: &str, npcs: &str) -> String {
    match lang {
        Language::En => format!("Nobody called {name:?} is here to talk to. People you can address: {npcs}."),
        Language::Zh => format!("这里没有叫「{name}」的人。可以交谈的人物：{npcs}。"),
    }
}

pub fn over(lang: Language) -> String {
    match lang {
        Language::En => "This session has ended. Start a new one with `/rpg start`.".into(),
        Language::Zh => "本局已结束。用 `/rpg start` 开新的一局。".into(),
    }
}

pub fn only_host_ends(lang: Language) -> String {
    match lang {
        Language::En => "Only the host or a moderator can end the session.".into(),
        Language::Zh => "只有房主或管理员可以结束本局。".into(),
    }
}

pub fn everyone_plays(lang: Language) -> String {
    match lang {
        Language::En => "There are no seats: everyone in the thread plays. Just say what you do.".into(),
        Language::Zh => "这里不用入座：帖子里的每个人都能参与。直接说出你的行动即可。".into(),
    }
}

pub fn not_a_verb(lang: Language) -> String {
    match lang {
        Language::En => "The Lore RPG knows: act, say <npc> <text>, status, scores, recap, end.".into(),
        Language::Zh => "传说角色扮演的指令：act、say <人物> <内容>、status、scores、recap、end。".into(),
    }
}

pub fn tally_line(lang: Language, t: &Tally) -> String {
    match lang {
        Language::En => format!("{} · {} won · {} lost · {} turns", t.name, t.wins, t.losses, t.turns),
        Language::Zh => format!("{} · 赢 {} · 输 {} · 共 {} 回合", t.name, t.wins, t.losses, t.turns),
    }
}

pub fn scores_heading(lang: Language) -> &'static str {
    match lang {
        Language::En => "Turns won (the game master broke the lore) and lost (the action did):",
        Language::Zh => "赢下的回合（主持人违背设定）与输掉的回合（行动违背设定）：",
    }
}

pub fn no_scores(lang: Language) -> &'static str {
    match lang {
        Language::En => "Nobody has played a turn yet.",
        Language::Zh => "还没有人行动过。",
    }
}

pub fn status(lang: Language, world: &str, turn: u32, scene: &str, met: &str, npcs: &str) -> String {
    match lang {
        Language::En => format!(
            "📜 {world} · turn {turn}\nIn the scene: {scene}\nPeople met: {met}\nPeople you can address: {npcs}"
        ),
        Language::Zh => {
            format!("📜 {world} · 第 {turn} 回合\n当前场景：{scene}\n已结识：{met}\n可以交谈的人物：{npcs}")
        }
    }
}

pub fn nobody(lang: Language) -> &'static str {
    match lang {
        Language::En => "nobody yet",
        Language::Zh => "暂无",
    }
}

pub fn recap_heading(lang: Language) -> &'static str {
    match lang {
        Language::En => "The story so far:",
        Language::Zh => "前情提要：",
    }
}

pub fn recap_recent(lang: Language) -> &'static str {
    match lang {
        Language::En => "Lately:",
        Language::Zh => "最近：",
    }
}

pub fn nothing_yet(lang: Language) -> &'static str {
    match lang {
        Language::En => "Nothing has happened yet: the story starts with your first action.",
        Language::Zh => "故事还没有开始：从你的第一个行动开始。",
    }
}

pub fn ended(lang: Language, world: &str) -> String {
    match lang {
        Language::En => format!("📜 The session in {world} has ended."),
        Language::Zh => format!("📜 {world} 的这一局结束了。"),
    }
}

pub fn ended_idle(lang: Language) -> &'static str {
    match lang {
        Language::En => "The session sat idle too long and has ended.",
        Language::Zh => "本局闲置太久，已经结束。",
    }
}

pub fn world_taken(lang: Language, id: &str) -> String {
    match lang {
        Language::En => format!("A bundled world is called {id:?}: give yours another id."),
        Language::Zh => format!("已有内置世界叫「{id}」，请换一个 id。"),
    }
}

pub fn world_refused(lang: Language, problems: &[String]) -> String {
    let list: Vec<String> = problems.iter().take(8).map(|p| format!("• {p}")).collect();
    match lang {
        Language::En => format!("That world can't be added:\n{}", list.join("\n")),
        Language::Zh => format!("这个世界无法添加：\n{}", list.join("\n")),
    }
}

pub fn secrets_heading(lang: Language) -> &'static str {
    match lang {
        Language::En => "What the game master knew:",
        Language::Zh => "主持人掌握的秘密：",
    }
}
