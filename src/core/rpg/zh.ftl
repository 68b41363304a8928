# 传说角色扮演：所有固定句子（中文）。消息名与变量须与 en.ftl 一致。

title = 传说角色扮演
gm = 主持人

## 开场与状态

opening =
    📜 **{ $world }** · 传说角色扮演
    { $premise }

    { $opening }

    本帖里的每条消息都是你的行动。请遵守这个世界的设定：违背设定的行动会输掉这一回合；抓到主持人说错设定，你就赢下这一回合。可以交谈的人物：{ $npcs }。
status =
    📜 { $world } · 第 { $turn } 回合
    当前场景：{ $scene }
    已结识：{ $met }
    可以交谈的人物：{ $npcs }
nobody = 暂无

## 主持人正在做的事（回合进行中显示）

step-retrieving = 正在查阅与你的行动相关的设定
step-validating = 正在对照设定核验你的行动
step-planning = 正在安排场景
step-persona = 正在提取{ $name }的人物设定
step-npc = { $name }正在回应
step-narrating = 主持人正在描述场景
step-disqualifying = 你的行动违背了设定：正在写裁定
step-checking = 正在对照设定核查回应
step-correcting = 回应违背了设定：正在写更正
step-summary = 正在整理前情提要

## 裁定

sources = _出处：{ $titles }_
disqualified = ✗ { $player } 输掉本回合：行动违背了设定（{ $reason }）。
corrected = ✓ { $player } 赢下本回合：回应违背了设定（{ $reason }），已更正。
suggestions = 不妨试试：{ $list }
stock-disqualify = 这个世界不会那样运转：{ $reason }
stock-correction = 更正一下——{ $title }：{ $first }
quiet-scene = 片刻过去，这个世界在等你下一步的行动。
npc-silent = { $name }看了你好一会儿，什么也没说。
withheld = 主持人沉默了：那句回应会泄露这个世界的秘密。
model-down = 主持人暂时无法回应，本回合没有发生。请再试一次你的行动。

## 拒绝

empty = 请说出你的行动（做什么，或对谁说什么）。
too-long = 一回合的行动太长了：最多 { $max } 个字。
no-such-npc = 这里没有叫「{ $name }」的人。可以交谈的人物：{ $npcs }。
over = 本局已结束。用 `/rpg start` 开新的一局。
only-host-ends = 只有房主或管理员可以结束本局。
everyone-plays = 这里不用入座：帖子里的每个人都能参与。直接说出你的行动即可。
not-a-verb = 传说角色扮演的指令：act、say <人物> <内容>、status、scores、recap、end。

## 得分与回顾

tally-line = { $name } · 赢 { $wins } · 输 { $losses } · 共 { $turns } 回合
scores-heading = 赢下的回合（主持人违背设定）与输掉的回合（行动违背设定）：
no-scores = 还没有人行动过。
recap-heading = 前情提要：
recap-recent = 最近：
nothing-yet = 故事还没有开始：从你的第一个行动开始。
secrets-heading = 主持人掌握的秘密：

## 结束，以及服务器自己的世界

ended = 📜 { $world } 的这一局结束了。
ended-idle = 本局闲置太久，已经结束。
world-taken = 已有内置世界叫「{ $id }」，请换一个 id。
world-refused =
    这个世界无法添加：
    { $problems }

# 提示词的固定层（种子 004）：谁在玩、见过谁、故事如何开始。
frozen-party = 队伍：{ $names }
frozen-met = 见过的人物：{ $names }
frozen-world = 世界：{ $premise }
frozen-hook = 故事的开端：{ $opening }
