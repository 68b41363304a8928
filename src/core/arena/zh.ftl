# 竞技场：所有固定句子（中文）。消息名与变量须与 en.ftl 一致。

title = 🏟️ 竞技场

## 阶段、评分维度、标记与标题

stage-early = 前期
stage-middle = 中期
stage-late = 后期
dimension-novelty = 新颖
dimension-building = 借鉴他人
dimension-solving = 解决问题
dimension-radical = 激进思维
dimension-manipulation = 操控
dimension-heads = 新颖 借鉴 解决 激进 操控
round-row-head = { dimension-heads }  本轮  总分
skipped-mark = （跳过）
strategies-heading = 各角色的隐藏策略：
standings-heading = 最终排名：
history-heading = 分数记录（每轮得分）：
out-mark = { $left ->
       *[no] 第 { $round } 轮淘汰
        [yes] 第 { $round } 轮离开
    }

## 大厅与开幕

lobby =
    { title } · 大厅 · 议题：{ $topic }
    { $count }/{ $max } 名选手：{ $list }。
    用 `join` 加入；`add-ai` 让 AI 角色入场；房主用 `begin` 开始（至少 { $min } 人）。其他人旁观，每轮可以支持一次。
begins =
    竞技场开幕：{ $contestants } 名选手，最多 { $max_turns } 回合。
    议题：{ $topic }
    每次发言按新颖、借鉴他人、解决问题、激进思维和操控评分；从中期开始，每轮最弱的选手可能被淘汰。

## 回合与轮次

next-speaker = { $timed ->
        [yes] 第 { $turn } 回合 · { $stage } · { $who }，轮到你了：用 `say` 发言（{ $seconds } 秒）。
       *[no] 第 { $turn } 回合 · { $stage } · { $who } 发言。
    }
may-reply = ↪️ { $who } 被点名，可以先回应。
reply-turn = { $timed ->
        [yes] 第 { $turn } 回合 · { $stage } · { $who }，请回应 { $from }：用 `say` 简短回答（{ $seconds } 秒）。
       *[no] 第 { $turn } 回合 · { $stage } · { $who } 回应 { $from }。
    }
reply-too-long = 回应要简短：最多 { $max } 个字符；没有发出。
reply-mark = ↩
bad-rule = “{ $value }”不是有效的 { $rule }：{ $expected }。
rule-threshold = 0 到 10 之间的数
rule-elimination = below（低于门槛才淘汰最低者）或 lowest（每轮都淘汰最低者）
rule-turns = 1 到 { $max } 之间的回合数
rule-stages = early_until 必须小于 middle_until
rule-turn-seconds = { $min } 到 { $max } 之间的秒数
rules-line = 规则：从第 { $from } 回合起淘汰，{ $elimination ->
        [lowest] 每轮最低者出局
       *[below] 最低者低于 { $threshold } 分出局
    }；第 { $late } 回合起进入后期。
skipped = { $who } 没有按时发言，跳过。
round-heading = 📊 第 { $round } 轮（{ $stage }）
eliminated = ❌ { $who } 被淘汰（本轮 { $score } 分）。
nobody-out = 本轮无人淘汰。
narrator-quiet = ……记下一笔，暂不评论。
react-prompt = 观众：本轮可以为喜欢的选手支持一次（按钮，或 `react <座位号>`）。
reaction-in = 你对 { $who } 的支持已记下。
reacted = 👏 有观众送出支持（本轮 { $count } 次）。
paused = ⏸️ 竞技场已暂停；用 `resume` 继续。
resumed = ▶️ 竞技场继续。
topic-set = 议题改为：{ $topic }
left = { $who } 离开了竞技场。

## 结束

winner = 🏆 { $who } 以 { $total } 分获胜。
game-over = 🏁 竞技场落幕。
ended-by = 🏁 房主提前结束了竞技场，不设胜者。
abandoned = 🏁 所有人都离开了竞技场。
ended-idle = 竞技场闲置太久，已经关闭。

## 状态与提醒

status =
    { title } · { $phase } · 第 { $turn }/{ $max_turns } 回合
    议题：{ $topic }
    场上：{ $living }{ $waiting }
phase = { $name ->
        [lobby] 大厅
        [turn] 进行中
        [paused] 暂停
        [over] 结束
       *[other] { $name }
    }
now-speaking = 正在发言：{ $who }
reminder = ⏳ { $who } 还剩 { $seconds } 秒发言（`say …`）。

## 拒绝（只说给做出这一步的人）

empty = 请说点什么：空发言不算数。
too-long = 太长了：最多 { $max } 个字符。
gives-away = 这段发言涉及选手的私密笔记，请换个说法。
withheld = （已隐藏：会泄露秘密）
not-a-verb = 竞技场的指令：join、leave、add-ai、begin、say、react、status、pause、resume、topic、end。
refusal-already-seated = 你已经在场上了。
refusal-not-contestant = 你不是选手。
refusal-full = 竞技场已满（{ $max } 人）。
refusal-no-ai-seats = AI 角色已满（最多 { $max } 个）。
refusal-not-host-start = 只有房主或管理员可以开始。
refusal-too-few = 至少需要 { $min } 名选手；目前 { $seated } 名。
refusal-started = 竞技场已经开始；可以旁观并支持选手。
refusal-not-running = 现在没有进行中的环节。
refusal-out = 你已出局，请旁观。
refusal-not-your-turn = 现在轮到 { $speaker } 发言。
refusal-paused = 竞技场已暂停。
refusal-not-paused = 竞技场没有暂停。
refusal-not-host = 只有房主或管理员可以这样做。
refusal-contestant = 选手不能支持，只有观众可以。
refusal-already-reacted = 你本轮已经支持过了。
refusal-unknown-option = 请用场上选手的座位号支持。
refusal-stale-timer = 这个时限已经过了。
refusal-over = 竞技场已经落幕。
refusal-in-lobby = 竞技场还没开始。

## AI 选手

# AI 选手自己的发言违规或失败时用的发言，每行一句。
stock-lines =
    我接着上一个想法说：先小范围试一个月，看看到底改变了什么。
    我们一直在争目标；我主张先做最便宜、明天就能帮到人的那一步。
    还有一个风险没人提：出了问题谁来买单？回答了这个，我就支持。
    我换个角度：与其解决这个问题，不如让它对某些人有用。
