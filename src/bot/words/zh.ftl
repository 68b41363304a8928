# 聊天机器人自己说的所有固定句子（中文）。消息名与变量须与 en.ftl 一致。
# 每条消息都会收到 `$platform`（`discord` 或 `slack`），下面的平台名词按它选择。

## 各平台对自己事物的叫法

platform = { $platform ->
        [discord] Discord
       *[slack] Slack
    }
scope = { $platform ->
        [discord] 服务器
       *[slack] 工作区
    }
this-scope = { $platform ->
        [discord] 本服务器
       *[slack] 本工作区
    }
# 管理员命令的写法。
admin-verb = { $platform ->
        [discord] /soup-admin{" "}
       *[slack] /soup admin{" "}
    }
place = { $platform ->
        [discord] 帖
       *[slack] 频道
    }
play-it = { $platform ->
        [discord] 继续玩，或在频道里另开一局
       *[slack] 请在它的讨论串里继续
    }
moderators = { $platform ->
        [discord] 管理员
       *[slack] 管理员
    }
a-moderator = { $platform ->
        [discord] 管理员
       *[slack] 管理员
    }
who-moderates = { $platform ->
        [discord] 管理员（拥有“管理帖子”权限或管理员身份组）
       *[slack] 本工作区的海龟汤管理员
    }

## 开始与查找游戏，以及入座游戏的大厅

no-game-here = 本{ place }没有进行中的游戏。用 `/soup start` 开一局吧。
already-running = 本{ place }已经有一局游戏在进行：{ play-it }。
wrong-channel = { this-scope }的游戏在 { $channel } 进行。
started-in = 🐢 { $title } 开始了：到 { $channel } 参与游戏。
no-puzzle-matches = 没有符合条件的谜题；用 `/soup puzzles` 查看列表。
unknown-puzzle = { $suggested ->
       *[no] 这里没有谜题 `{ $id }`；用 `/soup puzzles` 查看列表。
        [yes] 这里没有谜题 `{ $id }`。你是不是想找：{ $near }？
    }
near-separator = 、
unknown-verb = 我不认识 `/soup { $verb }`。用 `/soup help` 查看命令。
no-table-here = 本{ place }没有进行中的 /{ $group } 游戏。用 `/{ $group } start` 开一局吧。
lobby-open = 🎲 { $bold_group } 大厅已在 { $channel } 开放：用 `/{ $group } join` 入座。
dms-closed = 我无法私信你。请用 `/{ $group } { $verb }` 私下查看你的秘密。

## 拒绝与失败

slow-down = 慢一点！{ $seconds } 秒后可以再行动。
not-moderator = 只有{ who-moderates }可以这样做。
oops = 我这边出了点问题，这次不计数。请稍后再试。
database-away = 暂时无法访问游戏记录，这次没有执行。请稍后再发一次。
bad-option = 无法读取这个选项，请检查后重试。
guild-only = 海龟汤需要在{ scope }频道里玩，不能在私信里玩。
bad-model = 模型名只能包含字母、数字和 `:._/-`，最长 100 个字符。

## 进行中的游戏及其结束

thinking = _思考中…_
button-join = 加入
button-leave = 离开
button-begin = 开始
game-over = 游戏结束
key-facts = 关键事实
found-by = 由 { $name } 找到
not-found = 未找到
scores = 得分
no-points = 这局没有人得分。
transcript-attached = 完整记录见附件。
last-turns = 记录（最后几轮）
transcript-of = { $title } 的完整记录。
no-transcript-yet = { $running ->
        [yes] 这个{ place }的游戏还在进行，结束后才能取得记录。
       *[no] 这个{ place }还没有结束过的游戏。
    }
full-text-attached = （完整内容见附件。）
cut = （其余内容太长，已截断）
ended-by-moderator = { a-moderator }结束了这局游戏。

## 管理员命令

done = 完成。
config-set = 完成：{ $what } 现在是 { $value }。
puzzle-added = 已添加 `{ $id }`（{ $title }），仅在{ this-scope }启用。
puzzle-invalid =
    这个谜题有问题：
    { $problems }
puzzle-exists = 谜题 `{ $id }` 已存在；请先删除它或换一个 id。
puzzle-unreadable = 请附上不超过 64 KiB 的 UTF-8 TOML 谜题文件。
file-unreadable = 请附上不超过 { $max_kib } KiB 的 UTF-8 TOML 文件。
puzzle-removed = 已删除 `{ $id }`。
not-custom = `{ $id }` 不是{ this-scope }的自定义谜题。
puzzle-enabled = `{ $id }` 已在这里启用。
puzzle-disabled = `{ $id }` 已在这里停用。
next-puzzle = 本频道下一局将使用 `{ $id }`。
content-added = 已添加 `{ $id }`：{ $shown }。仅在{ this-scope }使用。
content-exists = `{ $id }` 已经在这里了。
content-removed = 已删除 `{ $id }`。
no-such-content = 这里没有 `{ $id }`；用 `/{ $group } pairs list` 查看{ this-scope }添加的内容。
no-content = { this-scope }还没有添加内容：用 `/{ $group } pairs add` 添加词对。
content-heading = /{ $group }：{ this-scope }添加的内容
known-added = 已为 `{ $puzzle }` 保存 `{ $id }`（从现在起{ this-scope }新开的这道题都这样回答）：{ $shown }
known-refused =
    未保存：谜题检查不接受它。
    { $reasons }
known-bad-question = 问题须为 1 到 300 个字符。
known-bad-verdict = 判定须为 YES、NO、YES AND NO 或 IRRELEVANT（也可写 是、不是、是也不是、无关）。
known-which = 请写明谜题和问题，或在提出该问题的游戏{ place }里运行此命令（会取那里最后回答的问题）。
known-none = { this-scope }还没有更正过的回答：用 `{ admin-verb }known add` 保存一条。
known-heading = { this-scope }更正过的回答
known-no-such = 这里没有 `{ $id }`；用 `{ admin-verb }known list` 查看{ this-scope }更正过的回答。

## 列表的标题与标记、玩家战绩，以及忘记玩家

players = 玩家
leaderboard = { $global ->
        [yes] 🏆 排行榜 · 全部
       *[no] 🏆 排行榜 · { this-scope }
    }
soup-stats = { $name }：{ this-scope }打完 { $games } 局，解开 { $solves } 局（{ $percent }%）· 每次解开平均 { $per_solve } 个问题 · 找到 { $facts } 个关键事实 · 用了 { $hints } 次提示 · 最常玩：{ $favourite }
no-stats = { $name } { this-scope }还没有打完的海龟汤。
forget-confirm = 这会抹去我对你的所有记忆（过去的对局、你的档案），并让你在各处的战绩和排行榜积分从零开始，无法撤销。按下按钮确认。
forget-button = 忘记我
forgotten = 完成：抹去了 { $count } 条记忆，你的战绩从零开始。
no-scores = 还没有得分记录：解开一道题就能上榜。
puzzles = 谜题
custom = 自定义
disabled = 已停用
other-games = 其他游戏
