# 谁是卧底：所有固定句子（中文）。消息名与变量须与 en.ftl 一致。

title = 🕵️ 谁是卧底

## 身份、阶段与标记

role-civilian = 平民
role-undercover = 卧底
role-blank = 白板
phase-lobby = 大厅
phase-describe = 描述中
phase-vote = 投票中
phase-last-guess = 白板猜词
phase-guess-ai = 猜 AI
phase-over = 已结束
host-mark = 房主
out-mark = 出局
winner-mark = 🏆
roles-heading = 座位：

## 大厅与发词

lobby =
    { title } · 大厅 · { $count }/{ $max } 座：{ $list }。
    用 `join` 入座；`add-ai` 让 AI 入座；房主用 `begin` 开始（至少 { $min } 人）。
begins = 游戏开始：{ $seats } 人，{ $undercovers } 个卧底{ $blank ->
        [yes] ，另有一个白板
       *[no] {""}
    }。你的词已私下发给你（`word` 可再看一次）。
your-word = 🤫 你的词：**{ $word }**。用一句话描述它，但不能说出它。
you-are-blank = 🤫 你是**白板**：你没有词。听别人描述，混在其中，别被发现。被投出时你有一次猜平民词的机会。
sent-privately = 已私下发给你。

## 描述

round-opens = **第 { $round } 轮。** 顺序：{ $order }。
    { $speaker }，请描述你的词（{ $seconds } 秒）。
described = { $who }：“{ $text }”
next-speaker = 下一位：{ $speaker }（{ $seconds } 秒）。
skipped = { $who } 没有按时描述，本轮跳过。
description-gives-away = 这句描述离秘密词太近（或是它的变体、翻译）。请换个说法；什么都没有发出。
description-empty = 请用一句话描述你的词：`describe <内容>`。
description-too-long = 请只说一句（最多 { $max } 个字符）；什么都没有发出。
withheld = （已拦下：这会泄露秘密词）

## 投票

vote-opens = { $runoff ->
       *[no] 所有人都已发言。**现在秘密投票**：谁是卧底？（{ $seconds } 秒，`vote <座位号>` 或按钮）
        [yes] 平票者之间**加投一轮**（{ $seconds } 秒）。
    }
tie = { $tied } 票数相同。
voted-count = 🗳️ 已投 { $cast }/{ $of }。
vote-in = 你投给了 { $target }（投票结束前可以改）。
did-not-vote = 未投票：{ $list }。
votes-heading = { $runoff ->
       *[no] 第 { $round } 轮投票：
        [yes] 第 { $round } 轮加投：
    }
eliminated = { $random ->
       *[no] **{ $who } 出局**（{ $votes } 票）。{ $who } 是**{ $role }**。
        [yes] 再次平票：按记录的随机种子，**{ $who }** 出局。{ $who } 是**{ $role }**。
    }
left-game = { $who } 离开了游戏。

## 白板猜词

last-guess-opens = { $who } 有一次私下猜平民词的机会（{ $seconds } 秒）。
guess-prompt = 你作为白板被投出。用 `guess <词>` 猜平民的词：猜对则你独赢。
guess-result = { $right ->
        [yes] { $who } 猜中了平民的词！
       *[no] { $who } 没有猜中。
    }
guess-missed = { $who } 没有按时猜词。

## 结局

outcome = { $outcome ->
        [civilians] 🎉 **平民获胜！**
        [undercover] 🎭 **卧底获胜！**
        [blank] 🃏 **白板独赢！**
       *[ended] 游戏在分出胜负前结束了。
    }
words-reveal = 词：平民 **{ $civilian }** · 卧底 **{ $undercover }**。
ended-idle = 游戏闲置太久，已结束。
reasons-heading = 🧠 每个 AI 为什么这样投票：
reason-line = 第 { $round } 轮{ $runoff ->
        [yes] （决胜投票）
       *[no] {""}
    } · { $who } → { $target }：认为自己是{ $believes }{ $reasoned ->
        [yes] （{ $why }）。
       *[no] 。
    }
reason-reads = {"    "}判断：{ $reads }
believes-unsure = 不确定

## 猜 AI

guess-ai-opens = 🤖 **猜猜谁是 AI**：有些座位由 AI 扮演。用 `guess <座位号>` 指出（例如 `guess 2 5`），{ $seconds } 秒。
ai-guess-in = 你的猜测已记录。
ai-guesses-count = 🤖 已猜 { $guessed }/{ $of }。
ai-were = 🤖 AI 座位是：{ $seats }。
ai-score = 找出 { $of } 个 AI 中的 { $right } 个，错指 { $wrong } 个

## 状态与提醒

status =
    { title } · { $phase } · 第 { $round } 轮
    在场：{ $living }
    { $waiting }
waiting-for = 等待：{ $who }
reminder = ⏳ 还剩 { $seconds } 秒{ $phase ->
        [describe] 描述
        [last_guess] 猜词
        [guess_ai] 指认 AI
       *[other] 投票
    }。等待：{ $who }

## 拒绝（只说给做出这一步的人）

refusal-already-seated = 你已经入座了。
refusal-not-seated = 你不在这局里。
refusal-full = 座位已满（{ $max } 座）。
refusal-no-ai-seats = AI 座位已满（最多 { $max } 个）。
refusal-not-host-start = 只有房主或管理员可以开始。
refusal-too-few = 至少需要 { $min } 人才能开始，现在 { $seated } 人。邀请朋友或用 `add-ai`。
refusal-not-now = 现在不能这样做。
refusal-no-seat = 你不在这局游戏里。
refusal-out = 你已出局，请继续观战！
refusal-not-your-turn = 现在轮到 { $speaker }。
refusal-not-an-option = 这次投票没有这个座位：请用列表里的座位号投票。
refusal-own-vote = 不能投自己。
refusal-too-few-for-blank = 有白板时至少需要 { $min } 人。
refusal-not-host-end = 只有房主或管理员可以结束游戏。
refusal-stale-timer = 这个时限已经过了。
refusal-too-few-for-undercovers = { $undercovers } 个卧底至少需要 { $seats } 人，平民才能占多数。
unknown-difficulty = “{ $typed }”不是难度：请选 easy（简单）、medium（中等）或 hard（困难）。
bad-undercovers = “{ $typed }”不是卧底人数：请给 1 或更多。
too-many-undercovers = { $undercovers } 个卧底至少需要 { $needed } 人，平民才能占多数；这桌只有 { $seats } 座。
not-a-verb = 卧底指令：join、leave、begin、add-ai、describe <内容>、vote <座位号>、word、guess <词>、status、end。
pair-refused = 这个词对没有加入：{ $problems }。
problems-separator = ；

## AI 座位

# AI 座位自己的描述违规时用的安全描述，每行一句。
stock-descriptions =
    大多数人都接触过它。
    它比你想的更常见。
    很多家里都能找到。
    有人很喜欢，有人无所谓。
    它不止一种。
    我经常见到。
