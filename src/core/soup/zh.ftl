# 海龟汤：游戏对玩家说的所有固定句子（中文）。消息名与变量须与 en.ftl 一致。
# 固定句子由人写在这里而不是由模型生成，所以不会泄露汤底。

## 谜题、回答与推测

intro =
    🐢 { $title }（{ $difficulty ->
        [easy] 简单
        [medium] 中等
       *[hard] 困难
    }）

    { $surface }

    请提出可以用“是/不是”回答的问题，或直接说出你对真相的推测。你有 { $limit } 次提示机会。输入 /help 查看命令。
verdict-yes = 是
verdict-no = 不是
verdict-yes-and-no = 是也不是
verdict-irrelevant = 无关
verdict-meta = 这不是关于故事的是非题
repeat = （之前问过：答案相同）
guess-not-quite = 还不完全对。这次推测包含 { $stated } / { $facts } 个关键事实；目前共找到 { $found } / { $facts } 个。
solved =
    🎉 { $name } 解开了谜题！得分：{ $score }。

    完整故事：
    { $bottom }
hint = 💡 提示 { $n }/{ $limit }：{ $text }
chatter = （不计入：请提一个是非题，或用 /guess 说出推测）
unclear = 裁判没能理解这句话。请换成一个可以用“是/不是”回答的问题。
cant-tell = 这个我判断不了——换个问法吧（这次不计数）。
withheld = （主持人不便多说：这会泄露汤底）
model-down = 主持人的模型暂时没有响应。这条消息没有计入，请稍后再试。

## 拒绝

not-started = 游戏还没有开始。
already-started = 这里已经有一局游戏在进行。
game-over = 本局已结束（{ $phase }）。开始新的一局继续游戏吧。
no-hints-left = 提示已用完：本局最多 { $limit } 次。
input-empty = 消息是空的：请提一个是非题，或说出你的推测。
input-too-long = 消息太长了（{ $chars } 个字符，上限 { $max }）。请精简后再发。
not-in-this-game = 这个游戏里没有这一步。

## 结束

gave-up =
    你放弃了。真相是：
    { $bottom }
revealed =
    真相揭晓：
    { $bottom }
expired = 本局因长时间无人发言而结束。
phase-lobby = 未开始
phase-in-progress = 进行中
phase-solved = 已解开
phase-gave-up = 已放弃
phase-revealed = 已揭晓
phase-expired = 已过期

## 旁白关闭或失败时用的评语，每行一句，游戏轮流使用。

remarks-yes =
    好问题。
    方向对了。
    顺着这条线继续想。
remarks-no =
    换个角度试试。
    不是这个方向。
    再看看汤面。
remarks-yes-and-no =
    部分正确，要看怎么理解。
    一半对。
remarks-irrelevant =
    这和故事无关。
    这个不影响真相。
remarks-meta = 请问关于事情经过的问题，而不是答案的字面。
