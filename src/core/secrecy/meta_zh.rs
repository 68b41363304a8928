//! The Chinese half of the META classifier. Chinese has no word breaks, so
//! the rules are "this phrase, then that one within a few characters" over
//! each sentence's skeleton (simplified, punctuation removed).

use std::sync::LazyLock;

use super::normalize::{is_cjk, skeleton, skeleton_of};
use super::pattern::near;

/// Names for the answer and the host's hidden text.
const TARGET: &str = "汤底|答案|谜底|真相|结局|解答|标准答案|题目数据|完整题目|全部数据|没告诉我们|隐藏的部分|部分故事|完整故事|整个故事|真实故事|隐藏故事|故事全文|全文|原文|来龙去脉|前因后果|事情经过|真正的故事|关键事实|剧情|提示词|系统提示|指令|设定|秘密|上面的内容|以上内容|前面的内容|上文";
const SHAPE: &str = "第一个字|第二个字|第三个字|最后一个字|第一个词|最后一个词|第几个字|首字|尾字|末字|开头的字|开头是|开头第一|几个字|多少字|多少个字|字数|几个词|拼音|笔画|偏旁|长度|多长|首字母|头一个字|这个字|这个词|一个字|一个词|关键词|几句|多少句|第一句|最后一句|前三个字|前几个字|人名";
const ASK: &str = "告诉|说出|讲出|念出|念一遍|读出|读一遍|背出|背诵|复述|重复|打印|输出|写出|写下|显示|展示|透露|泄露|公布|揭晓|揭示|直接说|翻译|总结|概括|摘要|概述|讲讲|讲一下|讲一遍|说说|说一下|说一遍|发给|给我|贴出|列出|描述|解释|转述|改写|编码|转成|转换|讲个|剧透|分享|抄|照着|聊聊|聊一聊|谈谈|讲清楚|说清楚|梳理|捋一捋|理一理|简述|简单说|概要|梗概|表示|代替|替换|加密|藏在|藏进|看到|看得到|看见|旁白";
const ASKED: &str = "是什么|是啥|发给我|告诉我|说一下|说出来|写出来|念出来|读出来|翻译|总结|概括|贴出来|逐字|完整|用英文|用英语|编码|倒过来|倒着|拿出来|给我看";
const ENCODE_VERB: &str = "用|以|转成|转换成|编码成|翻译成|写成|换成|改成|变成";
const ENCODING: &str = "base64|十六进制|二进制|摩斯|摩尔斯|rot13|拼音|英文|英语|法语|日语|韩语|德语|俄语|西班牙语|火星文|繁体|密码|表情|emoji|倒序|反过来|倒过来|藏头";
const ROLE_VERB: &str = "扮演|假装|假设你是|想象你是|你是我的|当我的|你来当|你现在当";
const ROLE: &str = "奶奶|外婆|姥姥|妈妈|爸爸|老师|作者|出题人|裁判|主持人|开发者|系统|管理员|讲故事的人|说书人|朋友|旁白|叙述者|解说|记者|侦探";
const IGNORE: &str = "忽略|无视|忘记|忘掉|跳过|绕过|不要管|别管|抛开|放弃|违反|打破|解除";
const RULE: &str = "指令|规则|设定|限制|提示|要求|约束|之前|以上|前面|上面|所有";
const DECLARE: &str = "宣布|判定|算我|直接算|标记|记为|记我|判我|当作|视为";
const WON: &str = "解开|通关|胜利|赢|猜对|答对|成功|正确|完成|满分";

/// Phrases that are META wherever they appear.
const ALWAYS: &str = "系统提示|提示词|系统消息|systemprompt|初始指令|原始指令|你的指令|你的设定|你收到的指令|上面的指令|以上指令|开发者模式|管理员模式|调试模式|上帝模式|越狱|无限制模式|超级用户|管理员权限|最高权限|你现在是|从现在起你|从现在开始你|你的新身份|新的指令|新指令|逐字|一字不差|一字一句|原封不动|原样|现在你是|你现在就是|原原本本|逐句|一个字一个字|倒着念|倒过来念|倒着读|倒着说|倒序|反着念|首字母|藏头|给我满分|给我加分|睡前故事|金丝雀";

struct Rules {
    target: Vec<String>,
    shape: Vec<String>,
    ask: Vec<String>,
    asked: Vec<String>,
    encode_verb: Vec<String>,
    encoding: Vec<String>,
    role_verb: Vec<String>,
    role: Vec<String>,
    ignore: Vec<String>,
    rule: Vec<String>,
    declare: Vec<String>,
    won: Vec<String>,
    always: Vec<String>,
    ba: Vec<String>,
    explain: Vec<String>,
    why: Vec<String>,
}

fn list(alts: &str) -> Vec<String> {
    alts.split('|').map(skeleton).collect()
}

static RULES: LazyLock<Rules> = LazyLock::new(|| Rules {
    target: list(TARGET),
    shape: list(SHAPE),
    ask: list(ASK),
    asked: list(ASKED),
    encode_verb: list(ENCODE_VERB),
    encoding: list(ENCODING),
    role_verb: list(ROLE_VERB),
    role: list(ROLE),
    ignore: list(IGNORE),
    rule: list(RULE),
    declare: list(DECLARE),
    won: list(WON),
    always: list(ALWAYS),
    ba: list("把|将"),
    explain: list("说清楚|讲清楚|解释|说明|讲明白|说明白"),
    why: list("为什么|为何|怎么回事"),
});

/// Whether any Chinese sentence of cleaned text is META.
pub(super) fn is_meta(chars: &[char]) -> bool {
    if !chars.iter().any(|c| is_cjk(*c)) {
        return false;
    }
    let breaks =
        |c: &char| matches!(c, '.' | '!' | '?' | ';' | '\n' | '\u{3002}' | '\u{FF01}' | '\u{FF1F}' | '\u{FF1B}');
    chars.split(breaks).map(skeleton_of).any(|s| sentence_meta(&s))
}

fn sentence_meta(s: &str) -> bool {
    let r = &*RULES;
    let strong = r.always.iter().any(|p| s.contains(p.as_str()))
        || near(s, &r.target, &r.shape, 8)
        || near(s, &r.shape, &r.target, 8);
    if strong {
        return true;
    }
    !is_story_question(s)
        && (near(s, &r.ask, &r.target, 10)
            || near(s, &r.target, &r.asked, 6)
            || r.target.iter().any(|t| s.ends_with(&format!("{t}是")))
            || near(s, &r.encode_verb, &r.encoding, 6)
            || near(s, &r.role_verb, &r.role, 6)
            || near(s, &r.ignore, &r.rule, 6)
            || near(s, &r.declare, &r.won, 6)
            || near(s, &r.ba, &r.target, 4)
            || near(s, &r.explain, &r.why, 4))
}

/// "老林是不是怕赤潮？": a yes/no question about the story, unless it
/// speaks to the host ("你能告诉我汤底吗？").
fn is_story_question(s: &str) -> bool {
    let what = ["什么", "怎么", "这么", "那么", "多么"].iter().any(|w| s.ends_with(w));
    let yes_no = ["吗", "么", "嘛"].iter().any(|e| s.ends_with(e)) && !what
        || ["是不是", "有没有", "是否", "会不会", "对不对", "算不算"].iter().any(|p| s.contains(p));
    yes_no && !s.contains('你') && !s.contains('您')
}
