# 狼人杀的句子（中文）。与 en.ftl 的消息和变量一一对应。

title = 🐺 狼人杀
role = { $role ->
    [werewolf] 狼人
    [seer] 预言家
    [doctor] 医生
    [witch] 女巫
    [hunter] 猎人
   *[villager] 村民
 }
host-mark = 房主
out-mark = 出局
winner-mark = 🏆
lobby = { $title } · 大厅 · { $taken }/{ $max } 座：{ $list }。
lobby-help = 用 `join` 入座；`add-ai` 让 AI 入座；房主用 `begin` 开始（AI 玩家会补满到 { $fill } 座）。
begins = 游戏开始，共 { $seats } 人：{ $cast }。你的身份已私下发给你（`role` 可再看一次）。
role-line = 🤫 你是 { $seat }。你的身份：**{ $role }**。
role-goal = { $role ->
    [werewolf] 每晚和其他狼人一起选一个目标（`kill <座位>`；`pack <内容>` 只有狼人能看到）。狼人数量等于其余人数时你们获胜。
    [seer] 每晚用 `check <座位>` 查验一个座位：只有你知道他是不是狼人。你和好人一起获胜。
    [doctor] 每晚用 `protect <座位>` 保护一个座位（可以保护自己，但不能连续两晚保护同一人）。你和好人一起获胜。
    [witch] 你整局有一瓶解药和一瓶毒药：夜里得知狼人的目标后，`save` 救人，`poison <座位>` 毒人。你和好人一起获胜。
    [hunter] 你出局时（被毒除外）可以用 `shoot <座位>` 开枪带走一人。你和好人一起获胜。
   *[villager] 你夜里没有技能：靠大家的发言和投票找出狼人。你和好人一起获胜。
 }
team-line = 🐺 狼人：{ $list }。
night-falls = 🌙 **第 { $night } 夜。** 天黑请闭眼，夜间角色秘密行动（{ $seconds } 秒）。
task-kill = 🐺 第 { $night } 夜：用 `kill <座位>` 投票选择目标：{ $choices }。
task-check = 🔮 第 { $night } 夜：用 `check <座位>` 查验一个座位，或 `pass`。
task-protect = 🩺 第 { $night } 夜：用 `protect <座位>` 保护一个座位，或 `pass`。
task-protect-not = 🩺 第 { $night } 夜：用 `protect <座位>` 保护一个座位（不能再保护 { $last }），或 `pass`。
witch-victim = 🧪 第 { $night } 夜：狼人袭击了 { $victim }。
witch-no-victim = 🧪 第 { $night } 夜：今晚狼人没有袭击任何人。
witch-choices = 你的药：{ $list }；`pass` 什么也不做。
potion-cure = 解药（`save`）
potion-poison = 毒药（`poison <座位>`）
potions-none = 已用完
night-ack = 🌙 夜色依旧。
kill-vote = 🐺 { $wolf } 想刀 { $target }。
pack-said = 🐺 { $wolf }：“{ $text }”
wolves-chose = 🐺 狼人的选择：{ $target }。
wolves-chose-tied = 🐺 狼人票数相同，由种子选出：{ $target }。
wolves-chose-none = 🐺 今晚狼人没有选择目标。
vision = 🔮 第 { $night } 夜：{ $target } { $wolf ->
    [yes] **是狼人**
   *[no] **不是狼人**
 }。
protect-done = 🩺 第 { $night } 夜：你保护了 { $target }。
cure-done = 🧪 第 { $night } 夜：你救了 { $target }。
poison-done = 🧪 第 { $night } 夜：你毒了 { $target }。
passed-night = 🌙 你今晚不行动。
missed-night = 🌙 你还没行动，夜晚就结束了。
night-reminder = 🌙 { $seconds } 秒后天亮。
dawn-deaths = ☀️ **第 { $day } 天。** 昨晚 { $names } 死亡。
dawn-none = ☀️ **第 { $day } 天。** 昨晚是平安夜，没有人死亡。
hunter-opens = 🏹 { $seat } 是猎人，可以开枪：`shoot <座位>` 或 `pass`（{ $seconds } 秒）。
hunter-shot = 💥 { $hunter } 开枪带走了 { $target }。
hunter-no-shot = 🏹 { $hunter } 放下了枪。
debate-opens = 🗣️ 讨论：用 `speak <内容>` 发言（最多 { $limit } 次），说完用 `pass`（{ $seconds } 秒）。
spoke = { $seat }：“{ $text }”
passed-day = { $seat } 今天不再发言。
debate-reminder = ⏳ 讨论还剩 { $seconds } 秒。
vote-opens = 🗳️ 现在秘密投票：`vote <座位>` 或点按钮（{ $seconds } 秒）。
runoff-opens = 🗳️ 在 { $list } 之间加投：请再投一次（{ $seconds } 秒）。
vote-in = 你投给 { $target } 的票已记下（所有人投完前可以改票）。
voted-count = { $cast }/{ $voters } 人已投票。
votes-heading = 第 { $day } 天投票：
runoff-heading = 第 { $day } 天加投：
abstained = 未投票：{ $list }
no-votes = 没有人投票。
exiled = { $seat } 被放逐（{ $votes } 票）。
exiled-role = 他的身份是 **{ $role }**。
tie = { $list } 票数相同：加投。
no-exile = 再次平票：今天没有人被放逐。
no-exile-empty = 没有人投票：今天没有人被放逐。
vote-reminder = ⏳ 投票还剩 { $seconds } 秒：{ $names }。
hunter-reminder = ⏳ { $names } 还有 { $seconds } 秒开枪。
left-game = { $seat } 离开了游戏。
outcome = { $outcome ->
    [villagers] 🏆 好人获胜：狼人全部出局。
    [werewolves] 🐺 狼人获胜：狼人数量已等于其余人数。
   *[ended] 游戏已结束。
 }
ended-idle = 游戏长时间无人操作，已结束。
roles-heading = 身份：
night-heading = 第 { $night } 夜：
sum-wolves = 🐺 狼人（{ $votes }）选择了 { $target }
sum-wolves-tied = 🐺 狼人（{ $votes }）平票，种子选出 { $target }
sum-wolves-none = 🐺 狼人没有选择目标
sum-check = 🔮 预言家查验 { $target }：{ $wolf ->
    [yes] 是狼人
   *[no] 不是狼人
 }
sum-protect = 🩺 医生保护了 { $target }
sum-cure = 🧪 女巫救了 { $target }
sum-poison = 🧪 女巫毒了 { $target }
sum-died = 💀 死亡：{ $names }
sum-nobody = 💀 无人死亡
shots-heading = 开枪：
status = { $title } · { $phase } · 第 { $day } 天 · 存活：{ $living }
waiting-for = 等待：{ $names }
phase = { $phase ->
    [lobby] 大厅
    [night] 夜晚
    [hunter] 猎人开枪
    [debate] 讨论
    [vote] 投票
    [guess_ai] 猜 AI
   *[over] 已结束
 }
refusal = { $why ->
    [not-now] 现在不能这样做。
    [not-seated] 你不在这局游戏中。
    [dead] 你已经出局了。
    [not-your-role] 这不是你能做的。
    [done] 你今晚已经做过了。
    [not-a-target] 不能选这个座位。
    [yourself] 不能选自己。
    [same-protect] 不能连续两晚保护同一人。
    [no-potion] 这瓶药已经用过了。
    [no-victim] 今晚没有人需要救。
    [spoken-out] 你今天的发言次数用完了。
    [not-host] 只有房主或管理员能结束游戏。
    [already-seated] 你已经入座了。
    [full] 座位已满。
    [no-ai] 不能再加 AI 了。
    [not-host-start] 只有房主或管理员能开始。
    [started] 游戏已经开始了。
   *[stale] 已经过去了。
 }
not-a-verb = 这不是本游戏的操作；试试 `status` 或 `role`。
speech-empty = 请说点什么。
speech-too-long = 最多 { $max } 个字符。
sent-privately = 已私下发给你。
withheld = （已屏蔽：这会泄露秘密）
unknown-seat = 没有“{ $typed }”这个座位。
guess-ai-opens = 🤖 哪些玩家是 AI？每位真人玩家都可以猜：`guess 2 5`（{ $seconds } 秒）。
ai-were = 🤖 AI 玩家是：{ $list }。
ai-score = 猜中 { $right }/{ $total }，猜错 { $wrong }
ai-guess-in = 你的猜测已记下。
ai-guesses-count = { $guessed }/{ $humans } 人已猜。
stock-speech = { $n ->
    [0] 我在认真听，先让大家都说说再投票。
    [1] 现在还不能确定。注意谁最急着放逐别人。
    [2] 我没有针对任何人的证据，会投给理由最充分的一方。
   *[other] 投票前先看看大家昨天是怎么投的。
 }
stock-pack = 我们低调一点，统一投票。
